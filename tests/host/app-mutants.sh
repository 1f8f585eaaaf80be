#!/usr/bin/env bash
# Cases that catch one-spot slips in app/ which the rest of the host suite
# let pass (issue 23, "Tests that let a broken server pass"); each was
# checked by breaking the code once (tests/mutate, make mutate):
#   - the mmap window and the read/write buffer are given back after a body;
#   - srv_max_requests holds across two connections ready in one turn;
#   - the connection bound and the free-RAM admission on a 30 MiB board
#     (a --wrap=sysinfo double);
#   - a deadline that passes while the loop is busy still fires (the same
#     double, slowed down);
#   - the 2 s drain after a close does not wait for the request timeout;
#   - a head in three writes with a pipelined request in the last one;
#   - the decoded path bound, exactly; listings keep room for their end;
#   - control bytes and a bare CR in header values; keep-alive, close;
#   - the log's repeat summary and its escaping of bytes >= 0x80;
#   - the documented maximums of the settings; a range ending at the size;
#   - a FIFO swapped in between the type check and the open (a
#     --wrap=fstatat double).
# timeout: 240
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/app-host.sh"
echo 1..66
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build"; exit 1; }
app_make_root "$APP_ROOT"
big=$APP_ROOT/test.bin
want=$(filesha "$big")
hello='hello from the board'
probe() { "$APP_PY" "$TOP/tests/host/app/app_mutants.py" "$APP_PORT" "$@"; }
# rss_anon PID: the process's anonymous resident memory, KiB.
rss_anon() { awk '/^RssAnon:/ { print $2 }' "/proc/$1/status"; }

# --- 1. What a body borrows is given back ----------------------------------
# mmap fallback: every window is unmapped after its send(). 5 fetches of
# 2 MiB are 45 windows of 256 KiB.
app_start mmap "$APP_TBIN/nosendfile" "$APP_BIN" -- -f mmap || { not_ok "mutants: start -f mmap"; exit 1; }
good=0
for _ in 1 2 3 4 5; do
	[ "$(curl -sf --max-time 30 "$(url test.bin)" | sha)" = "$want" ] && good=$((good + 1))
done
sleep 0.3
maps=$(grep -c 'test\.bin' "/proc/$APP_PID/maps")
check "mutants: mmap fallback: 5 fetches right ($good/5)" [ "$good" = 5 ]
check "mutants: mmap fallback: no window of test.bin stays mapped after 5 fetches ($maps mappings)" [ "$maps" = 0 ]
app_stop

# read/write fallback with the largest buffer (1 MiB): mapped while a body
# moves, unmapped at rest (app/README.md), so the anonymous RSS comes back.
app_start rwbuf "$APP_TBIN/nosendfile" "$APP_BIN" -- -w 1048576 || { not_ok "mutants: start -w 1048576"; exit 1; }
curl -sf --max-time 10 -o /dev/null "$(url hello.txt)"
sleep 0.3
before=$(rss_anon "$APP_PID")
good=0
for _ in 1 2; do
	[ "$(curl -sf --max-time 30 "$(url test.bin)" | sha)" = "$want" ] && good=$((good + 1))
done
sleep 0.3
after=$(rss_anon "$APP_PID")
check "mutants: rwbuf 1 MiB: 2 fetches right ($good/2)" [ "$good" = 2 ]
check "mutants: rwbuf 1 MiB: the buffer is unmapped at rest (RssAnon $before -> $after KiB)" \
	[ $((after - before)) -lt 512 ]
app_stop

# --- 2. srv_max_requests across two connections ready in one turn --------
app_start sameturn -- -n 1 || { not_ok "mutants: start -n 1"; exit 1; }
r=$(probe sameturn "$APP_PID" /hello.txt --wait 5)
check "mutants: -n 1, two requests ready in the same turn: exactly one answer ($r)" [ "$r" = answers=1 ]
app_wait_exit 10
check "mutants: -n 1: the server ends with status 0 ($APP_RC)" [ "$APP_RC" = 0 ]
check "mutants: -n 1: one request logged" [ "$(log_count ' GET /hello.txt 200 ')" = 1 ]

