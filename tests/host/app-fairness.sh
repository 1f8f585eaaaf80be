#!/usr/bin/env bash
# Fair slots: when every slot is taken, a connection that has made no
# progress for a while (a reader that stopped reading, a request head
# dribbled in, an idle keep-alive) from an address holding more than its
# share of the slots is closed, so a client from another address gets in.
# The board's 32 MiB bound is 35 slots (-c 35 here); its share per address
# is a quarter of the slots. The second client binds 127.0.0.2 (loopback).
# timeout: 180
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/app-host.sh"
echo 1..7
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build"; exit 1; }
app_make_root "$APP_ROOT"
want=$(filesha "$APP_ROOT/test.bin")
if ! "$APP_PY" -c 'import socket; socket.socket().bind(("127.0.0.2", 0))' 2>/dev/null; then
	for i in $(seq 7); do ok "fairness: case $i # skip cannot bind 127.0.0.2"; done
	exit 0
fi

# hog MODE N: N connections from 127.0.0.1 that never read (MODE read) or
# dribble a request head a byte a second (MODE dribble); holds them 60 s.
hog() {
	"$APP_PY" - "$APP_PORT" "$1" "$2" <<'PY' &
import socket, sys, time
port, mode, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
socks = []
for _ in range(n):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /test.bin HTTP/1.1\r\nHost: t\r\n\r\n" if mode == "read" else b"G")
    socks.append(s)
end = time.monotonic() + 60
while time.monotonic() < end:
    time.sleep(1)
    if mode == "dribble":
        for s in socks:
            try:
                s.send(b"E")
            except OSError:
                pass
PY
	HOG=$!
}
stop_hog() { kill "$HOG" 2>/dev/null; wait "$HOG" 2>/dev/null; }

app_start fair-read -- -c 35 -t 60 -T 60 -R 0 || { not_ok "app: server starts"; exit 1; }
check "fairness: banner gives the share per address (8 of 35)" grep -q 'at most 35 connection(s).*8 per client address' "$APP_LOG"
hog read 35
sleep 1
got=$(curl -s --max-time 40 --interface 127.0.0.2 "$(url test.bin)" | sha)
check "fairness: 35 non-reading connections from 127.0.0.1 do not lock out 127.0.0.2" [ "$got" = "$want" ]
check "fairness: a non-reading connection was evicted for it" grep -q 'evicted' "$APP_LOG"
stop_hog
app_stop

app_start fair-dribble -- -c 35 -t 60 -T 60 -R 0 || { not_ok "app: server starts"; exit 1; }
hog dribble 35
sleep 1
got=$(curl -s --max-time 40 --interface 127.0.0.2 "$(url test.bin)" | sha)
check "fairness: 35 dribbled request heads from 127.0.0.1 do not lock out 127.0.0.2" [ "$got" = "$want" ]
stop_hog
app_stop

# An address within its share keeps its slots: 8 idle connections from
# 127.0.0.2 are not evicted when 127.0.0.1 fills the rest and waits.
app_start fair-share -- -c 10 -t 60 -T 60 -R 0 || { not_ok "app: server starts"; exit 1; }
"$APP_PY" - "$APP_PORT" <<'PY' >"$APP_TMP/share" &
import socket, sys, time
port = int(sys.argv[1])
mine = []
for _ in range(2):
    s = socket.socket()
    s.bind(("127.0.0.2", 0))
    s.connect(("127.0.0.1", port))
    mine.append(s)
time.sleep(8)
alive = 0
for s in mine:
    s.sendall(b"GET /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n")
    s.settimeout(3)
    try:
        alive += s.recv(100).startswith(b"HTTP/1.1 200")
    except OSError:
        pass
print("alive=%d" % alive)
PY
keeper=$!
sleep 0.5
hog read 9
wait "$keeper"
check "fairness: connections of an address within its share are kept ($(cat "$APP_TMP/share"))" \
	[ "$(cat "$APP_TMP/share")" = "alive=2" ]
check "fairness: the hog's connections were evicted instead" grep -q 'evicted' "$APP_LOG"
stop_hog
check "fairness: server still alive" kill -0 "$APP_PID"
