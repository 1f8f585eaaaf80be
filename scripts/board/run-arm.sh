#!/usr/bin/env bash
# board/run-arm.sh: boot the board in QEMU with the serial console on this
# terminal. VARIANT=tiny|base|... (a folder with flash.img: a flash board,
# mk/flash.mk), RAM= (MiB), PORT= (host port, 127.0.0.1),
# DEBUG_SHELL=1 for the BusyBox debug image, BOOT=direct|sd|tftp (QEMU
# loads the images itself, or U-Boot boots them from the SD card image or
# over TFTP); a folder with flash0.img (the XIP board, mk/xip.mk) boots
# with BOOT=nor: U-Boot and the kernel in the NOR flash, no loader.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib/qemu.sh"

export VARIANT=${VARIANT:-tiny} RAM=${RAM:-32} PORT=${PORT:-8080}
boot=direct
[ ! -f "$top/images/$VARIANT/flash0.img" ] || boot=nor
export BOOT=${BOOT:-$boot}
off="type 'poweroff' + Enter on the console"
flash=
[ ! -f "$top/images/$VARIANT/flash.img" ] || flash=$top/images/$VARIANT/flash.img
if [ "${DEBUG_SHELL:-0}" = 1 ]; then
	if [ -n "$flash" ] || [ "$BOOT" = nor ]; then
		echo "run-arm: DEBUG_SHELL=1: the flash board $VARIANT has no debug image (its root is the romfs in the flash)" >&2
		exit 1
	fi
	if [ "$BOOT" != direct ]; then
		echo "run-arm: DEBUG_SHELL=1 needs BOOT=direct (the SD card and TFTP carry the server's uInitrd)" >&2
		exit 1
	fi
	export INITRD=$top/images/$VARIANT/uInitrd-debug
	# The trimmed board's kernel has only init's syscalls (mk/linux-6.12.mk):
	# BusyBox's shell boots on the untrimmed tiny-6.12 kernel.
	if [ "$VARIANT" = trim-6.12 ]; then
		echo "run-arm: DEBUG_SHELL=1: BusyBox needs syscalls init does not make; booting the untrimmed tiny-6.12 kernel" >&2
		export KERNEL=$top/images/tiny-6.12/uImage
	fi
	off="type 'poweroff -f' in the BusyBox shell"
fi
qemu_cmd

case $BOOT in
direct)
	how="QEMU loads uImage, uInitrd and the dtb"
	[ -z "$flash" ] || how="QEMU loads uImage and the dtb, root is the romfs on the flash (flash.img)"
	;;
sd) how="U-Boot boots from images/$VARIANT/sdcard.img" ;;
tftp) how="U-Boot boots over TFTP from images/$VARIANT/" ;;
nor) how="U-Boot in the NOR flash (flash0.img) starts the kernel in place there, root is the romfs in the second bank (flash1.img)" ;;
esac
cat <<EOT
Booting the $VARIANT board: vexpress-a9, ${RAM} MiB, guest port 80 on 127.0.0.1:$PORT; $how.
  From another terminal:  curl -o test.bin http://127.0.0.1:$PORT/test.bin
                          curl http://127.0.0.1:$PORT/        (file list)
  Quit QEMU: Ctrl-A then X.  Power the board off: $off.
  ${QEMU_ARGS[*]}

EOT
exec "${QEMU_ARGS[@]}"
