#!/usr/bin/env bash
# The server on the tiny kernel (sendfile compiled out): same bytes via the
# read/write fallback, one ENOSYS line on the console.
set -u
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/lib-qemu.sh"
. "$TOP/tests/e2e/app-lib.sh"
app_e2e tiny
