#!/usr/bin/env bash
# measure/ram.sh: what compiling out the splice family saves on the board,
# base (CONFIG_SYSCALL_SPLICE=y) against tiny (not set), side by side.
# `make measure-ram` builds both boards first and then runs this.
#
#   1. config  the two .config files may differ in CONFIG_SYSCALL_SPLICE only
#              (scripts/measure/config.sh); anything else: no report, exit 1
#   2. sizes   vmlinux text/data/bss, Image, zImage, uImage, initramfs
#   3. bloat   the kernel's scripts/bloat-o-meter, base -> tiny
#   4. boot    each board twice at -m MEASURE_RAM: the Memory: line, the
#              program's RAM banner, test.bin fetched MEASURE_SERVES times
#   5. min-ram the smallest -m that boots and serves MEASURE_MIN_CLIENTS
#              clients at once, by bisection to 8 KiB
#   6. serve   what each way of serving costs (sendfile on base; read/write,
#              mmap and read/write with a 64 KiB buffer on tiny): free RAM
#              after boot, after sequential fetches and at the lowest while
#              MEASURE_LOAD_CLIENTS fetch at once (and over time meanwhile:
#              the server's console `ram on`), server CPU per MiB,
#              throughput, smallest RAM for the mmap fallback
#              (scripts/measure/serve.sh; MEASURE_SERVE=0 skips it)
#   7. report  table on the terminal, MEASURE_OUT.md/.json/.svg, with the
#              kernel's own RAM by owner and the boot's largest allocations
#              (scripts/measure/kram.py, JSON key "kernel_ram")
#   8. audit   with AUDIT=1 (`make measure-ram AUDIT=1`): what the fragment
#              of `make audit` saves on top of tiny (scripts/measure/audit.sh),
#              added to the report as its own section and JSON "audit" key
#
# Settings (environment):
#   MEASURE_RAM=32          MiB for the boot figures
#   MEASURE_SERVES=3        test.bin fetches before the "after serving" figures
#   MEASURE_MIN_LO=4 MEASURE_MIN_HI=16 (MiB) MEASURE_MIN_FINE=8 (KiB)  bisection
#   MEASURE_MIN_CLIENTS=64  clients at once for the smallest-RAM figure
#   MEASURE_LOAD_CLIENTS=16 clients at once in the serving table
#   MEASURE_OUT=images/measure-ram   report prefix
#   MEASURE_WORK=build/measure       figures collected on the way (data.env, ...)
#   MEASURE_LOGS=measure    phase logs go to build/logs/$MEASURE_LOGS/
#   MEASURE_TINY_CONFIG / MEASURE_BASE_CONFIG   the configs the guard checks
#                           (default build/kernel-<variant>/.config)
# Logs: build/logs/measure/*.log, consoles in build/logs/qemu/measure-*.log.
# Exit status: 0 report written; 1 refused (configs) or a step failed, or a
# board did not serve at -m MEASURE_RAM (the report is still written).
set -eu -o pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
here=$TOP/scripts/measure

ram=${MEASURE_RAM:-32}
serves=${MEASURE_SERVES:-3}
lo=${MEASURE_MIN_LO:-4} hi=${MEASURE_MIN_HI:-16} fine=${MEASURE_MIN_FINE:-8}
min_clients=${MEASURE_MIN_CLIENTS:-64} load_clients=${MEASURE_LOAD_CLIENTS:-16}
export MEASURE_MIN_LO=$lo MEASURE_MIN_HI=$hi MEASURE_MIN_FINE=$fine MEASURE_MIN_CLIENTS=$min_clients
out=${MEASURE_OUT:-$TOP/images/measure-ram}
tiny_cfg=${MEASURE_TINY_CONFIG:-$TOP/build/kernel-tiny/.config}
base_cfg=${MEASURE_BASE_CONFIG:-$TOP/build/kernel-base/.config}
work=${MEASURE_WORK:-$TOP/build/measure}
lg=${MEASURE_LOGS:-measure}
data=$work/data.env

mkdir -p "$LOGS/$lg" "$(dirname "$out")"
rm -rf "$work"
mkdir -p "$work"
# A report from an earlier run must not pass for this one.
rm -f "$out.md" "$out.json" "$out.svg"

echo "measure-ram: base (splice=y) against tiny (splice=n); logs in build/logs/$lg/"

# prefix P: put P in front of every key=value line.
prefix() { sed "s/^/$1/"; }

