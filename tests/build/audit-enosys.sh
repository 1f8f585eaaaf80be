#!/usr/bin/env bash
# The splice-family ENOSYS verdict of the static audit follows the data
# (scripts/audit/audit_flow.py, issue 21): three small C programs
# (tests/host/audit/*.c), each built static for ARM with musl twice, -O2 ARM
# and -Os Thumb-2:
#   nofallback.c  darkhttpd's pattern: `return sendfile(...)`, the caller
#                 closes on any error but EAGAIN; a select loop beside it
#                 tests its own errno for ENOSYS -> "no fallback proven";
#   fallback.c    sendfile, and pread/write once errno is ENOSYS -> "fallback";
#   exitonly.c    errno tested for ENOSYS, but the branch only exits ->
#                 "no fallback proven";
#   einval.c      lighttpd's `errno != EINVAL && errno != ENOSYS`, which gcc
#                 folds into `sub r3, r3, #22; bics r3, r3, #16; bne`: the
#                 test is found (zero for errno 22 and 38), its branch leads
#                 to pread and write -> "fallback" (issue 39).
# The verdicts must not depend on the build. Audited against a config with
# SYSCALL_SPLICE=y, only fallback.c's fragment may turn it off.
. "$(dirname "$0")/../lib/common.sh"
echo "1..12"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/audit-enosys.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
audit=$TOP/scripts/audit/syscalls.py
src=$TOP/tests/host/audit
specs=/usr/lib/arm-linux-musleabi/musl-gcc.specs
KTREE=${KTREE:-$TOP/build/linux-6.1}
CONFIG=${CONFIG:-$TOP/build/kernel-tiny/.config}

built=0
for p in nofallback fallback exitonly einval; do
	for b in "O2 -O2 -marm" "Os -Os -mthumb"; do
		set -- $b
		arm-linux-gnueabi-gcc -specs="$specs" -static -std=c11 -D_GNU_SOURCE \
			-Wall -Wextra -Werror "$2" "$3" -o "$tmp/$p-$1" "$src/$p.c" &&
			python3 "$audit" --ktree "$KTREE" --json "$tmp/$p-$1" >"$tmp/$p-$1.json" &&
			built=$((built + 1))
		python3 "$audit" --ktree "$KTREE" "$tmp/$p-$1" | grep -A2 'splice family'
	done
done
check "enosys: 4 programs built -O2 ARM and -Os Thumb-2, and audited ($built of 8)" [ "$built" -eq 8 ]

# verdict FILE: the verdicts of every splice-family call, one line.
verdict() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(c["verdict"].replace(" ", "_") for s in d["splice_family"] for c in s["calls"]) or "none")' "$1" 2>/dev/null
}
pyq() { python3 -c "import json,sys; d=json.load(open('$1')); c=[c for s in d['splice_family'] for c in s['calls']]; sys.exit(0 if ($2) else 1)"; }

for b in O2 Os; do
	check "enosys: nofallback ($b): no fallback proven, sendfile's result never meets ENOSYS (the select loop's compare does not count)" \
		pyq "$tmp/nofallback-$b.json" "c and all(x['verdict'] == 'no fallback proven' and not x['compares'] and 'never reaches' in x['why'] for x in c)"
	check "enosys: fallback ($b): fallback; the compare (#38), its branch, and pread64 + write on the ENOSYS path" \
		pyq "$tmp/fallback-$b.json" "c and all(x['verdict'] == 'fallback' and all('#38' in k['insn'] and k['branch'].split()[0].startswith('b') and {'pread64', 'write'} <= set(k['leads_to']) for k in x['compares']) and x['compares'] for x in c)"
	check "enosys: exitonly ($b): the compare is found, but its branch only exits: no fallback proven" \
		pyq "$tmp/exitonly-$b.json" "c and all(x['verdict'] == 'no fallback proven' and x['compares'] and 'no other way' in x['why'] for x in c)"
	check "enosys: einval ($b): the folded EINVAL/ENOSYS test (bics, zero for errno 22 and 38) is found, pread64 + write on its branch: fallback" \
		pyq "$tmp/einval-$b.json" "c and all(x['verdict'] == 'fallback' and x['compares'] and all(k['insn'].startswith('bics') and k['zero_for'] == [22, 38] and {'pread64', 'write'} <= set(k['leads_to']) for k in x['compares']) for x in c)"
done
same=1
for p in nofallback fallback exitonly einval; do
	a=$(verdict "$tmp/$p-O2.json") b=$(verdict "$tmp/$p-Os.json")
	echo "$p: -O2 $a, -Os -mthumb $b"
	[ -n "$a" ] && [ "$a" = "$b" ] || same=0
done
check "enosys: each program gets the same verdicts -O2 ARM and -Os Thumb-2" [ "$same" -eq 1 ]

# The fragment, against the tiny config with the splice family on.
fragment_ok=0
if [ -f "$KTREE/kernel/sys_ni.c" ] && [ -f "$CONFIG" ]; then
	{ cat "$CONFIG"; echo CONFIG_SYSCALL_SPLICE=y; } >"$tmp/splice.config"
	python3 "$TOP/scripts/audit/kmap.py" "$KTREE" --config "$tmp/splice.config" >"$tmp/kmap.json" &&
		python3 "$TOP/scripts/audit/report.py" "$tmp/kmap.json" "$tmp/nofallback-Os.json" \
			"$tmp/nofallback.frag" >"$tmp/nofallback.report" &&
		python3 "$TOP/scripts/audit/report.py" "$tmp/kmap.json" "$tmp/fallback-Os.json" \
			"$tmp/fallback.frag" >"$tmp/fallback.report" && fragment_ok=1
	grep -A2 'splice family calls' "$tmp/nofallback.report" "$tmp/fallback.report"
fi
check "enosys: SYSCALL_SPLICE=y config: nofallback's fragment keeps SYSCALL_SPLICE on" \
	bash -c "[ $fragment_ok -eq 1 ] && ! grep -q SYSCALL_SPLICE '$tmp/nofallback.frag'"
check "enosys: SYSCALL_SPLICE=y config: fallback's fragment turns it off" \
	bash -c "[ $fragment_ok -eq 1 ] && grep -qx '# CONFIG_SYSCALL_SPLICE is not set' '$tmp/fallback.frag'"
