#!/usr/bin/env bash
# configure-kernel.sh VARIANT: write build/kernel-VARIANT/.config from
# kernel/configs/vexpress_tiny_defconfig.
#   tiny  the board as shipped: the defconfig as it is
#   base  the same with CONFIG_SYSCALL_SPLICE=y (splice built in)
# For tiny it also checks that the committed defconfig is canonical:
# savedefconfig must give the file back unchanged.
# DEFCONFIG and KOUT override the input file and the output folder.
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/kbuild-env.sh"

variant=${1:?usage: configure-kernel.sh tiny|base}
defconfig=${DEFCONFIG:-$TOP/kernel/configs/vexpress_tiny_defconfig}
out=${KOUT:-$TOP/build/kernel-$variant}
mkdir -p "$out"

configure() {
	cp "$defconfig" "$out/.config"
	"${KMAKE[@]}" O="$out" olddefconfig
	case $variant in
	tiny) ;;
	base)
		"$KSRC/scripts/config" --file "$out/.config" --enable SYSCALL_SPLICE
		"${KMAKE[@]}" O="$out" olddefconfig
		;;
	*) echo "unknown variant '$variant' (tiny or base)"; return 1 ;;
	esac
	for frag in ${CONFIG_FRAGMENTS:-}; do
		"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag"
		"${KMAKE[@]}" O="$out" olddefconfig
	done
}
phase configure "configure-$variant" configure

if [ "$variant" = tiny ] && [ -z "${CONFIG_FRAGMENTS:-}" ]; then
	phase canonical "savedefconfig-$variant" "${KMAKE[@]}" O="$out" savedefconfig
	if ! diff -u "$defconfig" "$out/defconfig" >"$LOGS/defconfig.diff"; then
		cat "$LOGS/defconfig.diff" >&2
		die "${defconfig#"$TOP"/} is not canonical: olddefconfig changes it (diff above). Regenerate it with 'make defconfig-update'."
	fi
fi
