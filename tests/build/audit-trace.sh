#!/usr/bin/env bash
# The dynamic half of the syscall audit: scripts/audit/trace.sh records the
# syscalls init (sendfile and read/write runs, a run as PID 1 with bad
# input, stats and poweroff, and one as PID 1 with faults injected: poll
# ENOMEM, reboot EPERM) and BusyBox really make under qemu-arm's strace.
# Then recall: every traced name must be in the static set of
# scripts/audit/syscalls.py --names ELF (the reachable set), of --all-sites,
# and of the set pruned for the tiny config (--kmap: dead ENOSYS fallbacks
# and code after exit_group left out); precision is printed for each. qemu-arm
# -strace does not log ARM private syscalls (0xf0000+, ARM_set_tls): they are
# counted and precision is also given without them. Floors: 50% for init's
# reachable set, 80% for its pruned set.
set -u
. "$(dirname "$0")/../lib/common.sh"
echo "1..26"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/audit-trace-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# has FILE NAME...: every NAME is a line of FILE.
has() {
	local f=$1 n
	shift
	for n in "$@"; do grep -qx -- "$n" "$f" || return 1; done
}

# run PROGRAM: scripts/audit/trace.sh PROGRAM into $tmp, one case.
run() {
	local rc=0
	"$TOP/scripts/audit/trace.sh" "$1" "$tmp" >"$tmp/$1.out" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		ok "$1: audit-trace.sh exits 0"
	else
		tail -n 20 "$tmp/$1.out" | sed 's/^/  | /'
		not_ok "$1: audit-trace.sh exits 0 (status $rc)"
	fi
}

# static PROGRAM ELF SET [OPTION]: the sorted static set of ELF (reachable,
# or all sites with --all-sites) into $tmp/PROGRAM.SET; 1 on error.
static() {
	local prog=$1 elf=$2 set=$3 out=$tmp/$1.$3
	shift 3
	if ! python3 "$TOP/scripts/audit/syscalls.py" "$@" --names "$elf" >"$out.raw" 2>"$out.err"; then
		tail -n 5 "$out.err" | sed 's/^/  | /'
		return 1
	fi
	grep -v '^[[:space:]]*$' "$out.raw" | LC_ALL=C sort -u >"$out"
}

# recall PROGRAM ELF SET [OPTION]: one case, every name in PROGRAM.names is
# in the static set SET (reachable, or all-sites with --all-sites); prints
# traced, static, misses and precision, and keeps the precision in
# $tmp/PROGRAM.SET.precision (percent, one decimal).
recall() {
	local prog=$1 elf=$2 set=$3
	local name="$prog: recall ($set set): every traced syscall is in the static set"
	local trace=$tmp/$prog.names st=$tmp/$prog.$set
	if [ ! -s "$trace" ]; then
		not_ok "$name (no trace)"
		return
	fi
	if ! static "$@"; then
		not_ok "$name (audit-syscalls.py --names failed)"
		return
	fi
	local misses hits nstatic arm unseen
	misses=$(LC_ALL=C comm -23 "$trace" "$st" | paste -sd ' ')
	hits=$(LC_ALL=C comm -12 "$trace" "$st" | wc -l)
	nstatic=$(wc -l <"$st")
	# ARM private syscalls: qemu-arm -strace never logs them
	arm=$(grep -c '^ARM_' "$st")
	unseen=$(LC_ALL=C comm -13 "$trace" "$st" | paste -sd ' ')
	echo "$prog ($set): traced $(wc -l <"$trace"), static $nstatic, missed by the static set: ${misses:-none}"
	echo "$prog ($set): in the static set, never traced: ${unseen:-none}"
	awk -v h="$hits" -v s="$nstatic" -v a="$arm" -v p="$prog ($set)" -v f="$st.precision" 'BEGIN {
		printf "%s: precision %d/%d = %.1f%% (traced names in the static set / static set)\n",
			p, h, s, s ? 100 * h / s : 0
		printf "%s: %d ARM private syscall(s) in the static set, which qemu-arm -strace cannot see; without them %d/%d = %.1f%%\n",
			p, a, h, s - a, s - a ? 100 * h / (s - a) : 0
		printf "%.1f\n", s ? 100 * h / s : 0 >f }'
	check "$name" test -z "$misses"
}

