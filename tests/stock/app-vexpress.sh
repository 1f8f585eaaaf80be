#!/usr/bin/env bash
# The server on the stock vexpress_defconfig kernel (splice built in): the
# app's e2e checks, as on base.
# timeout: 1200
set -u
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/lib-qemu.sh"
. "$TOP/tests/e2e/app-lib.sh"
app_e2e vexpress
