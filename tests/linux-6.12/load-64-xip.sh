#!/usr/bin/env bash
# timeout: 900
# The XIP board under load (images/tiny-xip-6.12, make xip-board): at the
# smallest RAM it claims plus 64 KiB (tests/e2e/min-ram.env, MIN_RAM_K_XIP),
# booted by U-Boot from the flash, 64 clients fetch test.bin at once from
# the romfs in the second flash bank. Every body whole, no panic, no OOM, a
# clean power-off.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/e2e/min-ram.env"
echo "1..5"
# shellcheck source=tests/lib/load-64.sh
. "$TOP/tests/lib/load-64.sh"
(run tiny-xip-6.12 "${MIN_RAM_K_XIP}K" load64-xip-min 0)