# --- 3. A 30 MiB board: the bound and the free-RAM admission -------------
# Bound = min(free RAM / cost, TCP memory limit / queue), sndbuf 16384:
# queue 40 KiB, cost 53 KiB; tcp limit max(30280/16, 512) * 3/4 / 40 = 35.
# With 26564 KiB free the TCP limit wins (35); with 2000 KiB free the RAM
# does: (2000 - 768) / 53 = 23 (the slot's size, sizeof(struct conn), moves
# it by one or two: 18 to 26 is checked; the TCP limit alone would be 35,
# a cost without the slot 30, RAM misread as bytes 1).
ramfile=$APP_TMP/free_k
echo 26564 >"$ramfile"
export WRAP_SYSINFO_FILE=$ramfile WRAP_SYSINFO_TOTAL_K=30280
app_start board30 "$APP_TBIN/fileserver-wrap-sysinfo" -- -b 16384 || { not_ok "mutants: start wrap-sysinfo"; exit 1; }
check "mutants: 30 MiB board, 26564 KiB free: at most 35 connections (the TCP limit)" \
	grep -q 'at most 35 connection(s) (26564 KiB free' "$APP_LOG"
app_stop
echo 2000 >"$ramfile"
app_start board30low "$APP_TBIN/fileserver-wrap-sysinfo" -- -b 16384 || { not_ok "mutants: start wrap-sysinfo low"; exit 1; }
n=$(sed -n 's/.* at most \([0-9]*\) connection(s) (2000 KiB free.*/\1/p' "$APP_LOG")
good=no
[ -n "$n" ] && [ "$n" -ge 18 ] && [ "$n" -le 26 ] && good=yes
check "mutants: 30 MiB board, 2000 KiB free: the free RAM bounds it, 18 to 26 connections ($n)" \
	[ "$good" = yes ]
app_stop
echo 26564 >"$ramfile"
app_start admit "$APP_TBIN/fileserver-wrap-sysinfo" -- -b 16384 -t 30 || { not_ok "mutants: start wrap-sysinfo admit"; exit 1; }
echo 500 >"$ramfile"
sleep 0.2
check "mutants: free RAM below the reserve, nobody connected: a client is still served" \
	[ "$(curl -s --max-time 10 "$(url hello.txt)")" = "$hello" ]
exec 4<>"/dev/tcp/127.0.0.1/$APP_PORT"
printf 'GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n' >&4
sleep 0.3
curl -s --max-time 20 -o "$APP_TMP/admit" -w '%{http_code}' "$(url hello.txt)" >"$APP_TMP/admit.code" 4>&- &
cpid=$!
sleep 1.5
check "mutants: free RAM below the reserve, one client connected: the next one waits" kill -0 "$cpid"
echo 26564 >"$ramfile"
wait "$cpid"
good=no
[ "$(cat "$APP_TMP/admit.code")" = 200 ] && [ "$(cat "$APP_TMP/admit")" = "$hello" ] && good=yes
check "mutants: ... and is served once free RAM is back" [ "$good" = yes ]
exec 4>&- 4<&-
app_stop
# A deadline that passes while the loop is busy between expire() and the
# next poll() is not lost: poll() then waits 0 ms, not a negative (endless)
# time. Here each sysinfo takes 0.8 s (a loaded board), with -t 2: the
# accept samples the RAM twice (1.6 s, the deadline not yet passed), the
# loop's end once more (2.4 s), after expire(); the silent client must
# still be closed then, not when some other event comes.
sleepfile=$APP_TMP/sleep_ms
echo 0 >"$sleepfile"
WRAP_SYSINFO_SLEEP_FILE=$sleepfile \
	app_start stall "$APP_TBIN/fileserver-wrap-sysinfo" -- -t 2 || { not_ok "mutants: start wrap-sysinfo stall"; exit 1; }
