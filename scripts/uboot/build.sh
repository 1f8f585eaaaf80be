#!/usr/bin/env bash
# uboot/build.sh: configure and build U-Boot for the board in build/u-boot:
# vexpress_ca9x4_defconfig plus uboot/vexpress-tiny.fragment, checked to
# hold, then u-boot.bin. Reproducible: SOURCE_DATE_EPOCH fixes the version
# string's date and time, and the build uses relative paths. Run by
# mk/uboot.mk only when the source or the fragment changed. UBOOT_OUT
# builds elsewhere (the reproducibility test), UBOOT_LOG names its logs,
# UBOOT_FRAGMENT replaces the fragment (the XIP board's U-Boot in flash,
# uboot/vexpress-xip.fragment), UBOOT_PATCHES names a folder of patches
# applied (in name order) to a copy of the source, $UBOOT_OUT-src, made of
# hard links (patch replaces the files it changes; the shared tree stays
# Debian's).
set -eu
. "$(dirname "$0")/../lib/common.sh"
src=$TOP/build/u-boot-src
out=${UBOOT_OUT:-$TOP/build/u-boot}
frag=${UBOOT_FRAGMENT:-$TOP/uboot/vexpress-tiny.fragment}
log=${UBOOT_LOG:-uboot}
[ -f "$src/.extracted" ] || die "$src missing: run scripts/uboot/extract.sh"

export ARCH=arm CROSS_COMPILE=arm-linux-gnueabi-
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1704067200} # 2024-01-01 00:00 UTC
export KBUILD_BUILD_USER=board KBUILD_BUILD_HOST=board
if [ -n "${UBOOT_PATCHES:-}" ]; then
	rm -rf "$out-src"
	cp -al "$src" "$out-src"
	for p in "$UBOOT_PATCHES"/*.patch; do
		patch -s -p1 -d "$out-src" <"$p" || die "${p#"$TOP"/} does not apply to $src"
	done
	src=$out-src
fi
umake=(make -C "$src" O="$out" -j"${JOBS:-$(nproc)}")
if command -v ccache >/dev/null 2>&1 && [ "${USE_CCACHE:-1}" = 1 ]; then
	umake+=(CC="ccache ${CROSS_COMPILE}gcc")
fi

mkdir -p "$out"
phase configure "$log-configure" sh -c '
	"$@" vexpress_ca9x4_defconfig &&
	"$0/scripts/kconfig/merge_config.sh" -m -O "'"$out"'" "'"$out"'/.config" "'"$frag"'" &&
	"$@" olddefconfig' "$src" "${umake[@]}"
"$TOP/scripts/lib/config-holds.sh" "$out/.config" "$frag" ||
	die "${frag#"$TOP"/} does not hold in $out/.config"
phase build "$log-build" "${umake[@]}" u-boot.bin
touch "$out/u-boot.bin"
echo "  u-boot     ${out#"$TOP"/}/u-boot.bin $(stat -c %s "$out/u-boot.bin") B"
