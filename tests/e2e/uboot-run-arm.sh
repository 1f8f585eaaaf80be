#!/usr/bin/env bash
# `make run-arm BOOT=sd` and `BOOT=tftp` as a user runs them: they say which
# boot path they take, U-Boot boots the board with the console on stdin/
# stdout, the server answers on PORT, and 'poweroff' ends it. A BOOT that
# does not exist, and DEBUG_SHELL=1 under U-Boot, are refused with a reason.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"

want=$(testfile_sha test.bin)
for b in sd tftp; do
	unset PORT
	PORT=$(free_port)
	export PORT
	qemu_spawn "run-arm-$b" make -C "$TOP" --no-print-directory run-arm BOOT="$b" PORT="$PORT"
	case $b in
	sd) says='U-Boot boots from images/tiny/sdcard.img' ;;
	tftp) says='U-Boot boots over TFTP from images/tiny/' ;;
	esac
	check "run-arm BOOT=$b: says '$says'" qemu_wait_for "$says" 30
	check "run-arm BOOT=$b: U-Boot starts" qemu_wait_for '^U-Boot 2023\.01' 30
	check "run-arm BOOT=$b: the server comes up" qemu_wait_for '^fileserver: ready' 60
	got=$(curl -s --max-time 30 "http://127.0.0.1:$PORT/test.bin" | sha256sum | cut -d' ' -f1)
	check "run-arm BOOT=$b: test.bin through the forwarded port (sha256 matches)" test "$got" = "$want"
	qemu_send poweroff
	qemu_wait_exit 60
	rc=$?
	check "run-arm BOOT=$b: 'poweroff' ends it with status 0 (got $rc)" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || qemu_log_tail
done

out=$(timeout 30 make -C "$TOP" --no-print-directory run-arm BOOT=floppy </dev/null 2>&1)
rc=$?
echo "$out"
check "run-arm BOOT=floppy: refused (status $rc), naming the choices" \
	bash -c '[ "$0" -ne 0 ] && grep -q "BOOT=floppy: use direct, sd, tftp or nor" <<<"$1"' "$rc" "$out"
out=$(timeout 30 make -C "$TOP" --no-print-directory run-arm BOOT=sd DEBUG_SHELL=1 </dev/null 2>&1)
rc=$?
echo "$out"
check "run-arm BOOT=sd DEBUG_SHELL=1: refused (status $rc), saying why" \
	bash -c '[ "$0" -ne 0 ] && grep -q "DEBUG_SHELL=1 needs BOOT=direct" <<<"$1"' "$rc" "$out"
