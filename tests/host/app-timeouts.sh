#!/usr/bin/env bash
# The server's deadlines, timed from the client's side on 127.0.0.1
# (server -t 3 -T 2):
#   - a slow-loris dribbling a request one byte a second cannot extend the
#     request timeout: the close comes at about -t, not after the dribble;
#   - an idle keep-alive connection is closed at about -t after its answer;
#   - after a Connection: close answer the server drains for 2 s at most
#     (CONN_DRAIN_MS), even while the client keeps sending;
#   - a slow but steady reader keeps its response alive far past -T: the
#     send timeout is about no progress, not about the total time.
# timeout: 300
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/app-host.sh"
echo 1..10
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build"; exit 1; }
app_make_root "$APP_ROOT"
head -c $((512 * 1024)) /dev/urandom >"$APP_ROOT/slow.bin"
app_start timeouts -- -t 3 -T 2 || { not_ok "app: server starts with -t 3 -T 2"; exit 1; }

# between X LO HI: LO <= X < HI ("never" is not).
between() { [ "$1" != never ] && ! lt "$1" "$2" && lt "$1" "$3"; }

# Slow-loris: one byte a second for 7 s (more than twice -t).
r=$(client dribble /hello.txt 7)
echo "# dribble: $r"
check "app: timeouts: a request dribbled 1 byte/s is cut at about -t 3 s, not extended ($r)" \
	between "$(kv closed_after "$r")" 2.5 5
check "app: timeouts: the dribbled request got no answer ($r)" [ "$(kv answered "$r")" = no ]
check "app: timeouts: logged as an incomplete request timing out" \
	grep -q 'closed: timeout (request incomplete)$' "$APP_LOG"

# Idle keep-alive: one answer, then silence.
r=$(client idle /hello.txt --wait 15)
echo "# idle: $r"
good=no
[ "$(kv status "$r") $(kv keep_alive "$r") $(kv end "$r")" = "200 yes eof" ] &&
	between "$(kv closed_after "$r")" 2.5 5 && good=yes
check "app: timeouts: an idle keep-alive connection is closed about -t 3 s after its answer ($r)" \
	[ "$good" = yes ]
check "app: timeouts: the idle close is logged as a timeout (no request pending)" \
	grep -Eq 'closed: timeout$' "$APP_LOG"

# Drain: after the answer and the server's FIN the client keeps sending.
r=$(client drain /hello.txt --wait 15)
echo "# drain: $r"
good=no
[ "$(kv status "$r") $(kv fin "$r")" = "200 yes" ] && between "$(kv gone_after "$r")" 1.5 4 && good=yes
check "app: timeouts: after Connection: close the server drains 2 s at most, even while the client sends ($r)" \
	[ "$good" = yes ]

# A slow, steady reader: 512 KiB at 64 KiB/s through an 8 KiB receive
# buffer, about 8 s, four times -T.
r=$(client slowread /slow.bin 65536 --rcvbuf 8192 --wait 60)
echo "# slowread: $r"
check "app: timeouts: a steady reader at 64 KiB/s for about 4x -T gets every byte ($r)" \
	[ "$(kv status "$r") $(kv bytes "$r") $(kv sha256 "$r")" = "200 $((512 * 1024)) $(filesha "$APP_ROOT/slow.bin")" ]
check "app: timeouts: the slow transfer took longer than -T (else it proves nothing) ($r)" \
	lt 4 "$(kv seconds "$r")"
check "app: timeouts: the slow transfer is logged complete, not aborted" \
	grep -Eq "GET /slow.bin 200 $((512 * 1024)) sendfile\$" "$APP_LOG"
check "app: timeouts: server still alive" kill -0 "$APP_PID"
