#!/usr/bin/env bash
# The splice probe on the 6.12 base board (images/base-6.12): the same cases as
# tests/e2e/splice-base.sh, so the v3 series shows the behaviour v2.1 shows.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/probe/expect.sh"
splice_probe_run base-6.12
