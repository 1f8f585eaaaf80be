# shellcheck shell=bash
# Shared by the pipeline scripts: one line per phase, full logs under
# build/logs/, and the tail of the log with its path when a phase fails.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOGS=$TOP/build/logs
mkdir -p "$LOGS"

die() {
	echo "error: $*" >&2
	exit 1
}

# phase NAME LOGNAME COMMAND...: run COMMAND with its output in
# build/logs/LOGNAME.log, print one line before and one after.
phase() {
	local name=$1 log=$LOGS/$2.log start=$SECONDS
	shift 2
	printf '  %-10s %s\n' "$name" "${log#"$TOP"/}"
	if ! "$@" >"$log" 2>&1; then
		echo "error: $name failed; last lines of ${log#"$TOP"/}:" >&2
		tail -n 30 "$log" | sed 's/^/  | /' >&2
		echo "error: full log: $log" >&2
		exit 1
	fi
	printf '  %-10s done in %ss\n' "$name" $((SECONDS - start))
}
