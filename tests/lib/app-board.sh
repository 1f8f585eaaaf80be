# shellcheck shell=bash
# The server's QEMU end-to-end cases, shared by app-tiny.sh and app-base.sh
# (this file is not executable: tests/run does not run it by itself).
# Source after tests/lib/common.sh and tests/lib/qemu.sh, then: app_e2e VARIANT
# (tiny, base, or the stock-kernel boards vexpress and vexpress-trim)
E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/app-e2e.XXXXXX")
trap 'qemu_stop; rm -rf "$E2E_TMP"' EXIT
SRV=$TOP/build/rootfs/srv

url() { echo "http://127.0.0.1:$PORT/$1"; }
sha() { sha256sum | cut -d' ' -f1; }
status() { head -n1 | tr -d '\r' | cut -d' ' -f2; }
# raw FORMAT: send printf-formatted bytes on a new connection, print the answer.
raw() {
	(
		exec 3<>"/dev/tcp/127.0.0.1/$PORT" || exit 1
		# shellcheck disable=SC2059
		printf "$1" >&3
		timeout 20 cat <&3
	)
}
# Status code only, without waiting for the connection to end.
raw_status() {
	(
		exec 3<>"/dev/tcp/127.0.0.1/$PORT" || exit 1
		# shellcheck disable=SC2059
		printf "$1" >&3
		timeout 20 head -n1 <&3
	) | status
}
console_count() { grep -Ec -- "$1" "$QEMU_LOG"; }
# tests/host/app/app_client.py on the forwarded port (see there).
APP_PY=$(command -v /usr/bin/python3 || command -v python3)
client() { "$APP_PY" "$TOP/tests/host/app/app_client.py" "$PORT" "$@"; }

e2e_files() {
	local v=$1 want
	want=$(sha <"$SRV/test.bin")
	check "app-e2e $v: test.bin sha256" [ "$(curl -sf --max-time 60 "$(url test.bin)" | sha)" = "$want" ]
	check "app-e2e $v: hello.txt sha256" [ "$(curl -sf --max-time 20 "$(url hello.txt)" | sha)" = "$(sha <"$SRV/hello.txt")" ]
	check "app-e2e $v: byte range 12345-1048576 sha256" \
		[ "$(curl -sf --max-time 60 -r 12345-1048576 "$(url test.bin)" | sha)" = \
		"$(tail -c +12346 "$SRV/test.bin" | head -c 1036232 | sha)" ]
	check "app-e2e $v: byte range answers 206" \
		[ "$(curl -s --max-time 20 -o /dev/null -w '%{http_code}' -r 0-0 "$(url test.bin)")" = 206 ]
	check "app-e2e $v: bad range answers 416" \
		[ "$(curl -s --max-time 20 -o /dev/null -w '%{http_code}' -r 99999999- "$(url test.bin)")" = 416 ]
	check "app-e2e $v: index lists test.bin" bash -c "curl -sf --max-time 20 '$(url '')' | grep -q test.bin"
	check "app-e2e $v: second fetch of test.bin sha256" \
		[ "$(curl -sf --max-time 60 "$(url test.bin)" | sha)" = "$want" ]
}

