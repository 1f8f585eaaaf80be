#!/usr/bin/env bash
# The dynamic half of the syscall audit: scripts/audit-trace.sh records the
# syscalls init (sendfile and read/write runs) and BusyBox really make under
# qemu-arm's strace. Then recall: every traced name must be in the static
# set of scripts/audit-syscalls.py --names ELF (misses and precision printed).
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/audit-trace-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# has FILE NAME...: every NAME is a line of FILE.
has() {
	local f=$1 n
	shift
	for n in "$@"; do grep -qx -- "$n" "$f" || return 1; done
}

# run PROGRAM: scripts/audit-trace.sh PROGRAM into $tmp, one case.
run() {
	local rc=0
	"$TOP/scripts/audit-trace.sh" "$1" "$tmp" >"$tmp/$1.out" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		ok "$1: audit-trace.sh exits 0"
	else
		tail -n 20 "$tmp/$1.out" | sed 's/^/  | /'
		not_ok "$1: audit-trace.sh exits 0 (status $rc)"
	fi
}

# recall PROGRAM ELF: every name in PROGRAM.names is in the static set.
recall() {
	local prog=$1 elf=$2 tool=$TOP/scripts/audit-syscalls.py
	local name="$prog: recall: every traced syscall is in the static set"
	local trace=$tmp/$prog.names static=$tmp/$prog.static
	if [ ! -f "$tool" ]; then
		not_ok "$name (scripts/audit-syscalls.py missing)"
		return
	fi
	if [ ! -s "$trace" ]; then
		not_ok "$name (no trace)"
		return
	fi
	if ! python3 "$tool" --names "$elf" >"$static.raw" 2>"$tmp/$prog.static.err"; then
		tail -n 5 "$tmp/$prog.static.err" | sed 's/^/  | /'
		not_ok "$name (audit-syscalls.py --names failed)"
		return
	fi
	grep -v '^[[:space:]]*$' "$static.raw" | LC_ALL=C sort -u >"$static"
	local misses hits nstatic
	misses=$(LC_ALL=C comm -23 "$trace" "$static" | paste -sd ' ')
	hits=$(LC_ALL=C comm -12 "$trace" "$static" | wc -l)
	nstatic=$(wc -l <"$static")
	echo "$prog: traced $(wc -l <"$trace"), static $nstatic, missed by the static set: ${misses:-none}"
	awk -v h="$hits" -v s="$nstatic" -v p="$prog" 'BEGIN {
		printf "%s: precision %d/%d = %.1f%% (traced names in the static set / static set)\n",
			p, h, s, s ? 100 * h / s : 0 }'
	check "$name" test -z "$misses"
}

# init: both transfer paths, the console, the index.
run init
n=$tmp/init.names s=$tmp/init-sendfile.names r=$tmp/init-readwrite.names
check "init: listening socket: socket bind listen setsockopt accept4" \
	has "$n" socket bind listen setsockopt accept4
check "init: event loop: poll clock_gettime64 recvfrom sendto" has "$n" poll clock_gettime64 recvfrom sendto
check "init: sendfile run: bodies by sendfile64, no pread64" \
	bash -c "grep -qx sendfile64 '$s' && ! grep -qx pread64 '$s'"
check "init: srv_sendfile=off run: bodies by pread64" has "$r" pread64
check "init: srv_sendfile=off run logged test.bin via read/write" \
	grep -Eq 'GET /test.bin 200 [0-9]+ read/write$' "$tmp/init-readwrite.log"
check "init: files opened with openat, index read with getdents64" has "$n" openat getdents64
check "init: console: read; stats: getrusage sysinfo; poweroff: exit_group" \
	has "$n" read getrusage sysinfo exit_group
check "init: init.names is the union of both runs" \
	bash -c "LC_ALL=C sort -u '$s' '$r' | cmp -s - '$n'"

# busybox: the applets and a shell pipeline with an exec'd child.
run busybox
b=$tmp/busybox.names
check "busybox: busybox.names is not empty" test -s "$b"
check "busybox: shell pipeline: clone pipe2 dup2 execve wait4" has "$b" clone pipe2 dup2 execve wait4
check "busybox: files: openat getdents64 mkdir unlink rmdir rename symlink" \
	has "$b" openat getdents64 mkdir unlink rmdir rename symlink
check "busybox: 'Unknown syscall 398' mapped by number to rseq" has "$b" rseq
check "busybox: the exec'd child of sh was traced too (a second log)" \
	test "$(grep -ac '^# busybox sh -c' "$tmp/busybox.strace")" -ge 2

recall init "$TOP/build/app/arm/init.unstripped"
recall busybox "$TOP/build/busybox/bin/busybox"