# at_least FILE PERCENT: the precision kept in FILE is PERCENT or more.
at_least() {
	[ -s "$1" ] && awk -v p="$(cat "$1")" -v min="$2" 'BEGIN { exit !(p >= min) }'
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
p1=$tmp/init-pid1.names f=$tmp/init-faults.names
check "init: init.names is the union of the four runs" \
	bash -c "LC_ALL=C sort -u '$s' '$r' '$p1' '$f' | cmp -s - '$n'"
# The back-off waits with poll(NULL, 0, ms), in the trace "poll(0,0,50,...) = 0"
# (0: the whole timeout passed), not with nanosleep, ENOSYS on tiny.
check "init: faults injected (poll ENOMEM twice, reboot EPERM): the back-off's waits poll(0,0,50) and poll(0,0,100), no nanosleep, and board_end's pause" \
	bash -c "sed -n '/# init run: faults/,\$p' '$tmp/init.strace' >'$tmp/faults.strace' &&
		grep -Eq '^[0-9]+ poll\(0,0,50,[0-9,]*\) = 0\$' '$tmp/faults.strace' &&
		grep -Eq '^[0-9]+ poll\(0,0,100,[0-9,]*\) = 0\$' '$tmp/faults.strace' &&
		! grep -q nanosleep '$f' && grep -qx pause '$f' &&
		grep -q 'poll: Out of memory, retrying' '$tmp/init-faults.log' && grep -q 'halting here' '$tmp/init-faults.log'"
check "init: as PID 1: poweroff reaches board_end's sync and reboot" has "$p1" sync reboot
check "init: as PID 1: the bad header line got 400, stats and poweroff logged" \
	bash -c "grep -q 'GET /hello.txt 400 ' '$tmp/init-pid1.log' && grep -q '^fileserver: stats: ' '$tmp/init-pid1.log' && grep -q 'powering off' '$tmp/init-pid1.log'"

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

# Recall and precision, for the reachable set (what --names gives, the
# audit's set) and for every svc site (--all-sites, for comparison).
init=$TOP/build/app/arm/init.unstripped bb=$TOP/build/busybox/bin/busybox
kmap=$tmp/kmap.json
python3 "$TOP/scripts/audit/kmap.py" "$TOP/build/linux-6.1" --config "$TOP/build/kernel-tiny/.config" \
	>"$kmap" 2>"$tmp/kmap.err" || tail -n 5 "$tmp/kmap.err"
recall init "$init" reachable
recall init "$init" all-sites --all-sites
recall init "$init" pruned --kmap "$kmap"
recall busybox "$bb" reachable
recall busybox "$bb" all-sites --all-sites
# The issue's target is 80% for the pruned set, and it holds: pruning for
# the tiny config takes musl's ENOSYS fallbacks out (and _Exit's exit after
# exit_group), and the run with faults traces the back-off's wait and
# board_end's pause.
# What stays untraced has a path the analysis cannot close (see README). The
# floors guard against a static set that grows without cause.
check "init: precision of the reachable set at least 50% (now $(cat "$tmp/init.reachable.precision" 2>/dev/null)%)" \
	at_least "$tmp/init.reachable.precision" 50
check "init: precision of the set pruned for tiny at least 80% (now $(cat "$tmp/init.pruned.precision" 2>/dev/null)%)" \
	at_least "$tmp/init.pruned.precision" 80
check "init: the pruned set is the reachable set less clock_gettime gettimeofday stat64 lstat64 fstat64 fstatat64 exit" \
	bash -c "[ \"\$(LC_ALL=C comm -23 '$tmp/init.reachable' '$tmp/init.pruned' | paste -sd' ')\" = 'clock_gettime exit fstat64 fstatat64 gettimeofday lstat64 stat64' ]"
