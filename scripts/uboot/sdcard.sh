#!/usr/bin/env bash
# uboot/sdcard.sh OUT.img FILE...: an SD card image without root: an MBR with
# one bootable FAT16 partition (type e, from 1 MiB) labelled BOOT, holding
# FILE... in its root folder. SDCARD_MIB sets the card's size (default 16;
# QEMU wants a power of two). Reproducible: fixed disk id, volume serial
# and file times (SOURCE_DATE_EPOCH).
set -eu
out=${1:?usage: uboot/sdcard.sh OUT.img FILE...}
shift
mib=${SDCARD_MIB:-16}
tmp=$out.tmp
# mtools takes every time stamp from SOURCE_DATE_EPOCH.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1704067200}
export MTOOLS_SKIP_CHECK=1

rm -f "$tmp"
truncate -s "${mib}M" "$tmp"
sfdisk --quiet --no-reread --no-tell-kernel "$tmp" <<EOT
label: dos
label-id: 0x0b0a7d15
start=2048, type=e, bootable
EOT
# -H 2048: the partition's start, as a FAT boot sector should say.
mformat -i "$tmp@@1M" -H 2048 -v BOOT -N 0b0a7d15 ::
mcopy -i "$tmp@@1M" "$@" ::
mv "$tmp" "$out"
