#!/usr/bin/env bash
# board/defconfig-update.sh [OUT]: make the board's defconfig from
# `make tinyconfig` + kernel/configs/vexpress_tiny.fragment (whose comments
# give every option's reason), then savedefconfig. Writes OUT, by default
# the committed kernel/configs/vexpress_tiny_defconfig. KSRC (kbuild-env.sh)
# selects the kernel tree; DEFCONFIG_WORK the scratch folder, one per tree.
set -eu
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/scripts/lib/kbuild.sh"
out=${1:-$TOP/kernel/configs/vexpress_tiny_defconfig}
work=${DEFCONFIG_WORK:-$TOP/build/defconfig-update}
frag=$TOP/kernel/configs/vexpress_tiny.fragment
mkdir -p "$work"

make_defconfig() {
	"${KMAKE[@]}" O="$work" tinyconfig
	"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$work" "$work/.config" "$frag"
	"${KMAKE[@]}" O="$work" olddefconfig
	"${KMAKE[@]}" O="$work" savedefconfig
}
phase defconfig defconfig-update make_defconfig
# Every line of the fragment must survive olddefconfig.
"$TOP/scripts/lib/config-holds.sh" "$work/.config" "$frag" ||
	die "the fragment asks for values Kconfig does not give (above)"
cp "$work/defconfig" "$out"
echo "  defconfig  ${out#"$TOP"/}"
