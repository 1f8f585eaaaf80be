#!/usr/bin/env bash
# Constant arguments in the audit's pruning (scripts/audit/audit_flow.py, Prune:
# seeds): a function entered only by direct calls that all pass the same
# constant starts its pass with it, and the branch the constant rules out is
# dead. tests/host/audit/constarg.c, built -O2 ARM and -Os Thumb-2, three
# ways:
#   plain   act(1) twice: act's getppid branch is dead, getppid pruned;
#   VARIED  act(1) and act(argc): kept (or the site fails closed);
#   TAKEN   act(1) and, through a pointer, act(2): the direct calls are not
#           all the calls: kept (or the site fails closed).
# Each runs under qemu-arm -strace with one argument; every syscall it makes
# must be in its pruned static set (recall), unless the report fails closed.
. "$(dirname "$0")/../lib/common.sh"
echo "1..5"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/audit-constarg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
audit=$TOP/scripts/audit/syscalls.py
specs=/usr/lib/arm-linux-musleabi/musl-gcc.specs
KTREE=${KTREE:-$TOP/build/linux-6.1}
CONFIG=${CONFIG:-$TOP/build/kernel-tiny/.config}

built=0
python3 "$TOP/scripts/audit/kmap.py" "$KTREE" --config "$CONFIG" >"$tmp/kmap.json" || true
for v in plain VARIED TAKEN; do
	def=
	[ "$v" = plain ] || def=-D$v
	for b in "O2 -O2 -marm" "Os -Os -mthumb"; do
		set -- $b
		out=$tmp/$v-$1
		# shellcheck disable=SC2086 # $def is empty or one word
		arm-linux-gnueabi-gcc -specs="$specs" -static -std=c11 -D_GNU_SOURCE \
			-Wall -Wextra -Werror $def "$2" "$3" -o "$out" "$TOP/tests/host/audit/constarg.c" &&
			python3 "$audit" --ktree "$KTREE" --kmap "$tmp/kmap.json" --json "$out" >"$out.json" &&
			built=$((built + 1))
		qemu-arm -strace "$out" x 2>&1 | sed -n 's/^[0-9]* \([a-z_0-9]*\)(.*/\1/p' | sort -u >"$out.trace"
	done
done
check "constarg: plain, VARIED and TAKEN built -O2 ARM and -Os Thumb-2 and audited ($built of 6)" \
	[ "$built" -eq 6 ]

# pyq FILE EXPR: EXPR holds for the report in FILE (n: its syscall names,
# p: its pruning record, unres: its unresolved sites).
pyq() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
n, p, unres = {s["name"] for s in d["syscalls"]}, d["pruning"], d["unresolved"]
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2" 2>/dev/null
}
all_ok() {
	local v=$1 expr=$2 b
	for b in O2 Os; do pyq "$tmp/$v-$b.json" "$expr" || { echo "  $v-$b: no"; return 1; }; done
}
check "constarg: plain: getppid pruned, the reason names the constant at act's entry" \
	all_ok plain "'getppid' not in n and 'sched_yield' in n and any('r0=0x1 at the entry of act' in w for ws in p['why'].values() for w in ws)"
check "constarg: VARIED: getppid kept (or the site fails closed), never pruned" \
	all_ok VARIED "('getppid' in n or unres) and 'getppid' not in p['pruned']"
check "constarg: TAKEN: act's address is taken: getppid kept (or the site fails closed), never pruned" \
	all_ok TAKEN "('getppid' in n or unres) and 'getppid' not in p['pruned']"
recall=1
for v in plain VARIED TAKEN; do
	for b in O2 Os; do
		f=$tmp/$v-$b
		grep -qx sched_yield "$f.trace" || { echo "  $v-$b: no trace"; recall=0; }
		for s in $(cat "$f.trace"); do
			pyq "$f.json" "'$s' in n or unres" || { echo "  $v-$b: $s made, not in the pruned set"; recall=0; }
		done
		echo "  $v-$b made: $(tr '\n' ' ' <"$f.trace")"
	done
done
check "constarg: recall: every syscall each build makes (qemu-arm -strace) is in its pruned set, or it fails closed" \
	[ "$recall" -eq 1 ]
