#!/usr/bin/env bash
# board/configure.sh VARIANT: write build/kernel-VARIANT/.config.
#   tiny  the board as shipped: kernel/configs/vexpress_tiny_defconfig
#   base  the same with CONFIG_SYSCALL_SPLICE=y (splice built in)
#   audit the same with the fragment `make audit` wrote for the init program
#         (AUDIT_FRAGMENT, default build/audit/audit.fragment) on top
#   vexpress       the kernel's own vexpress_defconfig with EXPERT=y (so the
#                  syscall options can be turned off), the series applied:
#                  what a user starts from
#   vexpress-trim  the same with the fragment `make audit BASE=vexpress`
#                  wrote (build/audit-vexpress/audit.fragment) on top
# CONFIG_FRAGMENTS (files) are merged on top of that; every line of every
# fragment must hold after olddefconfig (scripts/lib/config-holds.sh).
# For tiny it also checks that the committed defconfig is canonical:
# savedefconfig must give the file back unchanged.
# tiny-6.12 and base-6.12 are tiny and base on Linux 6.12 (mk/linux-6.12.mk
# sets KSRC and DEFCONFIG to the 6.12 tree and kernel/6.12/configs/).
# For `make measure-kernels` only (6.12; 6.1's ARM has neither option):
#   tiny-nodce-6.12, base-nodce-6.12  tiny and base with
#         LD_DEAD_CODE_DATA_ELIMINATION=n: the 6.12 board without mainline's
#         own tinification (kernel/6.12/configs/vexpress_tiny.fragment
#         turns it on)
#   tiny-slub-6.12  tiny with SLUB_TINY=n (6.12's tinyconfig sets it): what
#         SLUB_TINY gives
# The board trimmed to what init calls (6.12; mk/linux-6.12.mk):
#   trim-6.12  tiny-6.12 with CONFIG_SYSCALL_ALLOWLIST naming the syscalls
#         `make audit LINUX=6.12` found in init (build/audit-6.12/
#         syscall.allow, copied into the build folder): the rest of the
#         syscall table answers ENOSYS and dead-code elimination drops what
#         only it used. When the audit wrote no list (it failed closed), the
#         board is tiny-6.12 untrimmed, and this says why.
#   trim-flash-6.12  the flash board (below) with the same list
# The flash board (6.12; mk/flash.mk):
#   tiny-flash-6.12, base-flash-6.12  tiny and base with
#         kernel/configs/vexpress_flash.fragment: root on a romfs in the NOR
#         flash instead of an initramfs
# The XIP board (6.12; mk/xip.mk):
#   tiny-xip-6.12  tiny-flash-6.12 with kernel/configs/vexpress_xip.fragment:
#         the kernel executes in place from the NOR flash (docs/xip.md)
#   tiny-xip-17-6.12  the same with issue 42's RAM choices undone
#         (LOG_BUF_SHIFT=17, CRC32 slice-by-8), for `make measure-xip` only
# DEFCONFIG and KOUT override the input file and the output folder.
set -eu
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/scripts/lib/kbuild.sh"