e2e_bad_input() {
	local v=$1 long hdr c name req want got
	long=$(head -c 3000 /dev/zero | tr '\0' a)
	hdr=$(head -c 9000 /dev/zero | tr '\0' b)
	local cases=(
		"malformed request line|GARBAGE\r\n\r\n|400"
		"unknown method|BREW /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n|501"
		"oversized request line|GET /$long HTTP/1.1\r\nHost: t\r\n\r\n|414"
		"oversized headers|GET / HTTP/1.1\r\nHost: t\r\nX-Big: $hdr\r\n\r\n|431"
		"dot-dot traversal|GET /../init HTTP/1.1\r\nHost: t\r\n\r\n|403"
		"percent-encoded dot-dot|GET /%%2e%%2e/init HTTP/1.1\r\nHost: t\r\n\r\n|403"
		"absolute-form target is accepted (RFC 9112 3.2.2)|GET http://x/init HTTP/1.1\r\nHost: t\r\n\r\n|404"
		"encoded NUL|GET /hello.txt%%00 HTTP/1.1\r\nHost: t\r\n\r\n|400"
		"missing file|GET /init HTTP/1.1\r\nHost: t\r\n\r\n|404"
	)
	for c in "${cases[@]}"; do
		IFS='|' read -r name req want <<<"$c"
		got=$(raw_status "$req")
		check "app-e2e $v: bad input: $name answers $want (got ${got:-nothing})" [ "$got" = "$want" ]
	done
	# The console takes lines when it can (the log never blocks): wait for them.
	for _ in $(seq 50); do
		[ "$(console_count ' (400|403|404|414|431|501) [0-9]+ ')" -ge ${#cases[@]} ] && break
		sleep 0.2
	done
	check "app-e2e $v: bad inputs logged on the console" \
		[ "$(console_count ' (400|403|404|414|431|501) [0-9]+ ')" -ge ${#cases[@]} ]
	curl -s --max-time 60 "$(url test.bin)" | head -c 1000 >/dev/null
	check "app-e2e $v: still serving after bad input and a vanished client" \
		[ "$(curl -sf --max-time 20 "$(url hello.txt)" | sha)" = "$(sha <"$SRV/hello.txt")" ]
}

# 64 clients at once: all 64 connect and send their request, and none reads
# its body; while they are held so, the console's "stats" must count 64
# open connections on the board. Then all 64 read their answers to the end:
# every body whole, with the right sha256. The board's own count is the
# evidence, not the client's clock: under TCG on a loaded host, slirp may
# hand a head over late (CI once: started=63), which is no fault of the
# server; a late answer still has to arrive and be right.
e2e_concurrent() {
	local v=$1 r n hold=$E2E_TMP/hold pid before
	n=$(sed -n 's/.*at most \([0-9]*\) connection(s).*/\1/p' "$QEMU_LOG" | head -n 1)
	check "app-e2e $v: at 64 MiB the server's RAM bound admits 64 connections (${n:-none})" \
		[ "${n:-0}" -ge 64 ]
	rm -f "$hold"
	client concurrent /test.bin 64 "$(sha <"$SRV/test.bin")" --head-wait 120 --wait 600 \
		--hold "$hold" >"$E2E_TMP/concurrent" &
	pid=$!
	# Hang guards only (the client gives up after --wait).
	for _ in $(seq 1300); do [ -e "$hold" ] && break; sleep 0.5; done
	n=0
	for _ in $(seq 60); do
		before=$(console_count '^fileserver: stats: ')
		qemu_send stats
		for _ in $(seq 100); do
			[ "$(console_count '^fileserver: stats: ')" -gt "$before" ] && break
			sleep 0.2
		done
		n=$(sed -n 's/^fileserver: stats: [0-9]* requests, \([0-9]*\) connections.*/\1/p' "$QEMU_LOG" | tail -n 1)
		[ "${n:-0}" -ge 64 ] && break
		sleep 2
	done
	rm -f "$hold"
	wait "$pid"
	r=$(cat "$E2E_TMP/concurrent")
	check "app-e2e $v: 64 clients held at once: the board's stats count 64 open connections (${n:-none})" \
		[ "${n:-0}" = 64 ]
	check "app-e2e $v: all 64 concurrent clients complete and correct ($r)" \
		[ "${r#* }" = "complete=64" ]
}

e2e_console() {
	local v=$1 path
	check "app-e2e $v: banner has kernel release" grep -q '^fileserver: kernel Linux 6\.1' "$QEMU_LOG"
	check "app-e2e $v: banner has RAM" grep -q '^fileserver: RAM [0-9]* KiB total' "$QEMU_LOG"
	check "app-e2e $v: banner has listen address" grep -q '^fileserver: listening on 0\.0\.0\.0:80' "$QEMU_LOG"
	# Splice compiled out (tiny, vexpress-trim) or built in (base, vexpress):
	# the kernel's own .config says which.
	if grep -qx '# CONFIG_SYSCALL_SPLICE is not set' "$TOP/images/$v/config"; then
		check "app-e2e $v: banner says sendfile not available (ENOSYS)" \
			grep -q '^fileserver: sendfile: not available (probe: ENOSYS)' "$QEMU_LOG"
		check "app-e2e $v: exactly one ENOSYS fallback line" [ "$(console_count 'ENOSYS.*read/write')" = 1 ]
		# sendfile moves nothing on this kernel: never sendfile+read/write.
		path='read/write'
	else
		check "app-e2e $v: banner says sendfile available" \
			grep -q '^fileserver: sendfile: available' "$QEMU_LOG"
		check "app-e2e $v: no ENOSYS fallback line" [ "$(console_count 'ENOSYS.*read/write')" = 0 ]
		path='sendfile'
	fi
	check "app-e2e $v: request lines say $path moved the body" \
		grep -Eq "^fileserver: 10\.0\.2\.2:[0-9]+ GET /test\.bin 200 2097152 ${path}[[:cntrl:]]*\$" "$QEMU_LOG"
	check "app-e2e $v: every full test.bin fetch used $path" \
		[ "$(console_count 'GET /test\.bin 200 2097152 ')" = "$(console_count "GET /test\.bin 200 2097152 ${path}[[:cntrl:]]*\$")" ]
}

app_e2e() {
	local v=$1
	echo "1..$((38 + ${E2E_EXTRA_CASES:-0}))" # every case below, the three boots together, and the caller's
	export VARIANT=$v
	if [ ! -f "$SRV/test.bin" ]; then
		not_ok "app-e2e $v: $SRV/test.bin exists (run make board)"
		return 1
	fi
	# Boot 1: everything, ended by the console command.
	unset PORT
	# Generous server timeouts: under TCG on a loaded host the guest runs
	# slowly, and the 10 s/60 s defaults would then fail correct clients
	# (seen: 54/64 concurrent clients under load 8). The timeouts themselves
	# are tested on the host (tests/host/app-*).
	# RAM=64: this boot checks that 64 slots really serve at once, so it
	# runs where the server's own bound admits 64 (load-64.sh tests the
	# bound at the smallest RAM). At 32 MiB the bound is 35: the kernel's
	# TCP memory (tcp_init_mem(), 1/16 of the free pages) cannot hold 64
	# full send queues, and with every slot taken the fair-slot eviction
	# may close a client that does not read. Forcing srv_max_conns=64
	# there passed in earlier runs, then in CI one of the 64 got no
	# answer while the 63 others held their bodies unread (started=63).
	# QEMU_TIMEOUT=1100: the boot's hang guard, above the 64 clients' own
	# --wait (600 s) plus everything else this boot does, on a slow host.
	QEMU_TIMEOUT=1100 RAM=64 BOOTARGS_EXTRA="srv_timeout=120 srv_send_timeout=300" qemu_start "app-$v" ||
		{ not_ok "app-e2e $v: boot"; return 1; }
	if ! qemu_wait_for '^fileserver: ready' 90; then
		not_ok "app-e2e $v: ready line"
		qemu_log_tail 40
		return 1
	fi
	ok "app-e2e $v: boots as init and prints the ready line"
	e2e_files "$v"
	e2e_bad_input "$v"
	e2e_concurrent "$v"
	e2e_console "$v"
	check "app-e2e $v: PID 1 never died (no kernel panic)" bash -c "! grep -q 'Kernel panic' '$QEMU_LOG'"
	qemu_send poweroff
	qemu_wait_exit 60
	check "app-e2e $v: console 'poweroff' ends QEMU with status 0" [ $? = 0 ]
	check "app-e2e $v: powered off cleanly" grep -q 'reboot: Power down' "$QEMU_LOG"

	# Boot 2: srv_max_requests from the kernel command line.
	unset PORT
	BOOTARGS_EXTRA="srv_max_requests=3" qemu_start "app-$v-maxreq" || { not_ok "app-e2e $v: boot 2"; return 1; }
	qemu_wait_for '^fileserver: ready' 90 || { not_ok "app-e2e $v: ready (boot 2)"; qemu_log_tail 40; return 1; }
	curl -sf --max-time 20 -o /dev/null "$(url hello.txt)"
	curl -sf --max-time 20 -o /dev/null "$(url hello.txt)"
	check "app-e2e $v: last allowed request still complete" \
		[ "$(curl -sf --max-time 60 "$(url test.bin)" | sha)" = "$(sha <"$SRV/test.bin")" ]
	qemu_wait_exit 60
	check "app-e2e $v: srv_max_requests=3 powers off, QEMU status 0" [ $? = 0 ]
	check "app-e2e $v: limit logged" grep -q 'served 3 requests: limit reached' "$QEMU_LOG"

	# Boot 3: a fatal error (no served folder) powers off, never panics.
	unset PORT
	BOOTARGS_EXTRA="srv_root=/nonexistent" qemu_start "app-$v-fatal" || { not_ok "app-e2e $v: boot 3"; return 1; }
	qemu_wait_exit 60
	check "app-e2e $v: fatal error powers off, QEMU status 0" [ $? = 0 ]
	check "app-e2e $v: fatal error logged" grep -q '^fileserver: open /nonexistent: No such file' "$QEMU_LOG"
	check "app-e2e $v: fatal error is no kernel panic" bash -c "! grep -q 'Kernel panic' '$QEMU_LOG'"
}
