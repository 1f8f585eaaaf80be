#!/usr/bin/env bash
# audit/audit.sh: the static syscall audit of the board's programs, and the Kconfig
# fragment of what they never need.
#   1. kmap     scripts/audit/kmap.py: syscall table -> Kconfig options, from
#               the patched tree and the tiny board's .config
#   2. static   scripts/audit/syscalls.py: every svc site of each program,
#               with the code the target kernel makes dead left out (ENOSYS
#               fallbacks of syscalls the config has, code after exit_group:
#               --kmap)
#   3. report   scripts/audit/report.py: report + fragment
#   4. holds    the fragment applied with Kconfig (olddefconfig on a copy of
#               the config): lines that do not hold leave the fragment
# AUDIT_ELFS (default: the init program, unstripped, same code as the one in
# the initramfs) chooses the programs. AUDIT_BASE chooses the configuration
# audited: tiny (default, the board's kernel/configs/vexpress_tiny_defconfig)
# or vexpress (the kernel's own vexpress_defconfig with EXPERT=y, the
# series applied: build/kernel-vexpress/.config). Output in build/audit/
# (tiny) or build/audit-vexpress/: report.txt, kmap.json, syscalls.json, and
# audit.fragment, which is replaced only when its content changes (so the
# kernel built with it is not reconfigured for nothing), and syscall.allow,
# the syscalls the programs make, for CONFIG_SYSCALL_ALLOWLIST (6.12's patch:
# the rest of the table answers ENOSYS), written only when the audit
# accounted for every svc site (scripts/audit/allowlist.py, which also
# leaves it untouched when it does not change).
# needs.fragment: the other side, the options they need that the config has
# off (CONFIG_X=y, scripts/audit/needs.py); product.fragment: both sides,
# checked with Kconfig (not used by any board yet).
# AUDIT_LINUX=6.12 audits against the 6.12 tree and tiny-6.12's config
# (out: build/audit-6.12/), for the board trimmed to the allowlist
# (trim-6.12, mk/linux-6.12.mk).
set -eu
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/scripts/lib/kbuild.sh"
cd "$TOP" # paths in the report and the fragment stay relative
base=${AUDIT_BASE:-tiny}
case $base in
tiny) out=build/audit sfx='' measured=images/measure-ram.json ;;
vexpress) out=build/audit-vexpress sfx=-vexpress measured= ;;
*) die "audit: AUDIT_BASE=$base: use tiny or vexpress" ;;
esac
ktree=build/linux-6.1
config=build/kernel-$base/.config
case ${AUDIT_LINUX:-6.1}:$base in
6.1:*) ;;
6.12:tiny)
	out=build/audit-6.12 sfx=-6.12 measured=
	ktree=build/linux-6.12 config=build/kernel-tiny-6.12/.config
	;;
*) die "audit: AUDIT_LINUX=$AUDIT_LINUX with AUDIT_BASE=$base: use 6.1, or 6.12 with tiny" ;;
esac
KMAKE[2]=$TOP/$ktree # Kconfig's checks below run in the audited tree (kbuild.sh: -C KSRC)
elfs=${AUDIT_ELFS:-build/app/arm/init.unstripped}
# AUDIT_IMAGE=PATH (make audit IMAGE=PATH): the whole root filesystem (a
# folder, cpio, cpio.gz or tar) instead, linked as its loader links it
# (scripts/audit/audit-image.py); AUDIT_PROGRAMS names the product's
# programs (default: every executable). Out: build/audit-image$sfx/, with
# PROGRAM.names per program and image.json beside the report.
image=${AUDIT_IMAGE:-}
[ -z "$image" ] || { out=build/audit-image$sfx elfs='' measured=''; }
mkdir -p "$out"
for f in $elfs "$config" "$ktree/arch/arm/tools/syscall.tbl"; do
	[ -f "$f" ] || die "audit: missing $f (run 'make audit BASE=$base' from the top)"
done
[ -z "$image" ] || [ -e "$image" ] || die "audit: IMAGE=$image does not exist"

phase kmap "audit-kmap$sfx" sh -c '"$1" "$2" --config "$3" >"$4"' _ \
	"$TOP/scripts/audit/kmap.py" "$ktree" "$config" "$out/kmap.json"
if [ -n "$image" ]; then
	echo "audit: the image $image (programs: ${AUDIT_PROGRAMS:-every executable}), against $config"
	phase image "audit-image$sfx" "$TOP/scripts/audit/audit-image.py" "$image" --out "$out" \
		--ktree "$ktree" --kmap "$out/kmap.json" ${AUDIT_PROGRAMS:+--programs "$AUDIT_PROGRAMS"}
	sed 's/^/  /' "$LOGS/audit-image$sfx.log"
else
	echo "audit: $(echo "$elfs" | wc -w) program(s): $elfs, against $config"
	# shellcheck disable=SC2086 # one word per program
	phase static "audit-static$sfx" sh -c 'f=$1; shift; "$@" >"$f"' _ "$out/syscalls.json" \
		"$TOP/scripts/audit/syscalls.py" --ktree "$ktree" --kmap "$out/kmap.json" --json $elfs
fi
phase report "audit-report$sfx" "$TOP/scripts/audit/report.py" "$out/kmap.json" \
	"$out/syscalls.json" "$out/audit.fragment.new" ${measured:+"$measured"}
cp "$LOGS/audit-report$sfx.log" "$out/report.txt"