variant=${1:?usage: board/configure.sh tiny|base|audit|vexpress|vexpress-trim|tiny[-nodce|-slub|-flash]-6.12|base[-nodce|-flash]-6.12}
kind=${variant%-6.12} # what to configure; the kernel is KSRC's
case $variant:$KSRC in
*-6.12:*/linux-6.12 | *-6.12:*/linux-6.12/) ;;
*-6.12:*) die "$variant needs KSRC=.../build/linux-6.12 (make board LINUX=6.12 sets it)" ;;
esac
known="tiny base audit vexpress vexpress-trim tiny-6.12 base-6.12 tiny-nodce-6.12 base-nodce-6.12 tiny-slub-6.12 tiny-flash-6.12 base-flash-6.12 trim-6.12 trim-flash-6.12 tiny-xip-6.12 tiny-xip-17-6.12"
case " $known " in
*" $variant "*) ;;
*)
	list=${known// /, }
	die "unknown variant '$variant' (${list%, *} or ${list##*, })"
	;;
esac
audit_fragment=${AUDIT_FRAGMENT:-$TOP/build/audit/audit.fragment}
defconfig=${DEFCONFIG:-$TOP/kernel/configs/vexpress_tiny_defconfig}
out=${KOUT:-$TOP/build/kernel-$variant}
mkdir -p "$out"

# stock_config: vexpress_defconfig + EXPERT=y in $out/.config.
stock_config() {
	"${KMAKE[@]}" O="$out" vexpress_defconfig &&
		"$KSRC/scripts/config" --file "$out/.config" --enable EXPERT &&
		"${KMAKE[@]}" O="$out" olddefconfig
}

# trim_config: the allowlist into $out/.config, or the reason there is none.
trim_config() {
	local allow=$TOP/build/audit-6.12/syscall.allow
	if [ ! -f "$allow" ]; then
		rm -f "$out/syscall.allow"
		"$KSRC/scripts/config" --file "$out/.config" --set-str SYSCALL_ALLOWLIST ""
		return 0
	fi
	cmp -s "$allow" "$out/syscall.allow" || cp "$allow" "$out/syscall.allow"
	"$KSRC/scripts/config" --file "$out/.config" --set-str SYSCALL_ALLOWLIST syscall.allow &&
		"${KMAKE[@]}" O="$out" olddefconfig &&
		grep -qx 'CONFIG_SYSCALL_ALLOWLIST="syscall.allow"' "$out/.config" ||
		{ echo "SYSCALL_ALLOWLIST does not hold"; return 1; }
}

configure() {
	local frags=${CONFIG_FRAGMENTS:-}
	case $kind in
	vexpress*) stock_config || return 1 ;;
	*)
		cp "$defconfig" "$out/.config"
		"${KMAKE[@]}" O="$out" olddefconfig
		;;
	esac
	case $kind in
	tiny | vexpress) ;;
	base)
		"$KSRC/scripts/config" --file "$out/.config" --enable SYSCALL_SPLICE
		"${KMAKE[@]}" O="$out" olddefconfig
		;;
	tiny-nodce | base-nodce)
		[ "$kind" = base-nodce ] && "$KSRC/scripts/config" --file "$out/.config" --enable SYSCALL_SPLICE
		"$KSRC/scripts/config" --file "$out/.config" --disable LD_DEAD_CODE_DATA_ELIMINATION
		"${KMAKE[@]}" O="$out" olddefconfig
		grep -qx '# CONFIG_LD_DEAD_CODE_DATA_ELIMINATION is not set' "$out/.config" ||
			{ echo "LD_DEAD_CODE_DATA_ELIMINATION=n does not hold"; return 1; }
		;;
	tiny-slub)
		"$KSRC/scripts/config" --file "$out/.config" --disable SLUB_TINY
		"${KMAKE[@]}" O="$out" olddefconfig
		grep -qx '# CONFIG_SLUB_TINY is not set' "$out/.config" ||
			{ echo "SLUB_TINY=n does not hold"; return 1; }
		;;
	tiny-flash | base-flash)
		if [ "$kind" = base-flash ]; then
			"$KSRC/scripts/config" --file "$out/.config" --enable SYSCALL_SPLICE
			"${KMAKE[@]}" O="$out" olddefconfig
		fi
		frags="$TOP/kernel/configs/vexpress_flash.fragment $frags"
		;;
	tiny-xip | tiny-xip-17)
		frags="$TOP/kernel/configs/vexpress_flash.fragment $TOP/kernel/configs/vexpress_xip.fragment $frags"
		[ "$kind" = tiny-xip ] || frags="$frags $TOP/kernel/configs/vexpress_kram17.fragment"
		;;
	trim | trim-flash)
		trim_config || return 1
		[ "$kind" = trim ] || frags="$TOP/kernel/configs/vexpress_flash.fragment $frags"
		;;
	audit)
		[ -f "$audit_fragment" ] || { echo "no $audit_fragment: run 'make audit'"; return 1; }
		frags="$audit_fragment $frags"
		;;
	vexpress-trim)
		f=$TOP/build/audit-vexpress/audit.fragment
		[ -f "$f" ] || { echo "no $f: run 'make audit BASE=vexpress'"; return 1; }
		frags="$f $frags"
		;;
	*) echo "no configuration for '$variant'"; return 1 ;; # checked above
	esac
	for frag in $frags; do
		"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag" &&
			"${KMAKE[@]}" O="$out" olddefconfig &&
			"$TOP/scripts/lib/config-holds.sh" "$out/.config" "$frag" || return 1
	done
}
# The trimmed stock kernel starts from a copy of the stock build folder (the
# copy keeps the time stamps), so Kbuild compiles only what the fragment
# changes: with debug info, a fresh build would take as long as the first.
# base (and base-6.12) starts from tiny's the same way: SYSCALL_SPLICE
# reaches fs.h, so about 480 of tiny's 645 objects are compiled again, but
# not the rest (the vmlinux and zImage are byte-identical to a cold build's,
# checked with cmp on 2026-12-07). KSEED names another folder (the block
# probe board's =y kernel starts from its =n one), KSEED= none.
case $variant in
base) seed=$TOP/build/kernel-tiny ;;
base-6.12) seed=$TOP/build/kernel-tiny-6.12 ;;
vexpress-trim) seed=$TOP/build/kernel-vexpress ;;
trim-6.12) seed=$TOP/build/kernel-tiny-6.12 ;;
trim-flash-6.12) seed=$TOP/build/kernel-tiny-flash-6.12 ;;
tiny-xip-6.12) seed=$TOP/build/kernel-tiny-flash-6.12 ;;
tiny-xip-17-6.12) seed=$TOP/build/kernel-tiny-xip-6.12 ;;
*) seed= ;;
esac
seed=${KSEED-$seed}
if [ -n "$seed" ] && [ ! -f "$out/.config" ] && [ -f "$seed/vmlinux" ]; then
	echo "  seed       ${out#"$TOP"/} from ${seed#"$TOP"/} (only what the fragment changes is built again)"
	cp -a "$seed/." "$out/"
fi
phase configure "configure-$variant" configure
if [ "$kind" = trim ] || [ "$kind" = trim-flash ]; then
	if [ -f "$out/syscall.allow" ]; then
		echo "  allowlist  $(grep -vc '^#' "$out/syscall.allow") syscalls kept (build/audit-6.12/syscall.allow)"
	else
		echo "  allowlist  none: the audit wrote none (build/audit-6.12/report.txt says why); the board keeps the whole syscall table" >&2
	fi
fi

if [ "$kind" = tiny ] && [ -z "${CONFIG_FRAGMENTS:-}" ]; then
	phase canonical "savedefconfig-$variant" "${KMAKE[@]}" O="$out" savedefconfig
	if ! diff -u "$defconfig" "$out/defconfig" >"$LOGS/defconfig.diff"; then
		cat "$LOGS/defconfig.diff" >&2
		case $variant in *-6.12) linux=" LINUX=6.12" ;; *) linux= ;; esac
		die "${defconfig#"$TOP"/} is not canonical: olddefconfig changes it (diff above). Regenerate it with 'make defconfig-update$linux'."
	fi
fi
