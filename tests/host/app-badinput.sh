#!/usr/bin/env bash
# Bad input gets a clear 4xx and a log line, and the server keeps serving;
# nothing outside the served folder is ever read.
# timeout: 300
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/app-host.sh"
echo 1..26
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build"; exit 1; }
app_make_root "$APP_ROOT"
app_start bad || { not_ok "app: server starts"; exit 1; }

long=$(head -c 3000 /dev/zero | tr '\0' a)
hdr=$(head -c 9000 /dev/zero | tr '\0' b)
# name | raw request | expected status
cases=(
	"malformed request line|GARBAGE\r\n\r\n|400"
	"missing version|GET /hello.txt\r\n\r\n|400"
	"unknown method|BREW /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n|501"
	"DELETE not implemented|DELETE /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n|501"
	"HTTP/2.0 refused|GET / HTTP/2.0\r\n\r\n|505"
	"oversized request line|GET /$long HTTP/1.1\r\nHost: t\r\n\r\n|414"
	"oversized headers|GET / HTTP/1.1\r\nHost: t\r\nX-Big: $hdr\r\n\r\n|431"
	"dot-dot traversal|GET /../secret.txt HTTP/1.1\r\nHost: t\r\n\r\n|403"
	"deep dot-dot traversal|GET /sub/../../secret.txt HTTP/1.1\r\nHost: t\r\n\r\n|403"
	"percent-encoded dot-dot|GET /%%2e%%2e/secret.txt HTTP/1.1\r\nHost: t\r\n\r\n|403"
	"mixed-case encoded dot-dot|GET /%%2E%%2e%%2fsecret.txt HTTP/1.1\r\nHost: t\r\n\r\n|403"
	"absolute-form target is accepted (RFC 9112 3.2.2), stays inside|GET http://evil/etc/passwd HTTP/1.1\r\nHost: t\r\n\r\n|404"
	"relative target|GET etc/passwd HTTP/1.1\r\nHost: t\r\n\r\n|400"
	"encoded NUL|GET /hello.txt%%00.png HTTP/1.1\r\nHost: t\r\n\r\n|400"
	"bad percent escape|GET /%%zz HTTP/1.1\r\nHost: t\r\n\r\n|400"
	"header without colon|GET / HTTP/1.1\r\nHost: t\r\nBogus\r\n\r\n|400"
	"symlink to a file outside|GET /escape.txt HTTP/1.1\r\nHost: t\r\n\r\n|403"
	"symlink to the parent folder|GET /up/secret.txt HTTP/1.1\r\nHost: t\r\n\r\n|403"
	"absolute path stays inside|GET //etc/passwd HTTP/1.1\r\nHost: t\r\n\r\n|404"
	"malformed range|GET /hello.txt HTTP/1.1\r\nHost: t\r\nRange: bytes=x-y\r\n\r\n|416"
)
# Each answer is kept whole (head and body) in $resp, to check what the
# server really sent, not what it logged.
resp=$APP_TMP/responses
mkdir -p "$resp"
i=0
ends=
for c in "${cases[@]}"; do
	IFS='|' read -r name req want <<<"$c"
	i=$((i + 1))
	# shellcheck disable=SC2059
	r=$(printf "$req" | client raw --one --wait 5 --out "$resp/$i")
	got=$(kv status "$r")
	ends+=" $(kv end "$r")"
	check "app: bad input: $name answers $want (got ${got:-nothing})" [ "$got" = "$want" ]
done
# A raw NUL byte inside the request line.
r=$(printf 'GET /hello.txt\0 HTTP/1.1\r\nHost: t\r\n\r\n' | client raw --one --wait 5 --out "$resp/nul")
got=$(kv status "$r")
check "app: bad input: raw NUL byte answers 400 (got ${got:-nothing})" [ "$got" = 400 ]
# Through each way out of the folder (symlinks, .., encoded ..), the file
# outside must not come back in any answer.
for req in 'GET /escape.txt HTTP/1.1\r\nHost: t\r\n\r\n' 'GET /up/secret.txt HTTP/1.1\r\nHost: t\r\n\r\n' \
	'GET /up/../secret.txt HTTP/1.1\r\nHost: t\r\n\r\n' 'GET /%%2e%%2e/secret.txt HTTP/1.1\r\nHost: t\r\n\r\n' \
	'GET /escape.txt HTTP/1.1\r\nHost: t\r\nRange: bytes=0-5\r\n\r\n'; do
	i=$((i + 1))
	# shellcheck disable=SC2059
	r=$(printf "$req" | client raw --one --wait 5 --out "$resp/$i")
	ends+=" $(kv end "$r")"
done
check "app: nothing outside the folder was served: no answer holds the secret file's bytes" \
	bash -c "! grep -rl 'secret outside' '$resp'"
check "app: every answer above came complete (head and Content-Length body)" \
	[ "$(tr ' ' '\n' <<<"$ends" | grep -c .) $(tr ' ' '\n' <<<"$ends" | grep -cx one)" = "$i $i" ]
check "app: every bad request logged" [ "$(log_count ' (400|403|404|414|416|431|501|505) [0-9]+ ')" -ge 21 ]
check "app: still serving after all that" [ "$(curl -sf --max-time 30 "$(url hello.txt)")" = "hello from the board" ]
check "app: server still alive" kill -0 "$APP_PID"
