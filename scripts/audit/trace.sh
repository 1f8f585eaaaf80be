#!/usr/bin/env bash
# audit/trace.sh PROGRAM OUTDIR: the dynamic half of the syscall audit.
# Runs an ARM program under qemu-user's strace and writes
#   OUTDIR/PROGRAM.names   sorted unique syscall names seen, one per line,
#                          spelled as in the kernel's arch/arm/tools/syscall.tbl
#   OUTDIR/PROGRAM.strace  the raw qemu strace ("# ..." lines separate runs)
# PROGRAM is
#   init     build/app/arm/init (make app-arm) serving build/rootfs/srv
#            (make board) on 127.0.0.1, three times: sendfile, then
#            srv_sendfile=off, then as PID 1 in a new PID namespace (bad
#            input, stats, poweroff through board_end's sync and reboot),
#            and once more as PID 1 with faults injected (strace -e inject:
#            two event-loop polls fail with ENOMEM, reboot with EPERM) to
#            trace the paths that handle them: poll_transient's back-off
#            (a poll on no descriptors) and board_end's pause; also
#            OUTDIR/init-{sendfile,readwrite,pid1,faults}.names and .log
#   busybox  build/busybox/bin/busybox (scripts/board/busybox.sh), a fixed
#            list of applets (APPLETS below), each its own qemu-arm run
# A syscall token that cannot be mapped to a table name is an error (exit 1).
# Every step is bounded by a timeout; on failure the tail of the log is shown.
set -eu
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
DIE_PREFIX=audit-trace
export TOP # as tests/lib.sh exported it when this script sourced it


