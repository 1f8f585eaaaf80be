#!/usr/bin/env bash
# measure-minram.sh VARIANT [LO HI FINE]
#
# The smallest -m (MiB) at which the board boots and serves test.bin with a
# matching sha256, by bisection: whole MiB between LO (default 4, taken as
# failing and checked only if the search ends next to it) and HI (default 32,
# must pass), then FINE steps (default 0.25 MiB; 0 = none) below the
# smallest whole MiB that passed. QEMU takes fractional -m sizes.
# A size passes when two boots in a row both serve; when the two disagree
# the size counts as failing and is named in min_ram_unstable.
#
# Prints key=value lines:
#   min_ram_mib=N        smallest size that passed ("" if HI did not pass)
#   min_ram_status=found | le_lo | gt_hi
#   min_ram_step=S       the finest step tried (MiB)
#   min_ram_unstable=... sizes whose two boots disagreed (space-separated)
#   min_ram_probes=...   every size tried with its two results, in order
# Each boot: scripts/measure-boot.sh, console in
# build/logs/qemu/$MEASURE_LOGS-min-VARIANT-SIZEM-RUN.log (default measure).
set -u
[ $# -ge 1 ] || { echo "usage: $0 VARIANT [LO HI FINE]" >&2; exit 2; }
v=$1 lo=${2:-4} hi=${3:-32} fine=${4:-0.25}
here=$(cd "$(dirname "$0")" && pwd)
tag=${MEASURE_LOGS:-measure}
[[ $lo =~ ^[0-9]+$ && $hi =~ ^[0-9]+$ && $lo -lt $hi ]] ||
	{ echo "measure-minram: LO and HI must be whole MiB with LO < HI" >&2; exit 2; }

probes=() unstable=()
# probe SIZE: 0 when both boots served.
probe() {
	local m=$1 r1 r2
	"$here/measure-boot.sh" "$v" "$m" "$tag-min-$v-${m}M-1" 1 >"$tmp/b1" && r1=pass || r1=fail
	"$here/measure-boot.sh" "$v" "$m" "$tag-min-$v-${m}M-2" 1 >"$tmp/b2" && r2=pass || r2=fail
	echo "$v -m ${m}M: $r1 $r2 $(sed -n 's/^reason=//p' "$tmp/b1" "$tmp/b2" | sort -u | tr '\n' ';')" >&2
	probes+=("${m}:$r1/$r2")
	[ "$r1" = "$r2" ] || unstable+=("$m")
	[ "$r1" = pass ] && [ "$r2" = pass ]
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-minram.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

report() {
	echo "min_ram_mib=$1"
	echo "min_ram_status=$2"
	echo "min_ram_step=$3"
	echo "min_ram_unstable=${unstable[*]}"
	echo "min_ram_probes=${probes[*]}"
}

if ! probe "$hi"; then
	report "" gt_hi 1
	exit 0
fi
l=$lo h=$hi
while [ $((h - l)) -gt 1 ]; do
	m=$(((l + h) / 2))
	if probe "$m"; then h=$m; else l=$m; fi
done
if [ "$l" -eq "$lo" ] && probe "$lo"; then
	report "$lo" le_lo 1
	exit 0
fi

# Finer steps between h-1 (failed) and h (passed), in units of $fine.
step=1
if awk -v f="$fine" 'BEGIN { exit !(f > 0 && f < 1) }'; then
	n=$(awk -v f="$fine" 'BEGIN { printf "%d", 1 / f + 0.5 }')
	fl=0 fh=$n
	while [ $((fh - fl)) -gt 1 ]; do
		fm=$(((fl + fh) / 2))
		size=$(awk -v b=$((h - 1)) -v k="$fm" -v f="$fine" 'BEGIN { printf "%g", b + k * f }')
		if probe "$size"; then fh=$fm; else fl=$fm; fi
	done
	h=$(awk -v b=$((h - 1)) -v k="$fh" -v f="$fine" 'BEGIN { printf "%g", b + k * f }')
	step=$fine
fi
report "$h" found "$step"
