#!/usr/bin/env bash
# The splice probe on the 6.12 tiny board (images/tiny-6.12): the same cases as
# tests/e2e/splice-tiny.sh, so the v3 series shows the behaviour v2.1 shows.
# In make test, as app-tiny-6.12.sh is.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/probe/expect.sh"
splice_probe_run tiny-6.12
