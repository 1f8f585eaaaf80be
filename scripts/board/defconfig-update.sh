#!/usr/bin/env bash
# board/defconfig-update.sh [OUT]: make the board's defconfig from
# `make tinyconfig` + kernel/configs/vexpress_tiny.fragment (whose comments
# give every option's reason) + EXTRA_FRAGMENTS (files, merged after it:
# 6.12's kernel/6.12/configs/vexpress_tiny.fragment), then savedefconfig.
# Writes OUT, by default the committed kernel/configs/vexpress_tiny_defconfig.
# KSRC (kbuild.sh) selects the kernel tree; DEFCONFIG_WORK the scratch
# folder, one per tree. `make defconfig-update [LINUX=6.12]` sets all of them.
set -eu
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/scripts/lib/kbuild.sh"
out=${1:-$TOP/kernel/configs/vexpress_tiny_defconfig}
work=${DEFCONFIG_WORK:-$TOP/build/defconfig-update}
frags="$TOP/kernel/configs/vexpress_tiny.fragment ${EXTRA_FRAGMENTS:-}"
mkdir -p "$work"

make_defconfig() {
	"${KMAKE[@]}" O="$work" tinyconfig
	# shellcheck disable=SC2086 # a list of paths without blanks
	"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$work" "$work/.config" $frags
	"${KMAKE[@]}" O="$work" olddefconfig
	"${KMAKE[@]}" O="$work" savedefconfig
}
phase defconfig "${work##*/}" make_defconfig
# Every line of every fragment must survive olddefconfig.
for frag in $frags; do
	"$TOP/scripts/lib/config-holds.sh" "$work/.config" "$frag" ||
		die "${frag#"$TOP"/} asks for values Kconfig does not give (above)"
done
cp "$work/defconfig" "$out"
echo "  defconfig  ${out#"$TOP"/}"
