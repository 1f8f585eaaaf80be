#!/usr/bin/env bash
# PID 1 that nothing on the wire or the console can stall, on the host
# build: a console that stops reading, accept4 failing (fd limit), poll()
# failing with ENOMEM, pipelined requests past srv_max_requests, a request
# body followed by "Connection: keep-alive" (smuggling), the request limit
# reached by a timed-out response, and heads dribbled byte by byte.
# timeout: 240
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/app-host.sh"
echo "1..37"
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build"; exit 1; }
app_make_root "$APP_ROOT"

# 1. heads dribbled byte by byte are parsed once (unit test of the scan).
"$APP_TBIN/head_test"
check "head_test exits 0" [ $? = 0 ]

# wait_port PORT: the server answers on 127.0.0.1:PORT (10 s at most).
wait_port() {
	for _ in $(seq 100); do
		curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$1/hello.txt" && return 0
		sleep 0.1
	done
	return 1
}

# 2. A console nobody reads: stderr is a FIFO whose reader never reads. The
# server must answer 4000 requests anyway (one connection each, so every
# request line differs), then say how many lines it dropped once the
# console reads again.
fifo=$APP_TMP/console
mkfifo "$fifo"
exec 8<>"$fifo"
port=$(free_port)
"$APP_BIN" -a 127.0.0.1 -p "$port" -r "$APP_ROOT" </dev/null >/dev/null 2>"$fifo" &
spid=$!
wait_port "$port" || not_ok "console: server answers"
{
	echo 'header = "Connection: close"'
	for _ in $(seq 4000); do echo "url = \"http://127.0.0.1:$port/hello.txt\""; echo 'output = "/dev/null"'; done
} >"$APP_TMP/urls"
codes=$(curl -s --max-time 120 --config "$APP_TMP/urls" -w '%{http_code}\n' | grep -c '^200$')
check "console stalled: all 4000 requests answered ($codes)" [ "$codes" = 4000 ]
timeout 3 cat "$fifo" >"$APP_TMP/console.out"
curl -s -o /dev/null --max-time 5 "http://127.0.0.1:$port/hello.txt"
timeout 2 cat "$fifo" >>"$APP_TMP/console.out"
check "console stalled: the count of dropped lines is logged" grep -Eq 'log: [0-9]+ lines dropped' "$APP_TMP/console.out"
check "console stalled: request lines resume after it" \
	bash -c "sed -n '/lines dropped/,\$p' '$APP_TMP/console.out' | grep -q 'GET /hello.txt 200'"
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
exec 8>&- 8<&-

