#!/usr/bin/env bash
# measure/boot.sh VARIANT RAM NAME [SERVES]
#
# Boots one board once at -m RAM (MiB, fractions such as 7.5 are fine, or
# KiB with a K suffix: 6920K), waits for the program's ready line, types
# `stats`, fetches test.bin SERVES times (default 1) one after the other,
# types `stats`, then, with MEASURE_CLIENTS=N, fetches it with N clients at
# once and types `stats` again, then `poweroff`. Every copy is checked
# against build/rootfs/SHA256SUMS. MEASURE_BOOTARGS adds words to the kernel
# command line (the server's srv_* settings). Prints key=value lines:
#
#   served=1|0           the board printed ready and every copy matched
#   reason=...           why not (when served=0)
#   mem_available_k mem_total_k code_k rwdata_k rodata_k init_k bss_k
#   reserved_k cma_k     the kernel's boot "Memory:" line
#   app_total_k app_free_k              the banner (sysinfo, right after boot)
#   app_after_total_k app_after_free_k  the `stats` line after the sequential
#                                       fetches
#   seq_bytes seq_wall_ms seq_cpu_ms    the sequential fetches: bytes, wall
#                                       time, server CPU (getrusage)
#   load_clients load_good load_bytes load_wall_ms load_cpu_ms load_low_free_k
#                        the concurrent fetches: how many got the right
#                        bytes, wall time, server CPU, and the lowest free
#                        RAM the server saw while they ran
#   load_ram_series      with MEASURE_RAM_SERIES=1: free RAM over time while
#                        they ran, "T:F T:F ..." (ms since the console's
#                        `ram on`, typed just before them, KiB free), one
#                        per sample the server took (at most every 20 ms)
#                        until `ram off` right after them (app/README.md)
#   failed_by=board|host (when served=0) whose failure it was: "host" only
#                        when every missing client is a request the server
#                        timed out before it arrived and the board is
#                        otherwise well (measure/failed-by.sh); measure/
#                        minram.sh boots such a size again
#   log=...              the console log (build/logs/qemu/NAME.log)
#
# Exit status: 0 served, 1 did not, 2 usage. Every step is bounded: QEMU
# runs under timeout (MEASURE_BOOT_LIMIT, default 240 s); a board that prints
# no "Booting Linux" within MEASURE_FIRST_LINE seconds (default 15, where it
# takes about 2 s on a loaded 2-core host; too little RAM leaves QEMU silent), or whose console then stays silent for
# MEASURE_STALL seconds (default 30) before ready, counts as not booting; a
# kernel panic ends the wait at once, before ready and while fetching; curl
# has --max-time.
set -u
[ $# -ge 3 ] || { echo "usage: $0 VARIANT RAM_MIB NAME [SERVES]" >&2; exit 2; }
VARIANT=$1 RAM=$2 name=$3 serves=${4:-1}
case $VARIANT in tiny | base | audit | vexpress | vexpress-trim | tiny*-6.12 | base*-6.12 | trim*-6.12) ;; *) echo "measure-boot: VARIANT must be tiny, base, audit, vexpress, vexpress-trim or a -6.12 board" >&2; exit 2 ;; esac
[[ $RAM =~ ^[0-9]+(\.[0-9]+)?$|^[0-9]+K$ ]] || { echo "measure-boot: bad RAM '$RAM'" >&2; exit 2; }
[[ $serves =~ ^[0-9]+$ ]] || { echo "measure-boot: bad SERVES '$serves'" >&2; exit 2; }

clients=${MEASURE_CLIENTS:-0}
[[ $clients =~ ^[0-9]+$ ]] || { echo "measure-boot: bad MEASURE_CLIENTS '$clients'" >&2; exit 2; }
series=${MEASURE_RAM_SERIES:-0}

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BOOTARGS_EXTRA=${MEASURE_BOOTARGS:-}
export TOP VARIANT RAM BOOTARGS_EXTRA
QEMU_TIMEOUT=${MEASURE_BOOT_LIMIT:-$((240 + 5 * clients))}
stall=${MEASURE_STALL:-30}
first=${MEASURE_FIRST_LINE:-15}
# shellcheck source=scripts/lib/qemu-session.sh
. "$TOP/scripts/lib/qemu-session.sh" >&2

sums=$TOP/build/rootfs/SHA256SUMS
want=$(awk '$2 == "test.bin" { print $1 }' "$sums" 2>/dev/null)
[ -n "$want" ] || { echo "measure-boot: no test.bin in $sums (run make board)" >&2; exit 2; }

