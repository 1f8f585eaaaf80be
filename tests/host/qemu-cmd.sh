#!/usr/bin/env bash
# scripts/lib/qemu.sh, the one QEMU command line, without booting: what it
# adds for ICOUNT, how it boots a flash board (FLASH), and how it refuses a
# missing image or an unknown BOOT, and how it boots the XIP board from
# its NOR flash (BOOT=nor).
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/scripts/lib/qemu.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qemu-cmd.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/uImage"
: >"$tmp/uInitrd"
: >"$tmp/board.dtb"
export KERNEL=$tmp/uImage INITRD=$tmp/uInitrd DTB=$tmp/board.dtb
echo 1..13

qemu_cmd
check "by default the guest's clock is the host's (no -icount)" \
	bash -c '! grep -qw -- -icount <<<"$1"' _ "${QEMU_ARGS[*]}"
check "the images given are the ones QEMU loads" \
	grep -qF -- "-kernel $tmp/uImage -initrd $tmp/uInitrd -dtb $tmp/board.dtb" <<<"${QEMU_ARGS[*]}"
ICOUNT=shift=0 qemu_cmd
check "ICOUNT=shift=0 adds -icount shift=0" grep -qF -- "-icount shift=0" <<<"${QEMU_ARGS[*]}"
out=$(KERNEL=$tmp/none qemu_cmd 2>&1)
check "a missing kernel image stops with its name" grep -qF "missing $tmp/none" <<<"$out"
out=$(BOOT=usb qemu_cmd 2>&1)
check "an unknown BOOT stops with the ones it knows" grep -qF "BOOT=usb: use direct, sd, tftp or nor" <<<"$out"

# A flash board's folder: flash.img and vexpress-flash.dtb, no initramfs.
mkdir -p "$tmp/images/fl"
: >"$tmp/images/fl/uImage"
: >"$tmp/images/fl/flash.img"
: >"$tmp/images/fl/vexpress-flash.dtb"
unset KERNEL INITRD DTB
out=$(
	KERNEL=$tmp/images/fl/uImage FLASH=$tmp/images/fl/flash.img INITRD=none DTB=$tmp/images/fl/vexpress-flash.dtb qemu_cmd && echo "${QEMU_ARGS[*]}"
)
check "FLASH becomes the first pflash bank, read-only" \
	grep -qF -- "-drive if=pflash,index=0,format=raw,readonly=on,file=$tmp/images/fl/flash.img" <<<"$out"
check "INITRD=none boots without -initrd" bash -c '! grep -qw -- -initrd <<<"$1"' _ "$out"
out=$(KERNEL=$tmp/uImage INITRD=$tmp/uInitrd DTB=$tmp/board.dtb FLASH=$tmp/images/fl/flash.img BOOT=sd qemu_cmd 2>&1)
check "FLASH with BOOT=sd stops and says why" grep -qF "FLASH needs BOOT=direct" <<<"$out"
out=$(KERNEL=$tmp/uImage INITRD=none DTB=$tmp/board.dtb FLASH=$tmp/none qemu_cmd 2>&1)
check "a missing flash image stops with its name" grep -qF "missing $tmp/none" <<<"$out"
# The defaults: a board folder under images/ with flash.img boots from it.
mkdir -p "$TOP/images/.qemu-cmd-test-flash"
trap 'rm -rf "$tmp" "$TOP/images/.qemu-cmd-test-flash"' EXIT
: >"$TOP/images/.qemu-cmd-test-flash/uImage"
: >"$TOP/images/.qemu-cmd-test-flash/flash.img"
: >"$TOP/images/.qemu-cmd-test-flash/vexpress-flash.dtb"
out=$(VARIANT=.qemu-cmd-test-flash qemu_cmd 2>&1 && echo "${QEMU_ARGS[*]}")
check "a board folder with flash.img boots it, with its flash .dtb and no initramfs" \
	bash -c 'grep -qF -- "-dtb $2/vexpress-flash.dtb" <<<"$1" && grep -qF "file=$2/flash.img" <<<"$1" && ! grep -qw -- -initrd <<<"$1"' _ "$out" "$TOP/images/.qemu-cmd-test-flash"

# The XIP board's folder: flash0.img (U-Boot, .dtb, kernel) and flash1.img,
# booted with no loader; BOOTARGS_EXTRA goes into the .dtb of a copy of
# bank 0 at the offsets of flash0.img.layout.
x=$TOP/images/.qemu-cmd-test-xip
mkdir -p "$x"
trap 'rm -rf "$tmp" "$TOP/images/.qemu-cmd-test-flash" "$x"' EXIT
printf '/dts-v1/;\n/ { chosen { bootargs = "console=ttyAMA0"; }; };\n' | dtc -q -I dts -O dtb -o "$tmp/x.dtb" -
truncate -s 65536 "$x/flash0.img"
dd if="$tmp/x.dtb" of="$x/flash0.img" bs=4096 seek=1 conv=notrunc status=none
printf '%s\n' dtb_offset=4096 dtb_limit=8192 >"$x/flash0.img.layout"
: >"$x/flash1.img"
out=$(VARIANT=.qemu-cmd-test-xip qemu_cmd 2>&1 && echo "${QEMU_ARGS[*]}")
check "a board folder with flash0.img boots from it: both banks, no loader" \
	bash -c 'grep -qF "index=0,format=raw,readonly=on,file=$2/flash0.img" <<<"$1" &&
		grep -qF "index=1,format=raw,readonly=on,file=$2/flash1.img" <<<"$1" &&
		! grep -qE -- "-(kernel|dtb|initrd|append) " <<<"$1"' _ "$out" "$x"
out=$(VARIANT=.qemu-cmd-test-xip BOOT=direct qemu_cmd 2>&1)
check "BOOT=direct on it stops and says why" grep -qF "boots from its NOR flash (BOOT=nor)" <<<"$out"
out=$(VARIANT=.qemu-cmd-test-xip BOOTARGS_EXTRA=srv_x=1 qemu_cmd 2>&1 && echo "${QEMU_ARGS[*]}")
copy=$(sed -n 's/.*index=0,format=raw,readonly=on,file=\([^ ]*\).*/\1/p' <<<"$out")
got=$(tail -c +4097 "$copy" 2>/dev/null | head -c 4096 >"$tmp/got.dtb" && fdtget "$tmp/got.dtb" /chosen bootargs)
same=yes
[ "$copy" != "$x/flash0.img" ] && same=no
check "BOOTARGS_EXTRA on it: a copy of bank 0 whose .dtb has the words (${got:-none})" \
	[ "$same/$got" = "no/console=ttyAMA0 srv_x=1" ]