# 3. accept4 failing: 12 descriptors, 10 clients held open. No busy loop:
# few accept lines and little CPU; serving again once they close.
(
	ulimit -n 12
	exec "$APP_BIN" -a 127.0.0.1 -p "$port" -r "$APP_ROOT" -t 30 </dev/null >"$APP_TMP/emfile.log" 2>&1
) &
epid=$!
wait_port "$port" || not_ok "emfile: server answers"
for i in $(seq 10); do exec {fd}<>"/dev/tcp/127.0.0.1/$port"; held+=("$fd"); done
sleep 3
cpu=$(awk '{ print $14 + $15 }' "/proc/$(pgrep -P "$epid" -x fileserver || echo "$epid")/stat" 2>/dev/null || echo 999)
lines=$(grep -c 'accept: ' "$APP_TMP/emfile.log")
good=no
[ "$lines" -ge 1 ] && [ "$lines" -le 12 ] && good=yes
check "emfile: accept failures logged with back-off, not in a loop ($lines lines in 3 s)" [ "$good" = yes ]
check "emfile: the server does not spin (CPU ticks in 3 s: $cpu)" [ "$cpu" -lt 100 ]
for fd in "${held[@]}"; do exec {fd}>&-; done
check "emfile: serves again once clients close" \
	[ "$(curl -s --max-time 20 "http://127.0.0.1:$port/hello.txt")" = "hello from the board" ]
kill "$epid" 2>/dev/null
wait "$epid" 2>/dev/null

# 4. poll() failing with ENOMEM 5 times: retried with back-off, serving on.
# The double's nanosleep and clock_nanosleep answer ENOSYS, as the tiny
# board's kernel does to musl's (time32) nanosleep: the back-off must wait
# some other way. It logs every poll() on no descriptors (a wait): timeout,
# result (0 = the whole timeout passed), ms taken (not asserted).
sleeps=$APP_TMP/pollfail.sleeps
WRAP_POLL_ENOMEM="3 5" WRAP_POLL_SLEEPS=$sleeps \
	app_start pollfail "$APP_TBIN/fileserver-wrap-poll" -- || not_ok "pollfail: start"
check "pollfail: serves after poll failed 5 times" \
	[ "$(curl -s --max-time 20 "$(url hello.txt)")" = "hello from the board" ]
check "pollfail: the failures are logged as retried" grep -q 'poll: .*retrying' "$APP_LOG"
waits=$(awk '{ printf("%s%s/%s (%s ms)", (NR > 1 ? ", " : ""), $1, $2, $3) }' "$sleeps")
check "pollfail: after each failure the back-off waited its whole timeout, doubling from 50 ms (timeout/result: $waits)" \
	[ "$(awk '{ print $1, $2 }' "$sleeps" 2>/dev/null | paste -sd,)" = "50 0,100 0,200 0,400 0,800 0" ]
check "pollfail: no failed wait logged" bash -c "! grep -Eq 'back-off|nanosleep' '$APP_LOG'"
check "pollfail: still running" kill -0 "$APP_PID"
app_stop

# 5. Ten pipelined requests in one write with -n 3: exactly 3 answers.
app_start pipeline -- -n 3 || not_ok "pipeline: start"
req=$(for _ in $(seq 10); do printf 'GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n'; done)
answers=$(raw "$req" | grep -c '^HTTP/1.1 200')
check "pipelining: 10 requests with -n 3 get exactly 3 answers ($answers)" [ "$answers" = 3 ]
app_wait_exit 10
check "pipelining: the server ends with status 0 at the limit" [ "$APP_RC" = 0 ]
check "pipelining: 3 request lines logged" [ "$(log_count 'GET /hello.txt 200')" = 3 ]

# 5b. The limit reached by a response whose next request was already
# waiting in the socket: that request is not answered in the same turn.
app_start late -- -n 1 -b 4096 || not_ok "late: start"
# --wait: a hang guard only; 2 MiB through a 4 KiB receive buffer took
# over the default 15 s on a loaded host (nice 19, load 8).
out=$(client late /test.bin /hello.txt --wait 120)
check "limit: a request queued behind the last allowed answer gets none ($out)" \
	grep -q '^answers=1 end=eof' <<<"$out"
app_wait_exit 10
check "limit: the server ends with status 0 (status $APP_RC)" [ "$APP_RC" = 0 ]
check "limit: the queued request is not logged" [ "$(log_count 'GET /hello.txt')" = 0 ]

# 6. A body, then Connection: keep-alive: the body is never a request.
app_start smuggle -- || not_ok "smuggle: start"
body='GET /sub/inner.txt HTTP/1.1\r\nHost: x\r\n\r\n'
out=$(raw "GET /hello.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 39\r\nConnection: keep-alive\r\n\r\n$body")
check "smuggling: one answer only" [ "$(grep -c '^HTTP/1.1 ' <<<"$out")" = 1 ]
check "smuggling: the body was not served" bash -c "! grep -q inner <<<'$out'"
check "smuggling: the answer says Connection: close" bash -c "tr -d '\r' <<<'$out' | grep -qx 'Connection: close'"
check "smuggling: the later keep-alive header did not reopen it (no second request logged)" \
	[ "$(log_count 'GET /sub/inner.txt')" = 0 ]
app_stop

# 7. The limit reached by a response that times out: the server ends at
# once, with nobody else connected to wake it.
app_start expire -- -n 1 -T 1 -b 4096 || not_ok "expire: start"
exec 9<>"/dev/tcp/127.0.0.1/$APP_PORT"
printf 'GET /test.bin HTTP/1.1\r\nHost: x\r\n\r\n' >&9
app_wait_exit 15
exec 9>&- 9<&-
check "expire: a timed-out response reaching -n 1 ends the server (status $APP_RC)" [ "$APP_RC" = 0 ]
check "expire: logged as aborted, then the limit" \
	bash -c "grep -q 'aborted: timeout' '$APP_LOG' && grep -q 'limit reached' '$APP_LOG'"

# 8. A head dribbled in 1-byte writes is still answered.
app_start dribble -- -t 10 || not_ok "dribble: start"
out=$(
	exec 3<>"/dev/tcp/127.0.0.1/$APP_PORT"
	msg=$'GET /hello.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
	for ((i = 0; i < ${#msg}; i++)); do printf '%s' "${msg:i:1}" >&3; sleep 0.01; done
	timeout 5 cat <&3
)
check "dribble: a head sent byte by byte is answered" grep -q 'hello from the board' <<<"$out"
check "dribble: one request logged" [ "$(log_count 'GET /hello.txt 200')" = 1 ]
app_stop

# 9. Wind-down while a response is in flight: a client that reads nothing
# holds a 2 MiB body; poweroff on the console ends the server (bounded)
# and logs that response as aborted.
fifo2=$APP_TMP/stdin
mkfifo "$fifo2"
exec 7<>"$fifo2"
APP_STDIN=$fifo2 app_start winddown -- -b 4096 || not_ok "winddown: start"
exec 9<>"/dev/tcp/127.0.0.1/$APP_PORT"
printf 'GET /test.bin HTTP/1.1\r\nHost: x\r\n\r\n' >&9
sleep 0.5
echo poweroff >&7
app_wait_exit 10
check "winddown: poweroff with a body in flight ends the server (status $APP_RC)" [ "$APP_RC" = 0 ]
check "winddown: that response is logged as aborted: shutting down" \
	grep -q 'GET /test.bin 200 [0-9]* [a-z/]* aborted: shutting down' "$APP_LOG"
check "winddown: fewer bytes than the body were sent" \
	bash -c "! grep -q 'GET /test.bin 200 $(stat -c %s "$APP_ROOT/test.bin") ' '$APP_LOG'"
exec 9>&- 9<&- 7>&- 7<&-
