# shellcheck shell=bash
# The board's QEMU command line, written once. Source this file and call
# qemu_cmd; it fills the array QEMU_ARGS. run-arm, the tests and
# measure-ram all boot through it.
#
# Inputs (environment, all optional):
#   VARIANT      tiny | base                     (default tiny)
#   RAM          guest RAM in MiB, or in KiB with a K suffix (6920K)
#                                                (default 32)
#   PORT         host port forwarded from 127.0.0.1 to the guest (default 8080)
#   GUEST_PORT   guest TCP port                  (default 80)
#   KERNEL       kernel image   (default images/$VARIANT/uImage)
#   INITRD       initramfs      (default images/$VARIANT/uInitrd; none: no
#                -initrd)
#   DTB          device tree    (default images/$VARIANT/vexpress-tiny.dtb)
#   FLASH        image of the first NOR flash bank (-drive if=pflash,
#                read-only), BOOT=direct only. A flash board's folder
#                (mk/flash.mk) has flash.img: for it FLASH defaults to that
#                file, INITRD to none and DTB to its vexpress-flash.dtb,
#                whose command line mounts root from the flash
#   BOOTARGS_EXTRA  words appended to the device tree's bootargs
#   BOOT         direct | sd | tftp | nor        (default direct; nor for a
#                folder with flash0.img, the XIP board, mk/xip.mk)
#     direct: QEMU loads KERNEL, INITRD and DTB itself (-kernel/-initrd/-dtb)
#     sd:     QEMU starts U-Boot (UBOOT), which boots from the SD card
#             image SDCARD (default images/$VARIANT/sdcard.img; QEMU writes
#             nothing back to it: snapshot=on)
#     tftp:   QEMU starts U-Boot, which gets boot.scr and the images by DHCP
#             and TFTP from QEMU's user network, served from TFTP_DIR
#             (default images/$VARIANT)
#     nor:    no loader at all: the CPU starts in the first NOR flash bank
#             (FLASH, default images/$VARIANT/flash0.img: U-Boot, the .dtb
#             and the kernel, which executes in place), the second bank is
#             FLASH1 (default images/$VARIANT/flash1.img: the romfs), both
#             read-only. BOOTARGS_EXTRA: the .dtb in the flash is changed,
#             in a copy of the bank (build/tmp/qemu-nor/), as one would
#             write a new .dtb to a real board's flash; the layout comes
#             from flash0.img.layout (scripts/board/xip-flash.sh)
#   UBOOT        U-Boot binary  (default images/$VARIANT/u-boot.bin)
#   SD_IMAGE     raw image for the SD card slot (MMCI), none by default (BOOT=direct only)
#   QEMU_TRACE   QEMU trace events to log with the console, space-separated
#                patterns (-trace each), e.g. pflash_io_write: every command a
#                flash bank is sent (tests/linux-6.12/xip-flash.sh)
#   ICOUNT       QEMU's -icount value, e.g. shift=0 (off by default): the
#                guest's clock counts executed instructions instead of host
#                time, so the guest's own CPU figures (getrusage) stop moving
#                with the host's load
#
# The kernel command line lives in dts/ (/chosen/bootargs). QEMU's -append
# replaces it, so with BOOTARGS_EXTRA the line is read back from the .dtb
# with fdtget and extended, never written a second time here. Under U-Boot
# the kernel gets the .dtb's line as it is (boot.scr clears U-Boot's
# bootargs), so BOOTARGS_EXTRA works with BOOT=direct and BOOT=nor only.

# vexpress_ca9x4_defconfig's CONFIG_TEXT_BASE: where u-boot.bin runs. It
# needs RAM above it: BOOT=sd|tftp want RAM >= 16.
UBOOT_TEXT_BASE=0x60800000