[ $# -eq 2 ] || die "usage: $0 init|busybox OUTDIR"
prog=$1
mkdir -p "$2"
out=$(cd "$2" && pwd)
tbl=$TOP/build/linux-6.1/arch/arm/tools/syscall.tbl
qemu=$(command -v qemu-arm) || die "qemu-arm not found (Debian package qemu-user)"
[ -r "$tbl" ] || die "$tbl missing (make extract)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/audit-trace.XXXXXX")
srv_pid=
cleanup() {
	[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# fail LOG MESSAGE: show the tail of LOG, then die.
fail() {
	echo "audit-trace: last lines of $1:" >&2
	show_log "$1" >&2
	die "$2"
}

# names FILE...: the syscall names in qemu strace logs, sorted, unique.
# qemu prints "PID name(args) = ret" (a line may carry a second call of
# another process after a ')', when two processes share one log) and
# "PID Unknown syscall NR" for calls it has no name for: those are looked up
# by number. qemu takes its names from the same table; an entry of ALIAS
# would map a qemu spelling that differs (none seen with qemu 7.2).
names() {
	awk -v tbl="$tbl" '
	function bad(what) {
		printf "audit-trace: cannot map syscall token \"%s\" (%s line %d)\n",
			what, FILENAME, FNR > "/dev/stderr"
		err = 1
		exit 1
	}
	BEGIN {
		while ((getline l < tbl) > 0) {
			if (l ~ /^#/ || split(l, f, /[ \t]+/) < 3) continue
			if (f[2] != "common" && f[2] != "eabi") continue
			byname[f[3]] = 1
			bynr[f[1]] = f[3]
		}
		if (!length(byname)) { print "audit-trace: no entries in " tbl > "/dev/stderr"; err = 1; exit 1 }
		# ALIAS["qemu spelling"] = "table name"
	}
	/^#/ { next }
	# A line opened by a pid must open with a call, an unknown call or a
	# signal note: anything else is a format this parser does not know.
	/^[0-9]+ / && $0 !~ /^[0-9]+ ([A-Za-z_][A-Za-z0-9_]*\(|Unknown syscall [0-9]+|---)/ {
		bad($2)
	}
	{
		s = ")" $0
		while (match(s, /\)[0-9]+ ([A-Za-z_][A-Za-z0-9_]*\(|Unknown syscall [0-9]+)/)) {
			tok = substr(s, RSTART + 1, RLENGTH - 1)
			s = substr(s, RSTART + RLENGTH)
			sub(/^[0-9]+ /, "", tok)
			if (tok ~ /^Unknown syscall /) {
				nr = tok
				sub(/.* /, "", nr)
				if (!(nr in bynr)) bad(tok)
				name = bynr[nr]
			} else {
				sub(/\($/, "", tok)
				name = (tok in ALIAS) ? ALIAS[tok] : tok
				if (!(name in byname)) bad(tok)
			}
			seen[name] = 1
		}
	}
	END {
		if (err) exit 1
		for (n in seen) print n
	}' "$@" >"$tmp/names.raw" # not in a pipe: set -e sees awk fail
	LC_ALL=C sort -u "$tmp/names.raw"
}

# ---------------------------------------------------------------- init
# console_open: fd 7 on a fresh FIFO, $tmp/console, that the next init reads
# as its console; read-write, so neither side blocks on open.
console_open() {
	rm -f "$tmp/console"
	mkfifo "$tmp/console"
	exec 7<>"$tmp/console"
}

# wait_ready LOG LABEL: until init's LOG says ready (20 s at most); fails if
# $srv_pid ends first.
wait_ready() {
	local i
	for i in $(seq 200); do
		grep -q '^fileserver: ready' "$1" && return 0
		kill -0 "$srv_pid" 2>/dev/null || fail "$1" "$2 ended before ready"
		sleep 0.1
	done
	fail "$1" "$2 not ready after 20 s"
}

# init_requests URL LOG MODE: the fixed set of requests (GET with sha256,
# HEAD, a range, a 404, the index, keep-alive); any wrong answer is fatal.
init_requests() {
	local url=$1 log=$2 mode=$3 want got
	local c=(curl -s --max-time 20)
	want=$(testfile_sha test.bin)
	got=$("${c[@]}" -f "$url/test.bin" | sha256sum | cut -d' ' -f1)
	[ -n "$want" ] || fail "$log" "no test.bin in SHA256SUMS"
	[ "$got" = "$want" ] || fail "$log" "init ($mode): GET test.bin: sha256 $got, want $want"
	want=$(testfile_sha hello.txt)
	got=$("${c[@]}" -f "$url/hello.txt" | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || fail "$log" "init ($mode): GET hello.txt: wrong sha256"
	"${c[@]}" -f -I "$url/hello.txt" | tr -d '\r' | grep -q '^Content-Length: ' ||
		fail "$log" "init ($mode): HEAD hello.txt"
	got=$("${c[@]}" -f -r 1000-99999 "$url/test.bin" | wc -c)
	[ "$got" = 99000 ] || fail "$log" "init ($mode): range 1000-99999 gave $got bytes"
	got=$("${c[@]}" -o /dev/null -w '%{http_code}' "$url/no-such-file")
	[ "$got" = 404 ] || fail "$log" "init ($mode): missing file gave $got, want 404"
	"${c[@]}" -f "$url/" | grep -q 'href="/hello.txt"' || fail "$log" "init ($mode): GET / index"
	got=$("${c[@]}" -o /dev/null -o /dev/null -w '%{num_connects}' "$url/hello.txt" "$url/test.bin" | tr -d '\n')
	[ "$got" = 10 ] || fail "$log" "init ($mode): keep-alive: connects $got, want 10"
}

# One server run: MODE (sendfile|readwrite), env words for the server.
init_run() {
	local mode=$1 port log trace
	shift
	log=$out/init-$mode.log
	trace=$tmp/init-$mode.strace
	local root=$TOP/build/rootfs/srv
	port=$(free_port) || die "no free port"
	local url=http://127.0.0.1:$port
	console_open
	env "$@" timeout 120 "$qemu" -strace -D "$trace" "$TOP/build/app/arm/init" \
		-a 127.0.0.1 -p "$port" -r "$root" <"$tmp/console" >"$log" 2>&1 &
	srv_pid=$!
	wait_ready "$log" "init ($mode)"
	local i

	init_requests "$url" "$log" "$mode"

	printf 'stats\npoweroff\n' >&7
	for i in $(seq 200); do
		kill -0 "$srv_pid" 2>/dev/null || break
		[ "$i" = 200 ] && fail "$log" "init ($mode) still running 20 s after poweroff"
		sleep 0.1
	done
	local rc=0
	wait "$srv_pid" || rc=$?
	srv_pid=
	exec 7>&-
	[ "$rc" = 0 ] || fail "$log" "init ($mode): exit status $rc, want 0"
	grep -q '^fileserver: stats: ' "$log" || fail "$log" "init ($mode): no stats line"
	local via=sendfile
	[ "$mode" = readwrite ] && via=read/write
	grep -q "GET /test.bin 200 [0-9]* $via\$" "$log" ||
		fail "$log" "init ($mode): test.bin not served via $via"
	names "$trace" >"$out/init-$mode.names"
	{
		echo "# init run: $mode ($*)"
		cat "$trace"
	} >>"$out/init.strace"
}

# bad_request URL-PORT: a request with a broken header line, sent raw; the
# status line of the answer (400 expected).
bad_request() {
	local reply
	exec 8<>"/dev/tcp/127.0.0.1/$1" || return 1
	printf 'GET /hello.txt HTTP/1.1\r\nthis line has no colon\r\n\r\n' >&8
	reply=$(timeout 20 head -n 1 <&8 | tr -d '\r')
	exec 8<&-
	echo "$reply"
}

# The run as PID 1 (in a new PID namespace, `unshare --pid --fork`: only
# there is getpid() 1): boot, serve, bad input, the console's stats and an
# unknown command, then poweroff, which now takes board_end's init path:
# sync and reboot(RB_POWER_OFF). In a child PID namespace, reboot() ends
# that namespace (the kernel's reboot_pid_ns(): its init is killed), never
# the machine; without CAP_SYS_BOOT it fails and init pauses, so the run is
# ended from here after 10 s.
init_pid1_run() {
	local port log=$out/init-pid1.log trace=$tmp/init-pid1.strace i
	command -v unshare >/dev/null || die "unshare not found (util-linux)"
	port=$(free_port) || die "no free port"
	console_open
	timeout 120 unshare --pid --fork --kill-child "$qemu" -strace -D "$trace" \
		"$TOP/build/app/arm/init" -a 127.0.0.1 -p "$port" -r "$TOP/build/rootfs/srv" \
		<"$tmp/console" >"$log" 2>&1 &
	srv_pid=$!
	wait_ready "$log" "init (pid 1)"
	grep -q 'starting as init (pid 1)' "$log" || fail "$log" "init (pid 1): not started as init"
	local got want
	want=$(testfile_sha hello.txt)
	got=$(curl -s --max-time 20 -f "http://127.0.0.1:$port/hello.txt" | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || fail "$log" "init (pid 1): GET hello.txt: wrong sha256"
	got=$(bad_request "$port")
	case $got in
	"HTTP/1.1 400"*) ;;
	*) fail "$log" "init (pid 1): bad header line answered '$got', want 400" ;;
	esac
	printf 'nosuchcommand\nstats\npoweroff\n' >&7
	for i in $(seq 100); do
		kill -0 "$srv_pid" 2>/dev/null || break
		sleep 0.1
	done
	kill "$srv_pid" 2>/dev/null || true # reboot failed: init pauses
	wait "$srv_pid" 2>/dev/null || true
	srv_pid=
	exec 7>&-
	grep -q '^fileserver: stats: ' "$log" || fail "$log" "init (pid 1): no stats line"
	grep -q 'powering off' "$log" || fail "$log" "init (pid 1): poweroff did not reach board_end"
	names "$trace" >"$out/init-pid1.names"
	{
		echo "# init run: pid1 (unshare --pid --fork)"
		cat "$trace"
	} >>"$out/init.strace"
}

# The run with faults: as PID 1 again, under strace's fault injection
# (`strace -f -e inject`, on qemu-arm's host syscalls; strace injects only into
# the syscalls it traces, hence -e trace): the 3rd and 5th
# ppoll (init's poll) fail with ENOMEM, reboot fails with EPERM. These are
# the failures init's code handles, and the paths that handle them are real
# code the board runs when they happen: poll_transient() logs, waits (the
# 4th and 6th ppoll: poll(NULL, 0, 50), then 100 ms) and goes on;
# board_end() logs and pauses forever. The run
# ends when init says it halts: its qemu-arm, the namespace's PID 1, is
# killed with SIGKILL (nothing else reaches a PID-namespace init, and a
# traced process ignores the rest).
init_faults_run() {
	local port log=$out/init-faults.log trace=$tmp/init-faults.strace i q s u
	command -v strace >/dev/null || die "strace not found (Debian package strace)"
	port=$(free_port) || die "no free port"
	console_open
	timeout 120 strace -f -qq -o /dev/null -e trace=ppoll,reboot \
		-e inject=ppoll:error=ENOMEM:when=3..5+2 -e inject=reboot:error=EPERM \
		unshare --pid --fork --kill-child "$qemu" -strace -D "$trace" \
		"$TOP/build/app/arm/init" -a 127.0.0.1 -p "$port" -r "$TOP/build/rootfs/srv" \
		<"$tmp/console" >"$log" 2>&1 &
	srv_pid=$!
	wait_ready "$log" "init (faults)"
	local got want
	want=$(testfile_sha hello.txt)
	got=$(curl -s --max-time 20 -f "http://127.0.0.1:$port/hello.txt" | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || fail "$log" "init (faults): GET hello.txt: wrong sha256"
	printf 'stats\npoweroff\n' >&7
	for i in $(seq 200); do
		grep -q 'halting here' "$log" && break
		[ "$i" = 200 ] && fail "$log" "init (faults): no 'halting here' 20 s after poweroff"
		sleep 0.1
	done
	sleep 0.5 # into pause()
	# timeout -> strace -> unshare -> qemu-arm (this run's own processes)
	s=$(pgrep -P "$srv_pid") && u=$(pgrep -P "$s") && q=$(pgrep -P "$u") &&
		kill -KILL "$q" || fail "$log" "init (faults): its qemu-arm not found to end the run"
	wait "$srv_pid" 2>/dev/null || true
	srv_pid=
	exec 7>&-
	grep -q 'poll: Out of memory, retrying' "$log" || fail "$log" "init (faults): poll's ENOMEM not seen"
	names "$trace" >"$out/init-faults.names"
	{
		echo "# init run: faults (PID 1; strace -e inject: ppoll ENOMEM twice, reboot EPERM)"
		cat "$trace"
	} >>"$out/init.strace"
}

trace_init() {
	local bin=$TOP/build/app/arm/init
	[ -x "$bin" ] || die "$bin missing (make app-arm)"
	if [ ! -r "$TOP/build/rootfs/srv/test.bin" ] || [ ! -r "$TOP/build/rootfs/SHA256SUMS" ]; then
		die "build/rootfs/srv missing (make board)"
	fi
	: >"$out/init.strace"
	init_run sendfile srv_sendfile=on
	init_run readwrite srv_sendfile=off
	init_pid1_run
	init_faults_run
	LC_ALL=C sort -u "$out/init-sendfile.names" "$out/init-readwrite.names" \
		"$out/init-pid1.names" "$out/init-faults.names" >"$out/init.names"
}

# ---------------------------------------------------------------- busybox
# One qemu-arm run per line: "APPLET ARGS" with shell quoting, in order, in
# one scratch folder that starts with in.txt (five lines) and an empty x/.
APPLETS=(
	'echo hello world'
	'mkdir -p a/b/c'
	'cp in.txt a/b/c/copy.txt'
	'ls -l a/b/c'
	'cat in.txt a/b/c/copy.txt'
	'sha256sum in.txt'
	'wc in.txt'
	'sort in.txt'
	'grep -n two in.txt'
	'sed -e s/one/ONE/ in.txt'
	'head -n 2 in.txt'
	'tail -n 2 in.txt'
	'date'
	'uname -a'
	'sleep 0'
	'find . -name "*.txt"'
	'tar cf t.tar a in.txt'
	'tar xf t.tar -C x'
	'gzip in.txt'
	'gunzip in.txt.gz'
	'touch t'
	'mv t u'
	'ln -s u v'
	'id'
	'rm -r a u v'
	"sh -c 'x=1; echo \$x | cat'"
)

# The guest's own exec of an applet (ash runs /proc/self/exe, then the PATH)
# cannot run an ARM file unless binfmt_misc sends it to qemu. The guest's
# PATH is therefore a folder of host scripts named after the applets that
# run BusyBox under qemu-arm again. QEMU_STRACE=1 (not -strace) is in the
# environment, so that qemu-arm traces too, into its own log (%d = pid).
trace_busybox() {
	local bb=$TOP/build/busybox/bin/busybox wrap=$tmp/bin work=$tmp/work
	[ -x "$bb" ] || die "$bb missing (scripts/board/busybox.sh)"
	mkdir -p "$wrap" "$tmp/logs"
	# shellcheck disable=SC2016 # $0 and $@ are for the wrapper
	printf '#!/bin/sh\nexec %s %s "${0##*/}" "$@"\n' "$qemu" "$bb" >"$wrap/busybox"
	chmod +x "$wrap/busybox"
	local a
	for a in $(timeout 30 "$qemu" "$bb" --list); do
		[ "$a" = busybox ] || ln -s busybox "$wrap/$a"
	done
	[ -e "$wrap/sh" ] || die "busybox --list gave no applets"
	: >"$out/busybox.strace"
	mkdir -p "$work/x"
	printf 'one\ntwo\nthree\nfour\nfive\n' >"$work/in.txt"
	local i=0 line cmd
	for line in "${APPLETS[@]}"; do
		i=$((i + 1))
		eval "cmd=($line)"
		local n
		n=$(printf '%02d' "$i")
		local rc=0
		(cd "$work" && timeout 60 env PATH="$wrap" QEMU_STRACE=1 \
			QEMU_LOG_FILENAME="$tmp/logs/$n.%d" "$qemu" "$bb" "${cmd[@]}") >"$tmp/logs/$n.out" 2>&1 || rc=$?
		[ "$rc" = 0 ] || fail "$tmp/logs/$n.out" "busybox $line: exit status $rc"
		local f
		for f in "$tmp/logs/$n".[0-9]*; do
			[ -e "$f" ] || fail "$tmp/logs/$n.out" "busybox $line: no strace log"
			echo "# busybox $line [pid ${f##*.}]"
			cat "$f"
		done >>"$out/busybox.strace"
	done
	names "$out/busybox.strace" >"$out/busybox.names"
}

case $prog in
init) trace_init ;;
busybox) trace_busybox ;;
*) die "PROGRAM must be init or busybox, not '$prog'" ;;
esac
[ -s "$out/$prog.names" ] || die "no syscalls recorded for $prog"
echo "audit-trace: $prog: $(wc -l <"$out/$prog.names") syscalls in $out/$prog.names"
