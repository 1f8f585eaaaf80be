#!/usr/bin/env bash
# timeout: 1500
# The server on the base kernel (splice built in): sendfile moves the bodies.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/lib/app-board.sh"
app_e2e base
