#!/usr/bin/env bash
# Conformance of the framing (RFC 9112) on the wire, and the unit tests of
# dates, preconditions, framing checks, paths and settings
# (tests/host/app/app_conform_test.c):
#   Host missing or twice, bad Content-Length: 400; unknown
#   Transfer-Encoding: 501; absolute-form target accepted; an empty line
#   before the request line skipped; /file/ is 404; dotfiles neither
#   listed nor served; a FIFO's type is checked before it is opened (a
#   writer blocked on it stays blocked); Date only with a set clock.
# timeout: 120
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/app-host.sh"
echo 1..18
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build"; exit 1; }
"$TOP/build/app/test/conform_test" 2>"$APP_TMP/conform.err" >"$APP_TMP/conform.out"
rc=$?
sed 's/^/#   /' "$APP_TMP/conform.out"
nfail=$(grep -c '^not ok' "$APP_TMP/conform.out")
good=no
[ "$rc" = 0 ] && [ "$nfail" = 0 ] && [ "$(grep -c '^ok' "$APP_TMP/conform.out")" -ge 70 ] && good=yes
check "conformance: unit tests of dates, preconditions, framing, paths, settings ($nfail failed, exit $rc)" \
	[ "$good" = yes ]
app_make_root "$APP_ROOT"
echo secret >"$APP_ROOT/.hidden"
mkfifo "$APP_ROOT/fifo"
app_start conformance -- -t 20 -T 20 || { not_ok "app: server starts"; exit 1; }
st() { printf "$1" | client raw --one --wait 5 | sed -n 's/.*status=\([0-9]*\).*/\1/p'; }
check "conformance: HTTP/1.1 without Host: 400" [ "$(st 'GET /hello.txt HTTP/1.1\r\n\r\n')" = 400 ]
check "conformance: two Host lines: 400" [ "$(st 'GET /hello.txt HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n')" = 400 ]
check "conformance: HTTP/1.0 without Host: 200" [ "$(st 'GET /hello.txt HTTP/1.0\r\n\r\n')" = 200 ]
check "conformance: Content-Length: abc: 400" [ "$(st 'GET /hello.txt HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n')" = 400 ]
check "conformance: Content-Length: -1: 400" [ "$(st 'GET /hello.txt HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n')" = 400 ]
check "conformance: two different Content-Length: 400" \
	[ "$(st 'GET /hello.txt HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxy')" = 400 ]
check "conformance: Transfer-Encoding: gzip: 501" [ "$(st 'GET /hello.txt HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n')" = 501 ]
r=$(printf 'GET http://127.0.0.1/hello.txt HTTP/1.1\r\nHost: x\r\n\r\n' | client raw --one --wait 5 --out "$APP_TMP/abs")
check "conformance: absolute-form target: 200 and the file ($r)" \
	bash -c "[ '$(kv status "$r")' = 200 ] && grep -q '^hello from the board' '$APP_TMP/abs'"
r=$(printf '\r\nGET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n' | client raw --one --wait 5)
check "conformance: an empty line before the request line is skipped: 200 ($r)" [ "$(kv status "$r")" = 200 ]
check "conformance: /hello.txt/ is 404" [ "$(st 'GET /hello.txt/ HTTP/1.1\r\nHost: a\r\n\r\n')" = 404 ]
check "conformance: /sub/ is the folder: 200" [ "$(st 'GET /sub/ HTTP/1.1\r\nHost: a\r\n\r\n')" = 200 ]
check "conformance: a dotfile is not served: 404" [ "$(st 'GET /.hidden HTTP/1.1\r\nHost: a\r\n\r\n')" = 404 ]
check "conformance: a dotfile is not listed" bash -c "! curl -sf --max-time 10 '$(url '')' | grep -q 'hidden'"
# A writer blocked in open() on the FIFO: a GET of it must not open it
# (that would release the writer, which then dies of SIGPIPE or writes).
timeout 20 bash -c "echo x >'$APP_ROOT/fifo'" &
writer=$!
sleep 0.3
check "conformance: GET of a FIFO: 403" [ "$(st 'GET /fifo HTTP/1.1\r\nHost: a\r\n\r\n')" = 403 ]
sleep 0.3
check "conformance: the writer blocked on the FIFO is still blocked after the GET" kill -0 "$writer"
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
# Date: the host's clock is set, so every answer has one (RFC 9110 6.6.1),
# an IMF-fixdate; the board without an RTC sends none (app/README.md).
d=$(curl -s --max-time 10 -D - -o /dev/null "$(url nothere)" | tr -d '\r' | sed -n 's/^Date: //p')
check "conformance: Date on an error answer, an IMF-fixdate ($d)" \
	bash -c '[[ $1 =~ ^(Mon|Tue|Wed|Thu|Fri|Sat|Sun),\ [0-9]{2}\ [A-Z][a-z]{2}\ [0-9]{4}\ [0-9]{2}:[0-9]{2}:[0-9]{2}\ GMT$ ]]' _ "$d"
check "conformance: server still alive" kill -0 "$APP_PID"
