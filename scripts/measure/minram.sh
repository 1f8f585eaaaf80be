#!/usr/bin/env bash
# measure/minram.sh VARIANT [LO HI FINE]
#
# The smallest -m at which the board boots and serves MEASURE_MIN_CLIENTS
# (default 64) clients fetching test.bin at once, every copy with a matching
# sha256 and no kernel panic, by bisection: whole MiB between LO (default 4,
# taken as failing and checked only if the search ends next to it) and HI
# (default 16, must pass), then steps of FINE KiB (default 8, QEMU's own
# granularity; 0 = none) below the smallest whole MiB that passed.
# A size passes when two boots, run side by side, both serve; when the two
# disagree the size counts as failing and is named in min_ram_unstable
# (that disagreement is the figure's noise). A size fails only for the
# board's reasons: a boot whose only fault is requests that reached the
# guest after srv_timeout (boot.sh's failed_by=host, measure/failed-by.sh)
# is booted again, up to MEASURE_LATE_RETRIES times (default 2), and fails
# only if it is still late then (issue 42, item 5).
# MEASURE_BOOT: the boot script (default measure/boot.sh; for the tests).
# MEASURE_BOOTARGS: words added to the kernel command line (the server's
# srv_* settings), for measuring one way of serving.
#
# Prints key=value lines:
#   min_ram_k=N          smallest size that passed, KiB ("" if HI did not pass)
#   min_ram_status=found | le_lo | gt_hi
#   min_ram_step_k=S     the finest step tried (KiB)
#   min_ram_unstable=... sizes (KiB) whose two boots disagreed
#   min_ram_probes=...   every size tried (KiB) with its two results, in order
#   min_ram_retried=...  sizes booted again for late requests, as SIZE:RETRIES
# Each boot: scripts/measure/boot.sh, console in
# build/logs/qemu/$MEASURE_LOGS-min-VARIANT-SIZEK-RUN.log (default measure).
set -u
[ $# -ge 1 ] || { echo "usage: $0 VARIANT [LO HI FINE]" >&2; exit 2; }
v=$1 lo=${2:-4} hi=${3:-16} fine=${4:-8}
here=$(cd "$(dirname "$0")" && pwd)
tag=${MEASURE_LOGS:-measure}${MEASURE_TAG:+-$MEASURE_TAG}
clients=${MEASURE_MIN_CLIENTS:-64}
retries=${MEASURE_LATE_RETRIES:-2}
boot=${MEASURE_BOOT:-$here/boot.sh}
[[ $lo =~ ^[0-9]+$ && $hi =~ ^[0-9]+$ && $lo -lt $hi ]] ||
	{ echo "measure-minram: LO and HI must be whole MiB with LO < HI" >&2; exit 2; }
[[ $fine =~ ^[0-9]+$ ]] || { echo "measure-minram: FINE must be whole KiB" >&2; exit 2; }
[[ $retries =~ ^[0-9]+$ ]] || { echo "measure-minram: bad MEASURE_LATE_RETRIES '$retries'" >&2; exit 2; }

probes=() unstable=() retried=()
# boot_once KIB N: boot N of size KIB, into $tmp/bN; 0 when it served.
# A boot that failed for the host's reason (boot.sh's failed_by=host: only
# requests that arrived late under emulation) is booted again, up to
# MEASURE_LATE_RETRIES times (default 2); each retry leaves $tmp/bN.retries.
# Failing for the board's reasons (panic, OOM, no answer) is final at once.
boot_once() {
	local k=$1 n=$2 try=0 name
	echo 0 >"$tmp/b$n.retries"
	while :; do
		name=$tag-min-$v-${k}K-$n
		[ "$try" = 0 ] || name=$name-retry$try
		MEASURE_CLIENTS=$clients "$boot" "$v" "${k}K" "$name" 0 >"$tmp/b$n" && return 0
		grep -qx 'failed_by=host' "$tmp/b$n" && [ "$try" -lt "$retries" ] || return 1
		try=$((try + 1))
		echo "$v -m ${k}K boot $n: $(sed -n 's/^reason=//p' "$tmp/b$n"); booting it again ($try of $retries)" >&2
		echo "$try" >"$tmp/b$n.retries"
	done
}
# probe KIB: 0 when both boots (side by side) served.
probe() {
	local k=$1 r1 r2 t
	boot_once "$k" 1 &
	local p1=$!
	boot_once "$k" 2
	r2=$?
	wait "$p1" && r1=pass || r1=fail
	[ "$r2" = 0 ] && r2=pass || r2=fail
	echo "$v -m ${k}K: $r1 $r2 $(sed -n 's/^reason=//p' "$tmp/b1" "$tmp/b2" | sort -u | tr '\n' ';')" >&2
	probes+=("${k}:$r1/$r2")
	t=$(($(cat "$tmp/b1.retries" 2>/dev/null || echo 0) + $(cat "$tmp/b2.retries" 2>/dev/null || echo 0)))
	[ "$t" = 0 ] || retried+=("${k}:$t")
	[ "$r1" = "$r2" ] || unstable+=("$k")
	[ "$r1" = pass ] && [ "$r2" = pass ]
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-minram.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

report() {
	echo "min_ram_k=$1"
	echo "min_ram_status=$2"
	echo "min_ram_step_k=$3"
	echo "min_ram_unstable=${unstable[*]}"
	echo "min_ram_probes=${probes[*]}"
	echo "min_ram_retried=${retried[*]}"
}

if ! probe $((hi * 1024)); then
	report "" gt_hi 1024
	exit 0
fi
l=$lo h=$hi
while [ $((h - l)) -gt 1 ]; do
	m=$(((l + h) / 2))
	if probe $((m * 1024)); then h=$m; else l=$m; fi
done
if [ "$l" -eq "$lo" ] && probe $((lo * 1024)); then
	report $((lo * 1024)) le_lo 1024
	exit 0
fi

# Finer steps between h-1 MiB (failed) and h MiB (passed), FINE KiB each.
hk=$((h * 1024)) step=1024
if [ "$fine" -gt 0 ] && [ "$fine" -lt 1024 ]; then
	fl=0 fh=$((1024 / fine))
	while [ $((fh - fl)) -gt 1 ]; do
		fm=$(((fl + fh) / 2))
		if probe $(((h - 1) * 1024 + fm * fine)); then fh=$fm; else fl=$fm; fi
	done
	hk=$(((h - 1) * 1024 + fh * fine))
	step=$fine
fi
report "$hk" found "$step"
