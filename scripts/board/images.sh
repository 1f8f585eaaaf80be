#!/usr/bin/env bash
# board/images.sh VARIANT: gather the board's boot files in images/VARIANT/:
# zImage, uImage (u-boot legacy, load/entry 0x60008000), the .dtb, the
# initramfs and its uInitrd, the debug initramfs, the boot chain of a real
# board (u-boot.bin, boot.scr, and sdcard.img holding uImage, uInitrd, the
# dtb and boot.scr), and a MANIFEST with each file's size and sha256.
set -eu
# mkimage and mtools take their time stamps from it.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1704067200}
. "$(dirname "$0")/../lib/common.sh"
variant=${1:?usage: board/images.sh tiny|base|tiny-6.12|base-6.12|...}
# KOUT: the kernel build folder, when it is not build/kernel-VARIANT (the
# peers' MULTIUSER=y boards use the block probe board's kernels, mk/corpus.mk).
kout=${KOUT:-$TOP/build/kernel-$variant}
img=$TOP/images/$variant
mkdir -p "$img"

# manifest FILE...: each file's size and sha256, in images/VARIANT/MANIFEST.
manifest() {
	(
		cd "$img"
		for f in "$@"; do
			printf '%-26s %9d  %s\n' "$f" "$(stat -c %s "$f")" \
				"$(sha256sum "$f" | cut -d' ' -f1)"
		done
	) >"$img/MANIFEST"
}

# uimage KERNEL NAME: images/VARIANT/uImage, u-boot legacy, from KERNEL.
uimage() {
	mkimage -A arm -O linux -T kernel -C none -a 0x60008000 -e 0x60008000 \
		-n "linux-$(cat "$kout/include/config/kernel.release") $2" -d "$1" "$img/uImage" >/dev/null
}

cp "$kout/.config" "$img/config"

# The XIP board (mk/xip.mk) has no loader in front of it: QEMU starts the
# CPU in its first NOR flash bank, flash0.img, which holds U-Boot, the .dtb
# and the kernel that executes in place (scripts/board/xip-flash.sh); the
# second bank, flash1.img, the flash board's romfs. Its kernel is an
# xipImage: Kbuild makes no zImage of an XIP kernel.
case $variant in
*-xip-*)
	cp "$kout/arch/arm/boot/xipImage" "$img/xipImage"
	cp "$TOP/build/dtb/vexpress-xip.dtb" "$img/vexpress-xip.dtb"
	cp "$TOP/build/u-boot-xip/u-boot.bin" "$img/u-boot.bin"
	"$TOP/scripts/board/xip-flash.sh" "$img/flash0.img" "$img/u-boot.bin" \
		"$img/vexpress-xip.dtb" "$img/xipImage" \
		"linux-$(cat "$kout/include/config/kernel.release") $variant xipImage"
	cp --sparse=always "$TOP/build/flash/flash.img" "$img/flash1.img"
	manifest xipImage vexpress-xip.dtb u-boot.bin flash0.img flash0.img.layout flash1.img config
	echo "  images     images/$variant: xipImage $(stat -c %s "$img/xipImage") B, flash0.img $(du -k "$img/flash0.img" | cut -f1) KiB used, flash1.img (romfs) $(du -k "$img/flash1.img" | cut -f1) KiB used"
	exit 0
	;;
esac
cp "$kout/arch/arm/boot/zImage" "$img/zImage"

# A flash board (mk/flash.mk) boots with its root file system on the NOR
# flash: flash.img and the .dtb that says root=mtd0, no initramfs and no
# boot chain (scripts/lib/qemu.sh boots a folder with flash.img that way).
# Its uImage holds the uncompressed kernel (Image): a NOR board's boot
# loader copies or decompresses the kernel from flash, so only the kernel
# itself lands in RAM. A zImage decompresses itself in RAM and first moves
# its compressed copy above the room the kernel takes; under QEMU's -kernel
# that copy reaches the .dtb, which QEMU puts at half the RAM
# (hw/arm/boot.c, arm_setup_direct_kernel_boot()), and sets the smallest
# RAM (docs/min-ram.md, section 7). The zImage is kept beside it.
case $variant in
*-flash-*)
	uimage "$kout/arch/arm/boot/Image" "$variant Image"
	cp "$TOP/build/dtb/vexpress-flash.dtb" "$img/vexpress-flash.dtb"
	cp --sparse=always "$TOP/build/flash/flash.img" "$img/flash.img"
	manifest zImage uImage vexpress-flash.dtb flash.img config
	echo "  images     images/$variant: uImage (Image) $(stat -c %s "$img/uImage") B, flash.img (romfs) $(du -k "$img/flash.img" | cut -f1) KiB used"
	exit 0
	;;
esac
uimage "$img/zImage" "$variant"
cp "$TOP/build/dtb/vexpress-tiny.dtb" "$img/vexpress-tiny.dtb"
ird=$TOP/build/initramfs
cp "$ird/initramfs.cpio.gz" "$ird/initramfs-debug.cpio.gz" "$img/"
cp "$ird/initramfs.uInitrd" "$img/uInitrd"
cp "$ird/initramfs-debug.uInitrd" "$img/uInitrd-debug"
cp "$TOP/build/u-boot/u-boot.bin" "$img/u-boot.bin"
cp "$TOP/build/uboot/boot.scr" "$img/boot.scr"
"$TOP/scripts/uboot/sdcard.sh" "$img/sdcard.img" \
	"$img/uImage" "$img/uInitrd" "$img/vexpress-tiny.dtb" "$img/boot.scr"

manifest zImage uImage vexpress-tiny.dtb initramfs.cpio.gz uInitrd \
	initramfs-debug.cpio.gz uInitrd-debug config u-boot.bin boot.scr \
	sdcard.img
echo "  images     images/$variant: zImage $(stat -c %s "$img/zImage") B, uImage $(stat -c %s "$img/uImage") B, uInitrd $(stat -c %s "$img/uInitrd") B"
