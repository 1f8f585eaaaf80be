#!/usr/bin/env bash
# The server on the 6.12 tiny board (images/tiny-6.12, make board LINUX=6.12):
# the same cases as tests/e2e/app-tiny.sh on the v3 series.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/lib/app-board.sh"
app_e2e tiny-6.12
