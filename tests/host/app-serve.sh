#!/usr/bin/env bash
# The host build serving a temporary folder: files, ranges, HEAD, index,
# keep-alive, 64 concurrent clients, timeouts, max requests, console.
set -u
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/host/app/app_lib.sh"
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build"; exit 1; }
app_make_root "$APP_ROOT"
big=$APP_ROOT/test.bin
size=$(stat -c %s "$big")

app_start serve -- -t 2 -T 3 || { not_ok "app: server starts"; exit 1; }
ok "app: server starts and prints the ready line"
check "app: banner says sendfile is available" grep -q '^fileserver: sendfile: available' "$APP_LOG"
check "app: GET test.bin sha256" [ "$(curl -sf "$(url test.bin)" | sha)" = "$(filesha "$big")" ]
check "app: GET hello.txt" [ "$(curl -sf "$(url hello.txt)")" = "hello from the board" ]
check "app: GET subfolder file" [ "$(curl -sf "$(url sub/inner.txt)")" = "inner" ]
check "app: range 1000-99999 sha256" [ "$(curl -sf -r 1000-99999 "$(url test.bin)" | sha)" = \
	"$(tail -c +1001 "$big" | head -c 99000 | sha)" ]
check "app: suffix range -777" [ "$(curl -sf -r -777 "$(url test.bin)" | sha)" = "$(tail -c 777 "$big" | sha)" ]
check "app: range answers 206 with Content-Range" \
	bash -c "curl -s -D - -o /dev/null -r 5-9 '$(url hello.txt)' | tr -d '\r' | grep -qx 'Content-Range: bytes 5-9/21'"
check "app: unsatisfiable range 416" [ "$(curl -s -o /dev/null -w '%{http_code}' -r "$size-" "$(url test.bin)")" = 416 ]
check "app: HEAD gives Content-Length and no body" \
	bash -c "curl -sI '$(url test.bin)' | tr -d '\r' | grep -qx 'Content-Length: $size'"
check "app: index lists the files" bash -c "curl -sf '$(url '')' | grep -q 'href=\"/test.bin\"'"
check "app: Content-Type of .txt" bash -c "curl -sI '$(url hello.txt)' | grep -qi '^Content-Type: text/plain'"
check "app: missing file 404" [ "$(curl -s -o /dev/null -w '%{http_code}' "$(url nothere)")" = 404 ]
check "app: keep-alive reuses one connection" \
	[ "$(curl -s -o /dev/null -o /dev/null -w '%{num_connects}' "$(url hello.txt)" "$(url hello.txt)" | tr -d '\n')" = 10 ]
check "app: Connection: close is honoured" \
	bash -c "curl -s -D - -o /dev/null -H 'Connection: close' '$(url hello.txt)' | tr -d '\r' | grep -qx 'Connection: close'"
check "app: HTTP/1.0 works" [ "$(curl -s -0 "$(url hello.txt)")" = "hello from the board" ]
check "app: two pipelined requests on one connection" \
	[ "$(raw 'GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\nGET /hello.txt HTTP/1.1\r\nConnection: close\r\n\r\n' | grep -c '^hello from the board')" = 2 ]
if command -v wget >/dev/null; then
	check "app: wget fetches test.bin" [ "$(wget -q -O - "$(url test.bin)" | sha)" = "$(filesha "$big")" ]
fi

# 64 clients at once, each must get the whole file.
want=$(filesha "$big")
good=$(fetch_many 64 "$(url test.bin)" "$want" "$APP_TMP/many")
check "app: 64 concurrent clients all get the right bytes ($good/64)" [ "$good" = 64 ]

# A stalled client (half a request) does not hold up others, then times out.
exec 5<>"/dev/tcp/127.0.0.1/$APP_PORT"
printf 'GET /hello.txt HTT' >&5
check "app: served while another client stalls" [ "$(curl -sf "$(url hello.txt)")" = "hello from the board" ]
sleep 3
check "app: half-sent request times out" grep -q 'closed: timeout (request incomplete)' "$APP_LOG"
exec 5>&-

# A client that stops reading mid-body is dropped after the send timeout.
truncate -s 256M "$APP_ROOT/huge.bin"
exec 5<>"/dev/tcp/127.0.0.1/$APP_PORT"
printf 'GET /huge.bin HTTP/1.1\r\n\r\n' >&5
sleep 1
check "app: served while another client stops reading" [ "$(curl -sf "$(url hello.txt)")" = "hello from the board" ]
sleep 4
check "app: stalled reader dropped after the send timeout" \
	grep -q 'GET /huge.bin 200 [0-9]* sendfile aborted: timeout' "$APP_LOG"
exec 5>&-

# A client that goes away mid-transfer costs only its connection.
curl -s "$(url huge.bin)" | head -c 1000 >/dev/null
sleep 0.5
check "app: aborted transfer logged" grep -Eq 'GET /huge.bin 200 [0-9]+ sendfile aborted$' "$APP_LOG"
check "app: still serving after a client vanished" [ "$(curl -sf "$(url test.bin)" | sha)" = "$want" ]
check "app: one log line per request with client, method, path, status, bytes, via" \
	grep -Eq "^fileserver: 127\.0\.0\.1:[0-9]+ GET /test\.bin 200 $size sendfile\$" "$APP_LOG"
check "app: server still alive" kill -0 "$APP_PID"
app_stop

# srv_max_requests from the environment: exits 0 after N requests.
srv_max_requests=3 app_start maxreq || not_ok "app: start with srv_max_requests"
for _ in 1 2 3; do curl -sf -o /dev/null "$(url hello.txt)"; done
app_wait_exit 10
check "app: srv_max_requests=3 ends the process with status 0" [ "$APP_RC" = 0 ]
check "app: limit logged" grep -q 'served 3 requests: limit reached' "$APP_LOG"

# The console command.
mkfifo "$APP_TMP/console"
exec 6<>"$APP_TMP/console"  # read-write: opening does not block
APP_STDIN=$APP_TMP/console app_start console || not_ok "app: start with a console"
curl -sf -o /dev/null "$(url hello.txt)" || not_ok "app: fetch before stats"
printf 'hello\nstats\npoweroff\n' >&6
app_wait_exit 10
check "app: console poweroff ends with status 0" [ "$APP_RC" = 0 ]
exec 6>&-
check "app: console command logged" grep -q 'console: poweroff' "$APP_LOG"
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