result() {
	echo "served=$1"
	[ -n "${2:-}" ] && echo "reason=$2"
	[ "$1" = 1 ] || echo "failed_by=${failed_by:-board}"
	parse_log
	printf '%s\n' "${figures[@]}"
	echo "log=${QEMU_LOG#"$TOP"/}"
	[ "$1" = 1 ]
}
figures=()
failed_by=

# The kernel's Memory: line and the banner.
parse_log() {
	[ -f "$QEMU_LOG" ] || return 0
	tr -d '\r' <"$QEMU_LOG" | awk '
		/^Memory: [0-9]+K\/[0-9]+K available/ && !mem {
			mem = 1
			s = $0
			sub(/^Memory: /, "", s)
			split(s, a, /[K\/]/)
			print "mem_available_k=" a[1]
			print "mem_total_k=" a[3]
			n = split(s, w, /[(,)]/)
			for (i = 2; i <= n; i++) {
				if (match(w[i], /[0-9]+K [a-z -]+/)) {
					f = substr(w[i], RSTART, RLENGTH)
					v = f; sub(/K.*/, "", v)
					k = f; sub(/^[0-9]+K /, "", k)
					sub(/kernel /, "", k); sub(/-reserved/, "", k)
					gsub(/[^a-z]/, "", k)
					print k "_k=" v
				}
			}
		}
		/^fileserver: RAM [0-9]+ KiB total, [0-9]+ KiB free/ && !banner {
			banner = 1
			print "app_total_k=" $3
			print "app_free_k=" $6
		}
		'
}

# guest_down: print why the guest can serve no more (a kernel panic on the
# console, or QEMU gone) and succeed; fail while it runs.
guest_down() {
	grep -q 'Kernel panic' "$QEMU_LOG" 2>/dev/null && { echo "kernel panic"; return 0; }
	kill -0 "$QEMU_PID" 2>/dev/null || { echo "QEMU ended"; return 0; }
	return 1
}

# Wait for REGEX before ready: a silent console for $stall seconds, a panic,
# or QEMU ending count as "did not boot".
wait_ready() {
	local size=-1 still=0 now t=0 started=
	while :; do
		grep -q '^fileserver: ready' "$QEMU_LOG" 2>/dev/null && return 0
		why=$(guest_down) && { why="$why before ready"; return 1; }
		if [ -z "$started" ]; then
			grep -q '^Booting Linux' "$QEMU_LOG" 2>/dev/null && started=1
			t=$((t + 1))
			[ -z "$started" ] && [ "$t" -ge $((first * 5)) ] &&
				{ why="no kernel output within ${first}s"; return 1; }
		fi
		now=$(stat -c %s "$QEMU_LOG" 2>/dev/null || echo 0)
		if [ "$now" = "$size" ]; then
			still=$((still + 1))
			[ "$still" -ge $((stall * 5)) ] && { why="console silent for ${stall}s before ready"; return 1; }
		else
			size=$now still=0
		fi
		sleep 0.2
	done
}

unset PORT
qemu_start "$name" >&2 || { echo "served=0"; echo "reason=qemu did not start"; exit 1; }
why=
if ! wait_ready; then
	qemu_stop
	result 0 "$why"
	exit
fi

