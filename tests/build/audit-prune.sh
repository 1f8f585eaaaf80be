#!/usr/bin/env bash
# Precision from the target kernel (scripts/audit/audit_flow.py's Prune, through
# audit-syscalls.py --kmap): in init, musl's ENOSYS fallbacks after
# clock_gettime64 (clock_gettime, gettimeofday) and statx (stat64, lstat64,
# fstat64, fstatat64) are dead when the tiny config has the primary, and
# _Exit's exit after exit_group is dead always. Constant arguments (the
# seeds of tests/host/audit-constarg.sh) close accept4's flg == 0 call of
# accept: init passes SOCK_NONBLOCK|SOCK_CLOEXEC at its only call (accept
# itself stays: accept4 also calls it on EINVAL). The same binary against
# a map where clock_gettime64 and statx are off keeps every ENOSYS fallback.
# (init no longer calls nanosleep(), so musl's __clock_nanosleep, whose
# clock_nanosleep branch the constants used to close, is not linked.)
. "$(dirname "$0")/../lib/common.sh"
echo "1..5"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/audit-prune.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
KTREE=${KTREE:-$TOP/build/linux-6.1}
CONFIG=${CONFIG:-$TOP/build/kernel-tiny/.config}
init=$TOP/build/app/arm/init.unstripped
audit=$TOP/scripts/audit/syscalls.py
pyq() { python3 -c "import json,sys; d=json.load(open('$1')); p=d['pruning']; sys.exit(0 if ($2) else 1)"; }

python3 "$TOP/scripts/audit/kmap.py" "$KTREE" --config "$CONFIG" >"$tmp/kmap.json" &&
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for n in ("clock_gettime64", "statx"):
    d["syscalls"][n]["enabled"] = False
json.dump(d, open(sys.argv[2], "w"))' "$tmp/kmap.json" "$tmp/off.json" &&
	python3 "$audit" --ktree "$KTREE" --kmap "$tmp/kmap.json" --json "$init" >"$tmp/tiny.json" &&
	python3 "$audit" --ktree "$KTREE" --kmap "$tmp/off.json" --json "$init" >"$tmp/off.json.out"
check "prune: init audited with the tiny map and with clock_gettime64/statx off" \
	test -s "$tmp/tiny.json" -a -s "$tmp/off.json.out"
python3 "$audit" --ktree "$KTREE" --kmap "$tmp/kmap.json" "$init" | grep -A4 'pruned for'
check "prune: tiny: exactly clock_gettime exit fstat64 fstatat64 gettimeofday lstat64 stat64 pruned" \
	pyq "$tmp/tiny.json" "sorted(p['pruned']) == ['clock_gettime', 'exit', 'fstat64', 'fstatat64', 'gettimeofday', 'lstat64', 'stat64']"
check "prune: tiny: the reasons name clock_gettime64, statx and exit_group" \
	pyq "$tmp/tiny.json" "'clock_gettime64 answered ENOSYS' in str(p['why']['__clock_gettime']) and 'statx answered ENOSYS' in str(p['why']['__fstatat_time64']) and 'exit_group does not return' in str(p['why']['_Exit'])"
check "prune: constants: accept4's flg == 0 call of accept is dead, and says why" \
	pyq "$tmp/tiny.json" "'r3=0x80800 at the entry of accept4' in str(p['why'].get('accept4'))"
check "prune: clock_gettime64 and statx off: only exit pruned, every ENOSYS fallback kept" \
	pyq "$tmp/off.json.out" "sorted(p['pruned']) == ['exit']"
