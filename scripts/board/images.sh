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
variant=${1:?usage: board/images.sh tiny|base|tiny-6.12|base-6.12}
kout=$TOP/build/kernel-$variant
img=$TOP/images/$variant
mkdir -p "$img"

cp "$kout/arch/arm/boot/zImage" "$img/zImage"
mkimage -A arm -O linux -T kernel -C none -a 0x60008000 -e 0x60008000 \
	-n "linux-$(cat "$kout/include/config/kernel.release") $variant" -d "$img/zImage" "$img/uImage" >/dev/null
cp "$TOP/build/dtb/vexpress-tiny.dtb" "$img/vexpress-tiny.dtb"
ird=$TOP/build/initramfs
cp "$ird/initramfs.cpio.gz" "$ird/initramfs-debug.cpio.gz" "$img/"
cp "$ird/initramfs.uInitrd" "$img/uInitrd"
cp "$ird/initramfs-debug.uInitrd" "$img/uInitrd-debug"
cp "$kout/.config" "$img/config"
cp "$TOP/build/u-boot/u-boot.bin" "$img/u-boot.bin"
cp "$TOP/build/uboot/boot.scr" "$img/boot.scr"
"$TOP/scripts/uboot/sdcard.sh" "$img/sdcard.img" \
	"$img/uImage" "$img/uInitrd" "$img/vexpress-tiny.dtb" "$img/boot.scr"

(
	cd "$img"
	for f in zImage uImage vexpress-tiny.dtb initramfs.cpio.gz uInitrd \
		initramfs-debug.cpio.gz uInitrd-debug config u-boot.bin boot.scr \
		sdcard.img; do
		printf '%-26s %9d  %s\n' "$f" "$(stat -c %s "$f")" \
			"$(sha256sum "$f" | cut -d' ' -f1)"
	done
) >"$img/MANIFEST"
echo "  images     images/$variant: zImage $(stat -c %s "$img/zImage") B, uImage $(stat -c %s "$img/uImage") B, uInitrd $(stat -c %s "$img/uInitrd") B"
