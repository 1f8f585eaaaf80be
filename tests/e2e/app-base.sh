#!/usr/bin/env bash
# The server on the base kernel (splice built in): sendfile moves the bodies.
set -u
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/lib-qemu.sh"
. "$TOP/tests/e2e/app-lib.sh"
app_e2e base
