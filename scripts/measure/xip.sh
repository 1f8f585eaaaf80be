#!/usr/bin/env bash
# measure/xip.sh: the XIP board's RAM (issue 42, items 2 and 3), what
# `make measure-xip` runs once the boards are built (mk/xip.mk):
#   tiny-xip-6.12     the XIP board as shipped (LOG_BUF_SHIFT=13, CRC32_SARWATE)
#   tiny-xip-17-6.12  the same kernel with those two choices undone
#   tiny-flash-6.12   the flash board (same files, kernel copied to RAM by
#                     QEMU's loader), for comparison at 32 MiB only
# Per board: the Memory: line and the free RAM after boot at -m
# MEASURE_RAM (default 32), one boot (boot.sh); for the XIP boards the
# smallest -m serving 64 clients at once (minram.sh: two boots per size,
# 8 KiB steps, between MEASURE_MIN_LO and MEASURE_MIN_HI MiB, default 1
# and 4). MEASURE_MIN=0 skips the search.
# Report: images/measure-xip.md; consoles build/logs/qemu/xip-*.log.
set -u
. "$(dirname "$0")/../lib/common.sh"
ram=${MEASURE_RAM:-32} lo=${MEASURE_MIN_LO:-1} hi=${MEASURE_MIN_HI:-4}
out=$TOP/images/measure-xip.md
here=$TOP/scripts/measure
rows=()

# field KEY FILE: the value of KEY= in FILE.
field() { sed -n "s/^$1=//p" "$2" | head -n 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in tiny-xip-6.12 tiny-xip-17-6.12 tiny-flash-6.12; do
	echo "  measure    $v: boot at -m ${ram}M" >&2
	MEASURE_LOGS=xip "$here/boot.sh" "$v" "$ram" "xip-$v-${ram}M" 1 >"$tmp/$v.boot" || true
	min="-" how="-"
	if [ "${MEASURE_MIN:-1}" = 1 ] && [ "$v" != tiny-flash-6.12 ]; then
		echo "  measure    $v: smallest RAM serving 64 clients" >&2
		MEASURE_LOGS=xip "$here/minram.sh" "$v" "$lo" "$hi" 8 >"$tmp/$v.min"
		min=$(field min_ram_k "$tmp/$v.min")
		how="$(field min_ram_status "$tmp/$v.min"); probes: $(field min_ram_probes "$tmp/$v.min")"
	fi
	f=$tmp/$v.boot
	rows+=("| $v | $(field served "$f") | $(field mem_available_k "$f")K/$(field mem_total_k "$f")K | $(field reserved_k "$f") | $(field app_free_k "$f") | ${min} | ${how} |")
done
{
	echo "# The XIP board's RAM ($(date -u '+%Y-%m-%d %H:%M UTC'))"
	echo
	echo "scripts/measure/xip.sh; at -m ${ram}M one boot each; smallest RAM: 64 clients at once, two boots per size, 8 KiB steps (scripts/measure/minram.sh)."
	echo
	echo "| board | served | Memory: available | reserved (KiB) | free after boot (KiB) | smallest -m (KiB) | search |"
	echo "|---|---|---|---:|---:|---:|---|"
	printf '%s\n' "${rows[@]}"
} >"$out"
cat "$out"
