#!/usr/bin/env bash
# Condition codes in the syscall-number search (issue 39, item 6): a
# conditional write to r7 that the flags on the path decide runs, or not,
# for sure; undecided, it may run, and the site keeps both values.
#   - tests/host/audit/cond-cases.S: musl's __pthread_cond_timedwait -O3
#     pattern (mov r7, #240; svc; cmn r0, #38; addne r7, sp, #36; bne; svc:
#     the second svc is 240, not unresolved), a taken bne (movne ran: 41
#     only), a compare between the movne and the bne (both 20 and 41), an
#     undecided moveq (both), and an undecided ldrne (unresolved, 20 kept);
#   - tests/host/audit/condwait.c built static with musl: every svc site of
#     musl's __pthread_cond_timedwait resolved, futex among the syscalls,
#     and qemu-arm runs it (ETIMEDOUT).
. "$(dirname "$0")/../lib/common.sh"
echo "1..7"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/audit-cond.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
audit=$TOP/scripts/audit/syscalls.py
KTREE=${KTREE:-$TOP/build/linux-6.1}
pyq() { python3 -c "import json,sys; d=json.load(open('$1')); sys.exit(0 if ($2) else 1)"; }
# site FUNC: the numbers of the last svc site in FUNC, and whether unresolved
site() { echo "[(s['numbers'], bool(s['unresolved'])) for s in d['sites'] if s['func'] == '$1'][-1]"; }

if arm-linux-gnueabi-gcc -march=armv7-a -nostdlib -static -o "$tmp/cond-cases" \
	"$TOP/tests/host/audit/cond-cases.S" &&
	python3 "$audit" --ktree "$KTREE" --json "$tmp/cond-cases" >"$tmp/cases.json"; then
	python3 "$audit" --ktree "$KTREE" "$tmp/cond-cases"
	j=$tmp/cases.json
	check "cond: musl_cond: the svc on the ENOSYS path (bne not taken, addne did not run) is futex (240), resolved" \
		pyq "$j" "$(site musl_cond) == ([240], False)"
	check "cond: taken: bne taken, so movne ran: dup (41) only" \
		pyq "$j" "$(site taken) == ([41], False)"
	check "cond: reset: a compare between movne and bne: both 20 and 41" \
		pyq "$j" "$(site reset) == ([20, 41], False)"
	check "cond: undecided: moveq may run: both 20 and 54" \
		pyq "$j" "$(site undecided) == ([20, 54], False)"
	check "cond: unknown_cond: ldrne may run and loads an unknown: unresolved, 20 kept" \
		pyq "$j" "$(site unknown_cond) == ([20], True)"
else
	for c in musl_cond taken reset undecided unknown_cond; do not_ok "cond: $c (not built)"; done
fi

specs=/usr/lib/arm-linux-musleabi/musl-gcc.specs
cw=$tmp/condwait
if arm-linux-gnueabi-gcc -specs="$specs" -static -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror \
	-O2 -o "$cw" "$TOP/tests/host/audit/condwait.c" &&
	python3 "$audit" --ktree "$KTREE" --json "$cw" >"$tmp/cw.json"; then
	python3 "$audit" --ktree "$KTREE" "$cw" | grep -E '^  (syscalls|UNRESOLVED)'
	check "cond: condwait: every svc site of musl's __pthread_cond_timedwait resolved, futex among them" \
		pyq "$tmp/cw.json" "not [s for s in d['unresolved'] if s['func'] == '__pthread_cond_timedwait'] and 240 in {n for s in d['sites'] if s['func'] == '__pthread_cond_timedwait' for n in s['numbers']}"
	check "cond: condwait: runs under qemu-arm (ETIMEDOUT: status 0)" qemu-arm "$cw"
else
	not_ok "cond: condwait: built and audited"
	not_ok "cond: condwait: runs under qemu-arm"
fi