# stats: type `stats`, wait (20 s at most) for the line it prints and set
# ST_CPU, ST_TOTAL, ST_FREE, ST_LOW from it. 1 when no line came.
stats() {
	local before t=0 line
	before=$(grep -c '^fileserver: stats:' "$QEMU_LOG")
	qemu_send stats
	while [ "$(grep -c '^fileserver: stats:' "$QEMU_LOG")" -le "$before" ]; do
		[ $t -ge 100 ] && return 1
		guest_down >/dev/null && return 1
		sleep 0.2
		t=$((t + 1))
	done
	line=$(grep '^fileserver: stats:' "$QEMU_LOG" | tail -n 1 | tr -d '\r')
	[[ $line =~ CPU\ ([0-9]+)\ ms,\ RAM\ ([0-9]+)\ KiB\ total,\ ([0-9]+)\ KiB\ free,\ lowest\ ([0-9]+)\ KiB ]] || return 1
	ST_CPU=${BASH_REMATCH[1]} ST_TOTAL=${BASH_REMATCH[2]} ST_FREE=${BASH_REMATCH[3]} ST_LOW=${BASH_REMATCH[4]}
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# ram_lines: the console's "fileserver: ram T F" lines, as "T:F" words.
ram_lines() {
	tr -d '\r' <"$QEMU_LOG" | sed -n 's/^fileserver: ram \([0-9][0-9]*\) \([0-9][0-9]*\)$/\1:\2/p'
}

# ram_on: type `ram on` and wait (20 s at most) for its first sample, so
# that time 0 comes before the clients. 1 when it did not come.
ram_on() {
	local t=0
	qemu_send "ram on"
	until [ -n "$(ram_lines)" ]; do
		[ $t -ge 100 ] && return 1
		guest_down >/dev/null && return 1
		sleep 0.2
		t=$((t + 1))
	done
}

# fetch N DIR: N clients fetch test.bin at once (curl, bounded), each
# writing the sha256 of what it got to DIR/cI; the console is watched
# meanwhile: a guest that panics (or whose QEMU ends) stops them all at once.
# 1 when the guest went down.
fetch() {
	local n=$1 dir=$2 i pids=() alive
	mkdir -p "$dir"
	for i in $(seq "$n"); do
		(curl -sf --max-time $((60 + 3 * n)) "http://127.0.0.1:$PORT/test.bin" |
			sha256sum | cut -d' ' -f1 >"$dir/c$i") &
		pids+=($!)
	done
	while :; do
		alive=0
		for i in "${pids[@]}"; do kill -0 "$i" 2>/dev/null && alive=1; done
		[ "$alive" = 0 ] && break
		if guest_down >/dev/null; then
			for i in "${pids[@]}"; do pkill -P "$i" curl 2>/dev/null; done
			wait "${pids[@]}" 2>/dev/null
			return 1
		fi
		sleep 0.2
	done
	wait "${pids[@]}" 2>/dev/null
	return 0
}

# good DIR: how many clients in DIR got the right bytes.
good() { cat "$1"/c* 2>/dev/null | grep -c "^$want\$"; }

size=$(stat -c %s "$TOP/build/rootfs/srv/test.bin")
ok=1
tmp=$(mktemp -d)
stats || { ok=0 why="no stats line after boot"; }
cpu0=${ST_CPU:-0}
if [ "$ok" = 1 ] && [ "$serves" -gt 0 ]; then
	t0=$(now_ms)
	for i in $(seq "$serves"); do
		if ! fetch 1 "$tmp/seq$i"; then
			ok=0 why="fetch $i of test.bin: the guest panicked or QEMU ended while serving"
			break
		fi
		if [ "$(good "$tmp/seq$i")" != 1 ]; then
			ok=0 why="fetch $i of test.bin: sha256 does not match (or curl failed)"
			break
		fi
	done
	t1=$(now_ms)
	if [ "$ok" = 1 ] && stats; then
		figures+=("app_after_total_k=$ST_TOTAL" "app_after_free_k=$ST_FREE"
			"seq_bytes=$((serves * size))" "seq_wall_ms=$((t1 - t0))" "seq_cpu_ms=$((ST_CPU - cpu0))")
		cpu0=$ST_CPU
	fi
fi
if [ "$ok" = 1 ] && [ "$clients" -gt 0 ]; then
	if [ "$series" = 1 ] && ! ram_on; then
		ok=0 why="no 'fileserver: ram' line after 'ram on'"
	fi
	t0=$(now_ms)
	fetch "$clients" "$tmp/load" || { ok=0 why="the guest panicked or QEMU ended while $clients clients fetched"; }
	t1=$(now_ms)
	[ "$series" = 1 ] && qemu_send "ram off"
	n=$(good "$tmp/load")
	figures+=("load_clients=$clients" "load_good=$n" "load_bytes=$((n * size))" "load_wall_ms=$((t1 - t0))")
	[ "$ok" = 1 ] && [ "$n" != "$clients" ] && ok=0 why="$n of $clients concurrent clients got test.bin with the right sha256"
	answered=0
	if stats; then
		answered=1
		figures+=("load_cpu_ms=$((ST_CPU - cpu0))" "load_low_free_k=$ST_LOW")
	fi
	# Clients missing while the guest still runs: the board's fault, or
	# requests late under emulation (measure/failed-by.sh)?
	if [ "$ok" = 0 ] && [ "$n" != "$clients" ]; then
		verdict=$("$(dirname "$0")/failed-by.sh" "$QEMU_LOG" $((clients - n)) "$answered")
		failed_by=${verdict%% *}
		why="$why (${verdict#* })"
	fi
	# After the stats line, every ram line (the last at `ram off`) is in.
	[ "$series" = 1 ] && figures+=("load_ram_series=$(ram_lines | tr '\n' ' ' | sed 's/ $//')")
fi
rm -rf "$tmp"
# A panicked guest never powers off: do not wait for it.
if ! grep -q 'Kernel panic' "$QEMU_LOG"; then
	qemu_send poweroff
	qemu_wait_exit 60 >/dev/null || true
fi
qemu_stop
grep -q 'Kernel panic' "$QEMU_LOG" && ok=0 failed_by=board why=${why:-kernel panic while serving}
result "$ok" "$why"
