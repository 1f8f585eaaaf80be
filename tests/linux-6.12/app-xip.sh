#!/usr/bin/env bash
# timeout: 1500
# The server on the XIP board (images/tiny-xip-6.12, make xip-board): U-Boot
# in the first NOR flash bank boots the kernel in place there, and root is
# the romfs in the second bank. The same cases as the other boards (the
# kernel command lines of boots 1-3 reach the kernel through the .dtb in a
# copy of the first bank, scripts/lib/qemu.sh), and the console shows the
# boot path. tests/linux-6.12/xip-flash.sh checks that the kernel runs from
# the flash.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/lib/app-board.sh"
v=tiny-xip-6.12
E2E_EXTRA_CASES=4 app_e2e "$v"
# QEMU_LOG is the last boot's console (boot 3).
check "app-e2e $v: U-Boot booted from the flash and started the kernel in place" \
	grep -q 'XIP Kernel Image' "$QEMU_LOG"
check "app-e2e $v: the .dtb's extra words reached the kernel (srv_root=/nonexistent)" \
	grep -q '^Kernel command line: .* srv_root=/nonexistent' "$QEMU_LOG"
check "app-e2e $v: root is the romfs on the flash (MTD)" \
	grep -q 'VFS: Mounted root (romfs filesystem) readonly' "$QEMU_LOG"
check "app-e2e $v: no initramfs was unpacked" bash -c "! grep -q 'Unpacking initramfs' '$QEMU_LOG'"
