#!/usr/bin/env bash
# The tiny kernel (CONFIG_SYSCALL_SPLICE=n) in QEMU with the splice probe as
# /init: splice, vmsplice, tee, sendfile and sendfile64 answer ENOSYS and move
# nothing; copy_file_range still copies; the kernel's splice selftests report
# ENOSYS cleanly. Needs images/tiny (make board) and build/probe/probe.uInitrd.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/probe/expect.sh"
splice_probe_run tiny
