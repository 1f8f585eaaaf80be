#!/usr/bin/env bash
# timeout: 600
# The XIP board (images/tiny-xip-6.12, make xip-board) runs its kernel from
# the NOR flash, and nothing writes to the bank it runs from. One boot at
# 32 MiB, with QEMU tracing every command a flash bank is sent
# (pflash_io_write, hw/block/pflash_cfi01.c), then:
#  - U-Boot started the kernel in place (bootm: "XIP Kernel Image");
#  - the program counter, sampled with QEMU's monitor while the board idles
#    in the kernel, translates (gva2gpa) to a physical address in the first
#    flash bank, 0x40000000-0x43ffffff: the kernel executes there, not in
#    RAM (0x60000000-);
#  - after U-Boot's "Starting kernel" (printed by U-Boot itself, so in
#    order with the trace; the kernel's early lines are replayed only when
#    its console registers, after the MTD probe) no command went to the
#    first bank (vexpress.flash0) but two: one would take the bank out of
#    ROM mode under the running kernel (pflash_write()). The two are head.S's,
#    a known defect (docs/xip.md, "What is left"):
#    __hyp_stub_install (arch/arm/kernel/hyp-stub.S) stores the boot CPU
#    mode in __boot_cpu_mode, a .data variable, PC-relative, before .data
#    is in RAM; under XIP the address is in the flash. The case checks that
#    these two are the only ones, the values it stores (0x13, SVC mode, and
#    0x80000000, the mismatch flag: low bytes 0x13 and 0x00), and that QEMU
#    left the bank in read-array mode after each, so the kernel runs on;
#  - the kernel's MTD driver probed the second bank (vexpress.flash1: the
#    trace sees its CFI commands), says so on the console, and root is the
#    romfs on it; the board serves test.bin and powers off.
# XIP_VARIANT names another board to check (the checks are meant to fail
# on the flash board, tiny-flash-6.12, whose kernel runs from RAM).
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
v=${XIP_VARIANT:-tiny-xip-6.12}
echo "1..10"
want=$(testfile_sha test.bin)
export VARIANT=$v RAM=32 QEMU_TRACE="pflash_io_write pflash_mode_read_array"
unset PORT
qemu_start "xip-flash-$v" || { not_ok "xip $v: boot"; exit 1; }
if ! qemu_wait_for '^fileserver: ready' 120; then
	not_ok "xip $v: boots to the ready line"
	qemu_log_tail 40
	exit 1
fi
ok "xip $v: boots to the ready line"
check "xip $v: U-Boot starts the kernel in place (bootm: XIP Kernel Image)" \
	grep -q 'XIP Kernel Image' "$QEMU_LOG"

# monitor CMD: type CMD on QEMU's monitor (the console multiplexes it with
# the serial port: Ctrl-A c switches) and wait for a line matching REGEX.
monitor() {
	local cmd=$1 re=$2 before
	before=$(grep -Ec -- "$re" "$QEMU_LOG")
	printf '\001c' >&7
	qemu_send "$cmd"
	for _ in $(seq 50); do
		[ "$(grep -Ec -- "$re" "$QEMU_LOG")" -gt "$before" ] && break
		sleep 0.2
	done
	printf '\001c' >&7
	grep -Eo -- "$re" "$QEMU_LOG" | tail -n 1
}
# Five samples of the PC, each translated to a physical address.
samples=() in_flash=0
for _ in 1 2 3 4 5; do
	pc=$(monitor 'info registers' 'R15=[0-9a-f]{8}')
	pc=${pc#R15=}
	[ -n "$pc" ] || continue
	pa=$(monitor "gva2gpa 0x$pc" 'gpa: 0x[0-9a-f]+|Unmapped')
	samples+=("$pc:${pa#gpa: }")
	case ${pa#gpa: } in 0x4[0-3]??????) in_flash=$((in_flash + 1)) ;; esac
	sleep 0.5
done
all=no
[ "${#samples[@]}" = 5 ] && [ "$in_flash" = 5 ] && all=yes
check "xip $v: the PC is in the first flash bank (0x40000000-0x43ffffff) in every sample (virtual:physical ${samples[*]:-none})" \
	[ "$all" = yes ]

# The trace lines and the console are one stream (QEMU_LOG), in order.
writes_after() { # BANK MARK: the commands sent to BANK after the line MARK
	tr -d '\r' <"$QEMU_LOG" | awk -v bank="$1" -v mark="$2" '
		index($0, mark) == 1 { k = 1 }
		k && index($0, "pflash_io_write " bank ":") { n++ }
		END { print n + 0 }'
}
before0=$(tr -d '\r' <"$QEMU_LOG" | sed '/^Starting kernel/q' | grep -c 'pflash_io_write vexpress.flash0:')
after0=$(writes_after vexpress.flash0 'Starting kernel')
after1=$(writes_after vexpress.flash1 'Starting kernel')
# What flash 0 was sent after "Starting kernel", and the mode changes.
early=$(tr -d '\r' <"$QEMU_LOG" | sed -n '/^Starting kernel/,$p' |
	grep -E 'pflash_(io_write|mode_read_array) vexpress.flash0:' |
	sed -E 's/.*(io_write|read_array).*value:(0x[0-9a-f]+).*/\1 \2/; s/.*read_array.*/read-array/' | tr '\n' ' ')
seen=no
[ "$before0" -gt 0 ] && [ "$after1" -gt 0 ] && seen=yes
check "xip $v: the trace sees commands to flash 0 before the kernel (U-Boot's CFI probe: $before0) and the kernel's to flash 1 ($after1)" \
	[ "$seen" = yes ]
two=no
[ "$(grep -c '^Starting kernel' "$QEMU_LOG")" = 1 ] && [ "$after0" = 2 ] && two=yes
check "xip $v: after U-Boot's 'Starting kernel', two commands to flash 0 and no more ($after0)" [ "$two" = yes ]
check "xip $v: they are head.S's two known stores, each leaving flash 0 in read-array mode (${early:-none})" \
	[ "$early" = "io_write 0x0013 read-array io_write 0x80000000 read-array " ]
check "xip $v: the kernel's MTD device is the second bank (physmap-flash 44000000.flash)" \
	grep -q 'physmap platform flash device: \[mem 0x44000000-0x47ffffff\]' "$QEMU_LOG"
check "xip $v: root is the romfs on it" grep -q 'VFS: Mounted root (romfs filesystem) readonly' "$QEMU_LOG"
check "xip $v: serves test.bin with the right sha256" \
	[ "$(curl -sf --max-time 60 "http://127.0.0.1:$PORT/test.bin" | sha256sum | cut -d' ' -f1)" = "$want" ]
qemu_send poweroff
qemu_wait_exit 60
check "xip $v: powers off cleanly (QEMU exit 0)" [ $? = 0 ]
