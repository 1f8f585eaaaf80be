#!/usr/bin/env bash
# Reproducible U-Boot: built again in another folder it is byte-identical
# (SOURCE_DATE_EPOCH). A whole U-Boot build, about 5 minutes on 2 cores,
# so `make test-repro` runs it, not `make test` (tests/build/uboot-build.sh
# checks the rest of the boot chain's files).
# timeout: 1800
. "$(dirname "$0")/../lib/common.sh"
work=$TOP/build/test-repro-uboot
rm -rf "$work"
mkdir -p "$work"
if USE_CCACHE=0 UBOOT_OUT=$work/u-boot UBOOT_LOG=test-repro-uboot \
	nice -n 10 "$TOP/scripts/uboot/build.sh" >"$work/build.log" 2>&1; then
	check "U-Boot rebuilt in another folder is byte-identical" \
		cmp "$work/u-boot/u-boot.bin" "$TOP/build/u-boot/u-boot.bin"
else
	tail -n 20 "$work/build.log"
	not_ok "U-Boot rebuilt in another folder is byte-identical (build failed)"
fi
rm -rf "$work"
