#!/usr/bin/env bash
# Reachability in the static syscall audit (scripts/audit/syscalls.py), on a
# hand-written ELF (tests/host/audit/reach-cases.S): only svc sites in
# functions reachable from the entry point count; a function called through
# a pointer in a data object that reachable code references (also through a
# second object), and one in .init_array, are reachable; a function nothing
# calls, and one whose only pointer is in an unreferenced object, are not.
# --all-sites counts every site.
. "$(dirname "$0")/../lib/common.sh"
echo "1..8"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/audit-reach.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
audit=$TOP/scripts/audit/syscalls.py
elf=$tmp/reach-cases
pyq() { python3 -c "import json,sys; d=json.load(open('$1')); sys.exit(0 if ($2) else 1)"; }

if arm-linux-gnueabi-gcc -march=armv7-a -nostdlib -static -o "$elf" \
	"$TOP/tests/host/audit/reach-cases.S" && "$audit" --json "$elf" >"$tmp/reach.json" &&
	"$audit" --all-sites --json "$elf" >"$tmp/all.json"; then
	ok "reach: reach-cases.S assembles and is audited, reachable and --all-sites"
else
	not_ok "reach: reach-cases.S assembles and is audited, reachable and --all-sites"
fi
"$audit" "$elf" || true
nrs="sorted(s['nr'] for s in d['syscalls'])"
how="{s['name']: s['reached'] for s in d['syscalls']}"

# exit getpid dup ioctl fcntl
check "reach: exactly exit, getpid, dup (pointer), ioctl (.init_array), fcntl (nested pointer)" \
	pyq "$tmp/reach.json" "$nrs == [1, 20, 41, 54, 55]"
check "reach: mkdir (dead_fn) and close (dead_ptr_fn) not counted, their sites listed" \
	pyq "$tmp/reach.json" "sorted(s['func'] for s in d['reachability']['unreachable_sites']) == ['dead_fn', 'dead_ptr_fn']"
check "reach: --all-sites counts all seven, mkdir and close too" \
	pyq "$tmp/all.json" "$nrs == [1, 6, 20, 39, 41, 54, 55] and d['reachability']['mode'] == 'all-sites'"
check "reach: exit and getpid reached directly; dup, fcntl, ioctl only indirectly" \
	pyq "$tmp/reach.json" "$how == {'exit': 'direct', 'getpid': 'direct', 'dup': 'indirect', 'fcntl': 'indirect', 'ioctl': 'indirect'}"
check "reach: ioctl's path starts at its .init_array word" \
	pyq "$tmp/reach.json" "[p['via'] for s in d['syscalls'] if s['name'] == 'ioctl' for p in s['path']][0].endswith('in .init_array')"
check "reach: the path to fcntl goes through ops_table and inner_table" \
	pyq "$tmp/reach.json" "[p['func'] for s in d['syscalls'] if s['name'] == 'fcntl' for p in s['path']] == ['_start', 'ops_table', 'inner_table', 'via_nested']"
check "reach: --names is the reachable set" \
	bash -c "[ \"\$('$audit' --names '$elf' | paste -sd' ')\" = 'dup exit fcntl getpid ioctl' ]"
