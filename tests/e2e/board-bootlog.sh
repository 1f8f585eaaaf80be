#!/usr/bin/env bash
# The kernel's boot log has no device-tree complaints: fw_devlink's
# "Fixed dependency cycle(s)" and "Failed to create device link" lines came
# from devices the board does not use and from the vexpress .dtsi files'
# cycles, which dts/vexpress-tiny.dts removes. One direct boot of the tiny
# board (both variants share the dtb); the U-Boot boots are checked the same
# way in uboot-boot.sh.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/lib/uboot.sh"

export VARIANT=tiny BOOT=direct
qemu_start board-bootlog
check "bootlog: the server comes up" qemu_wait_for '^fileserver: ready' 60
qemu_send poweroff
qemu_wait_exit 60
rc=$?
check "bootlog: 'poweroff' ends it with status 0 (got $rc)" test "$rc" -eq 0
check "bootlog: no 'Fixed dependency cycle' or 'Failed to create device link' lines" \
	boot_log_clean
