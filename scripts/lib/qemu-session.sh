# shellcheck shell=bash
# Boot the board in the background (for a test or a measurement), talk to
# its serial console, wait for lines, and make sure it is gone afterwards.
# Sources common.sh (free_port) and qemu.sh (the command line).
#
#   qemu_start NAME        boot with the current VARIANT/RAM/INITRD/... (see
#                          scripts/lib/qemu.sh); the console goes to
#                          $TOP/build/logs/qemu/NAME.log, PORT is set to a free
#                          127.0.0.1 port unless already set.
#   qemu_spawn NAME CMD... the same for a command that runs QEMU itself
#   qemu_wait_for REGEX [SECONDS]   wait until the console log matches
#   qemu_send TEXT         type a line on the serial console
#   qemu_wait_exit [SECONDS]        wait for QEMU to end; returns its status
#                          (124 if it had to be killed)
#   qemu_stop              kill it if still running (also done at exit)
#
# Every boot is bounded: QEMU runs under timeout(1) (QEMU_TIMEOUT, default 300 s).
# shellcheck source=scripts/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=scripts/lib/qemu.sh
. "$(dirname "${BASH_SOURCE[0]}")/qemu.sh"

QEMU_PID=
QEMU_LOG=
QEMU_FIFO=

qemu_start() {
	local name=$1
	: "${PORT:=$(free_port)}"
	export PORT
	qemu_cmd || return 1
	qemu_spawn "$name" "${QEMU_ARGS[@]}"
}

# qemu_spawn NAME COMMAND...: start COMMAND (QEMU, or something that execs
# it, such as `make run-arm`) like qemu_start does.
qemu_spawn() {
	local name=$1
	shift
	mkdir -p "$TOP/build/logs/qemu"
	QEMU_LOG=$TOP/build/logs/qemu/$name.log
	QEMU_FIFO=$(mktemp -u "${TMPDIR:-/tmp}/qemu-console.XXXXXX")
	mkfifo "$QEMU_FIFO"
	# Keep the FIFO open for writing on fd 7 so QEMU never sees EOF early.
	timeout --kill-after=5 "${QEMU_TIMEOUT:-300}" "$@" \
		<"$QEMU_FIFO" >"$QEMU_LOG" 2>&1 &
	QEMU_PID=$!
	exec 7>"$QEMU_FIFO"
	echo "qemu: pid $QEMU_PID, port ${PORT:-?}, log ${QEMU_LOG#"$TOP"/}"
	echo "qemu: $*"
}

qemu_wait_for() {
	local re=$1 limit=${2:-60} t=0
	while [ "$t" -lt $((limit * 5)) ]; do
		grep -Eq -- "$re" "$QEMU_LOG" 2>/dev/null && return 0
		kill -0 "$QEMU_PID" 2>/dev/null || {
			grep -Eq -- "$re" "$QEMU_LOG" 2>/dev/null
			return
		}
		sleep 0.2
		t=$((t + 1))
	done
	echo "qemu: no line matching '$re' within ${limit}s" >&2
	return 1
}

qemu_send() {
	printf '%s\n' "$*" >&7
}

qemu_wait_exit() {
	local limit=${1:-60} t=0 rc
	while kill -0 "$QEMU_PID" 2>/dev/null; do
		if [ "$t" -ge $((limit * 5)) ]; then
			qemu_stop
			return 124
		fi
		sleep 0.2
		t=$((t + 1))
	done
	wait "$QEMU_PID"
	rc=$?
	QEMU_PID=
	qemu_cleanup_fifo
	return "$rc"
}

qemu_cleanup_fifo() {
	exec 7>&- 2>/dev/null
	[ -n "$QEMU_FIFO" ] && rm -f "$QEMU_FIFO"
	QEMU_FIFO=
}

qemu_stop() {
	if [ -n "$QEMU_PID" ] && kill -0 "$QEMU_PID" 2>/dev/null; then
		kill "$QEMU_PID" 2>/dev/null
		wait "$QEMU_PID" 2>/dev/null
	fi
	QEMU_PID=
	qemu_cleanup_fifo
}

# Print the end of the console log (for failures).
qemu_log_tail() {
	echo "--- console (${QEMU_LOG#"$TOP"/}), last ${1:-30} lines:"
	tail -n "${1:-30}" "$QEMU_LOG"
}

trap qemu_stop EXIT
