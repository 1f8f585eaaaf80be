#!/usr/bin/env bash
# Boot time to "ready", reported (not tested): the same board started by
# QEMU's own loader (BOOT=direct), by U-Boot from the SD card image
# (BOOT=sd) and by U-Boot over DHCP + TFTP (BOOT=tftp). For each, RUNS
# boots (default 3) of VARIANT (default tiny) at RAM MiB (default 32); the
# median of: QEMU start to "Starting kernel" (U-Boot's share; 0 for
# direct), and QEMU start to the server's "fileserver: ready" line.
# Writes build/logs/bench/boot-time.md. TCG on a shared machine is noisy:
# compare figures of one run only.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
RUNS=${RUNS:-3}
export VARIANT=${VARIANT:-tiny} RAM=${RAM:-32}
out=$TOP/build/logs/bench
mkdir -p "$out"

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# one_boot BOOT N: print "UBOOT_S READY_S" for one boot, or nothing.
one_boot() {
	local t0 handover=0.00
	unset PORT
	t0=$(now)
	BOOT=$1 qemu_start "bench-boot-$1-$2" >/dev/null || return 1
	while ! grep -q '^fileserver: ready' "$QEMU_LOG" 2>/dev/null; do
		if [ "$handover" = 0.00 ] && grep -q 'Starting kernel' "$QEMU_LOG"; then
			handover=$(since "$t0")
		fi
		kill -0 "$QEMU_PID" 2>/dev/null || return 1
		[ "$(since "$t0" | cut -d. -f1)" -lt 120 ] || { qemu_stop; return 1; }
		sleep 0.05
	done
	echo "$handover $(since "$t0")"
	qemu_send poweroff
	qemu_wait_exit 30 >/dev/null
}

{
	echo "Boot time to \"fileserver: ready\", $VARIANT board, -m ${RAM}M, median of $RUNS boots ($(date -u +%F), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)):"
	echo
	echo "| boot path | U-Boot until \"Starting kernel\" (s) | QEMU start to ready (s) |"
	echo "|---|---:|---:|"
	for b in direct sd tftp; do
		: >"$out/boot-time-$b.txt"
		for i in $(seq "$RUNS"); do
			one_boot "$b" "$i" >>"$out/boot-time-$b.txt"
		done
		n=$(wc -l <"$out/boot-time-$b.txt")
		if [ "$n" -eq 0 ]; then
			echo "| $b | - | no boot reached ready |"
			continue
		fi
		u=$(cut -d' ' -f1 "$out/boot-time-$b.txt" | median)
		r=$(cut -d' ' -f2 "$out/boot-time-$b.txt" | median)
		[ "$b" = direct ] && u=-
		echo "| $b | $u | $r |"
	done
} | tee "$out/boot-time.md"