echo 800 >"$sleepfile"
r=$(client raw --wait 15 </dev/null)
check "mutants: a deadline passed during a stall after expire(): the silent client is still closed, -t 2 ($r)" \
	bash -c "[ '$(kv end "$r")' = eof ] && $(declare -f lt); lt '$(kv seconds "$r")' 10"
app_stop
unset WRAP_SYSINFO_FILE WRAP_SYSINFO_TOTAL_K

# --- 4. Framing on the wire -------------------------------------------------
app_start wire -- -t 30 -T 20 || { not_ok "mutants: start"; exit 1; }
# The drain after a close is its own 2 s, not the request timeout (-t 30).
r=$(client drain /hello.txt --wait 15)
echo "# drain with -t 30: $r"
good=no
[ "$(kv status "$r") $(kv fin "$r")" = "200 yes" ] && lt "$(kv gone_after "$r")" 8 && good=yes
check "mutants: the drain after a close ends in about 2 s, not at -t 30 ($r)" [ "$good" = yes ]

# A head in three writes; the last one also holds a pipelined request,
# shorter than what was scanned of the first head.
pad=$(head -c 150 /dev/zero | tr '\0' a)
r=$(probe split "GET /hello.txt HTTP/1.1\\r\\nHost: x\\r\\nX-Pad: $pad\\r\\n" 'Accept: */*\r\n' \
	'\r\nGET /sub/inner.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' --wait 5)
check "mutants: a head in 3 writes + a pipelined request: both answered, then the close ($r)" \
	[ "$r" = "answers=2 end=eof bodies=$hello,inner" ]

# Header values: control bytes and a bare CR are refused, a tab is not.
# shellcheck disable=SC2059 # $1 holds printf escapes on purpose
hv() { printf "GET /hello.txt HTTP/1.1\r\nHost: x\r\nX-Test: $1\r\n\r\n" | client raw --one --wait 5; }
check "mutants: a header value with \\x01 answers 400" [ "$(kv status "$(hv 'a\001b')")" = 400 ]
check "mutants: a header value with a bare CR answers 400" [ "$(kv status "$(hv 'a\rb')")" = 400 ]
check "mutants: a header value with DEL answers 400" [ "$(kv status "$(hv 'a\177b')")" = 400 ]
check "mutants: a header value with \\x1f answers 400" [ "$(kv status "$(hv 'a\037b')")" = 400 ]
check "mutants: a header value with a tab and obs-text is accepted (200)" [ "$(kv status "$(hv 'a\tb\351')")" = 200 ]

# Connection: both tokens: close wins (RFC 9112 9.6), whatever the order.
for v in 'keep-alive, close' 'close, keep-alive' 'Keep-Alive,Close'; do
	r=$(printf 'GET /hello.txt HTTP/1.1\r\nHost: x\r\nConnection: %s\r\n\r\n' "$v" | client raw --wait 4 --out "$APP_TMP/conn")
	check "mutants: 'Connection: $v' closes after the answer ($r)" \
		bash -c "[ '$(kv status "$r") $(kv body_bytes "$r") $(kv end "$r")' = '200 21 eof' ] && tr -d '\r' <'$APP_TMP/conn' | grep -qx 'Connection: close'"
done
r=$(printf 'GET /hello.txt HTTP/1.0\r\nConnection: foo, keep-alive\r\n\r\n' | client raw --wait 2)
check "mutants: HTTP/1.0 'Connection: foo, keep-alive' keeps the connection ($r)" \
	[ "$(kv body_bytes "$r") $(kv end "$r")" = "21 deadline" ]

# Ranges at the end of the file (hello.txt: 21 bytes).
rg() { printf 'GET /hello.txt HTTP/1.1\r\nHost: x\r\nRange: bytes=%s\r\n\r\n' "$1" | client raw --one --wait 5 --out "$APP_TMP/rg"; }
crange() { tr -d '\r' <"$APP_TMP/rg" | sed -n 's/^Content-Range: //p'; }
r=$(rg 10-21)
check "mutants: range 10-21 (last = size) is 10-20/21 ($r)" \
	bash -c "[ '$(kv status "$r") $(kv body_bytes "$r") $(kv end "$r")' = '206 11 one' ] && [ '$(crange)' = 'bytes 10-20/21' ]"
