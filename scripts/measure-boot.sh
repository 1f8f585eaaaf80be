#!/usr/bin/env bash
# measure-boot.sh VARIANT RAM_MIB NAME [SERVES]
#
# Boots one board once at -m RAM_MIB (fractions such as 7.5 are fine: QEMU
# takes them), waits for the program's ready line, fetches test.bin SERVES
# times (default 1) and checks each copy against build/rootfs/SHA256SUMS,
# types `stats` on the console, then `poweroff`. Prints what it saw as
# key=value lines on stdout:
#
#   served=1|0           the board printed ready and every copy matched
#   reason=...           why not (when served=0)
#   mem_available_k mem_total_k code_k rwdata_k rodata_k init_k bss_k
#   reserved_k cma_k     the kernel's boot "Memory:" line
#   app_total_k app_free_k              the banner (sysinfo, right after boot)
#   app_after_total_k app_after_free_k  the `stats` line after serving, when
#                                       the program prints RAM there
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
case $VARIANT in tiny | base | audit) ;; *) echo "measure-boot: VARIANT must be tiny, base or audit" >&2; exit 2 ;; esac
[[ $RAM =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "measure-boot: bad RAM '$RAM'" >&2; exit 2; }
[[ $serves =~ ^[0-9]+$ ]] || { echo "measure-boot: bad SERVES '$serves'" >&2; exit 2; }

TOP=$(cd "$(dirname "$0")/.." && pwd)
export TOP VARIANT RAM
QEMU_TIMEOUT=${MEASURE_BOOT_LIMIT:-240}
stall=${MEASURE_STALL:-30}
first=${MEASURE_FIRST_LINE:-15}
# shellcheck source=tests/lib-qemu.sh
. "$TOP/tests/lib-qemu.sh" >&2

sums=$TOP/build/rootfs/SHA256SUMS
want=$(awk '$2 == "test.bin" { print $1 }' "$sums" 2>/dev/null)
[ -n "$want" ] || { echo "measure-boot: no test.bin in $sums (run make board)" >&2; exit 2; }

result() {
	echo "served=$1"
	[ -n "${2:-}" ] && echo "reason=$2"
	parse_log
	echo "log=${QEMU_LOG#"$TOP"/}"
	[ "$1" = 1 ]
}

# The kernel's Memory: line, the banner, and the last stats line with RAM.
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
		/^fileserver: stats: .*RAM [0-9]+ KiB total, [0-9]+ KiB free/ {
			s = $0
			sub(/.*RAM /, "", s)
			split(s, a, / /)
			after_total = a[1]; after_free = a[4]
		}
		END {
			if (after_total != "") {
				print "app_after_total_k=" after_total
				print "app_after_free_k=" after_free
			}
		}'
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

# fetch_one: test.bin's sha256 on stdout. curl runs in the background while
# the console is watched: a guest that panics (or whose QEMU ends) while
# serving fails the fetch at once instead of after curl's --max-time.
fetch_one() {
	local cpid rc=0
	curl -sf --max-time 120 -o "$body" "http://127.0.0.1:$PORT/test.bin" &
	cpid=$!
	while kill -0 "$cpid" 2>/dev/null; do
		if guest_down >/dev/null; then
			kill "$cpid" 2>/dev/null
			wait "$cpid" 2>/dev/null
			return 1
		fi
		sleep 0.2
	done
	wait "$cpid" || rc=$?
	[ "$rc" -eq 0 ] || { echo "curl-exit-$rc"; return 0; }
	sha256sum <"$body" | cut -d' ' -f1
}

ok=1
body=$(mktemp)
for i in $(seq "$serves"); do
	if ! got=$(fetch_one); then
		ok=0 why="fetch $i of test.bin: the guest panicked or QEMU ended while serving"
		break
	fi
	if [ "$got" != "$want" ]; then
		ok=0 why="fetch $i of test.bin: sha256 ${got:0:12}... does not match"
		break
	fi
done
rm -f "$body"
if [ "$ok" = 1 ]; then
	# The stats line comes after the last request line; wait for it briefly.
	before=$(grep -c '^fileserver: stats:' "$QEMU_LOG")
	qemu_send stats
	t=0
	while [ "$(grep -c '^fileserver: stats:' "$QEMU_LOG")" -le "$before" ] && [ $t -lt 100 ]; do
		sleep 0.2
		t=$((t + 1))
	done
fi
# A panicked guest never powers off: do not wait for it.
if ! grep -q 'Kernel panic' "$QEMU_LOG"; then
	qemu_send poweroff
	qemu_wait_exit 60 >/dev/null || true
fi
qemu_stop
grep -q 'Kernel panic' "$QEMU_LOG" && ok=0 why=${why:-kernel panic while serving}
result "$ok" "$why"
