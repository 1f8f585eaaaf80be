# shellcheck shell=bash
# Host side of the splice probe: boot a variant with the probe initramfs,
# then turn the probe's lines into test cases. Source after tests/lib/common.sh and
# tests/lib/qemu.sh, then call: splice_probe_run VARIANT
#
# What each variant must show (SPLICE_EXPECT=on|off overrides, for runs
# against other kernels):
#   base (CONFIG_SYSCALL_SPLICE=y): every case moves exactly the bytes it
#        asked for and they compare equal; the selftests pass.
#   tiny (=n): splice, vmsplice, tee, sendfile, sendfile64 fail with -1/ENOSYS
#        and move nothing; the selftests skip cleanly on ENOSYS (KSFT_SKIP,
#        exit 4: the series' selftest patch). copy_file_range on the rootfs
#        (no ->copy_file_range of its own) still copies every byte: the
#        series replaces do_splice_direct() by a bounce copy through pages
#        ("fs/splice: build fs/splice.c only with CONFIG_SYSCALL_SPLICE").
#   both: the series' new selftest splice_family passes: the five syscalls
#        all there (base) or all ENOSYS (tiny), copy_file_range copies.
#   both: a copy_file_range of 8 MiB that a timer signal interrupts (handler
#        without SA_RESTART) returns a short count or EINTR, not the full
#        copy (case_interrupted).

PROBE_INITRD=${PROBE_INITRD:-$TOP/build/probe/probe.uInitrd}
PROBE_N=65536
PROBE_INTR_N=$((128 * PROBE_N)) # tests/probe/intr.c: 8 MiB

# The probe line for "SYS WHAT", \r stripped ('' if absent).
probe_line() {
	grep -a "^probe: $1 $2 " "$PROBE_LOG" | head -n 1
}

# has LINE FIELD=VALUE...: every field present with exactly that value.
has() {
	local line=$1 kv
	shift
	for kv in "$@"; do
		case " $line " in
		*" $kv "*) ;;
		*) return 1 ;;
		esac
	done
}

# case_moves V SYS WHAT N: the call moved N bytes and they are right.
case_moves() {
	local v=$1 sys=$2 what=$3 n=$4 line
	line=$(probe_line "$sys" "$what")
	if has "$line" "want=$n" "ret=$n" "errno=0" "bytes=$n" "match=yes"; then
		ok "$v: $sys $what moves $n bytes"
	else
		not_ok "$v: $sys $what moves $n bytes"
		echo "# got: ${line:-no probe line}"
	fi
}

# case_enosys V SYS WHAT: the call failed with ENOSYS and moved nothing.
case_enosys() {
	local v=$1 sys=$2 what=$3 line
	line=$(probe_line "$sys" "$what")
	if has "$line" "ret=-1" "errno=ENOSYS" "bytes=0"; then
		ok "$v: $sys $what -> ENOSYS"
	else
		not_ok "$v: $sys $what -> ENOSYS"
		echo "# got: ${line:-no probe line}"
	fi
}

# case_interrupted V: one copy_file_range() of 8 MiB on the rootfs under a
# 10 ms SIGALRM timer whose handler has no SA_RESTART (tests/probe/intr.c)
# stops early, as a pending signal stops splice (splice_from_pipe_next():
# -ERESTARTSYS): either a short count, with the destination equal to the
# source's first bytes and both file offsets there, or -1/EINTR with
# nothing copied; and the handler ran. A full copy means the kernel ignored
# the signal (series v3's bounce copy checked fatal signals only).
case_interrupted() {
	local v=$1 line note ret want_pos
	line=$(probe_line copy_file_range signal)
	note=$(grep -a '^probe: copy_file_range signal signals=' "$PROBE_LOG" | head -n 1)
	ret=$(sed -n 's/.* ret=\(-*[0-9]*\) .*/\1/p' <<<"$line")
	if [ -z "$line" ] && grep -aq '^probe: done$' "$PROBE_LOG"; then
		# The probe ran to its end without the case: an initramfs built
		# before intr.c (make probe-initramfs builds it again).
		ok "$v: copy_file_range of 8 MiB stops short on SIGALRM (no SA_RESTART) # skip the probe initramfs predates the case: make probe-initramfs"
		return 0
	fi
	want_pos=0
	[ "${ret:-0}" -gt 0 ] && want_pos=$ret
	if has "$line" "want=$PROBE_INTR_N" "match=yes" &&
		has "$note" "inpos=$want_pos" "outpos=$want_pos" &&
		! has "$note" "signals=0" &&
		{ { [ "${ret:-0}" -gt 0 ] && [ "$ret" -lt "$PROBE_INTR_N" ] &&
			has "$line" "errno=0" "bytes=$ret"; } ||
			has "$line" "ret=-1" "errno=EINTR" "bytes=0"; }; then
		ok "$v: copy_file_range of 8 MiB stops short on SIGALRM (no SA_RESTART)"
	else
		not_ok "$v: copy_file_range of 8 MiB stops short on SIGALRM (no SA_RESTART)"
	fi
	printf '# %s\n' "${line:-no probe line}" "${note:-no signal line}"
}