r=$(rg 20-20)
check "mutants: range 20-20 (the last byte) ($r)" \
	bash -c "[ '$(kv status "$r") $(kv body_bytes "$r")' = '206 1' ] && [ '$(crange)' = 'bytes 20-20/21' ]"
r=$(rg 21-)
check "mutants: range 21- (first = size) answers 416 ($r)" \
	bash -c "[ '$(kv status "$r")' = 416 ] && [ '$(crange)' = 'bytes */21' ]"
r=$(rg -21)
check "mutants: suffix range -21 (= size) is the whole file ($r)" \
	bash -c "[ '$(kv status "$r") $(kv body_bytes "$r")' = '206 21' ] && [ '$(crange)' = 'bytes 0-20/21' ]"
r=$(rg 0-0)
check "mutants: range 0-0 is the first byte ($r)" \
	bash -c "[ '$(kv status "$r") $(kv body_bytes "$r")' = '206 1' ] && [ '$(crange)' = 'bytes 0-0/21' ] && tail -c 1 '$APP_TMP/rg' | grep -q h"
size=$(stat -c %s "$big")
check "mutants: test.bin range $((size - 1000))-$size sha256" \
	[ "$(curl -sf --max-time 30 -r "$((size - 1000))-$size" "$(url test.bin)" | sha)" = "$(tail -c 1000 "$big" | sha)" ]

