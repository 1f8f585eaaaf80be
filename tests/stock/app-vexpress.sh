#!/usr/bin/env bash
# timeout: 1500
# The server on the stock vexpress_defconfig kernel (splice built in): the
# app's e2e checks, as on base.
# timeout: 1500
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/lib/app-board.sh"
# 64 MiB: at QEMU's usual 32 MiB the stock kernel (Image 14 MiB) prints
# nothing at all under QEMU's loader; both stock boards run at the same size.
export RAM=64
app_e2e vexpress
