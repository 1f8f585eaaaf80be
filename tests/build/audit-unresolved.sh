#!/usr/bin/env bash
# No fragment from an incomplete picture (issue 21):
#   - tests/host/audit/setuid.c, a program that only calls setuid(), built
#     static for ARM with musl (-O2 ARM, -Os Thumb-2): musl's setuid() passes
#     SYS_setuid32 through __setxid() -> __synccall(do_setxid, &ctx), and
#     do_setxid loads it with `ldm r0, {r0, r1, r2, r7}`. The audit resolves
#     it through memory to 213, and against a config with MULTIUSER=y its
#     fragment keeps MULTIUSER on;
#   - tests/host/audit/svc-cases.S has a site no analysis resolves
#     (`ldr r7, [r0]` on a pointer from nowhere): the audit fails closed, no
#     option goes into the fragment and each one kept on names the site;
#     AUDIT_ACCEPT_UNRESOLVED=1 accepts the risk, and the fragment says so;
#   - tests/host/audit/strex.S sets r7 to 20, then `strex r7, ...` writes its
#     status there: the site is not getpid, it is unresolved;
#   - tests/host/audit/setxid.c (setgid, then setuid; -O2 ARM, -Os Thumb-2):
#     --all-sites resolves do_setxid's number through memory as the
#     reachable mode does (setgid32 and setuid32; it lost both, issue 39).
. "$(dirname "$0")/../lib/common.sh"
echo "1..11"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/audit-unresolved.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
audit=$TOP/scripts/audit/syscalls.py
report=$TOP/scripts/audit/report.py
specs=/usr/lib/arm-linux-musleabi/musl-gcc.specs
KTREE=${KTREE:-$TOP/build/linux-6.1}
CONFIG=${CONFIG:-$TOP/build/kernel-tiny/.config}
pyq() { python3 -c "import json,sys; d=json.load(open('$1')); sys.exit(0 if ($2) else 1)"; }

built=0
for b in "O2 -O2 -marm" "Os -Os -mthumb"; do
	set -- $b
	arm-linux-gnueabi-gcc -specs="$specs" -static -std=c11 -D_GNU_SOURCE -Wall -Wextra \
		-Werror "$2" "$3" -o "$tmp/setuid-$1" "$TOP/tests/host/audit/setuid.c" &&
		python3 "$audit" --ktree "$KTREE" --json "$tmp/setuid-$1" >"$tmp/setuid-$1.json" &&
		built=$((built + 1))
	python3 "$audit" --ktree "$KTREE" "$tmp/setuid-$1" | grep -E 'memory|UNRESOLVED'
done
arm-linux-gnueabi-gcc -march=armv7-a -nostdlib -static -o "$tmp/svc-cases" \
	"$TOP/tests/host/audit/svc-cases.S" &&
	python3 "$audit" --ktree "$KTREE" --json "$tmp/svc-cases" >"$tmp/cases.json" &&
	built=$((built + 1))
check "unresolved: setuid.c built -O2 ARM and -Os Thumb-2, svc-cases.S, all audited ($built of 3)" \
	[ "$built" -eq 3 ]

for b in O2 Os; do
	check "unresolved: setuid ($b): do_setxid's svc resolved through __synccall's context to setuid32 (213)" \
		pyq "$tmp/setuid-$b.json" "not d['unresolved'] and [s['numbers'] for s in d['sites'] if s['func'] == 'do_setxid' and s.get('through_memory')] == [[213]] and 'setuid32' in {s['name'] for s in d['syscalls']}"
done

# The option map, against the tiny config with MULTIUSER on.
kmap_ok=0
if [ -f "$KTREE/kernel/sys_ni.c" ] && [ -f "$CONFIG" ]; then
	{ cat "$CONFIG"; echo CONFIG_MULTIUSER=y; } >"$tmp/mu.config"
	python3 "$TOP/scripts/audit/kmap.py" "$KTREE" --config "$tmp/mu.config" >"$tmp/kmap.json" &&
		kmap_ok=1
fi
frags=1
for b in O2 Os; do
	python3 "$report" "$tmp/kmap.json" "$tmp/setuid-$b.json" "$tmp/setuid-$b.frag" \
		>"$tmp/setuid-$b.report" || frags=0
	grep -q 'CONFIG_MULTIUSER (on): setuid32' "$tmp/setuid-$b.report" || frags=0
	grep -q 'CONFIG_MULTIUSER' "$tmp/setuid-$b.frag" && frags=0
done
grep MULTIUSER "$tmp"/setuid-*.report "$tmp"/setuid-*.frag
check "unresolved: MULTIUSER=y config: setuid's fragment keeps MULTIUSER on (-O2 and -Os)" \
	[ "$kmap_ok" -eq 1 -a "$frags" -eq 1 ]

