#!/usr/bin/env bash
# measure/kernels.sh: the board on Linux 6.1 and 6.12 in one table, one run
# (issue 25). `make measure-kernels` builds every board first, then runs this.
#
# Columns (build/kernel-<board>, images/<board>):
#   base            6.1, splice=y          tiny            6.1, splice=n
#   base-6.12       6.12, splice=y         tiny-6.12       6.12, splice=n
#                   (both with LD_DEAD_CODE_DATA_ELIMINATION, as the 6.12
#                   board's defconfig has it)
#   base-nodce-6.12, tiny-nodce-6.12   the same without it
#   tiny-slub-6.12  tiny-6.12 with SLUB_TINY=n (6.12's tinyconfig sets it,
#                   so tiny-6.12 is the SLUB_TINY=y column)
#   tiny-flash-6.12 tiny-6.12 with init and the served files on the NOR
#                   flash, no initramfs (mk/flash.mk)
#   trim-6.12       tiny-6.12 with the syscall table cut to the calls the
#                   audit proves init makes (CONFIG_SYSCALL_ALLOWLIST,
#                   docs/trim.md)
#   trim-flash-6.12 the flash board with the same list
# Figures per column: vmlinux text/data/bss, zImage (sizes.sh); the
# Memory: line, free RAM after boot and after MEASURE_SERVES fetches at
# -m MEASURE_RAM (boot.sh, one boot); the smallest -m that boots and serves
# MEASURE_MIN_CLIENTS clients at once (minram.sh, between MEASURE_MIN_LO and
# MEASURE_MIN_HI MiB, then MEASURE_MIN_FINE KiB steps).
# The kernel's RAM by owner (kram.py): .data, .bss and .rodata of each
# vmlinux by symbol and owner, and the largest boot-time allocations.
# Comparisons (bloat-o-meter, bloat.sh): splice=n on 6.1, on 6.12 (with
# dead-code elimination) and on 6.12 without it; dead-code elimination
# alone; SLUB_TINY; what the flash board's drivers add; what the
# allowlist removes.
#
# Settings: MEASURE_RAM=32 MEASURE_SERVES=3 MEASURE_MIN_LO=3 MEASURE_MIN_HI=7
#   MEASURE_MIN_FINE=8 MEASURE_MIN_CLIENTS=64
#   MEASURE_KERNELS="base tiny ..."   the columns (default all ten)
#   MEASURE_MIN=0   skip the smallest-RAM search (minutes per column)
#   MEASURE_OUT=images/measure-kernels   the report (.md, .json)
# Logs: build/logs/measure-kernels/, consoles build/logs/qemu/mk-*.log.
# Exit status: 0 report written, 1 a step failed or a board did not serve.
set -eu -o pipefail
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
here=$TOP/scripts/measure

ram=${MEASURE_RAM:-32}
serves=${MEASURE_SERVES:-3}
lo=${MEASURE_MIN_LO:-3} hi=${MEASURE_MIN_HI:-7} fine=${MEASURE_MIN_FINE:-8}
export MEASURE_MIN_CLIENTS=${MEASURE_MIN_CLIENTS:-64}
boards=${MEASURE_KERNELS:-base tiny base-6.12 tiny-6.12 base-nodce-6.12 tiny-nodce-6.12 tiny-slub-6.12 tiny-flash-6.12 trim-6.12 trim-flash-6.12}
out=${MEASURE_OUT:-$TOP/images/measure-kernels}
work=$TOP/build/measure-kernels
lg=measure-kernels
mkdir -p "$LOGS/$lg" "$(dirname "$out")"
rm -rf "$work" "$out.md" "$out.json" "$out.svg"
mkdir -p "$work"

for b in $boards; do
	[ -f "$TOP/images/$b/MANIFEST" ] || die "no images/$b (make measure-kernels builds it)"
done
echo "measure-kernels: $boards; logs in build/logs/$lg/"

