#!/usr/bin/env bash
# uboot/bootscr.sh BOOT.cmd OUT.scr: wrap U-Boot's boot script in a legacy
# image (mkimage -T script), which `source` checks by its CRC before it
# runs it. The header's time stamp comes from SOURCE_DATE_EPOCH.
set -eu
cmd=${1:?usage: uboot/bootscr.sh BOOT.cmd OUT.scr}
out=${2:?usage: uboot/bootscr.sh BOOT.cmd OUT.scr}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1704067200}
mkimage -A arm -O linux -T script -C none -n "vexpress tiny boot script" \
	-d "$cmd" "$out" >/dev/null
