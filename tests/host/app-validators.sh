#!/usr/bin/env bash
# Validators and conditional requests on the wire (RFC 9110 8.8, 13):
# ETag and Last-Modified on every file response; If-None-Match and
# If-Modified-Since give 304, If-Match and If-Unmodified-Since 412;
# If-Range is honoured exactly (a mismatch gives 200 and the whole body);
# HEAD never carries a body, errors included; curl's and wget's resume of
# a file that changed meanwhile.
# timeout: 120
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/app-host.sh"
echo 1..24
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build"; exit 1; }
app_make_root "$APP_ROOT"
f=$APP_ROOT/test.bin
app_start validators -- -t 20 -T 20 || { not_ok "app: server starts"; exit 1; }
hdr() { tr -d '\r' <"$1" | sed -n "s/^$2: //p" | head -n 1; }
# --wait: a hang guard only (2 MiB took over 5 s at nice 19, load 8)
req() { printf "GET /test.bin HTTP/1.1\r\nHost: t\r\n$1\r\n" | client raw --one --wait 60 --out "$2"; }

curl -s --max-time 10 -D "$APP_TMP/h0" -o /dev/null "$(url test.bin)"
etag=$(hdr "$APP_TMP/h0" ETag)
lm=$(hdr "$APP_TMP/h0" Last-Modified)
echo "# ETag $etag, Last-Modified $lm"
check "validators: ETag is a quoted strong tag ($etag)" bash -c '[[ $1 =~ ^\"[0-9a-f]+-[0-9a-f]+-[0-9a-f]+\"$ ]]' _ "$etag"
check "validators: Last-Modified is the file's mtime as an IMF-fixdate ($lm)" \
	[ "$lm" = "$(TZ=GMT LC_ALL=C date -u -d "@$(stat -c %Y "$f")" '+%a, %d %b %Y %H:%M:%S GMT')" ]
check "validators: a range response has the same ETag" \
	[ "$(curl -s --max-time 10 -r 0-9 -D - -o /dev/null "$(url test.bin)" | tr -d '\r' | sed -n 's/^ETag: //p')" = "$etag" ]

r=$(req "If-None-Match: $etag\r\n" "$APP_TMP/inm")
check "validators: If-None-Match with the ETag: 304, no body ($r)" \
	[ "$(kv status "$r") $(kv body_bytes "$r")" = "304 0" ]
check "validators: the 304 carries the ETag" [ "$(hdr "$APP_TMP/inm" ETag)" = "$etag" ]
r=$(req "If-None-Match: \"other\"\r\n" "$APP_TMP/inm2")
check "validators: If-None-Match with another tag: 200 ($r)" [ "$(kv status "$r")" = 200 ]
r=$(req "If-Modified-Since: $lm\r\n" "$APP_TMP/ims")
check "validators: If-Modified-Since = Last-Modified: 304 ($r)" [ "$(kv status "$r") $(kv body_bytes "$r")" = "304 0" ]
r=$(req "If-Modified-Since: Thu, 01 Jan 1998 00:00:00 GMT\r\n" "$APP_TMP/ims2")
check "validators: If-Modified-Since before the mtime: 200 ($r)" [ "$(kv status "$r")" = 200 ]
r=$(req "If-Match: \"other\"\r\n" "$APP_TMP/im")
check "validators: If-Match with another tag: 412 ($r)" [ "$(kv status "$r")" = 412 ]
r=$(req "If-Match: $etag\r\n" "$APP_TMP/im2")
check "validators: If-Match with the ETag: 200 ($r)" [ "$(kv status "$r")" = 200 ]
r=$(req "If-Unmodified-Since: Thu, 01 Jan 1998 00:00:00 GMT\r\n" "$APP_TMP/ius")
check "validators: If-Unmodified-Since before the mtime: 412 ($r)" [ "$(kv status "$r")" = 412 ]

size=$(stat -c %s "$f")
r=$(req "Range: bytes=100-199\r\nIf-Range: $etag\r\n" "$APP_TMP/ir1")
check "validators: If-Range with the ETag: 206, 100 bytes ($r)" [ "$(kv status "$r") $(kv body_bytes "$r")" = "206 100" ]
r=$(req "Range: bytes=100-199\r\nIf-Range: $lm\r\n" "$APP_TMP/ir2")
check "validators: If-Range with the Last-Modified: 206 ($r)" [ "$(kv status "$r") $(kv body_bytes "$r")" = "206 100" ]
r=$(req "Range: bytes=100-199\r\nIf-Range: \"other\"\r\n" "$APP_TMP/ir3")
check "validators: If-Range with another tag: 200, the whole body ($r)" \
	[ "$(kv status "$r") $(kv body_bytes "$r")" = "200 $size" ]