tree_of() { case $1 in *-6.12) echo "$TOP/build/linux-6.12" ;; *) echo "$TOP/build/linux-6.1" ;; esac; }
# kv BOARD: prefix every key=value line with the board's name.
kv() { sed "s/^/$1./"; }

# Every do_* appends its key=value lines to $data (and to its phase log).
data=$work/data.env
do_sizes() {
	local b
	for b in $boards; do "$here/sizes.sh" "$b" | kv "$b" | tee -a "$data" || return; done
}
measured() { case " $boards " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
# bloat NAME OLD NEW: bloat-o-meter OLD -> NEW, if both columns are measured.
bloat() {
	measured "$2" && measured "$3" || return 0
	{
		"$here/bloat.sh" "$(tree_of "$3")" "$TOP/build/kernel-$2/vmlinux" \
			"$TOP/build/kernel-$3/vmlinux" "$work/bloat-$1.txt" 5 || return
		echo "from=$2"
		echo "to=$3"
	} | kv "cmp.$1" | tee -a "$data"
}
do_bloat() {
	bloat splice-6.1 base tiny &&
		bloat splice-6.12 base-6.12 tiny-6.12 &&
		bloat splice-6.12-nodce base-nodce-6.12 tiny-nodce-6.12 &&
		bloat dce-6.12 tiny-nodce-6.12 tiny-6.12 &&
		bloat slub-tiny-6.12 tiny-slub-6.12 tiny-6.12 &&
		bloat flash-6.12 tiny-6.12 tiny-flash-6.12 &&
		bloat trim-6.12 tiny-6.12 trim-6.12 &&
		bloat trim-flash-6.12 tiny-flash-6.12 trim-flash-6.12
}
# A board that does not serve is a warning: the report still comes out.
do_boot() {
	local b
	for b in $boards; do
		echo "-- $b at -m ${ram}M"
		"$here/boot.sh" "$b" "$ram" "mk-$b" "$serves" >"$work/boot-$b.env" ||
			echo "$b did not serve at -m ${ram}M ($(sed -n 's/^reason=//p' "$work/boot-$b.env"))" >>"$work/failures"
		kv "$b" <"$work/boot-$b.env" | tee -a "$data"
	done
}
do_minram() {
	local b
	for b in $boards; do
		echo "-- $b: $MEASURE_MIN_CLIENTS clients at once, $lo..$hi MiB, then $fine KiB steps"
		MEASURE_LOGS=mk "$here/minram.sh" "$b" "$lo" "$hi" "$fine" | kv "$b" | tee -a "$data" || return
	done
}

{
	echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "boards=$boards"
	echo "ram_mib=$ram"
	echo "serves=$serves"
	echo "min_clients=$MEASURE_MIN_CLIENTS"
	echo "min_fine_k=$fine"
} >"$data"
phase sizes "$lg/sizes" do_sizes
phase bloat "$lg/bloat" do_bloat
phase boot "$lg/boot" do_boot
[ "${MEASURE_MIN:-1}" = 0 ] || phase min-ram "$lg/min-ram" do_minram
if [ -f "$work/failures" ]; then
	awk '{ print "warning_" NR "=" $0 }' "$work/failures" >>"$data"
fi
"$here/kernels-render.py" "$data" "$out" | tee "$LOGS/$lg/report.log"
# The kernel's own RAM by owner, and the boot's largest allocations (from
# each board's console at -m RAM): a section of the same report.
do_kram() {
	local b args=()
	for b in $boards; do args+=("$b:$TOP/build/kernel-$b/vmlinux:$LOGS/qemu/mk-$b.log"); done
	"$here/kram.py" --append "$out" "${args[@]}"
}
phase kram "$lg/kram" do_kram
echo "measure-kernels: ${out#"$TOP"/}.md, .json, .svg"
[ ! -f "$work/failures" ] || die "some boards did not serve (build/logs/$lg/boot.log)"
