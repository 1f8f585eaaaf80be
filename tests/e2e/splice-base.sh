#!/usr/bin/env bash
# The base kernel (CONFIG_SYSCALL_SPLICE=y) in QEMU with the splice probe as
# /init: splice, vmsplice, tee, sendfile, sendfile64 and copy_file_range each
# move exactly the expected bytes; the kernel's splice selftests pass.
# Needs images/base (make board) and build/probe/probe.uInitrd (make probe-initramfs).
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/probe/expect.sh"
splice_probe_run base
