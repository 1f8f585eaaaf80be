#!/usr/bin/env bash
# Each variant boots from the uImage and uInitrd, prints its banner, serves
# a request and powers off on its own (srv_max_requests=1): QEMU exits 0
# and the console shows no kernel panic.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"

for v in tiny base; do
	export VARIANT=$v BOOTARGS_EXTRA=srv_max_requests=1
	unset PORT
	qemu_start "board-boot-$v"
	check "$v: boots from uImage and prints the banner" \
		qemu_wait_for '^fileserver: ready' 60
	check "$v: banner names the kernel release" \
		grep -q '^fileserver: kernel Linux 6\.1\.192' "$QEMU_LOG"
	got=$(curl -s --max-time 30 "http://127.0.0.1:$PORT/hello.txt" | sha256sum | cut -d' ' -f1)
	want=$(testfile_sha hello.txt)
	check "$v: serves hello.txt (sha256 matches)" test "$got" = "$want"
	qemu_wait_exit 60
	rc=$?
	check "$v: powers off on its own, QEMU exits 0 (got $rc)" test "$rc" -eq 0
	check "$v: no kernel panic on the console" \
		bash -c "! grep -q 'Kernel panic' '$QEMU_LOG'"
	check "$v: the kernel reported 'reboot: Power down'" \
		grep -q 'reboot: Power down' "$QEMU_LOG"
	[ "$rc" -eq 0 ] || qemu_log_tail
done
