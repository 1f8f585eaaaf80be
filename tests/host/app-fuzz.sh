#!/usr/bin/env bash
# The request parser's fuzz target (make fuzz) in make test, briefly
# (FUZZ_TIME, default 30 s), so the harness cannot rot: it builds, runs
# with no crash, leak, sanitizer report or invariant abort, and really
# executes inputs. A finding is kept in build/app/fuzz/artifacts/.
# timeout: 600
set -u
. "$(dirname "$0")/../lib/common.sh"
echo 1..3
log=$TOP/build/logs/tests/app-fuzz-run.log
if make -s -C "$TOP" -f mk/app.mk fuzz-build >"$log" 2>&1; then
	ok "app: fuzz: the libFuzzer target builds (clang, ASan, UBSan)"
else
	not_ok "app: fuzz: the libFuzzer target builds (clang, ASan, UBSan)"
	tail -n 20 "$log"
	exit 1
fi
secs=${FUZZ_TIME:-30}
make -s -C "$TOP" -f mk/app.mk fuzz FUZZ_TIME="$secs" >"$log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\)$/\1/p' "$log")
grep -E '^(Done|stat::)|ERROR|SUMMARY|artifact' "$log" | sed 's/^/# /'
check "app: fuzz: $secs s on the parser, path cleaner and ranges, nothing found (exit $rc)" [ "$rc" -eq 0 ]
check "app: fuzz: inputs really executed (${runs:-none})" [ "${runs:-0}" -gt 1000 ]
[ "$rc" -eq 0 ] || tail -n 30 "$log"