# The decoded path bound (HTTP_PATH_MAX 1024 with its NUL): a target that
# decodes to 1023 bytes ("/" + 1022) is served, one more byte is 414.
seg=$(head -c 200 /dev/zero | tr '\0' d)
deep=$seg/$seg/$seg/$seg
mkdir -p "$APP_ROOT/$deep"
leaf=$(head -c $((1022 - ${#deep} - 1)) /dev/zero | tr '\0' f)
echo "deep file" >"$APP_ROOT/$deep/$leaf"
rel=$deep/$leaf
enc="${rel%f}%66" # the last byte percent-encoded: the bound is on the decoded path
r=$(printf 'GET /%s HTTP/1.1\r\nHost: x\r\n\r\n' "$enc" | client raw --one --wait 5 --out "$APP_TMP/deep")
check "mutants: a path of 1023 decoded bytes is served (${#rel} + 1 bytes: $r)" \
	bash -c "[ '$(kv status "$r")' = 200 ] && tail -n 1 '$APP_TMP/deep' | grep -qx 'deep file'"
r=$(printf 'GET /%sf HTTP/1.1\r\nHost: x\r\n\r\n' "$enc" | client raw --one --wait 5)
check "mutants: a path of 1024 decoded bytes answers 414 ($r)" [ "$(kv status "$r")" = 414 ]
r=$(printf 'GET /%s%%66 HTTP/1.1\r\nHost: x\r\n\r\n' "$enc" | client raw --one --wait 5)
check "mutants: ... also when the 1024th byte is percent-encoded ($r)" [ "$(kv status "$r")" = 414 ]
check "mutants: still serving after the long paths" [ "$(curl -sf --max-time 10 "$(url hello.txt)")" = "$hello" ]

# An error that is not about framing keeps the connection (404, 416).
r=$(probe split 'GET /nothere HTTP/1.1\r\nHost: x\r\n\r\nGET /hello.txt HTTP/1.1\r\nHost: x\r\nRange: bytes=99-\r\n\r\nGET /hello.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' --wait 5)
check "mutants: a 404 and a 416 keep the connection: 3 answers on one ($r)" \
	[ "$r" = "answers=3 end=eof bodies=404 Not Found,416 Range Not Satisfiable,$hello" ]

# The request line bound (2048 bytes with its CRLF) and the head bound
# (8192 bytes), exactly (a query keeps the path short).
line_of() { # line_of N: a request line of N bytes with its CRLF
	local t
	printf -v t '%*s' $(($1 - 26)) ''
	printf 'GET /hello.txt?%s HTTP/1.1\r\n' "${t// /a}"
}
r=$( { line_of 2048; printf 'Host: x\r\n\r\n'; } | client raw --one --wait 5)
check "mutants: a request line of 2048 bytes is read (200) ($r)" [ "$(kv status "$r")" = 200 ]
r=$( { line_of 2049; printf 'Host: x\r\n\r\n'; } | client raw --one --wait 5)
check "mutants: a request line of 2049 bytes answers 414 ($r)" [ "$(kv status "$r")" = 414 ]
head_of() { # head_of N: a GET /hello.txt head of N bytes
	local t
	printf -v t '%*s' $(($1 - 25 - 9 - 7 - 2 - 2)) ''
	printf 'GET /hello.txt HTTP/1.1\r\nHost: x\r\nX-Pad: %s\r\n\r\n' "${t// /p}"
}
r=$(head_of 8192 | client raw --one --wait 5)
check "mutants: a head of 8192 bytes is read (200) ($r)" [ "$(kv status "$r")" = 200 ]
r=$(head_of 8193 | client raw --one --wait 5)
check "mutants: a head of 8193 bytes answers 431 ($r)" [ "$(kv status "$r")" = 431 ]

# A one-digit Content-Length is a body too: answered, then closed, and
# the body is never read as a request.
r=$(printf 'GET /hello.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nGET /' | client raw --wait 4 --out "$APP_TMP/cl5")
check "mutants: Content-Length: 5: one answer, Connection: close, then the close ($r)" \
	bash -c "[ '$(kv status "$r") $(kv body_bytes "$r") $(kv end "$r")' = '200 21 eof' ] && tr -d '\r' <'$APP_TMP/cl5' | grep -qx 'Connection: close'"

# Paths: DEL is a control byte (400); a fragment is not part of the path.
check "mutants: an encoded DEL in the path answers 400" \
	[ "$(printf 'GET /hello.txt%%7f HTTP/1.1\r\nHost: x\r\n\r\n' | client raw --one --wait 5 | sed -n 's/^status=\([0-9]*\).*/\1/p')" = 400 ]
check "mutants: a fragment in the target is dropped: /hello.txt#top serves the file" \
	[ "$(printf 'GET /hello.txt#top HTTP/1.1\r\nHost: x\r\n\r\n' | client raw --one --wait 5 | sed -n 's/^status=\([0-9]*\).*/\1/p')" = 200 ]

# An empty file: no range of it is satisfiable, a suffix one neither.
: >"$APP_ROOT/empty.txt"
r=$(printf 'GET /empty.txt HTTP/1.1\r\nHost: x\r\nRange: bytes=-5\r\n\r\n' | client raw --one --wait 5)
check "mutants: a suffix range of an empty file answers 416 ($r)" [ "$(kv status "$r")" = 416 ]

# The index lists no dot entries (., .., dotfiles).
: >"$APP_ROOT/.hidden"
check "mutants: the index has no ., .. or dotfile entries" \
	bash -c "! curl -sf --max-time 10 '$(url '')' | grep -q 'href=\"/\\.'"

# Listings that do not fit: names of every length from 1 to 60 in 12
# folders (their own name lengths differ), so some listing's last entry
# ends within a few bytes of the buffer: each must still end with its
# closing tags.
bad=
for k in $(seq 12); do
	printf -v d 'v%*s' "$k" ''
	d=${d// /x}
	mkdir -p "$APP_ROOT/$d"
	name=
	for _ in $(seq 60); do name+=n; : >"$APP_ROOT/$d/$name"; done
	# (curl: whatever the framing, Content-Length or chunked)
	r=$(curl -s --max-time 10 -o "$APP_TMP/list" -w '%{http_code}' "$(url "$d/")")
	last=$(tail -c 20 "$APP_TMP/list")
	[ "$r" = 200 ] && [ "$last" = '</ul></body></html>' ] || bad+=" $d($r, ends '${last//$'\n'/}')"
done
check "mutants: 12 cut listings with names of varied length all end with their closing tags${bad:+ (not:$bad)}" [ -z "$bad" ]
check "mutants: server still alive after the wire cases" kill -0 "$APP_PID"
app_stop

# A full server does not poll its listener: -c 1, one idle connection,
# one more waiting in the backlog: the server sleeps in poll() (under 10
# CPU ticks in 2 s); polling the listener it cannot serve spins (58
# ticks in 2 s on a loaded 2-core host).
app_start full -- -c 1 -t 30 || { not_ok "mutants: start -c 1"; exit 1; }
exec 4<>"/dev/tcp/127.0.0.1/$APP_PORT"
sleep 0.2
exec 5<>"/dev/tcp/127.0.0.1/$APP_PORT"
printf 'GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n' >&5
t0=$(awk '{ print $14 + $15 }' "/proc/$APP_PID/stat")
sleep 2
t1=$(awk '{ print $14 + $15 }' "/proc/$APP_PID/stat")
check "mutants: -c 1 full, one client waiting: the server does not spin ($((t1 - t0)) ticks in 2 s)" \
	[ $((t1 - t0)) -lt 10 ]
exec 4>&- 4<&-
check "mutants: ... and the waiting client is served once the slot frees" \
	bash -c "timeout 5 head -n 1 <&5 | grep -q '^HTTP/1.1 200'"
exec 5>&- 5<&-
app_stop

# accept4 failing (12 descriptors, 10 clients held): the listener's rest
# doubles from 50 ms (the log names each rest; identical lines would be
# summed up, so a flat back-off shows as no growth, not as many lines).
APP_PORT=$(free_port)
( ulimit -n 12; exec "$APP_BIN" -a 127.0.0.1 -p "$APP_PORT" -r "$APP_ROOT" -t 30 </dev/null >"$APP_TMP/emfile.log" 2>&1 ) &
epid=$!
for _ in $(seq 100); do grep -qs '^fileserver: ready' "$APP_TMP/emfile.log" && break; sleep 0.05; done
held=()
for _ in $(seq 10); do exec {fd}<>"/dev/tcp/127.0.0.1/$APP_PORT"; held+=("$fd"); done
sleep 2.5
rests=$(sed -n 's/.*accept: .*(listener rests \([0-9]*\) ms)$/\1/p' "$APP_TMP/emfile.log" | tr '\n' ' ')
check "mutants: accept4 failing: the listener's rest doubles (${rests:-none})" \
	bash -c "[[ \"$rests\" == \"50 100 200 400 800 \"* ]]"
for fd in "${held[@]}"; do exec {fd}>&-; done
kill "$epid" 2>/dev/null
wait "$epid" 2>/dev/null

# sendfile EINVAL is this body's fallback, not the run's: the index still
# says sendfile is available.
WRAP_SENDFILE_BYTES=100000 WRAP_SENDFILE_ERRNO=EINVAL \
	app_start einval "$APP_TBIN/fileserver-wrap" -- || { not_ok "mutants: start wrap EINVAL"; exit 1; }
check "mutants: EINVAL mid-body: test.bin sha256" [ "$(curl -sf --max-time 30 "$(url test.bin)" | sha)" = "$want" ]
check "mutants: EINVAL mid-body: the index still says sendfile is available" \
	bash -c "curl -sf --max-time 10 '$(url '')' | grep -q '<td id=\"sendfile\">available</td>'"
app_stop

# A FIFO that takes a regular file's place between the type check and the
# open (a --wrap=fstatat double reports it as a file): the open must not
# block the server (nobody writes to the FIFO), and fstat() after it still
# refuses the FIFO.
mkfifo "$APP_ROOT/swapped"
WRAP_FSTATAT_AS_FILE=swapped \
	app_start swap "$APP_TBIN/fileserver-wrap-fstatat" -- || { not_ok "mutants: start wrap fstatat"; exit 1; }
r=$(printf 'GET /swapped HTTP/1.1\r\nHost: x\r\n\r\n' | client raw --one --wait 5)
check "mutants: a FIFO swapped in after the type check answers 403 at once ($r)" \
	[ "$(kv status "$r") $(kv end "$r")" = "403 one" ]
check "mutants: ... and the server still serves" \
	[ "$(curl -s --max-time 5 "$(url hello.txt)")" = "$hello" ]
app_stop
rm -f "$APP_ROOT/swapped"

# --- 5. The console log -----------------------------------------------------
mkfifo "$APP_TMP/stdin"
exec 7<>"$APP_TMP/stdin"
APP_STDIN=$APP_TMP/stdin app_start console -- || { not_ok "mutants: start with a console"; exit 1; }
printf 'GET /caf\303\251\377%%c3\\ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' | client raw --wait 5 >/dev/null
printf 'stats\r\n' >&7
for _ in $(seq 20); do echo frob >&7; done
sleep 0.5
echo poweroff >&7
app_wait_exit 10
exec 7>&- 7<&-
check "mutants: console: poweroff ends with status 0 ($APP_RC)" [ "$APP_RC" = 0 ]
check "mutants: log: bytes >= 0x80 and a backslash in a target are escaped as \\xNN" \
	grep -qF 'GET /caf\xc3\xa9\xff%c3\x5c 404' "$APP_LOG"
high=$(LC_ALL=C tr -d '\000-\177' <"$APP_LOG" | wc -c)
check "mutants: log: no byte >= 0x80 reaches the console ($high)" [ "$high" = 0 ]
check "mutants: console: a command ended by CR LF is understood" grep -q '^fileserver: stats: ' "$APP_LOG"
check "mutants: log: a line repeated 20 times is printed 8 times" \
	[ "$(log_count '^fileserver: console: unknown command')" = 8 ]
check "mutants: log: then summed up once, before the next line" \
	bash -c "grep -A 1 'last line repeated 12 more times' '$APP_LOG' | tail -n 1 | grep -q 'console: poweroff'"

# --- 6. Documented limits of the settings (app/README.md) -----------------
# starts ARGS...: the server gets ready with these flags (then is stopped).
starts() {
	local log=$APP_TMP/limits.log pid ok=1
	"$APP_BIN" -a 127.0.0.1 -r "$APP_ROOT" "$@" </dev/null >"$log" 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		grep -qs '^fileserver: ready' "$log" && { ok=0; break; }
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return $ok
}
# refused ARGS...: the server exits 2 (bad settings) at once.
refused() {
	timeout 5 "$APP_BIN" -a 127.0.0.1 -r "$APP_ROOT" -p "$(free_port)" "$@" </dev/null >/dev/null 2>&1
	[ $? = 2 ]
}
p=$(free_port)
check "mutants: limits: -c 128 accepted" starts -p "$p" -c 128
check "mutants: limits: -c 129 refused" refused -c 129
check "mutants: limits: words without a leading - are ignored" starts -p "$p" quiet splash
check "mutants: limits: -w 1048576 and -w 512 accepted" bash -c "$(declare -f starts); APP_BIN='$APP_BIN' APP_ROOT='$APP_ROOT' APP_TMP='$APP_TMP'; starts -p $p -w 1048576 && starts -p $p -w 512"
check "mutants: limits: -w 1048577 and -w 511 refused" bash -c "$(declare -f refused free_port); APP_BIN='$APP_BIN' APP_ROOT='$APP_ROOT'; refused -w 1048577 && refused -w 511"
if (exec 3<>/dev/tcp/127.0.0.1/65535) 2>/dev/null; then
	ok "mutants: limits: port 65535 accepted # skip something listens on 127.0.0.1:65535"
else
	check "mutants: limits: port 65535 accepted" starts -p 65535
fi
check "mutants: limits: port 65536 and port 0 refused" \
	bash -c "'$APP_BIN' -p 65536 </dev/null >/dev/null 2>&1; [ \$? = 2 ] && '$APP_BIN' -p 0 </dev/null >/dev/null 2>&1; [ \$? = 2 ]"
