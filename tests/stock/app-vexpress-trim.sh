#!/usr/bin/env bash
# The server on the stock kernel trimmed by the audit fragment (splice and the
# syscalls init never makes compiled out): the app's e2e checks, as on tiny.
# timeout: 1200
set -u
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/lib-qemu.sh"
. "$TOP/tests/e2e/app-lib.sh"
app_e2e vexpress-trim
