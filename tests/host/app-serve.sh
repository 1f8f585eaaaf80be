#!/usr/bin/env bash
# The host build serving a temporary folder: files, ranges, HEAD, index,
# keep-alive and close, 64 concurrent clients, every connection slot taken,
# timeouts, max requests, console.
# timeout: 300
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/app-host.sh"
echo 1..42
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build"; exit 1; }
app_make_root "$APP_ROOT"
big=$APP_ROOT/test.bin
size=$(stat -c %s "$big")
want=$(filesha "$big")
C=(curl -s --max-time 30)

# Part 1: a long request timeout (20 s), so that only the server's answers,
# never its timeouts, can close a connection here.
app_start serve -- -t 20 -T 20 || { not_ok "app: server starts"; exit 1; }
ok "app: server starts and prints the ready line"
check "app: banner says sendfile is available" grep -q '^fileserver: sendfile: available' "$APP_LOG"
check "app: GET test.bin sha256" [ "$("${C[@]}" -f "$(url test.bin)" | sha)" = "$want" ]
check "app: GET hello.txt" [ "$("${C[@]}" -f "$(url hello.txt)")" = "hello from the board" ]
check "app: GET subfolder file" [ "$("${C[@]}" -f "$(url sub/inner.txt)")" = "inner" ]
check "app: range 1000-99999 sha256" [ "$("${C[@]}" -f -r 1000-99999 "$(url test.bin)" | sha)" = \
	"$(tail -c +1001 "$big" | head -c 99000 | sha)" ]
check "app: suffix range -777" [ "$("${C[@]}" -f -r -777 "$(url test.bin)" | sha)" = "$(tail -c 777 "$big" | sha)" ]
check "app: range answers 206 with Content-Range" \
	bash -c "curl -s --max-time 30 -D - -o /dev/null -r 5-9 '$(url hello.txt)' | tr -d '\r' | grep -qx 'Content-Range: bytes 5-9/21'"
check "app: unsatisfiable range 416" [ "$("${C[@]}" -o /dev/null -w '%{http_code}' -r "$size-" "$(url test.bin)")" = 416 ]
check "app: HEAD gives Content-Length" \
	bash -c "curl -s --max-time 30 -I '$(url test.bin)' | tr -d '\r' | grep -qx 'Content-Length: $size'"
# curl -I never reads a body: count what really comes on the wire, up to
# the server's close.
r=$(printf 'HEAD /test.bin HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n' | client raw --wait 5)
echo "# HEAD, Connection: close: $r"
check "app: HEAD sends no body: 0 bytes after the head, then the close ($r)" \
	[ "$(kv status "$r") $(kv body_bytes "$r") $(kv end "$r")" = "200 0 eof" ]
check "app: index lists the files" bash -c "curl -sf --max-time 30 '$(url '')' | grep -q 'href=\"/test.bin\"'"
check "app: Content-Type of .txt" bash -c "curl -s --max-time 30 -I '$(url hello.txt)' | grep -qi '^Content-Type: text/plain'"
check "app: missing file 404" [ "$("${C[@]}" -o /dev/null -w '%{http_code}' "$(url nothere)")" = 404 ]
check "app: keep-alive reuses one connection" \
	[ "$("${C[@]}" -o /dev/null -o /dev/null -w '%{num_connects}' "$(url hello.txt)" "$(url hello.txt)" | tr -d '\n')" = 10 ]
check "app: Connection: close is answered with Connection: close" \
	bash -c "curl -s --max-time 30 -D - -o /dev/null -H 'Connection: close' '$(url hello.txt)' | tr -d '\r' | grep -qx 'Connection: close'"
# The close itself: EOF right after the body, long before the 20 s timeout.
r=$(printf 'GET /hello.txt HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n' | client raw --wait 5)
echo "# GET, Connection: close: $r"
closed=no
[ "$(kv body_bytes "$r") $(kv end "$r")" = "21 eof" ] && lt "$(kv seconds "$r")" 3 && closed=yes
check "app: Connection: close: the server closes after the body, within 3 s ($r)" [ "$closed" = yes ]
r=$(printf 'GET /hello.txt HTTP/1.0\r\n\r\n' | client raw --wait 5)
check "app: HTTP/1.0 without keep-alive: body, then the close ($r)" \
	[ "$(kv status "$r") $(kv body_bytes "$r") $(kv end "$r")" = "200 21 eof" ]
r=$(printf 'GET /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n' | client raw --wait 2)
check "app: HTTP/1.1 keep-alive: the connection stays open after the body ($r)" \
	[ "$(kv body_bytes "$r") $(kv end "$r")" = "21 deadline" ]
check "app: HTTP/1.0 works" [ "$("${C[@]}" -0 "$(url hello.txt)")" = "hello from the board" ]
check "app: two pipelined requests on one connection" \
	[ "$(raw 'GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\nGET /hello.txt HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n' | grep -c '^hello from the board')" = 2 ]
if command -v wget >/dev/null; then
	check "app: wget fetches test.bin" [ "$(wget -q -T 30 -t 1 -O - "$(url test.bin)" | sha)" = "$want" ]
else
	ok "app: wget fetches test.bin # skip wget is not installed"
fi

