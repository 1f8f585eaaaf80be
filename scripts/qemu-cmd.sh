# shellcheck shell=bash
# The board's QEMU command line, written once. Source this file and call
# qemu_cmd; it fills the array QEMU_ARGS. run-arm, the tests and
# measure-ram all boot through it.
#
# Inputs (environment, all optional):
#   VARIANT      tiny | base                     (default tiny)
#   RAM          guest RAM in MiB                (default 32)
#   PORT         host port forwarded from 127.0.0.1 to the guest (default 8080)
#   GUEST_PORT   guest TCP port                  (default 80)
#   KERNEL       kernel image   (default images/$VARIANT/uImage)
#   INITRD       initramfs      (default images/$VARIANT/uInitrd)
#   DTB          device tree    (default images/$VARIANT/vexpress-tiny.dtb)
#   BOOTARGS_EXTRA  words appended to the device tree's bootargs
#   SD_IMAGE     raw image for the SD card slot (MMCI), none by default
#
# The kernel command line lives in dts/ (/chosen/bootargs). QEMU's -append
# replaces it, so with BOOTARGS_EXTRA the line is read back from the .dtb
# with fdtget and extended, never written a second time here.

qemu_cmd() {
	local top variant ram port gport kernel initrd dtb bootargs
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	variant=${VARIANT:-tiny}
	ram=${RAM:-32}
	port=${PORT:-8080}
	gport=${GUEST_PORT:-80}
	kernel=${KERNEL:-$top/images/$variant/uImage}
	initrd=${INITRD:-$top/images/$variant/uInitrd}
	dtb=${DTB:-$top/images/$variant/vexpress-tiny.dtb}

	local f
	for f in "$kernel" "$initrd" "$dtb"; do
		if [ ! -f "$f" ]; then
			echo "qemu-cmd: missing $f (run 'make board' first)" >&2
			return 1
		fi
	done

	QEMU_ARGS=(qemu-system-arm -M vexpress-a9 -m "${ram}M"
		-nographic -no-reboot -audiodev none,id=snd0
		-kernel "$kernel" -initrd "$initrd" -dtb "$dtb"
		-nic "user,model=lan9118,hostfwd=tcp:127.0.0.1:${port}-:${gport}")

	if [ -n "${SD_IMAGE:-}" ]; then
		QEMU_ARGS+=(-drive "if=sd,format=raw,file=$SD_IMAGE")
	fi

	if [ -n "${BOOTARGS_EXTRA:-}" ]; then
		bootargs=$(fdtget "$dtb" /chosen bootargs) || return 1
		QEMU_ARGS+=(-append "$bootargs $BOOTARGS_EXTRA")
	fi
}