# The five syscalls the option removes, with each direction the probe tries.
SPLICE_CASES=(
	"splice file->pipe $PROBE_N"
	"splice pipe->file $PROBE_N"
	"splice socket->pipe $PROBE_N"
	"splice pipe->socket $PROBE_N"
	"vmsplice user->pipe $PROBE_N"
	"vmsplice pipe->user $PROBE_N"
	"tee pipe->pipe $PROBE_N"
	"sendfile file->socket $PROBE_N"
	"sendfile file->pipe $PROBE_N"
	"sendfile file->file $PROBE_N"
	"sendfile64 file+4096->socket $((PROBE_N - 4096))"
	"sendfile64 file->file $PROBE_N"
)

selftest_cases() {
	local v=$1 mode=$2 l1 l2 l3
	l1=$(probe_line selftest "default_file_splice_read </dev/null")
	l2=$(probe_line selftest "splice_read file 4096")
	l3=$(probe_line selftest "splice_read file 2")
	if [ "$mode" = on ]; then
		check "$v: selftest default_file_splice_read leaks nothing" \
			has "$l1" exit=0 bytes=0
		check "$v: selftest splice_read 4096 gives the whole file" \
			has "$l2" exit=0 match=yes splice_errno=0
		check "$v: selftest splice_read 2 gives the first 2 bytes" \
			has "$l3" exit=0 bytes=2 match=yes splice_errno=0
	else
		check "$v: selftest default_file_splice_read -> ENOSYS, skips (exit 4), leaks nothing" \
			has "$l1" exit=4 bytes=0 splice_ret=-1 splice_errno=ENOSYS
		check "$v: selftest splice_read 4096 -> ENOSYS, skips (exit 4)" \
			has "$l2" exit=4 bytes=0 splice_ret=-1 splice_errno=ENOSYS
		check "$v: selftest splice_read 2 -> ENOSYS, skips (exit 4)" \
			has "$l3" exit=4 bytes=0 splice_ret=-1 splice_errno=ENOSYS
		check "$v: selftest splice_read says 'Function not implemented'" \
			grep -aq '^probe: selftest splice_read stderr: splice: Function not implemented' "$PROBE_LOG"
	fi
	printf '# %s\n' "$l1" "$l2" "$l3"
	family_cases "$v" "$mode"
}

not_grep() { ! grep -aq "$1" "$2"; }