# 64 clients at once: every one must have the start of its answer while all
# 64 are connected (none reads its body before that), then all bytes.
r=$(client concurrent /test.bin 64 "$want" --head-wait 20 --wait 120)
check "app: 64 concurrent clients: all 64 answered at once, all get the right bytes ($r)" \
	[ "$r" = "started=64 complete=64" ]

# Every slot taken: 128 keep-alive connections (app/README.md: 128 slots)
# answered and left open; the next connection waits (the listener is out of
# the poll set) until one of them closes. With one slot free, the next one
# is served at once.
max=128
r=$(client hold /hello.txt $((max - 1)) --early-wait 3)
check "app: $((max - 1)) connections held open, one more is served at once ($r)" \
	[ "$r" = "held=$((max - 1)) early=yes after_free=yes still_open=$((max - 2))" ]
r=$(client hold /hello.txt "$max" --early-wait 1.5)
check "app: all $max slots held: connection $((max + 1)) waits, and is served when one closes ($r)" \
	[ "$r" = "held=$max early=no after_free=yes still_open=$((max - 1))" ]

# A client that goes away mid-transfer costs only its connection.
truncate -s 256M "$APP_ROOT/huge.bin"
"${C[@]}" "$(url huge.bin)" | head -c 1000 >/dev/null
sleep 0.5
check "app: aborted transfer logged" grep -Eq 'GET /huge.bin 200 [0-9]+ sendfile aborted$' "$APP_LOG"
check "app: still serving after a client vanished" [ "$("${C[@]}" -f "$(url test.bin)" | sha)" = "$want" ]
check "app: one log line per request with client, method, path, status, bytes, via" \
	grep -Eq "^fileserver: 127\.0\.0\.1:[0-9]+ GET /test\.bin 200 $size sendfile\$" "$APP_LOG"
check "app: server still alive" kill -0 "$APP_PID"
app_stop

# Part 2: short timeouts (2 s request, 3 s send).
app_start timeouts -- -t 2 -T 3 || { not_ok "app: server starts with -t 2 -T 3"; exit 1; }
# A stalled client (half a request) does not hold up others, then times out.
exec 5<>"/dev/tcp/127.0.0.1/$APP_PORT"
printf 'GET /hello.txt HTT' >&5
check "app: served while another client stalls" [ "$("${C[@]}" -f "$(url hello.txt)")" = "hello from the board" ]
sleep 3
check "app: half-sent request times out" grep -q 'closed: timeout (request incomplete)' "$APP_LOG"
exec 5>&-

# A client that stops reading mid-body is dropped after the send timeout.
exec 5<>"/dev/tcp/127.0.0.1/$APP_PORT"
printf 'GET /huge.bin HTTP/1.1\r\nHost: t\r\n\r\n' >&5
sleep 1
check "app: served while another client stops reading" [ "$("${C[@]}" -f "$(url hello.txt)")" = "hello from the board" ]
sleep 4
check "app: stalled reader dropped after the send timeout" \
	grep -q 'GET /huge.bin 200 [0-9]* sendfile aborted: timeout' "$APP_LOG"
exec 5>&-
check "app: server still alive after the timeouts" kill -0 "$APP_PID"
app_stop

# srv_max_requests from the environment: exits 0 after N requests.
srv_max_requests=3 app_start maxreq || not_ok "app: start with srv_max_requests"
for _ in 1 2 3; do "${C[@]}" -f -o /dev/null "$(url hello.txt)"; done
app_wait_exit 10
check "app: srv_max_requests=3 ends the process with status 0" [ "$APP_RC" = 0 ]
check "app: limit logged" grep -q 'served 3 requests: limit reached' "$APP_LOG"

# The console commands.
mkfifo "$APP_TMP/console"
exec 6<>"$APP_TMP/console"  # read-write: opening does not block
APP_STDIN=$APP_TMP/console app_start console || not_ok "app: start with a console"
"${C[@]}" -f -o /dev/null "$(url hello.txt)" || not_ok "app: fetch before stats"
printf 'hello\nstats\npoweroff\n' >&6
app_wait_exit 10
check "app: console poweroff ends with status 0" [ "$APP_RC" = 0 ]
exec 6>&-
check "app: console command logged" grep -q 'console: poweroff' "$APP_LOG"
check "app: console: an unknown command gets one line that names the commands" \
	[ "$(log_count '^fileserver: console: unknown command \(try: poweroff, stats, ram on, ram off\)$')" = 1 ]
# stats: the request count, and sysinfo RAM with 0 < free <= total.
stats=$(grep -E '^fileserver: stats: ' "$APP_LOG" | tail -n 1)
check "app: console stats counts the request" grep -q 'stats: 1 requests, ' <<<"$stats"
check "app: console stats has sysinfo RAM, 0 < free <= total" awk '
	match($0, /RAM [0-9]+ KiB total, [0-9]+ KiB free, lowest [0-9]+ KiB free$/) {
		split(substr($0, RSTART), a, / /)
		ok = a[2] > 0 && a[5] > 0 && a[5] <= a[2]
	} END { exit !ok }' <<<"$stats"

# Bad configuration: an exit status, nothing served.
check "app: bad srv_port refused" bash -c "srv_port=99999 '$APP_BIN' </dev/null >/dev/null 2>&1; [ \$? = 2 ]"