qemu_cmd() {
	local top variant ram port gport kernel initrd dtb bootargs boot nic uboot sdcard tftpdir loader flash flash1
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	variant=${VARIANT:-tiny}
	ram=${RAM:-32}
	port=${PORT:-8080}
	gport=${GUEST_PORT:-80}
	boot=${BOOT:-direct}
	[ -n "${BOOT:-}" ] || [ ! -f "$top/images/$variant/flash0.img" ] || boot=nor
	kernel=${KERNEL:-$top/images/$variant/uImage}
	flash=${FLASH:-}
	initrd=${INITRD:-$top/images/$variant/uInitrd}
	dtb=${DTB:-$top/images/$variant/vexpress-tiny.dtb}
	flash1=${FLASH1:-$top/images/$variant/flash1.img}
	if [ "$boot" = nor ]; then
		flash=${FLASH:-$top/images/$variant/flash0.img}
	elif [ -f "$top/images/$variant/flash0.img" ]; then
		echo "qemu-cmd: $variant boots from its NOR flash (BOOT=nor): its kernel executes in place there" >&2
		return 1
	elif [ -z "${FLASH+set}" ] && [ -f "$top/images/$variant/flash.img" ]; then
		flash=$top/images/$variant/flash.img
		initrd=${INITRD:-none}
		dtb=${DTB:-$top/images/$variant/vexpress-flash.dtb}
	fi
	uboot=${UBOOT:-$top/images/$variant/u-boot.bin}
	sdcard=${SDCARD:-$top/images/$variant/sdcard.img}
	tftpdir=${TFTP_DIR:-$top/images/$variant}

	local f need
	case $boot in
	direct) need=("$kernel" "$dtb") ;;
	sd) need=("$uboot" "$sdcard") ;;
	tftp) need=("$uboot" "$tftpdir/boot.scr") ;;
	nor) need=("$flash" "$flash1") ;;
	*)
		echo "qemu-cmd: BOOT=$boot: use direct, sd, tftp or nor" >&2
		return 1
		;;
	esac
	# a combination that cannot work is said first, whatever is built
	if [ "$boot" != direct ] && [ "$boot" != nor ] && [ -n "$flash" ]; then
		echo "qemu-cmd: FLASH needs BOOT=direct (U-Boot boots the initramfs boards)" >&2
		return 1
	fi
	if [ "$boot" != direct ] && [ "$boot" != nor ] && [ -n "${BOOTARGS_EXTRA:-}" ]; then
		echo "qemu-cmd: BOOTARGS_EXTRA needs BOOT=direct or nor (under U-Boot the kernel line is the .dtb's)" >&2
		return 1
	fi
	[ "$boot" != direct ] || [ "$initrd" = none ] || need+=("$initrd")
	[ -z "$flash" ] || [ "$boot" = nor ] || need+=("$flash")
	for f in "${need[@]}"; do
		if [ ! -f "$f" ]; then
			echo "qemu-cmd: missing $f (run 'make board' first)" >&2
			return 1
		fi
	done

	nic="user,model=lan9118,hostfwd=tcp:127.0.0.1:${port}-:${gport}"
	case $ram in *K) ;; *) ram=${ram}M ;; esac
	# shellcheck disable=SC2054 # QEMU's option values are comma lists
	QEMU_ARGS=(qemu-system-arm -M vexpress-a9 -m "$ram"
		-nographic -no-reboot -audiodev none,id=snd0)
	# u-boot.bin is the raw binary a real board flashes; it runs where it
	# was linked (CONFIG_TEXT_BASE), so QEMU's generic loader puts it there
	# and starts the CPU at it (-kernel would load it elsewhere).
	loader="loader,file=$uboot,addr=$UBOOT_TEXT_BASE,cpu-num=0"
	case $boot in
	direct)
		QEMU_ARGS+=(-kernel "$kernel")
		[ "$initrd" = none ] || QEMU_ARGS+=(-initrd "$initrd")
		QEMU_ARGS+=(-dtb "$dtb")
		;;
	sd) QEMU_ARGS+=(-device "$loader"
		-drive "if=sd,format=raw,snapshot=on,file=$sdcard") ;;
	tftp)
		QEMU_ARGS+=(-device "$loader")
		nic+=",tftp=$tftpdir,bootfile=boot.scr"
		;;
	nor)
		if [ -n "${BOOTARGS_EXTRA:-}" ]; then
			flash=$(nor_bootargs "$top" "$flash" "$BOOTARGS_EXTRA") || return 1
		fi
		;;
	esac
	QEMU_ARGS+=(-nic "$nic")

	if [ -n "${SD_IMAGE:-}" ]; then
		if [ "$boot" != direct ]; then
			echo "qemu-cmd: SD_IMAGE needs BOOT=direct (BOOT=$boot uses the SD slot itself)" >&2
			return 1
		fi
		QEMU_ARGS+=(-drive "if=sd,format=raw,file=$SD_IMAGE")
	fi

	[ -z "$flash" ] || QEMU_ARGS+=(-drive "if=pflash,index=0,format=raw,readonly=on,file=$flash")
	[ "$boot" != nor ] || QEMU_ARGS+=(-drive "if=pflash,index=1,format=raw,readonly=on,file=$flash1")
	[ -z "${ICOUNT:-}" ] || QEMU_ARGS+=(-icount "$ICOUNT")
	local t
	for t in ${QEMU_TRACE:-}; do QEMU_ARGS+=(-trace "$t"); done

	if [ -n "${BOOTARGS_EXTRA:-}" ] && [ "$boot" = direct ]; then
		bootargs=$(fdtget "$dtb" /chosen bootargs) || return 1
		QEMU_ARGS+=(-append "$bootargs $BOOTARGS_EXTRA")
	fi
}

# nor_bootargs TOP BANK WORDS: print the path of a copy of the flash bank
# BANK whose .dtb's /chosen/bootargs has WORDS appended (made once per bank
# and words, in build/tmp/qemu-nor/, then reused; renamed into place, so
# boots side by side never see half a file).
nor_bootargs() {
	local top=$1 bank=$2 words=$3 dir key out dtb dtb_offset dtb_limit
	# shellcheck disable=SC1090 # key=value lines from xip-flash.sh
	. "$bank.layout" || return 1
	dir=$top/build/tmp/qemu-nor
	key=$(printf '%s\n' "$(realpath "$bank")" "$(stat -c '%s %Y' "$bank")" "$words" | sha256sum | cut -c1-16)
	out=$dir/$key.img
	if [ ! -f "$out" ]; then
		mkdir -p "$dir"
		dtb=$(mktemp "$dir/dtb.XXXXXX")
		tail -c +$((dtb_offset + 1)) "$bank" | head -c $((dtb_limit - dtb_offset)) >"$dtb"
		if ! fdtput -t s "$dtb" /chosen bootargs "$(fdtget "$dtb" /chosen bootargs) $words" ||
			[ "$(stat -c %s "$dtb")" -gt $((dtb_limit - dtb_offset)) ]; then
			echo "qemu-cmd: cannot add '$words' to the .dtb in $bank" >&2
			rm -f "$dtb"
			return 1
		fi
		cp --sparse=always "$bank" "$dtb.img"
		# the old .dtb's room is cleared, then the new one written
		dd if=/dev/zero of="$dtb.img" bs=64 seek=$((dtb_offset / 64)) \
			count=$(((dtb_limit - dtb_offset) / 64)) conv=notrunc status=none
		dd if="$dtb" of="$dtb.img" bs=64 seek=$((dtb_offset / 64)) conv=notrunc status=none
		mv "$dtb.img" "$out"
		rm -f "$dtb"
	fi
	echo "$out"
}
