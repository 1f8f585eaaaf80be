#!/usr/bin/env bash
# The server on the 6.12 tiny board (images/tiny-6.12, make board LINUX=6.12):
# the same cases as tests/e2e/app-tiny.sh on the v3 series. In make test (the
# product's kernel on the kernel where the series lives); make test-6.12 runs
# it too, with the base and flash boards' tests in tests/linux-6.12/.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/lib/app-board.sh"
app_e2e tiny-6.12
