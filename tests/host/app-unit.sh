#!/usr/bin/env bash
# Unit tests of the server's parser, paths, ranges and transfer loop.
# timeout: 300
# Each program's exit status is a case of its own: a crash (a segfault in
# range_resolve, say) loses the program's buffered lines, and the plan and
# the status both make that a failure.
set -u
. "$(dirname "$0")/../lib/common.sh"
# app_unit.c: 48 cases, app_xfer_test.c: 28 cases, + one status case each.
echo 1..78
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build host tests"; exit 1; }
for prog in unit xfer_test; do
	"$TOP/build/app/test/$prog"
	rc=$?
	check "app: $prog exits 0 (got $rc)" [ "$rc" -eq 0 ]
done
