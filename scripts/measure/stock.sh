#!/usr/bin/env bash
# measure/stock.sh: the audit of init on the kernel users start from, measured
# (`make measure-audit BASE=vexpress`): the stock kernel (vexpress_defconfig
# with EXPERT=y, the series applied; images/vexpress) against the same with
# the fragment of `make audit BASE=vexpress` (images/vexpress-trim), with the
# machinery of measure-ram:
#
#   1. config   every line of the fragment holds in the trimmed .config;
#               the other symbols that changed with it are listed
#   2. sizes    vmlinux text/data/bss, Image, zImage, uImage
#   3. bloat    bloat-o-meter, stock -> trimmed
#   4. options  what each option saves, one build per option
#               (scripts/measure/options.sh); the chain must end in the
#               trimmed .config
#   5. boot     each board once at -m MEASURE_RAM: the Memory: line, free RAM
#               after boot, test.bin fetched MEASURE_SERVES times
#   6. min-ram  the smallest -m that boots and serves MEASURE_MIN_CLIENTS
#               clients at once (scripts/measure/minram.sh)
#   7. report   MEASURE_OUT.md and .json (scripts/measure/stock-render.py)
#
# Settings (environment): MEASURE_RAM=64 (MiB; the stock kernel prints
# nothing at 32 under QEMU's loader), MEASURE_SERVES=3,
# MEASURE_MIN_LO=8 MEASURE_MIN_HI=64 (MiB) MEASURE_MIN_FINE=256 (KiB),
# MEASURE_MIN_CLIENTS=64, MEASURE_OPTIONS=1 (0 skips phase 4),
# MEASURE_OPTIONS_FROM=FILE (phase 4's figures from an earlier run's
# options.env, whose chain folder is still there),
# MEASURE_OUT=images/audit-vexpress, MEASURE_WORK=build/measure-stock.
# Logs: build/logs/measure-stock/. Exit status 0 report written; 1 a step
# failed or a board did not serve (the report is still written then).
set -eu -o pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
here=$TOP/scripts/measure

ram=${MEASURE_RAM:-64}
serves=${MEASURE_SERVES:-3}
lo=${MEASURE_MIN_LO:-8} hi=${MEASURE_MIN_HI:-64} fine=${MEASURE_MIN_FINE:-256}
export MEASURE_MIN_CLIENTS=${MEASURE_MIN_CLIENTS:-64}
out=${MEASURE_OUT:-$TOP/images/audit-vexpress}
work=${MEASURE_WORK:-$TOP/build/measure-stock}
lg=measure-stock
export MEASURE_LOGS=$lg
stock=$TOP/build/kernel-vexpress trim=$TOP/build/kernel-vexpress-trim
frag=$TOP/build/audit-vexpress/audit.fragment
data=$work/data.env

for f in "$stock/vmlinux" "$trim/vmlinux" "$frag" "$TOP/images/vexpress/MANIFEST" \
	"$TOP/images/vexpress-trim/MANIFEST"; do
	[ -f "$f" ] || die "measure-stock: missing ${f#"$TOP"/} (run 'make audit-board BASE=vexpress')"
done
mkdir -p "$LOGS/$lg" "$(dirname "$out")"
rm -rf "$work"
mkdir -p "$work"
rm -f "$out.md" "$out.json"
echo "measure-stock: vexpress_defconfig (stock) against stock + the audit fragment; logs in build/logs/$lg/"

