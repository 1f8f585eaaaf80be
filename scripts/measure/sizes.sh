#!/usr/bin/env bash
# measure/sizes.sh VARIANT
#
# The sizes of one board's build outputs, as key=value lines (bytes):
#   vmlinux_text vmlinux_data vmlinux_bss   (<cross>size, Berkeley format)
#   image zimage uimage initramfs           Image, zImage, uImage,
#                                           initramfs.cpio.gz
#   romfs                                   instead of initramfs on a flash
#                                           board (mk/flash.mk): the romfs
#                                           in its flash.img, as its
#                                           superblock says (genromfs pads
#                                           the file to 1 KiB)
set -u
[ $# -eq 1 ] || { echo "usage: $0 VARIANT" >&2; exit 2; }
v=$1
TOP=$(cd "$(dirname "$0")/../.." && pwd)
size=${CROSS_COMPILE:-arm-linux-gnueabi-}size
command -v "$size" >/dev/null || { echo "measure-sizes: $size not found" >&2; exit 2; }

kb=$TOP/build/kernel-$v
im=$TOP/images/$v
# a flash board has its files in flash.img, every other an initramfs
fs=$im/initramfs.cpio.gz
[ ! -f "$im/flash.img" ] || fs=$im/flash.img
for f in "$kb/vmlinux" "$kb/arch/arm/boot/Image" "$im/zImage" "$im/uImage" "$fs"; do
	[ -f "$f" ] || { echo "measure-sizes: missing ${f#"$TOP"/} (run make board)" >&2; exit 2; }
done

"$size" -B "$kb/vmlinux" | awk 'NR == 2 {
	print "vmlinux_text=" $1; print "vmlinux_data=" $2; print "vmlinux_bss=" $3 }'
echo "image=$(stat -c %s "$kb/arch/arm/boot/Image")"
echo "zimage=$(stat -c %s "$im/zImage")"
echo "uimage=$(stat -c %s "$im/uImage")"
if [ "$fs" = "$im/flash.img" ]; then
	# romfs' superblock: "-rom1fs-", then its full size (32-bit big-endian)
	[ "$(head -c 8 "$fs")" = -rom1fs- ] || { echo "measure-sizes: no romfs in ${fs#"$TOP"/}" >&2; exit 1; }
	echo "romfs=$((16#$(od -An -tx1 -j8 -N4 "$fs" | tr -d ' \n')))"
else
	echo "initramfs=$(stat -c %s "$fs")"
fi
