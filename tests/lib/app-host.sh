# shellcheck shell=bash
# Helpers for tests/host/app-*.sh: run the host build of the server on a free
# 127.0.0.1 port with a temporary served folder. Source after tests/lib/common.sh.
#
#   app_make_root DIR     fill DIR with test.bin (2 MiB + odd), hello.txt,
#                         a subfolder, and a symlink pointing out of DIR
#   app_start NAME [CMD...] -- [SERVER ARGS...]
#                         start CMD (default: the host fileserver) with
#                         -a 127.0.0.1 -p PORT -r ROOT and the args; sets
#                         APP_PID APP_PORT APP_LOG; waits for "ready"
#   app_wait_exit [S]     wait for the server to end; its status in APP_RC
#   app_stop              kill it if still running (also at exit)
#   raw REQUEST           send bytes (printf format) on a fresh connection,
#                         print the response (5 s max)
#   client CMD ARGS...    tests/host/app/app_client.py on APP_PORT (raw
#                         clients that time the server's closes, count body
#                         bytes, hold connections open); prints key=value
#   kv KEY LINE           the value of KEY= in such a line
APP_BIN=$TOP/build/app/host/fileserver
# shellcheck disable=SC2034 # for the tests that source this file
APP_TBIN=$TOP/build/app/test
APP_TMP=$(mktemp -d "${TMPDIR:-/tmp}/app-test.XXXXXX")
APP_ROOT=$APP_TMP/root
APP_PID=
APP_PORT=
APP_LOG=

app_cleanup() {
	app_stop
	rm -rf "$APP_TMP"
}
trap app_cleanup EXIT

app_make_root() {
	local d=$1
	mkdir -p "$d/sub"
	head -c $((2 * 1024 * 1024 + 12345)) /dev/urandom >"$d/test.bin"
	echo "hello from the board" >"$d/hello.txt"
	echo "inner" >"$d/sub/inner.txt"
	echo "secret outside the folder" >"$APP_TMP/secret.txt"
	ln -s "$APP_TMP/secret.txt" "$d/escape.txt"
	ln -s .. "$d/up"
}

app_start() {
	local name=$1 cmd=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		cmd+=("$1")
		shift
	done
	[ "${1:-}" = -- ] && shift
	[ ${#cmd[@]} -eq 0 ] && cmd=("$APP_BIN")
	APP_PORT=$(free_port)
	APP_LOG=$APP_TMP/$name.log
	"${cmd[@]}" -a 127.0.0.1 -p "$APP_PORT" -r "$APP_ROOT" "$@" \
		<"${APP_STDIN:-/dev/null}" >"$APP_LOG" 2>&1 &
	APP_PID=$!
	for _ in $(seq 100); do
		grep -qs '^fileserver: ready' "$APP_LOG" && return 0
		kill -0 "$APP_PID" 2>/dev/null || break
		sleep 0.05
	done
	echo "server did not get ready:" >&2
	cat "$APP_LOG" >&2
	return 1
}

app_wait_exit() {
	local limit=${1:-10} t=0
	APP_RC=
	while kill -0 "$APP_PID" 2>/dev/null; do
		[ "$t" -ge $((limit * 10)) ] && { app_stop; APP_RC=124; return; }
		sleep 0.1
		t=$((t + 1))
	done
	wait "$APP_PID"
	# shellcheck disable=SC2034 # for the tests that source this file
	APP_RC=$?
	APP_PID=
}

app_stop() {
	if [ -n "$APP_PID" ] && kill -0 "$APP_PID" 2>/dev/null; then
		kill "$APP_PID" 2>/dev/null
		wait "$APP_PID" 2>/dev/null
	fi
	APP_PID=
}

url() { echo "http://127.0.0.1:$APP_PORT/$1"; }

sha() { sha256sum | cut -d' ' -f1; }

filesha() { sha256sum <"$1" | cut -d' ' -f1; }

# Status code of a raw request: raw 'GET / HTTP/1.1\r\n\r\n' | status
raw() {
	local fmt=$1
	(
		exec 3<>"/dev/tcp/127.0.0.1/$APP_PORT" || exit 1
		# shellcheck disable=SC2059
		printf "$fmt" >&3
		timeout 5 cat <&3
	)
}

status() { head -n1 | tr -d '\r' | cut -d' ' -f2; }

# Status code of a raw request, without waiting for the connection to end
# (4xx answers other than framing errors keep the connection open).
raw_status() {
	(
		exec 3<>"/dev/tcp/127.0.0.1/$APP_PORT" || exit 1
		# shellcheck disable=SC2059
		printf "$1" >&3
		timeout 5 head -n1 <&3
	) | status
}

# The system's python3 when there is one: it starts in 30 ms, where a
# version manager's shim can take 300.
APP_PY=$(command -v /usr/bin/python3 || command -v python3)
client() { "$APP_PY" "$TOP/tests/host/app/app_client.py" "$APP_PORT" "$@"; }

kv() { sed -n "s/.*\\<$1=\\([^ ]*\\).*/\\1/p" <<<"$2"; }

# lt A B: A < B for decimal numbers ("never" is never less).
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "never" && a + 0 < b + 0) }'; }

# Count log lines matching an ERE.
log_count() { grep -Ec -- "$1" "$APP_LOG"; }