do_config() {
	"$here/../lib/config-holds.sh" "$trim/.config" "$frag" || return
	echo "fragment_options=$(sed -n 's/^# CONFIG_\(.*\) is not set$/\1/p' "$frag" | tr '\n' ' ' | sed 's/ $//')"
	"$here/config-normalize.sh" "$stock/.config" >"$work/stock.cfg"
	"$here/config-normalize.sh" "$trim/.config" >"$work/trim.cfg"
	# Symbols the fragment changed, and those that went with them: on (=y)
	# in stock and off or gone in the trimmed kernel, not named in the
	# fragment (options that depend on the ones turned off: NFS on
	# MULTIUSER, say).
	echo "config_changed=$(LC_ALL=C comm -13 "$work/stock.cfg" "$work/trim.cfg" | cut -d= -f1 |
		sed 's/^CONFIG_//' | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//')"
	echo "config_gone=$(LC_ALL=C comm -23 <(grep '=y$' "$work/stock.cfg" | cut -d= -f1 | LC_ALL=C sort) \
		<(grep '=y$' "$work/trim.cfg" | cut -d= -f1 | LC_ALL=C sort) | sed 's/^CONFIG_//' |
		grep -vxF -f <(sed -n 's/^# CONFIG_\(.*\) is not set$/\1/p' "$frag") |
		tr '\n' ' ' | sed 's/ $//')"
}
do_sizes() {
	local v
	for v in vexpress vexpress-trim; do
		"$here/sizes.sh" "$v" | sed "s/^/${v//-/_}./" || return
	done
}
do_bloat() {
	"$here/bloat.sh" "$TOP/build/linux-6.1" "$stock/vmlinux" "$trim/vmlinux" \
		"$work/bloat-o-meter.txt" 10
}
do_options() {
	if [ -n "${MEASURE_OPTIONS_FROM:-}" ]; then
		# The per-option builds of an earlier run (its options.env; its
		# chain folder must still be there): an hour of builds not redone.
		cp "$MEASURE_OPTIONS_FROM" "$work/options.raw"
	else
		"$here/options.sh" "$stock" "$frag" "$work/options" >"$work/options.raw" || return
	fi
	cat "$work/options.raw"
	local last
	last=$(sed -n 's/^chain_config=//p' "$work/options.raw")
	if "$here/config-normalize.sh" "$last" | cmp -s - "$work/trim.cfg"; then
		echo "chain_matches_trim=1"
	else
		echo "chain_matches_trim=0"
		"$here/config-normalize.sh" "$last" | diff - "$work/trim.cfg" >&2 || true
	fi
}
do_boot() {
	local v
	for v in vexpress vexpress-trim; do
		echo "-- $v at -m ${ram}M"
		"$here/boot.sh" "$v" "$ram" "$lg-$v" "$serves" >"$work/boot-$v.env" ||
			echo "$v did not serve at -m ${ram}M: $(sed -n 's/^reason=//p' "$work/boot-$v.env")" >>"$work/failures"
		sed "s/^/${v//-/_}.boot./" "$work/boot-$v.env"
	done
}
do_minram() {
	local v
	for v in vexpress vexpress-trim; do
		echo "-- $v: $MEASURE_MIN_CLIENTS clients at once; bisection between $lo and $hi MiB, then steps of $fine KiB"
		"$here/minram.sh" "$v" "$lo" "$hi" "$fine" | sed "s/^/${v//-/_}./" || return
	done
}

step() { # NAME: do_NAME, key=value lines into WORK/NAME.env, log in build/logs
	local name=$1 log=$LOGS/$lg/$1.log start=$SECONDS
	printf '  %-10s %s\n' "$name" "${log#"$TOP"/}"
	if ! "do_$name" >"$work/$name.env" 2>"$log"; then
		echo "error: $name failed; last lines of ${log#"$TOP"/}:" >&2
		tail -n 30 "$log" | sed 's/^/  | /' >&2
		echo "$name failed (build/logs/$lg/$name.log)" >>"$work/failures"
		return 1
	fi
	printf '  %-10s done in %ss\n' "$name" $((SECONDS - start))
}

step config || die "measure-stock: the fragment does not hold in the trimmed kernel's .config"
step sizes || true
step bloat || true
[ "${MEASURE_OPTIONS:-1}" = 0 ] || step options || true
step boot || true
step minram || true
{
	echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "ram_mib=$ram"
	echo "serves=$serves"
	echo "min_clients=$MEASURE_MIN_CLIENTS"
	echo "min_lo=$lo"
	echo "min_hi=$hi"
	echo "min_fine=$fine"
	for f in config sizes bloat options boot minram; do
		[ ! -f "$work/$f.env" ] || cat "$work/$f.env"
	done
	[ ! -f "$work/failures" ] || awk '{ print "warning_" NR "=" $0 }' "$work/failures"
} >"$data"
"$here/stock-render.py" "$data" "$out" | tee "$LOGS/$lg/report.log"
echo "measure-stock: ${out#"$TOP"/}.md, .json"
[ ! -f "$work/failures" ] || die "measure-stock: $(wc -l <"$work/failures") step(s) failed (see the warnings above)"
