#!/usr/bin/env bash
# Edges of the HTTP subset and of the served folder, on the wire:
#   - a request with a body (Content-Length other than 0, Transfer-Encoding)
#     is answered, then the connection closes: its body is never read as a
#     request; Content-Length: 0 keeps the connection;
#   - a Range value too long to keep (64 bytes and more) answers 416 and
#     the connection stays usable; one byte shorter is still parsed;
#   - a folder index longer than the connection's buffer is complete (it
#     is streamed: close-delimited on HTTP/1.0, see app-listing.sh for the
#     chunked HTTP/1.1 form) and well-formed; names are percent-encoded in
#     links and those links lead back to the files;
#   - a FIFO or a device in the folder answers 403 at once and never blocks
#     the server.
# timeout: 300
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/app-host.sh"
echo 1..26
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build"; exit 1; }
app_make_root "$APP_ROOT"
size=$(stat -c %s "$APP_ROOT/test.bin")
hello='hello from the board'

# Odd names, one per character class that must be encoded in a link.
odd=$APP_ROOT/odd
mkdir -p "$odd/my dir"
declare -A enc=(
	["a b.txt"]="a%20b.txt"
	["100%.txt"]="100%25.txt"
	['q"uote<tag>.txt']="q%22uote%3Ctag%3E.txt"
	["x?y#z.txt"]="x%3Fy%23z.txt"
	["$(printf '\303\274').txt"]="%C3%BC.txt"
	["amp&semi;.txt"]="amp%26semi%3B.txt"
)
for name in "${!enc[@]}"; do
	printf 'file %s\n' "${enc[$name]}" >"$odd/$name"
done
echo "in a folder with a space" >"$odd/my dir/f.txt"
# Many entries: more than the index buffer (CONN_OUT_MAX - 512) holds.
mkdir -p "$APP_ROOT/many"
for i in $(seq 200); do
	: >"$APP_ROOT/many/entry-$(printf '%03d' "$i")-with-a-rather-long-name.txt"
done
# Neither regular files nor folders.
mkfifo "$APP_ROOT/fifo"
mknod "$APP_ROOT/null" c 1 3 2>/dev/null && have_dev=yes || have_dev=no

app_start edges -- -t 20 -T 20 || { not_ok "app: server starts"; exit 1; }

# --- requests with a body ------------------------------------------------
inner='GET /sub/inner.txt HTTP/1.1\r\nHost: t\r\n\r\n'
n=$(printf "$inner" | wc -c)
r=$(printf "GET /hello.txt HTTP/1.1\r\nHost: t\r\nContent-Length: $n\r\n\r\n$inner" | client raw --wait 5 --out "$APP_TMP/cl")
echo "# Content-Length: $n + a request as the body: $r"
check "app: edges: Content-Length $n: answered with Connection: close ($r)" \
	bash -c "[ '$(kv status "$r")' = 200 ] && tr -d '\r' <'$APP_TMP/cl' | grep -qx 'Connection: close'"
check "app: edges: Content-Length $n: the connection ends right after the answer ($r)" \
	[ "$(kv body_bytes "$r") $(kv end "$r")" = "21 eof" ]
check "app: edges: Content-Length $n: the body is not served as a second request" \
	bash -c "! grep -q '^inner' '$APP_TMP/cl'"
chunked="$(printf '%x' "$n")\r\n$inner\r\n0\r\n\r\n"
r=$(printf "GET /hello.txt HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n$chunked" | client raw --wait 5 --out "$APP_TMP/te")
echo "# Transfer-Encoding: chunked + a request as the body: $r"
check "app: edges: Transfer-Encoding: chunked: answered, then closed ($r)" \
	bash -c "[ '$(kv status "$r") $(kv body_bytes "$r") $(kv end "$r")' = '200 21 eof' ] && tr -d '\r' <'$APP_TMP/te' | grep -qx 'Connection: close'"
check "app: edges: Transfer-Encoding: chunked: the body is not served as a request" \
	bash -c "! grep -q '^inner' '$APP_TMP/te'"
r=$(printf 'GET /hello.txt HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\nGET /sub/inner.txt HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n' |
	client raw --wait 5 --out "$APP_TMP/cl0")
check "app: edges: Content-Length: 0 keeps the connection: the next request is answered ($r)" \
	bash -c "[ '$(kv end "$r")' = eof ] && grep -q '^$hello' '$APP_TMP/cl0' && grep -q '^inner' '$APP_TMP/cl0'"

# --- Range values too long to keep ---------------------------------------
# HTTP_RANGE_MAX is 64: a 63-byte value is parsed, a 64-byte one is refused.
pad() { printf 'bytes=%0*d-9' $(($1 - 8)) 5; }
r63=$(pad 63)
r64=$(pad 64)
r=$(printf "GET /test.bin HTTP/1.1\r\nHost: t\r\nRange: $r63\r\n\r\n" | client raw --one --wait 5 --out "$APP_TMP/r63")
check "app: edges: a 63-byte Range value is parsed: 206, bytes 5-9 (${#r63} bytes: $r)" \
	bash -c "[ '$(kv status "$r") $(kv body_bytes "$r")' = '206 5' ] && tr -d '\r' <'$APP_TMP/r63' | grep -qx 'Content-Range: bytes 5-9/$size'"
