#!/usr/bin/env bash
# configure-kernel.sh VARIANT: write build/kernel-VARIANT/.config from
# kernel/configs/vexpress_tiny_defconfig.
#   tiny  the board as shipped: the defconfig as it is
#   base  the same with CONFIG_SYSCALL_SPLICE=y (splice built in)
#   audit the same with the fragment `make audit` wrote for the init program
#         (AUDIT_FRAGMENT, default build/audit/audit.fragment) on top; every
#         line of it must survive olddefconfig
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

# fragment_held FILE: every CONFIG_ line of FILE is in the .config as written
# (Kconfig drops an =n whose option something else selects).
fragment_held() {
	local line bad=0
	while read -r line; do
		case $line in CONFIG_* | "# CONFIG_"*" is not set") ;; *) continue ;; esac
		grep -qxF "$line" "$out/.config" || { echo "fragment line did not hold: $line"; bad=1; }
	done <"$1"
	return "$bad"
}

configure() {
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
		"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$audit_fragment"
		"${KMAKE[@]}" O="$out" olddefconfig
		fragment_held "$audit_fragment"
		;;
	*) echo "unknown variant '$variant' (tiny, base or audit)"; return 1 ;;
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
