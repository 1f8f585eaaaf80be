#!/usr/bin/env bash
# `make run-arm` as a user runs it: it says how to fetch a file and how to
# quit, boots the board with the console on its stdin/stdout, forwards PORT
# on 127.0.0.1, and ends when the board is powered off. DEBUG_SHELL=1 gives
# the BusyBox shell instead of the server. What the board booted is read
# from the guest's own lines, not from the command line run-arm echoes.
# timeout: 600
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
echo 1..12

# initrd_k FILE: the KiB the kernel reports freeing for the U-Boot ramdisk
# FILE ("Freeing initrd memory: NK"): its payload (the file less the 64-byte
# U-Boot header) in whole 4 KiB pages.
initrd_k() {
	local n
	n=$(stat -c %s "$1") || return 1
	echo $(((n - 64 + 4095) / 4096 * 4))
}

PORT=$(free_port)
export PORT
qemu_spawn run-arm make -C "$TOP" --no-print-directory run-arm VARIANT=tiny RAM=16 PORT="$PORT"
check "run-arm: prints how to fetch a file from the host" \
	qemu_wait_for "curl -o test.bin http://127.0.0.1:$PORT/test.bin" 30
check "run-arm: prints how to quit (Ctrl-A X)" qemu_wait_for 'Ctrl-A then X' 5
check "run-arm: the guest has the RAM asked for (kernel: Memory: .../16384K available)" \
	qemu_wait_for '^Memory: [0-9]+K/16384K available' 60
check "run-arm: the server comes up" qemu_wait_for '^fileserver: ready' 60
got=$(curl -s --max-time 30 "http://127.0.0.1:$PORT/test.bin" | sha256sum | cut -d' ' -f1)
want=$(testfile_sha test.bin)
check "run-arm: test.bin through the forwarded port (sha256 matches)" test "$got" = "$want"
qemu_send poweroff
qemu_wait_exit 60
rc=$?
check "run-arm: 'poweroff' on the console ends it with status 0 (got $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || qemu_log_tail

unset PORT
PORT=$(free_port)
qemu_spawn run-arm-debug make -C "$TOP" --no-print-directory run-arm DEBUG_SHELL=1 PORT="$PORT"
check "run-arm DEBUG_SHELL=1: says how to end the debug board" qemu_wait_for "poweroff -f" 30
k=$(initrd_k "$TOP/images/tiny/uInitrd-debug")
check "run-arm DEBUG_SHELL=1: the guest unpacks the debug initramfs (kernel: Freeing initrd memory: ${k}K)" \
	qemu_wait_for "^Freeing initrd memory: ${k}K" 60
check "run-arm DEBUG_SHELL=1: reaches the BusyBox shell" \
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
check "run-arm DEBUG_SHELL=1: the shell runs a typed command" test "$answered" = yes
qemu_send 'ls /sbin/fileserver && echo "has-fileserver"'
check "run-arm DEBUG_SHELL=1: the server is there to run by hand" \
	qemu_wait_for '^has-fileserver' 10
qemu_send 'sync; poweroff -f'
qemu_wait_exit 60
rc=$?
check "run-arm DEBUG_SHELL=1: 'poweroff -f' ends it with status 0 (got $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || qemu_log_tail
