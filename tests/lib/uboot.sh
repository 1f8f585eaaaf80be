# shellcheck shell=bash
# Helpers for the U-Boot tests (tests/e2e/uboot-*.sh). Source after
# tests/lib/qemu.sh.
#
#   flip_byte FILE OFFSET     invert the byte at OFFSET of FILE in place
#   uboot_files VARIANT DIR   copy the files boot.scr loads into DIR
#   boot_log_clean [LOG]      no device-tree complaint lines in the console
#                             log (default QEMU_LOG); prints them if any

# The files on the SD card and on the TFTP server, as mk-images.sh puts them.
UBOOT_FILES=(boot.scr uImage uInitrd vexpress-tiny.dtb)

flip_byte() {
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	# shellcheck disable=SC2059
	printf "$(printf '\\%03o' $((b ^ 0xff)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

uboot_files() {
	local f
	mkdir -p "$2"
	for f in "${UBOOT_FILES[@]}"; do
		cp "$TOP/images/$1/$f" "$2/"
	done
}

# The device tree complaints the kernel printed on every boot before
# dts/vexpress-tiny.dts fixed them (fw_devlink, drivers/base/core.c).
BOOT_LOG_BAD='Fixed dependency cycle|Failed to create device link'

boot_log_clean() {
	local log=${1:-$QEMU_LOG}
	if grep -E -- "$BOOT_LOG_BAD" "$log"; then
		return 1
	fi
	return 0
}
