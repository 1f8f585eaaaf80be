#!/usr/bin/env bash
# measure/serve.sh RAM SERVES CLIENTS WORK LOGS
#
# What each way of serving costs, side by side: the boards booted at -m RAM
# MiB twice per way, test.bin fetched SERVES times one after the other and
# then by CLIENTS clients at once (scripts/measure/boot.sh), and, for the
# ways named in MEASURE_SERVE_MINRAM (default "tiny-mmap"), the smallest RAM
# serving MEASURE_MIN_CLIENTS clients at once (scripts/measure/minram.sh;
# base and tiny-read come from measure-ram's own min-ram phase).
#
# The ways (name variant kernel-command-line-words):
#   base-sendfile  base  -                  sendfile, splice built in
#   tiny-read      tiny  -                  the default read/write fallback
#   tiny-mmap      tiny  srv_fallback=mmap  send() from a file mapping
#   tiny-read64k   tiny  srv_rwbuf=65536    read/write, the old 64 KiB buffer
#
# Prints key=value lines: <way>.run<N>.<measure-boot key> (with
# load_ram_series: free RAM over time while the CLIENTS fetch) and
# <way>.min_ram_* ; "serve_ways=..." lists the ways in order.
set -u
[ $# -eq 5 ] || { echo "usage: $0 RAM SERVES CLIENTS WORK LOGS" >&2; exit 2; }
ram=$1 serves=$2 clients=$3 work=$4 lg=$5
here=$(cd "$(dirname "$0")" && pwd)
minram_ways=${MEASURE_SERVE_MINRAM-tiny-mmap}

ways=(base-sendfile tiny-read tiny-mmap tiny-read64k)
declare -A variant=([base-sendfile]=base [tiny-read]=tiny [tiny-mmap]=tiny [tiny-read64k]=tiny)
declare -A args=([base-sendfile]="" [tiny-read]="" [tiny-mmap]="srv_fallback=mmap" [tiny-read64k]="srv_rwbuf=65536")

echo "serve_ways=${ways[*]}"
rc=0
for w in "${ways[@]}"; do
	for r in 1 2; do
		echo "-- $w run $r at -m ${ram}M: $serves fetches, then $clients at once" >&2
		MEASURE_CLIENTS=$clients MEASURE_RAM_SERIES=1 MEASURE_BOOTARGS=${args[$w]} \
			"$here/boot.sh" "${variant[$w]}" "$ram" "$lg-serve-$w-run$r" "$serves" \
			>"$work/serve-$w-$r.env" || rc=1
		sed "s/^/$w.run$r./" "$work/serve-$w-$r.env"
	done
done
for w in $minram_ways; do
	echo "-- $w: smallest RAM serving ${MEASURE_MIN_CLIENTS:-64} clients" >&2
	MEASURE_BOOTARGS=${args[$w]} MEASURE_TAG=$w MEASURE_LOGS=$lg \
		"$here/minram.sh" "${variant[$w]}" "${MEASURE_MIN_LO:-4}" "${MEASURE_MIN_HI:-16}" \
		"${MEASURE_MIN_FINE:-8}" | sed "s/^/$w./"
done
exit "$rc"
