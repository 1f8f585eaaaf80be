#!/usr/bin/env bash
# Load never panics the kernel: each board at the smallest RAM measure-ram
# reports (tests/e2e/min-ram.env), 64 clients fetch test.bin at once; every
# one gets the whole body with the right sha256, the console shows no panic,
# the board serves on afterwards and powers off cleanly. Then, at -m 8M,
# 8 clients that send a request and never read hold their slots while 64
# others fetch: the 64 still get every byte and the kernel does not panic.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/e2e/min-ram.env"
echo "1..20"
# shellcheck source=tests/lib/load-64.sh
. "$TOP/tests/lib/load-64.sh"

# Each board in a subshell of its own: nothing of one boot (QEMU, FIFO,
# port, variables) reaches the next.
(run tiny "${MIN_RAM_K_TINY}K" load64-tiny-min 0)
(run base "${MIN_RAM_K_BASE}K" load64-base-min 0)
(run tiny 8 load64-tiny-8M-stalled 8)
(run base 8 load64-base-8M-stalled 8)