r=$(req "Range: bytes=100-199\r\nIf-Range: Thu, 01 Jan 1998 00:00:00 GMT\r\n" "$APP_TMP/ir4")
check "validators: If-Range with another date: 200, the whole body ($r)" \
	[ "$(kv status "$r") $(kv body_bytes "$r")" = "200 $size" ]
r=$(printf 'HEAD /test.bin HTTP/1.1\r\nHost: t\r\nRange: bytes=0-9\r\nConnection: close\r\n\r\n' | client raw --wait 5)
check "validators: HEAD with Range: 200, no body (RFC 9110 14.2) ($r)" \
	[ "$(kv status "$r") $(kv body_bytes "$r") $(kv end "$r")" = "200 0 eof" ]
r=$(printf 'HEAD /nothere HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n' | client raw --wait 5)
check "validators: HEAD of a missing file: 404, no body ($r)" \
	[ "$(kv status "$r") $(kv body_bytes "$r") $(kv end "$r")" = "404 0 eof" ]
r=$(printf 'HEAD /%%00 HTTP/1.1\r\nHost: t\r\n\r\n' | client raw --wait 5)
check "validators: HEAD with a bad target: 400, no body ($r)" \
	[ "$(kv status "$r") $(kv body_bytes "$r") $(kv end "$r")" = "400 0 eof" ]
out=$(curl -sv --max-time 10 -I "$(url nope)" -I "$(url hello.txt)" 2>&1)
check "validators: curl -I of a 404 then a file on one connection: no excess bytes" \
	bash -c '! grep -qi "excess" <<<"$1" && [ "$(grep -c "^< HTTP/1.1" <<<"$1")" = 2 ]' _ "$out"

# Resume after the file changed. The first half of the old file is
# fetched, the file is replaced, then the client resumes with the old
# validator: the server must not splice the new file's tail onto it.
old_etag=$etag
head -c $((size / 2)) "$f" >"$APP_TMP/part"
sleep 1.1 # a new second: Last-Modified must differ too
head -c "$size" /dev/urandom >"$APP_TMP/new" && mv "$APP_TMP/new" "$f"
new=$(filesha "$f")
cp "$APP_TMP/part" "$APP_TMP/c.out"
curl -s --max-time 30 -C - -H "If-Range: $old_etag" -o "$APP_TMP/c.out" "$(url test.bin)"
rc=$?
echo "# curl -C - with the old ETag in If-Range: exit $rc"
check "resume: curl -C - -H 'If-Range: old ETag' refuses to splice (server sent 200: curl exit 33, got $rc)" [ "$rc" = 33 ]
[ "$rc" = 33 ] && curl -s --max-time 30 -o "$APP_TMP/c.out" "$(url test.bin)"
check "resume: curl ends with the new file, byte for byte" [ "$(filesha "$APP_TMP/c.out")" = "$new" ]
# wget -c sends no If-Range; with -N it sends If-Modified-Since (the local
# file's mtime): the server then ignores Range (RFC 9110 14.2 allows it) and
# sends the whole new file. wget 1.21 keeps its own first bytes of a 200
# answer to a ranged request, so the check is on what the server sent.
if command -v wget >/dev/null; then
	mkdir -p "$APP_TMP/w"
	cp "$APP_TMP/part" "$APP_TMP/w/test.bin"
	touch -d '@1000000000' "$APP_TMP/w/test.bin"
	n0=$(log_count "GET /test.bin 200 $size sendfile")
	(cd "$APP_TMP/w" && wget -q -T 30 -t 1 -c -N "$(url test.bin)")
	sleep 0.2
	n1=$(log_count "GET /test.bin 200 $size sendfile")
	check "resume: wget -c -N after the change: the server sent 200 and the whole new file ($n0 -> $n1)" \
		[ "$n1" = $((n0 + 1)) ]
	rm -f "$APP_TMP/w/test.bin"
	(cd "$APP_TMP/w" && wget -q -T 30 -t 1 -c "$(url test.bin)")
	check "resume: wget -c of the new file: byte for byte" [ "$(filesha "$APP_TMP/w/test.bin")" = "$new" ]
else
	ok "resume: wget -c -N # skip wget is not installed"
	ok "resume: wget -c # skip wget is not installed"
fi
check "validators: server still alive" kill -0 "$APP_PID"