do_config() {
	"$here/config.sh" "$tiny_cfg" "$base_cfg" | tee "$work/config.env"
}
do_sizes() {
	local v
	for v in base tiny; do
		"$here/sizes.sh" "$v" | prefix "$v." | tee -a "$work/sizes.env" || return
	done
}
do_bloat() {
	"$here/bloat.sh" "$TOP/build/linux-6.1" "$TOP/build/kernel-base/vmlinux" \
		"$TOP/build/kernel-tiny/vmlinux" "$work/bloat-o-meter.txt" | tee "$work/bloat.env"
}
# (phase runs these inside an "if": set -e is off there, hence the returns.)
# A boot that does not serve is recorded as a warning; the report still
# comes out (with that board's figures pending) and measure-ram exits 1.
do_boot() {
	local v r
	for v in base tiny; do
		for r in 1 2; do
			echo "-- $v run $r at -m ${ram}M"
			if ! "$here/boot.sh" "$v" "$ram" "$lg-$v-run$r" "$serves" >"$work/boot-$v-$r.env"; then
				echo "$v run $r did not serve at -m ${ram}M: $(sed -n 's/^reason=//p' "$work/boot-$v-$r.env")" >>"$work/failures"
			fi
			prefix "$v.run$r." <"$work/boot-$v-$r.env" | tee -a "$work/boot.env" || return
		done
	done
}
do_minram() {
	local v
	for v in base tiny; do
		echo "-- $v: $min_clients clients at once; bisection between $lo and $hi MiB, then steps of $fine KiB"
		MEASURE_LOGS=$lg "$here/minram.sh" "$v" "$lo" "$hi" "$fine" | prefix "$v." | tee -a "$work/minram.env" || return
	done
}

phase config "$lg/config" do_config
phase sizes "$lg/sizes" do_sizes
phase bloat "$lg/bloat" do_bloat
phase boot "$lg/boot" do_boot
do_serve() {
	"$here/serve.sh" "$ram" "$serves" "$load_clients" "$work" "$lg" | tee "$work/serve.env" ||
		echo "a serving measurement did not serve at -m ${ram}M (see build/logs/$lg/serve.log)" >>"$work/failures"
}

phase min-ram "$lg/min-ram" do_minram
if [ "${MEASURE_SERVE:-1}" = 1 ]; then
	phase serve "$lg/serve" do_serve
else
	: >"$work/serve.env"
fi

kver=$(awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
	$1 == "SUBLEVEL" { s = $2 } END { print v "." p "." s }' "$TOP/build/linux-6.1/Makefile")
{
	echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "kernel_version=$kver"
	echo "ram_mib=$ram"
	echo "serves=$serves"
	echo "min_clients=$min_clients"
	echo "load_clients=$load_clients"
	if grep -q '^CONFIG_PROC_FS=y' "$tiny_cfg"; then echo "proc_fs=y"; else echo "proc_fs=n"; fi
	cat "$work/config.env" "$work/sizes.env" "$work/bloat.env" "$work/boot.env" "$work/minram.env" \
		"$work/serve.env"
	if [ -f "$work/failures" ]; then
		awk '{ print "warning_" NR "=" $0 }' "$work/failures"
	fi
} >"$data"

"$here/render.py" "$data" "$out" | tee "$LOGS/$lg/report.log"
if [ -s "$work/serve.env" ]; then
	"$here/serve-render.py" "$data" "$out" | tee -a "$LOGS/$lg/report.log"
fi
# The kernel's own RAM by owner and the boot's largest allocations (kram.py).
do_kram() {
	"$here/kram.py" --append "$out" "base:$TOP/build/kernel-base/vmlinux:$LOGS/qemu/$lg-base-run1.log" \
		"tiny:$TOP/build/kernel-tiny/vmlinux:$LOGS/qemu/$lg-tiny-run1.log"
}
phase kram "$lg/kram" do_kram
if [ "${AUDIT:-}" = 1 ]; then
	phase audit "$lg/audit" sh -c '"$1" "$2" "$3" "$4" "$5" >"$4/audit.env"' _ \
		"$here/audit.sh" "$ram" "$serves" "$work" "$lg"
	"$here/audit-render.py" "$work/audit.env" "$out" | tee -a "$LOGS/$lg/report.log" ||
		echo "the audit board did not serve at -m ${ram}M" >>"$work/failures"
fi
echo "measure-ram: ${out#"$TOP"/}.md, .json, .svg"
if [ -f "$work/failures" ]; then
	die "some boots did not serve (see the warnings above and build/logs/$lg/boot.log)"
fi
