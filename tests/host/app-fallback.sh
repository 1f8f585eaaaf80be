#!/usr/bin/env bash
# The two fallbacks and the bounds that keep a board serving under load, on
# the host build: srv_fallback=mmap under the ENOSYS seccomp filter, a file
# truncated while it is being sent (no SIGBUS reaches the server), the
# connection bound (clients past it wait in the backlog), and the overall
# response deadline (srv_min_rate) against slow and steady readers.
# timeout: 240
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/app-host.sh"
echo "1..25"
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build"; exit 1; }
app_make_root "$APP_ROOT"
big=$APP_ROOT/test.bin
want=$(filesha "$big")

# 1. mmap fallback, sendfile answering ENOSYS from the start.
app_start mmap "$APP_TBIN/nosendfile" "$APP_BIN" -- -f mmap ||
	{ not_ok "fallback: start with -f mmap"; exit 1; }
check "fallback mmap: banner names the fallback" grep -q '^fileserver: fallback mmap' "$APP_LOG"
check "fallback mmap: test.bin sha256" [ "$(curl -sf --max-time 30 "$(url test.bin)" | sha)" = "$want" ]
check "fallback mmap: unaligned range sha256" [ "$(curl -sf --max-time 30 -r 4097-1300000 "$(url test.bin)" | sha)" = \
	"$(tail -c +4098 "$big" | head -c 1295904 | sha)" ]
check "fallback mmap: one ENOSYS line naming mmap" [ "$(log_count 'sendfile: ENOSYS, falling back to mmap')" = 1 ]
check "fallback mmap: request lines say mmap" [ "$(log_count 'GET /test.bin 20[06] [0-9]+ mmap$')" = 2 ]
good=$(FETCH_MAX_TIME=60 fetch_many 16 "$(url test.bin)" "$want" "$APP_TMP/mmap-16")
check "fallback mmap: 16 clients at once, all sha256 right ($good/16)" [ "$good" = 16 ]
check "fallback mmap: index page says mmap moved the last body" \
	bash -c "curl -sf --max-time 10 '$(url '')' | grep -q '<td id=\"last-via\">mmap</td>'"
app_stop

# 2. A file truncated while it is being sent: that response fails, the
# server (which never touches the mapping itself) survives and serves on.
# With sendfile too (it then moves 0 bytes).
truncate_case() {
	local mode=$1 f=$APP_ROOT/shrinks.bin got
	head -c $((32 * 1024 * 1024)) /dev/zero >"$f"
	if [ "$mode" = sendfile ]; then
		app_start "trunc-$mode" -- -b 4096 || { not_ok "fallback $mode: start"; return; }
	else
		app_start "trunc-$mode" "$APP_TBIN/nosendfile" "$APP_BIN" -- -f "$mode" -b 4096 ||
			{ not_ok "fallback $mode: start"; return; }
	fi
	client slowread /shrinks.bin 400000 --rcvbuf 2048 --wait 120 \
		--mark "$APP_TMP/started-$mode" >"$APP_TMP/trunc-$mode.out" &
	local cpid=$!
	for _ in $(seq 100); do
		[ -e "$APP_TMP/started-$mode" ] && break
		sleep 0.1
	done
	sleep 0.5
	: >"$f"
	wait "$cpid"
	got=$(sed -n 's/.* bytes=\([0-9]*\) .*/\1/p' "$APP_TMP/trunc-$mode.out")
	good=no
	[ -n "$got" ] && [ "$got" -lt $((32 * 1024 * 1024)) ] && good=yes
	check "fallback $mode: file truncated mid-body: response cut short ($got of 33554432 bytes)" \
		[ "$good" = yes ]
	check "fallback $mode: file truncated mid-body: server still running" kill -0 "$APP_PID"
	check "fallback $mode: file truncated mid-body: logged as aborted" \
		grep -q 'GET /shrinks.bin 200 [0-9]* [a-z/]* aborted' "$APP_LOG"
	check "fallback $mode: after the truncation test.bin still serves" \
		[ "$(curl -sf --max-time 30 "$(url test.bin)" | sha)" = "$want" ]
	app_stop
	rm -f "$f"
}
truncate_case mmap
truncate_case read
truncate_case sendfile

# 3. The connection bound (-c 3): three idle connections fill it; a fourth
# client waits in the listen backlog and is answered once one closes.
app_start bound -- -c 3 -t 30 || { not_ok "bound: start"; exit 1; }
check "bound: banner says at most 3 connections" grep -q 'at most 3 connection(s)' "$APP_LOG"
exec 4<>"/dev/tcp/127.0.0.1/$APP_PORT" 5<>"/dev/tcp/127.0.0.1/$APP_PORT" 6<>"/dev/tcp/127.0.0.1/$APP_PORT"
sleep 0.3
# (the client must not inherit the held connections, or closing one here
# would not close it)
curl -s --max-time 20 -o "$APP_TMP/fourth" -w '%{http_code}' "$(url hello.txt)" \
	>"$APP_TMP/fourth.code" 4>&- 5>&- 6>&- &
cpid=$!
sleep 1
check "bound: a fourth client is not answered while 3 connections are open" kill -0 "$cpid"
exec 4>&- 4<&-
wait "$cpid"
good=no
[ "$(cat "$APP_TMP/fourth.code")" = 200 ] && [ "$(cat "$APP_TMP/fourth")" = "hello from the board" ] && good=yes
check "bound: the fourth client is answered once a slot frees" [ "$good" = yes ]
exec 5>&- 5<&- 6>&- 6<&-
app_stop

# 4. The overall deadline: -T 1 -R 100000 gives a 2 MiB body about 22 s.
# A reader at 40 KB/s (about 52 s) is cut; one at 400 KB/s (about 5 s,
# longer than -T) gets every byte.
app_start rate -- -T 1 -R 100000 -b 4096 || { not_ok "rate: start"; exit 1; }
client slowread /test.bin 40000 --rcvbuf 2048 --wait 120 >"$APP_TMP/slow.out" &
spid=$!
fast=$(client slowread /test.bin 400000 --rcvbuf 2048 --wait 120)
check "rate: a reader above the minimum rate gets every byte ($fast)" \
	grep -q " sha256=$want\$" <<<"$fast"
wait "$spid"
cut=$(sed -n 's/.* bytes=\([0-9]*\) .*/\1/p' "$APP_TMP/slow.out")
good=no
[ -n "$cut" ] && [ "$cut" -lt "$(stat -c %s "$big")" ] && good=yes
check "rate: a reader below the minimum rate is cut short (${cut:-no answer} bytes)" [ "$good" = yes ]
check "rate: the cut is logged as a timeout" grep -q 'GET /test.bin 200 [0-9]* [a-z/]* aborted: timeout' "$APP_LOG"
app_stop