# 4. holds: Kconfig has the last word. An option another one selects (KCMP
# under DRM) stays on whatever the fragment says: apply the fragment to a
# copy of the config, run olddefconfig, and move every line that does not
# hold from the fragment to the report, until all hold.
# gone_with CONFIG: the options on in the audited config that CONFIG lost
# without the fragment naming them (they depend on one it turns off).
gone_with() {
	local g
	g=$(LC_ALL=C comm -23 <(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=y$/\1/p' "$config" | LC_ALL=C sort) \
		<(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=y$/\1/p' "$1" | LC_ALL=C sort) |
		grep -vxF -f <(sed -n 's/^# CONFIG_\(.*\) is not set$/\1/p' "$out/audit.fragment.new") |
		tr '\n' ' ') || true
	[ -z "$g" ] || echo "  with the fragment these options, on now, go too (they depend on one it turns off): $g"
}
holds() {
	local t=$TOP/$out/kconfig-check bad
	for _ in 1 2 3; do
		rm -rf "$t"
		mkdir -p "$t"
		cp "$config" "$t/.config"
		"$ktree/scripts/kconfig/merge_config.sh" -m -O "$t" "$t/.config" "$out/audit.fragment.new" &&
			"${KMAKE[@]}" O="$t" olddefconfig || return 1
		bad=$("$TOP/scripts/lib/config-holds.sh" "$t/.config" "$out/audit.fragment.new" 2>&1 |
			sed -n "s/^fragment [^:]*: '# \(CONFIG_[A-Za-z0-9_]*\) is not set'.*/\1/p") || true
		if [ -z "$bad" ]; then
			gone_with "$t/.config" >>"$out/report.txt"
			return 0
		fi
		for o in $bad; do
			echo "  $o: =n does not hold here (Kconfig keeps it on: another option selects it); left out of the fragment" |
				tee -a "$out/report.txt"
			grep -vx "# $o is not set" "$out/audit.fragment.new" >"$out/audit.fragment.tmp"
			mv "$out/audit.fragment.tmp" "$out/audit.fragment.new"
		done
	done
	return 1
}
phase holds "audit-holds$sfx" holds
n=$(grep -c '^# CONFIG_.* is not set$' "$out/audit.fragment.new" || true)
echo "fragment after Kconfig's check: $n option(s) set to n" >>"$out/report.txt"
if cmp -s "$out/audit.fragment.new" "$out/audit.fragment"; then
	rm -f "$out/audit.fragment.new"
else
	mv "$out/audit.fragment.new" "$out/audit.fragment"
fi
# 5. allowlist: every syscall the programs make, or none when the audit
# could not account for them all (the reason goes to the report).
rc=0
"$TOP/scripts/audit/allowlist.py" "$out/syscalls.json" "$out/audit.fragment" \
	"$out/syscall.allow" >"$out/allowlist.txt" || rc=$?
tee -a "$out/report.txt" <"$out/allowlist.txt"
case $rc in
0 | 3) ;;
*) die "audit: scripts/audit/allowlist.py failed ($rc)" ;;
esac
allow=", allowlist $out/syscall.allow"
[ "$rc" = 0 ] || allow=" (no allowlist)"

# 6. needs: the other side of the fragment (scripts/audit/needs.py): the
# options the programs need that the audited config has off, CONFIG_X=y,
# each with the programs and syscalls (or arguments: audit/gates.py) that
# need it. product.fragment is both sides: the product's kernel is the
# audited config (tiny) plus it. Kconfig checks it (olddefconfig on a copy):
# a =y line that does not hold is reported with its Kconfig conditions
# (scripts/audit/kdeps.py), and the options that come along with the
# fragment (on after olddefconfig, not named in it) are listed.
phase needs "audit-needs$sfx" "$TOP/scripts/audit/needs.py" "$out/kmap.json" "$config" \
	"$out/needs.fragment" --json "$out/needs.json" "$out/syscalls.json"
tee -a "$out/report.txt" <"$LOGS/audit-needs$sfx.log" | grep -E '^  (CONFIG|INCOMPLETE|UNRESOLVED)' || true
cat "$out/audit.fragment" "$out/needs.fragment" >"$out/product.fragment"
product_holds() {
	local t=$TOP/$out/kconfig-product bad along
	rm -rf "$t"
	mkdir -p "$t"
	cp "$config" "$t/.config"
	{ "$ktree/scripts/kconfig/merge_config.sh" -m -O "$t" "$t/.config" "$out/product.fragment" &&
		"${KMAKE[@]}" O="$t" olddefconfig; } >"$t/olddefconfig.log" 2>&1 || {
		tail -n 20 "$t/olddefconfig.log"
		return 1
	}
	bad=$("$TOP/scripts/lib/config-holds.sh" "$t/.config" "$out/product.fragment" 2>&1 |
		sed -n "s/^fragment [^:]*: 'CONFIG_\([A-Za-z0-9_]*\)=y'.*/\1/p") || true
	if [ -n "$bad" ]; then
		echo "product fragment: DOES NOT HOLD on $config for:"
		# shellcheck disable=SC2086 # one word per option
		"$TOP/scripts/audit/kdeps.py" "$ktree" "$t/.config" $bad | sed 's/^/  /'
	fi
	along=$(LC_ALL=C comm -13 <(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=y$/\1/p' "$config" | LC_ALL=C sort) \
		<(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=y$/\1/p' "$t/.config" | LC_ALL=C sort) |
		grep -vxF -f <(sed -n 's/^CONFIG_\(.*\)=y$/\1/p' "$out/product.fragment"; echo .) |
		tr '\n' ' ') || true
	echo "product fragment: $(grep -c '=y$' "$out/product.fragment") option(s) on," \
		"$(echo "$bad" | grep -c . || true) not holding; on with them (selected or defaulted): ${along:-none}"
}
phase product "audit-product$sfx" product_holds
tee -a "$out/report.txt" <"$LOGS/audit-product$sfx.log"
echo "audit: report in $out/report.txt, fragment $out/audit.fragment$allow;" \
	"both sides: $out/product.fragment"
