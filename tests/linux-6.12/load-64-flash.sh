#!/usr/bin/env bash
# timeout: 1500
# The flash board under load (images/tiny-flash-6.12, make flash-board): at
# the smallest RAM it claims (tests/e2e/min-ram.env, MIN_RAM_K_FLASH, below
# the 5.5 MiB of issue 25's target), 64 clients fetch test.bin at once from
# the romfs on the flash, through a page cache the kernel must keep
# reclaiming; then, at -m 8M, 8 clients that never read hold their slots
# while 64 others fetch. Every body whole, no panic, no OOM, a clean
# power-off.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/e2e/min-ram.env"
echo "1..10"
# shellcheck source=tests/lib/load-64.sh
. "$TOP/tests/lib/load-64.sh"
(run tiny-flash-6.12 "${MIN_RAM_K_FLASH}K" load64-flash-min 0)
(run tiny-flash-6.12 8 load64-flash-8M-stalled 8)
