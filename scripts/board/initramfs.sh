#!/usr/bin/env bash
# board/initramfs.sh LIST OUT-PREFIX: pack a gen_init_cpio list file into
# OUT-PREFIX.cpio.gz and a u-boot legacy ramdisk OUT-PREFIX.uInitrd.
# The kernel's usr/gen_init_cpio makes /dev/console and friends without
# root; a fixed timestamp and gzip -n keep the result reproducible.
set -eu
. "$(dirname "$0")/../lib/common.sh"
list=${1:?usage: board/initramfs.sh LIST OUT-PREFIX}
out=${2:?usage: board/initramfs.sh LIST OUT-PREFIX}
gen=$TOP/build/tools/gen_init_cpio
src=$TOP/build/linux-6.1/usr/gen_init_cpio.c

if [ ! -x "$gen" ] || [ "$src" -nt "$gen" ]; then
	[ -f "$src" ] || die "$src missing: extract the kernel first (make extract)"
	mkdir -p "$(dirname "$gen")"
	cc -O2 -o "$gen" "$src"
fi
mkdir -p "$(dirname "$out")"
"$gen" -t 0 "$list" >"$out.cpio.tmp"
gzip -9n <"$out.cpio.tmp" >"$out.cpio.gz"
rm -f "$out.cpio.tmp"
mkimage -A arm -O linux -T ramdisk -C none -n "$(basename "$out")" \
	-d "$out.cpio.gz" "$out.uInitrd" >/dev/null
