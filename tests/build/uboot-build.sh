#!/usr/bin/env bash
# The boot chain's files are what the sources say, every time (that U-Boot
# built again in another folder is byte-identical is a whole U-Boot build:
# tests/repro/uboot.sh, `make test-repro`):
# - sdcard.img made again from the same files is byte-identical, and holds
#   exactly boot.scr, uImage, uInitrd and the dtb in a bootable FAT partition;
# - each variant's MANIFEST lists u-boot.bin, boot.scr and sdcard.img with
#   their real sha256;
# - the fragment holds in U-Boot's .config, and `make uboot` with nothing
#   changed does no work.
. "$(dirname "$0")/../lib/common.sh"
work=$TOP/build/test-uboot
rm -rf "$work"
mkdir -p "$work"

check "the fragment holds in U-Boot's .config" \
	"$TOP/scripts/lib/config-holds.sh" "$TOP/build/u-boot/.config" "$TOP/uboot/vexpress-tiny.fragment"

for v in tiny base; do
	img=$TOP/images/$v
	"$TOP/scripts/uboot/sdcard.sh" "$work/sd-$v.img" \
		"$img/uImage" "$img/uInitrd" "$img/vexpress-tiny.dtb" "$img/boot.scr"
	check "$v: sdcard.img made again is byte-identical" cmp "$work/sd-$v.img" "$img/sdcard.img"
	check "$v: sdcard.img has one bootable FAT16 (type e) partition at 1 MiB" \
		bash -c "sfdisk -d '$img/sdcard.img' | grep -q 'start= *2048, .*type=e, bootable'"
	files=$(MTOOLS_SKIP_CHECK=1 mdir -b -i "$img/sdcard.img@@1M" :: | sed 's|^::/||' | sort | tr '\n' ' ')
	check "$v: the card holds boot.scr uImage uInitrd vexpress-tiny.dtb (has: $files)" \
		test "$files" = "boot.scr uImage uInitrd vexpress-tiny.dtb "
	for f in u-boot.bin boot.scr sdcard.img; do
		check "$v: MANIFEST lists $f with its sha256" \
			grep -Eq "^$f +[0-9]+  $(sha256sum "$img/$f" | cut -d' ' -f1)\$" "$img/MANIFEST"
	done
done

out=$(make -C "$TOP" -s --no-print-directory uboot bootscr 2>&1)
echo "$out"
check "make uboot with nothing changed does no work" test -z "$out"
rm -rf "$work"
