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
