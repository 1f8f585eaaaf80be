#!/usr/bin/env bash
# board/xip-flash.sh OUT UBOOT DTB XIPIMAGE NAME: the XIP board's first NOR
# flash bank (64 MiB, CS0 at 0x40000000, aliased at 0 where the CPU starts):
#   0x000000  U-Boot (u-boot.bin, linked at 0x40000000; uboot/vexpress-xip.fragment)
#   0x0c0000  the .dtb, which U-Boot copies to RAM and hands to the kernel
#   0x0fffc0  the uImage header (64 B, made here with mkimage, NAME in it)
#   0x100000  the kernel (xipImage), linked to execute there (XIP_PHYS_ADDR)
# The uImage's load and entry address are the kernel's own, so bootm runs it
# in place. The second bank holds the romfs (flash-image.sh). The file is
# extended to the bank's size (QEMU's -drive if=pflash wants it; sparse).
# Also writes OUT.layout (offsets as key=value lines, for scripts/lib/qemu.sh).
set -eu
. "$(dirname "$0")/../lib/common.sh"
usage="usage: board/xip-flash.sh OUT UBOOT DTB XIPIMAGE NAME"
out=${1:?$usage} uboot=${2:?$usage} dtb=${3:?$usage} xip=${4:?$usage} name=${5:?$usage}
bank=$((64 * 1024 * 1024))
dtb_off=$((0xc0000)) hdr_off=$((0xfffc0)) kernel_off=$((0x100000))
kernel_addr=0x40100000

# fits FILE OFFSET LIMIT: FILE's bytes end at or before LIMIT when put at OFFSET.
fits() {
	local size
	size=$(stat -c %s "$1")
	[ $(($2 + size)) -le "$3" ] || die "${1#"$TOP"/} is $size B: from $(printf '%#x' "$2") it passes $(printf '%#x' "$3")"
}
fits "$uboot" 0 "$dtb_off"
fits "$dtb" "$dtb_off" "$hdr_off"
fits "$xip" "$kernel_off" "$bank"

rm -f "$out.tmp" "$out.uimg"
mkimage -A arm -O linux -T kernel -C none -a "$kernel_addr" -e "$kernel_addr" \
	-n "$name" -d "$xip" "$out.uimg" >/dev/null
truncate -s "$bank" "$out.tmp"
dd if="$uboot" of="$out.tmp" conv=notrunc status=none
dd if="$dtb" of="$out.tmp" bs=64 seek=$((dtb_off / 64)) conv=notrunc status=none
dd if="$out.uimg" of="$out.tmp" bs=64 seek=$((hdr_off / 64)) conv=notrunc status=none
rm -f "$out.uimg"
# The kernel must start exactly where it is linked to run.
cmp -s -n "$(stat -c %s "$xip")" "$xip" <(tail -c +$((kernel_off + 1)) "$out.tmp") ||
	die "the kernel is not at $(printf '%#x' "$kernel_off") in $out"
printf '%s\n' "dtb_offset=$dtb_off" "dtb_limit=$hdr_off" >"$out.layout"
mv "$out.tmp" "$out"
echo "  flash      ${out#"$TOP"/}: U-Boot $(stat -c %s "$uboot") B at 0, dtb at $(printf '%#x' "$dtb_off"), kernel $(stat -c %s "$xip") B at $(printf '%#x' "$kernel_off")"
