#!/usr/bin/env bash
# A folder index of any size: streamed piece by piece (chunked on HTTP/1.1,
# close-delimited on HTTP/1.0, see app-edges.sh), every entry listed, the
# connection reusable after it, and a client that stops reading a long
# index holds nobody else up.
# timeout: 120
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/app-host.sh"
echo 1..8
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build"; exit 1; }
app_make_root "$APP_ROOT"
n=5000
mkdir -p "$APP_ROOT/big"
(cd "$APP_ROOT/big" && seq -f 'entry-%05g-with-a-name-long-enough-to-fill-pages.txt' 1 "$n" | xargs touch)
touch "$APP_ROOT/big/.dotfile"
app_start listing -- -t 20 -T 20 || { not_ok "app: server starts"; exit 1; }

curl -s --max-time 30 -D "$APP_TMP/h" -o "$APP_TMP/page" "$(url big/)"
got=$(grep -c '^<li><a href="/big/entry-[0-9]*-with-a-name-long-enough-to-fill-pages.txt">/big/entry-[0-9]*-with-a-name-long-enough-to-fill-pages.txt</a> 0 bytes</li>$' "$APP_TMP/page")
echo "# /big/: $got of $n entries, $(stat -c %s "$APP_TMP/page") bytes"
check "listing: all $n entries of a big folder are listed (got $got)" [ "$got" = "$n" ]
check "listing: each entry once" [ "$(grep '^<li>' "$APP_TMP/page" | sort -u | wc -l)" = "$n" ]
check "listing: the page ends with its closing tags, dotfiles left out" \
	bash -c "[ \"\$(tail -n 1 '$APP_TMP/page')\" = '</ul></body></html>' ] && ! grep -q dotfile '$APP_TMP/page'"
check "listing: HTTP/1.1 index is chunked, without Content-Length" \
	bash -c "tr -d '\r' <'$APP_TMP/h' | grep -qx 'Transfer-Encoding: chunked' && ! tr -d '\r' <'$APP_TMP/h' | grep -qi '^Content-Length'"
r=$(printf 'GET /big/ HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n' | client raw --wait 10 --out "$APP_TMP/raw")
check "listing: the chunked body ends with the last chunk ($r)" \
	bash -c "[ '$(kv end "$r")' = eof ] && [ \"\$(tail -c 7 '$APP_TMP/raw' | od -An -tx1 | tr -d ' \n')\" = 0d0a300d0a0d0a ]"
check "listing: keep-alive: index then file on one connection" \
	bash -c "[ \"\$(curl -s --max-time 30 -o /dev/null -o '$APP_TMP/hello' -w '%{num_connects}' '$(url big/)' '$(url hello.txt)' | tr -d '\n')\" = 10 ] &&
		grep -q '^hello from the board' '$APP_TMP/hello'"
# A client asks for the big index and never reads: the others are served.
"$APP_PY" - "$APP_PORT" <<'PY' &
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET /big/ HTTP/1.1\r\nHost: t\r\n\r\n")
time.sleep(8)
PY
stuck=$!
sleep 1
check "listing: while a client stalls in a big index, another is served" \
	[ "$(curl -s --max-time 5 "$(url hello.txt)")" = "hello from the board" ]
kill "$stuck" 2>/dev/null
wait "$stuck" 2>/dev/null
check "listing: server still alive" kill -0 "$APP_PID"