python3 "$report" "$tmp/kmap.json" "$tmp/cases.json" "$tmp/cases.frag" >"$tmp/cases.report"
sed -n '/FAIL CLOSED/,/^$/p' "$tmp/cases.report" | head -n 5
cat "$tmp/cases.frag"
check "unresolved: svc-cases: the report says FAIL CLOSED and names the site in 'unknown'" \
	grep -Eq 'FAIL CLOSED: 1 svc site' "$tmp/cases.report"
check "unresolved: svc-cases: no option set to n in the fragment" \
	bash -c "[ -s '$tmp/cases.frag' ] && ! grep -q '^# CONFIG_.* is not set' '$tmp/cases.frag'"
check "unresolved: svc-cases: CROSS_MEMORY_ATTACH kept on, the site named beside it" \
	grep -Eq '^# kept on: CONFIG_CROSS_MEMORY_ATTACH \(svc at 0x[0-9a-f]+ in unknown' "$tmp/cases.frag"
AUDIT_ACCEPT_UNRESOLVED=1 python3 "$report" "$tmp/kmap.json" "$tmp/cases.json" \
	"$tmp/accept.frag" >"$tmp/accept.report"
check "unresolved: AUDIT_ACCEPT_UNRESOLVED=1: CROSS_MEMORY_ATTACH=n again, and the fragment names the site" \
	bash -c "grep -qx '# CONFIG_CROSS_MEMORY_ATTACH is not set' '$tmp/accept.frag' &&
		grep -q '^# AUDIT_ACCEPT_UNRESOLVED=1: .*in unknown' '$tmp/accept.frag'"

if arm-linux-gnueabi-gcc -march=armv7-a -nostdlib -static -o "$tmp/strex" \
	"$TOP/tests/host/audit/strex.S" &&
	python3 "$audit" --ktree "$KTREE" --json "$tmp/strex" >"$tmp/strex.json"; then
	check "unresolved: strex.S: the svc after 'strex r7, r1, [r0]' is unresolved, not getpid" \
		pyq "$tmp/strex.json" "[s['func'] for s in d['unresolved']] == ['status'] and 20 not in [s['nr'] for s in d['syscalls']]"
else
	not_ok "unresolved: strex.S: the svc after 'strex r7, r1, [r0]' is unresolved, not getpid (not built)"
fi

# --all-sites follows numbers through memory too (issue 39: it lost setuid32
# and setgid32 for darkhttpd and nginx): the callback's callers are found
# from the same tables reachability uses, over every function.
xid=0
for b in "O2 -O2 -marm" "Os -Os -mthumb"; do
	set -- $b
	arm-linux-gnueabi-gcc -specs="$specs" -static -std=c11 -D_GNU_SOURCE -Wall -Wextra \
		-Werror "$2" "$3" -o "$tmp/setxid-$1" "$TOP/tests/host/audit/setxid.c" &&
		python3 "$audit" --ktree "$KTREE" --names "$tmp/setxid-$1" >"$tmp/setxid-$1.names" &&
		python3 "$audit" --ktree "$KTREE" --all-sites --names "$tmp/setxid-$1" >"$tmp/setxid-$1.all" &&
		python3 "$audit" --ktree "$KTREE" --all-sites --json "$tmp/setxid-$1" >"$tmp/setxid-$1.json" &&
		xid=$((xid + 1))
	echo "# setxid ($1): all-sites less reachable: $(LC_ALL=C comm -23 <(sort "$tmp/setxid-$1.names") <(sort "$tmp/setxid-$1.all") | paste -sd' ')"
done
all_ok=1
for b in O2 Os; do
	grep -qx setuid32 "$tmp/setxid-$b.all" && grep -qx setgid32 "$tmp/setxid-$b.all" || all_ok=0
	[ -z "$(LC_ALL=C comm -23 <(sort "$tmp/setxid-$b.names") <(sort "$tmp/setxid-$b.all"))" ] || all_ok=0
done
check "unresolved: setxid (-O2, -Os): --all-sites --names has setuid32, setgid32 and every reachable name ($xid of 2 built)" \
	[ "$xid" -eq 2 -a "$all_ok" -eq 1 ]
check "unresolved: setxid (-O2, -Os): --all-sites resolves do_setxid's svc through memory to 213 and 214" \
	bash -c "for b in O2 Os; do python3 -c \"import json,sys; d=json.load(open('$tmp/setxid-\$b.json')); sys.exit(0 if [s['numbers'] for s in d['sites'] if s['func'] == 'do_setxid' and s.get('through_memory')] == [[213, 214]] and not d['unresolved'] else 1)\" || exit 1; done"