# splice_family (the series' new selftest): TAP on stdout, exit 0.
family_cases() {
	local v=$1 mode=$2 l want
	l=$(probe_line selftest "splice_family dir")
	if [ "$mode" = on ]; then
		want="splice family present: none of 5 syscalls answers ENOSYS"
	else
		want="splice family compiled out: all 5 syscalls answer ENOSYS"
	fi
	check "$v: selftest splice_family passes (exit 0)" has "$l" exit=0
	check "$v: selftest splice_family: $want" \
		grep -aqx "probe: selftest splice_family stdout: ok 1 $want" "$PROBE_LOG"
	check "$v: selftest splice_family: copy_file_range copies 1 MiB + 1" \
		grep -aqx "probe: selftest splice_family stdout: ok 2 copy_file_range plain copies 1048577 bytes" "$PROBE_LOG"
	check "$v: selftest splice_family: copy_file_range to O_SYNC copies 1 MiB + 1" \
		grep -aqx "probe: selftest splice_family stdout: ok 6 copy_file_range O_SYNC out copies 1048577 bytes" "$PROBE_LOG"
	# The board's root file system (ramfs) has no direct I/O and the tiny
	# kernels no io_uring: those cases skip here and run on the block
	# probe board (tests/e2e/splice-blk.sh); they must not fail.
	check "$v: selftest splice_family: no case fails" \
		not_grep "probe: selftest splice_family stdout: not ok" "$PROBE_LOG"
	printf '# %s\n' "$l"
}

# The kernel configuration the image was built from (images/V/config): one
# case, a visible skip where the config cannot say.
config_case() {
	local v=$1 mode=$2 cfg=$TOP/images/$1/config want=y
	[ "$mode" = off ] && want=n
	if [ -n "${KERNEL:-}" ]; then
		ok "$v: kernel built with CONFIG_SYSCALL_SPLICE=$want # skip KERNEL=$KERNEL given: images/$v/config does not describe it"
		return 0
	fi
	if [ ! -f "$cfg" ]; then
		not_ok "$v: kernel built with CONFIG_SYSCALL_SPLICE=$want ($cfg missing: run make board)"
		return 0
	fi
	if [ "$mode" = off ]; then
		check "$v: kernel built with CONFIG_SYSCALL_SPLICE=n" \
			grep -q '^# CONFIG_SYSCALL_SPLICE is not set' "$cfg"
	elif grep -q 'CONFIG_SYSCALL_SPLICE' "$cfg"; then
		check "$v: kernel built with CONFIG_SYSCALL_SPLICE=y" \
			grep -q '^CONFIG_SYSCALL_SPLICE=y' "$cfg"
	else
		ok "$v: kernel built with CONFIG_SYSCALL_SPLICE=y # skip no CONFIG_SYSCALL_SPLICE in $cfg (a kernel without the series: splice built in)"
	fi
}

splice_probe_run() {
	local v=$1 mode rc entry
	case ${SPLICE_EXPECT:-} in
	on | off) mode=$SPLICE_EXPECT ;;
	'') if [ "${v%-6.12}" = tiny ]; then mode=off; else mode=on; fi ;;
	*) echo "SPLICE_EXPECT must be on or off" >&2; return 1 ;;
	esac
	if [ ! -f "$PROBE_INITRD" ]; then
		not_ok "$v: probe boots and powers off"
		echo "# $PROBE_INITRD missing: run 'make probe-initramfs'"
		return 0
	fi
	config_case "$v" "$mode"

	VARIANT=$v INITRD=$PROBE_INITRD qemu_start "splice-$v" || {
		not_ok "$v: probe boots and powers off"
		return 0
	}
	qemu_wait_exit "${PROBE_TIMEOUT:-120}"
	rc=$?
	PROBE_LOG=$TOP/build/logs/qemu/splice-$v.probe
	tr -d '\r' <"$QEMU_LOG" >"$PROBE_LOG"
	grep -a '^probe: ' "$PROBE_LOG" | sed 's/^/# /'
	if [ "$rc" -eq 0 ] && grep -aq '^probe: done$' "$PROBE_LOG"; then
		ok "$v: probe boots, runs every case and powers off"
	else
		not_ok "$v: probe boots, runs every case and powers off"
		echo "# qemu exit status $rc"
		qemu_log_tail 30
	fi

	for entry in "${SPLICE_CASES[@]}"; do
		# shellcheck disable=SC2086
		set -- $entry
		if [ "$mode" = on ]; then
			case_moves "$v" "$1" "$2" "$3"
		else
			case_enosys "$v" "$1" "$2"
		fi
	done
	# copy_file_range keeps working either way (see the top of this file).
	case_moves "$v" copy_file_range "file->file" "$PROBE_N"
	# ... and a pending signal stops it either way.
	case_interrupted "$v"
	selftest_cases "$v" "$mode"
}
