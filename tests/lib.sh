# shellcheck shell=bash
# Helpers for test scripts: source it, then report cases with ok/not_ok/check.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export TOP

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }

# check NAME COMMAND...: one case, passes when COMMAND exits 0.
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# free_port: print a 127.0.0.1 TCP port nobody listens on now.
free_port() {
	local p
	for _ in $(seq 50); do
		p=$((20000 + RANDOM % 20000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}
