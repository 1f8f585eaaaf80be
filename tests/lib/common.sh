# shellcheck shell=bash
# Helpers for test scripts: source it, then report cases with ok/not_ok/check.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export TOP
# die, phase, show_log, free_port, testfile_sha: the scripts' library
# shellcheck source=scripts/lib/common.sh
. "$TOP/scripts/lib/common.sh"

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }

# check NAME COMMAND...: one case, passes when COMMAND exits 0.
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# fetch_many N URL SHA DIR: fetch URL with N clients at once (curl, bounded
# by FETCH_MAX_TIME, default 60 s); print how many got a body whose sha256
# is SHA. DIR keeps one checksum file per client. With FETCH_RETRY_EMPTY=1 a
# client whose connection the server closed before any byte of a response
# (curl fails having received no header byte) asks once more, as an HTTP
# client may for a GET (RFC 9112, 9.3.1); each such retry leaves a file
# c<i>.retry in DIR (fetch_retries counts them).
fetch_many() {
	local n=$1 url=$2 want=$3 dir=$4 i pids=()
	mkdir -p "$dir"
	rm -f "$dir"/c*.sha "$dir"/c*.retry
	for i in $(seq "$n"); do
		fetch_one "$url" "$dir/c$i" &
		pids+=($!)
	done
	wait "${pids[@]}"
	cat "$dir"/c*.sha | grep -c "^$want\$"
}

# fetch_one URL BASE: one client of fetch_many. BASE.sha gets the sha256 of
# the body it received, BASE.hdr how many bytes of response header arrived
# (0: nothing came back, so curl failed).
fetch_one() {
	local try
	for try in 1 2; do
		curl -sf --max-time "${FETCH_MAX_TIME:-60}" -w '%{stderr}%{size_header}' "$1" 2>"$2.hdr" |
			sha256sum | cut -d' ' -f1 >"$2.sha"
		[ "${FETCH_RETRY_EMPTY:-0}" = 1 ] && [ "$try" = 1 ] && [ "$(cat "$2.hdr")" = 0 ] || break
		: >"$2.retry"
	done
}

# fetch_retries DIR: how many clients of the last fetch_many in DIR retried.
fetch_retries() {
	find "$1" -maxdepth 1 -name 'c*.retry' | wc -l
}
