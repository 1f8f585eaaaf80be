#!/usr/bin/env bash
# timeout: 1500
# The server on the flash board (images/tiny-flash-6.12, make flash-board):
# init and the files it serves on the NOR flash, in a romfs the kernel
# mounts as root, no initramfs. The same cases as the other boards, and the
# console shows where root came from.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/lib/app-board.sh"
v=tiny-flash-6.12
E2E_EXTRA_CASES=3 app_e2e "$v"
# QEMU_LOG is the last boot's console (boot 3): the kernel mounted root
# before init found no served folder.
check "app-e2e $v: root is the romfs on the flash (MTD)" \
	grep -q 'VFS: Mounted root (romfs filesystem) readonly' "$QEMU_LOG"
check "app-e2e $v: no initramfs was unpacked" bash -c "! grep -q 'Unpacking initramfs' '$QEMU_LOG'"
# make measure-kernels reads the flash board's sizes like the others': it has
# no initramfs, so its files are the romfs, whose superblock states at least
# the bytes of init and the served files.
romfs=$("$TOP/scripts/measure/sizes.sh" "$v" | sed -n 's/^romfs=//p')
held=$(du -cb "$TOP/build/app/arm/init" "$SRV"/* | tail -n 1 | cut -f 1)
check "measure sizes $v: romfs ${romfs:-none} B holds init and /srv ($held B)" \
	test "${romfs:-0}" -ge "$held"
