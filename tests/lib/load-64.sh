# shellcheck shell=bash
# The 64-client load run of the e2e tests (tests/e2e/load-64.sh,
# tests/linux-6.12/load-64-flash.sh): boot a board at a RAM size, hold some
# slots with clients that never read, fetch test.bin 64 times at once, and
# check every body, the console, and a clean power-off (five cases per run).
# Source after tests/lib/common.sh and tests/lib/qemu.sh, then call
# run VARIANT RAM NAME STALLERS, each in a subshell of its own.
want=$(testfile_sha test.bin)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/load-64.XXXXXX")
trap 'qemu_stop; rm -rf "$tmp"' EXIT

# stallers N SECONDS: N connections that send a GET for test.bin and never
# read, held for SECONDS (background).
stallers() {
	python3 - "$PORT" "$1" "$2" <<'PY' &
import socket, sys, time
port, n, hold = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
socks = []
for _ in range(n):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /test.bin HTTP/1.1\r\nHost: x\r\n\r\n")
    socks.append(s)
time.sleep(hold)
PY
}

# boot VARIANT RAM NAME: boot to the ready line. At the smallest RAM the
# boot itself is at its edge: measure-ram saw single boots 8 to 16 KiB
# below it fail (the kernel runs out of memory unpacking the initramfs,
# before init, with a silent console). Such a boot, with no init, says
# nothing about serving: it is tried again, three times at most, and the
# case names the attempt that booted. A panic or OOM after init is not
# retried: the checks below fail on it.
boot() {
	local v=$1 ram=$2 name=$3 try
	for try in 1 2 3; do
		unset PORT
		VARIANT=$v RAM=$ram QEMU_TIMEOUT=600 qemu_start "$name-boot$try" || return 1
		if qemu_wait_for '^fileserver: ready|Kernel panic' 60 &&
			grep -q '^fileserver: ready' "$QEMU_LOG"; then
			BOOTED_AT=$try
			return 0
		fi
		grep -q '^fileserver: starting' "$QEMU_LOG" && return 1 # init ran: not boot noise
		qemu_stop
	done
	return 1
}

# run VARIANT RAM NAME STALLERS: boot, (stallers), 64 clients, checks.
run() {
	local v=$1 ram=$2 name=$3 stall=$4 good spid=
	if ! boot "$v" "$ram" "$name"; then
		not_ok "$name: boots to ready at -m $ram (3 tries)"
		qemu_log_tail
		qemu_stop
		return
	fi
	ok "$name: boots to ready at -m $ram (attempt $BOOTED_AT)"
	if [ "$stall" -gt 0 ]; then
		stallers "$stall" 90
		spid=$!
		sleep 2
	fi
	# At the smallest RAM the kernel's TCP memory is under pressure and
	# drops incoming segments; a client's request can then arrive after the
	# server's request timeout (10 s), and the server closes that connection
	# with no response (seen once in 7 runs, with a kernel build sharing the
	# host). Such a client asks once more; a body cut short or wrong is not
	# retried, and the retries are counted in the case's name.
	good=$(FETCH_MAX_TIME=400 FETCH_RETRY_EMPTY=1 fetch_many 64 "http://127.0.0.1:$PORT/test.bin" "$want" "$tmp/$name")
	check "$name: 64 clients at once, every body whole with the right sha256 ($good/64, $(fetch_retries "$tmp/$name") retried after no response)" [ "$good" = 64 ]
	check "$name: no kernel panic, no OOM on the console" \
		bash -c "! grep -Eq 'Kernel panic|invoked oom-killer' '$QEMU_LOG'"
	check "$name: serves on afterwards" \
		[ "$(curl -sf --max-time 60 "http://127.0.0.1:$PORT/test.bin" | sha256sum | cut -d' ' -f1)" = "$want" ]
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	qemu_send poweroff
	qemu_wait_exit 90 >/dev/null
	check "$name: powers off cleanly (QEMU exit 0)" [ $? = 0 ]
}

