#!/usr/bin/env bash
# timeout: 1500
# The server on the tiny kernel (sendfile compiled out): same bytes via the
# read/write fallback, one ENOSYS line on the console.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/lib/app-board.sh"
app_e2e tiny
