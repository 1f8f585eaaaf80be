#!/usr/bin/env bash
# The debug image (DEBUG_SHELL=1 in run-arm) reaches a BusyBox shell on
# the console, runs a command typed there, and powers off on request.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/lib-qemu.sh"

export VARIANT=tiny INITRD=$TOP/images/tiny/uInitrd-debug
qemu_start board-debug-shell
check "debug image: BusyBox init prints its banner" \
	qemu_wait_for '^debug image: BusyBox shell' 60
# The shell may still be starting: type until it answers.
answered=no
for _ in 1 2 3 4 5 6 7 8 9 10; do
	qemu_send 'echo "shell-$((6 * 7))"'
	if qemu_wait_for '^shell-42' 3 2>/dev/null; then
		answered=yes
		break
	fi
done
check "debug image: the shell runs a typed command" test "$answered" = yes
qemu_send 'ls /sbin/fileserver && echo "has-fileserver"'
check "debug image: /sbin/fileserver exists" qemu_wait_for '^has-fileserver' 10
qemu_send 'sync; poweroff -f'
qemu_wait_exit 60
rc=$?
check "debug image: 'poweroff -f' ends QEMU with status 0 (got $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || qemu_log_tail
