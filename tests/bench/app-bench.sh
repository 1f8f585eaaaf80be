#!/usr/bin/env bash
# Benchmarks of the server in the guest under QEMU (reported, not tests).
#   tests/bench/app-bench.sh [all|buf|thru|rps|rss]
# buf   read/write buffer sizes on the tiny kernel (srv_rwbuf): server CPU per
#       MiB, throughput, and free RAM while a body is in flight and at rest
# thru  sendfile on base vs read/write fallback (tiny kernel, and base with
#       srv_sendfile=off), median of RUNS fetches of test.bin
# rps   requests per second for hello.txt, keep-alive, N requests per run
# rss   peak RSS (console "stats", getrusage) after 100 and after 10,000 requests
#       (tiny kernel)
# Figures go to stdout and build/logs/bench/app-bench.txt. TCG timing on a
# shared machine is noisy: compare medians from the same run only.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
what=${1:-all}
RUNS=${RUNS:-7}
SRV=$TOP/build/rootfs/srv
OUT=$TOP/build/logs/bench
mkdir -p "$OUT"
exec > >(tee "$OUT/app-bench${1:+-$1}.txt") 2>&1

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
url() { echo "http://127.0.0.1:$PORT/$1"; }

boot() { # boot NAME [BOOTARGS...]; uses VARIANT and INITRD from the caller
	local name=$1
	shift
	unset PORT
	BOOTARGS_EXTRA="$*" qemu_start "bench-$name" >/dev/null || return 1
	qemu_wait_for '^fileserver: ready' 90
}

halt() {
	qemu_send poweroff
	qemu_wait_exit 60 >/dev/null
}

# Median download speed of test.bin in MB/s over RUNS fetches.
throughput() {
	curl -s -o /dev/null --max-time 120 "$(url test.bin)" # warm the page cache
	for _ in $(seq "$RUNS"); do
		curl -s -o /dev/null --max-time 120 -w '%{speed_download}\n' "$(url test.bin)"
	done | median | awk '{printf "%.2f", $1 / 1e6}'
}

# Requests per second for hello.txt: N requests on one keep-alive connection.
rps() {
	local n=${1:-500} runs=${2:-3} cfg=$OUT/urls.cfg t0 t1
	for _ in $(seq "$n"); do echo "url = \"$(url hello.txt)\""; echo 'output = "/dev/null"'; done >"$cfg"
	for _ in $(seq "$runs"); do
		t0=$(date +%s.%N)
		curl -s --config "$cfg"
		t1=$(date +%s.%N)
		echo "$n $t0 $t1" | awk '{printf "%.1f\n", $1 / ($3 - $2)}'
	done | median
}

# Server CPU ms per MiB sent for test.bin, from console "stats" before and
# after RUNS fetches: robust against a busy host, unlike wall-clock speed.
cpu_per_mib() {
	local c0 c1 size
	size=$(stat -c %s "$SRV/test.bin")
	curl -s -o /dev/null --max-time 120 "$(url test.bin)"
	c0=$(stats_cpu)
	for _ in $(seq "$RUNS"); do
		curl -s -o /dev/null --max-time 120 "$(url test.bin)"
	done
	c1=$(stats_cpu)
	awk -v a="$c0" -v b="$c1" -v n="$RUNS" -v s="$size" \
		'BEGIN {printf "%.1f", (b - a) / (n * s / 1048576)}'
}

# Ask the console for "stats" and print the new stats line (10 s at most).
stats_line() {
	local n
	n=$(grep -c 'stats:' "$QEMU_LOG")
	qemu_send stats
	for _ in $(seq 100); do
		[ "$(grep -c 'stats:' "$QEMU_LOG")" -gt "$n" ] && break
		sleep 0.1
	done
	grep 'stats:' "$QEMU_LOG" | tail -n1 | tr -d '\r'
}

# The CPU ms of a new stats line.
stats_cpu() { stats_line | grep -o 'CPU [0-9]*' | grep -o '[0-9]*$'; }

# Free RAM (KiB) from a new stats line: "now" or "lowest" since the last.
stats_free() {
	stats_line | sed -n "s/.*KiB total, \([0-9]*\) KiB free, lowest \([0-9]*\) KiB free.*/\1 \2/p" |
		awk -v w="$1" '{print (w == "now") ? $1 : $2}'
}

bench_buf() {
	local sizes=${BUF_SIZES:-"4096 8192 16384 32768 65536"} s rest
	echo "== read/write buffer (tiny kernel, srv_rwbuf): CPU ms/MiB and MB/s median of $RUNS;"
	echo "   free RAM at rest after serving, and lowest while serving (KiB)"
	for s in $sizes; do
		VARIANT=tiny boot "buf$s" "srv_rwbuf=$s" || return 1
		stats_free now >/dev/null
		echo "srv_rwbuf=$s: $(cpu_per_mib) CPU ms/MiB, $(throughput) MB/s," \
			"lowest free while serving $(stats_free lowest), free at rest $(stats_free now)"
		halt
	done
}

bench_thru() {
	local sf rw tiny
	echo "== throughput of test.bin ($(stat -c %s "$SRV/test.bin") bytes), MB/s median of $RUNS"
	VARIANT=base boot thru-base || return 1
	sf=$(throughput)
	sfc=$(cpu_per_mib)
	halt
	VARIANT=base boot thru-base-rw srv_sendfile=off || return 1
	rw=$(throughput)
	rwc=$(cpu_per_mib)
	halt
	VARIANT=tiny boot thru-tiny || return 1
	tiny=$(throughput)
	tinyc=$(cpu_per_mib)
	grep -o 'sendfile: [a-z ]*(probe: [A-Z]*)' "$QEMU_LOG" | head -1 | sed 's/^/tiny kernel banner: /'
	halt
	echo "base, sendfile:            $sf MB/s, $sfc CPU ms/MiB"
	echo "base, srv_sendfile=off:    $rw MB/s ($(awk -v a="$rw" -v b="$sf" 'BEGIN{printf "%.0f", 100*a/b}')% of sendfile), $rwc CPU ms/MiB"
	echo "tiny, default:             $tiny MB/s ($(awk -v a="$tiny" -v b="$sf" 'BEGIN{printf "%.0f", 100*a/b}')% of sendfile), $tinyc CPU ms/MiB"
}

bench_rps() {
	local v
	echo "== requests/s, hello.txt, 500 keep-alive requests, median of 3"
	for v in base tiny; do
		VARIANT=$v boot "rps-$v" || return 1
		echo "$v: $(rps 500) req/s"
		halt
	done
}

bench_rss() {
	local first last
	echo "== peak RSS (getrusage via console 'stats')"
	VARIANT=tiny boot rss || return 1
	rps 100 1 >/dev/null
	qemu_send stats
	qemu_wait_for 'stats: 100 requests' 20
	rps 3300 3 >/dev/null # 10,000 in all
	qemu_send stats
	qemu_wait_for 'stats: 10000 requests' 60
	first=$(grep -o 'stats: 100 requests.*' "$QEMU_LOG" | tr -d '\r')
	last=$(grep -o 'stats: 10000 requests.*' "$QEMU_LOG" | tr -d '\r')
	echo "after the first 100:  $first"
	echo "after 10,000:         $last"
	halt
}

case $what in
all) bench_buf; bench_thru; bench_rps; bench_rss ;;
buf) bench_buf ;;
thru) bench_thru ;;
rps) bench_rps ;;
rss) bench_rss ;;
*) echo "usage: $0 [all|buf|thru|rps|rss]" >&2; exit 2 ;;
esac
