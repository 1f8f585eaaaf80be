#!/usr/bin/env bash
# configure-kernel.sh VARIANT: write build/kernel-VARIANT/.config from
# kernel/configs/vexpress_tiny_defconfig.
#   tiny  the board as shipped: the defconfig as it is
#   base  the same with CONFIG_SYSCALL_SPLICE=y (splice built in)
#   audit the same with the fragment `make audit` wrote for the init program
#         (AUDIT_FRAGMENT, default build/audit/audit.fragment) on top
# CONFIG_FRAGMENTS (files) are merged on top of that; every line of every
# fragment must hold after olddefconfig (scripts/config-holds.sh).
# For tiny it also checks that the committed defconfig is canonical:
# savedefconfig must give the file back unchanged.
# DEFCONFIG and KOUT override the input file and the output folder.
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/kbuild-env.sh"

variant=${1:?usage: configure-kernel.sh tiny|base|audit}
audit_fragment=${AUDIT_FRAGMENT:-$TOP/build/audit/audit.fragment}
defconfig=${DEFCONFIG:-$TOP/kernel/configs/vexpress_tiny_defconfig}
out=${KOUT:-$TOP/build/kernel-$variant}
mkdir -p "$out"

configure() {
	local frags=${CONFIG_FRAGMENTS:-}
	cp "$defconfig" "$out/.config"
	"${KMAKE[@]}" O="$out" olddefconfig
	case $variant in
	tiny) ;;
	base)
		"$KSRC/scripts/config" --file "$out/.config" --enable SYSCALL_SPLICE
		"${KMAKE[@]}" O="$out" olddefconfig
		;;
	audit)
		[ -f "$audit_fragment" ] || { echo "no $audit_fragment: run 'make audit'"; return 1; }
		frags="$audit_fragment $frags"
		;;
	*) echo "unknown variant '$variant' (tiny, base or audit)"; return 1 ;;
	esac
	for frag in $frags; do
		"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag" &&
			"${KMAKE[@]}" O="$out" olddefconfig &&
			"$TOP/scripts/config-holds.sh" "$out/.config" "$frag" || return 1
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
