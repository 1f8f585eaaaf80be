#!/usr/bin/env bash
# board/dtb.sh DTS OUT.dtb: preprocess the board's .dts with the kernel's
# include paths and compile it with dtc. dtc runs with the warning set the
# kernel's own dtbs build uses (scripts/Makefile.lib, DTC_FLAGS): the
# vexpress .dtsi files trip the checks the kernel switches off. Any other
# warning fails the build.
set -eu
. "$(dirname "$0")/../lib/common.sh"
dts=${1:?usage: board/dtb.sh DTS OUT.dtb}
out=${2:?usage: board/dtb.sh DTS OUT.dtb}
ksrc=$TOP/build/linux-6.1
tmp=$out.pre.dts

cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp \
	-I "$ksrc/include" -I "$ksrc/arch/arm/boot/dts" \
	-I "$(dirname "$dts")" -o "$tmp" "$dts"
dtc -I dts -O dtb -o "$out" \
	-Wno-interrupt_provider -Wno-unit_address_vs_reg \
	-Wno-avoid_unnecessary_addr_size -Wno-alias_paths \
	-Wno-graph_child_address -Wno-simple_bus_reg -Wno-unique_unit_address \
	"$tmp" 2>"$out.warnings"
rm -f "$tmp"
if [ -s "$out.warnings" ]; then
	cat "$out.warnings" >&2
	rm -f "$out"
	die "dtc warnings for $dts"
fi
rm -f "$out.warnings"