r=$(printf "GET /test.bin HTTP/1.1\r\nHost: t\r\nRange: $r64\r\n\r\nGET /hello.txt HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n" |
	client raw --wait 5 --out "$APP_TMP/r64")
check "app: edges: a 64-byte Range value answers 416 with Content-Range: bytes */size (${#r64} bytes: $r)" \
	bash -c "[ '$(kv status "$r")' = 416 ] && tr -d '\r' <'$APP_TMP/r64' | grep -qx 'Content-Range: bytes \*/$size'"
check "app: edges: after the over-long Range the same connection answers the next request" \
	bash -c "[ '$(kv end "$r")' = eof ] && grep -q '^$hello' '$APP_TMP/r64'"
long=$(printf 'bytes=0-0%.0s' $(seq 200))
got=$(raw_status "GET /test.bin HTTP/1.1\r\nHost: t\r\nRange: ${long//bytes=/,}\r\n\r\n")
check "app: edges: a 2 KB Range value answers 416 (got ${got:-nothing})" [ "$got" = 416 ]

# --- folder indexes --------------------------------------------------------
r=$(printf 'GET /many/ HTTP/1.0\r\n\r\n' | client raw --wait 5 --out "$APP_TMP/many")
body=$(tail -c "+$(($(kv head_bytes "$r") + 1))" "$APP_TMP/many")
# An entry: one line, <li><a href="LINK">TEXT</a> and perhaps a note </li>.
entry='^<li><a href="[^"<>]*">[^<>]*</a>[^<>]*</li>$'
entries=$(grep -c '^<li><a href="/many/entry-[0-9]*-with-a-rather-long-name.txt">/many/entry-[0-9]*-with-a-rather-long-name.txt</a>[^<>]*</li>$' <<<"$body")
echo "# /many/: $r, $entries of 200 entries listed"
check "app: edges: a long index is complete: 200, all 200 entries ($entries of 200)" \
	bash -c "[ '$(kv status "$r")' = 200 ] && [ $entries -eq 200 ]"
check "app: edges: a long index is well-formed: every <li> line a whole entry, closing tags at the end" \
	bash -c "! printf '%s\n' \"\$1\" | grep '^<li' | grep -vq '$entry' &&
		[ \"\$(printf '%s\n' \"\$1\" | tail -n 1)\" = '</ul></body></html>' ]" _ "$body"
check "app: edges: HTTP/1.0 index: no Content-Length, the close ends it ($r)" \
	bash -c "[ '$(kv end "$r")' = eof ] && ! tr -d '\r' <'$APP_TMP/many' | grep -qi '^Content-Length:' &&
		tr -d '\r' <'$APP_TMP/many' | grep -qx 'Connection: close'"
r=$(printf 'HEAD /many/ HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n' | client raw --wait 5 --out "$APP_TMP/many-head")
check "app: edges: HEAD of the long index: 200, no body ($r)" \
	bash -c "[ '$(kv status "$r") $(kv body_bytes "$r")' = '200 0' ]"

index=$(curl -sf --max-time 30 "$(url odd/)")
echo "# /odd/ index:"
sed 's/^/#   /' <<<"$index"
for name in "${!enc[@]}"; do
	e=${enc[$name]}
	check "app: edges: index links '$name' as /odd/$e and the link serves it" \
		bash -c "grep -qF '<li><a href=\"/odd/$e\">/odd/$e</a>' <<<\"\$1\" &&
			[ \"\$(curl -sf --max-time 30 '$(url "odd/$e")')\" = 'file $e' ]" _ "$index"
done
check "app: edges: no raw < > \" or space from a name gets into the index's entries" \
	bash -c "grep '^<li' <<<\"\$1\" | grep -vq '$entry' || grep '^<li' <<<\"\$1\" | grep -qE 'tag>|<tag|q\"|a b|100%\\.' && exit 1; exit 0" _ "$index"
check "app: edges: a folder with a space: /odd/my%20dir/ lists /odd/my%20dir/f.txt, which serves" \
	bash -c "curl -sf --max-time 30 '$(url 'odd/my%20dir/')' | grep -qF 'href=\"/odd/my%20dir/f.txt\"' &&
		[ \"\$(curl -sf --max-time 30 '$(url 'odd/my%20dir/f.txt')')\" = 'in a folder with a space' ]"

# --- neither file nor folder ----------------------------------------------
r=$(printf 'GET /fifo HTTP/1.1\r\nHost: t\r\n\r\n' | client raw --one --wait 5)
check "app: edges: a FIFO answers 403 at once ($r)" [ "$(kv status "$r") $(kv end "$r")" = "403 one" ]
if [ "$have_dev" = yes ]; then
	r=$(printf 'GET /null HTTP/1.1\r\nHost: t\r\n\r\n' | client raw --one --wait 5)
	check "app: edges: a character device answers 403 ($r)" [ "$(kv status "$r") $(kv end "$r")" = "403 one" ]
else
	ok "app: edges: a character device answers 403 # skip mknod not permitted here"
fi
check "app: edges: still serving after the FIFO and the device" \
	[ "$(curl -sf --max-time 10 "$(url hello.txt)")" = "$hello" ]
check "app: edges: server still alive" kill -0 "$APP_PID"
