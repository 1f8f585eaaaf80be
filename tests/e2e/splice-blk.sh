#!/usr/bin/env bash
# The block probe board (tests/blk/build.sh): copy_file_range(2) on ext2 on
# the vexpress SD card, with O_DIRECT on the source, the destination and
# both, and O_SYNC on the destination; sizes 0, 1, 4095, 4096 and 1 MiB + 1;
# offsets 0/0, 4096/8192, 512/1536 and 1/3. Run once with
# CONFIG_SYSCALL_SPLICE=y (the splice pipe) and once with =n (the bounce
# copy): every case must give the same result line (return, errno, bytes
# copied, sha256 of the copied bytes) on both, and every case that copied
# must match the source. Before the cases the series' splice_family selftest
# runs on the ext2 mount (O_DIRECT and O_SYNC copy_file_range, the io_uring
# probe of SPLICE/TEE); and first of all copy_file_range() between two procfs
# files with only ->read/->write must fail with EINVAL on both kernels.
# No Oops, WARNING or BUG on either. Needs `make probe-blk`.
# BLK_LINUX=6.12 (make test-blk LINUX=6.12): the same cases on the 6.12
# kernels with series v3, build/kernel-blk-{y,n}-6.12.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"

B=$TOP/build/blk
case ${BLK_LINUX:-6.1} in
6.1) sfx='' ;;
6.12) sfx=-6.12 ;;
*) echo "BLK_LINUX=$BLK_LINUX: 6.1 or 6.12" >&2; exit 2 ;;
esac
# Two more kernels than the board: `make test-blk` builds them and runs this
# (BLK_BOARD=1, CI does). Under plain `make test` it is a visible skip when
# they were never built.
if [ "${BLK_BOARD:-0}" != 1 ] && [ ! -f "$TOP/build/kernel-blk-n$sfx/arch/arm/boot/zImage" ]; then
	echo "ok - block board # skip two more kernels: make test-blk runs it (CI does)"
	exit 0
fi
run_board() { # V: boot build/kernel-blk-V on a fresh copy of the SD image
	local v=$1 sd=$B/sd-$1$sfx.img
	cp "$B/sd.img" "$sd"
	KERNEL=$TOP/build/kernel-blk-$v$sfx/arch/arm/boot/zImage \
		INITRD=$B/blk.cpio.gz DTB=$B/vexpress-tiny-sd.dtb SD_IMAGE=$sd \
		qemu_start "splice-blk-$v$sfx" || return 1
	qemu_wait_exit "${BLK_TIMEOUT:-600}"
	tr -d '\r' <"$QEMU_LOG" >"$B/blk-$v$sfx.log"
	grep -a '^blk: ' "$B/blk-$v$sfx.log" | grep -v '^blk: splice ' >"$B/blk-$v$sfx.lines"
	grep -a '^blk-time: ' "$B/blk-$v$sfx.log" | sed "s/^/# =$v$sfx /"
}

for v in y n; do
	f=$TOP/build/kernel-blk-$v$sfx/arch/arm/boot/zImage
	if [ ! -f "$f" ] || [ ! -f "$B/blk.cpio.gz" ] || [ ! -f "$B/sd.img" ]; then
		not_ok "block board$sfx =$v built"
		echo "# missing $f or $B/blk.cpio.gz or $B/sd.img: run 'make probe-blk${sfx:+ LINUX=6.12}'"
		exit 0
	fi
	run_board "$v" || not_ok "block board$sfx =$v boots"
	check "block board$sfx =$v: runs every case and powers off" \
		grep -aqx 'blk: done' "$B/blk-$v$sfx.log"
done
no_oops() { ! grep -aqE 'Oops|WARNING:|BUG:|Kernel panic|Unable to handle' "$1"; }
for v in y n; do
	log=$B/blk-$v$sfx.log
	check "block board$sfx =$v: no Oops, WARNING or BUG" no_oops "$log"
	check "block board$sfx =$v: selftest splice_family passes (exit 0)" \
		grep -aqx 'blk: selftest exit=0' "$log"
	for m in "O_DIRECT in" "O_DIRECT out" "O_DIRECT both"; do
		check "block board$sfx =$v: selftest copy_file_range $m copies 1 MiB (not skipped)" \
			grep -aqx "ok [0-9]* copy_file_range $m copies 1048576 bytes" "$log"
	done
	check "block board$sfx =$v: selftest copy_file_range O_SYNC out copies 1 MiB + 1" \
		grep -aqx "ok [0-9]* copy_file_range O_SYNC out copies 1048577 bytes" "$log"
	check "block board$sfx =$v: copy_file_range from a file with only ->read fails with EINVAL" \
		grep -aqx 'blk: read-only-fops ret=-1 errno=EINVAL' "$log"
done
check "block board$sfx =y: io_uring probe reports SPLICE and TEE supported" \
	grep -aqx 'ok [0-9]* io_uring probe reports SPLICE and TEE supported' "$B/blk-y$sfx.log"
check "block board$sfx =n: io_uring probe reports SPLICE and TEE unsupported" \
	grep -aqx 'ok [0-9]* io_uring probe reports SPLICE and TEE unsupported' "$B/blk-n$sfx.log"
check "block board$sfx =y: splice is there" grep -aqx 'blk: splice errno=EBADF' "$B/blk-y$sfx.log"
check "block board$sfx =n: splice answers ENOSYS" grep -aqx 'blk: splice errno=ENOSYS' "$B/blk-n$sfx.log"

n=$(grep -c 'size=' "$B/blk-n$sfx.lines" || true)
check "block board$sfx: 100 copy_file_range cases ran on =n" test "$n" -eq 100
check "block board$sfx: =n gives the same 100 result lines (ret, errno, bytes, sha256) as =y" \
	diff -u "$B/blk-y$sfx.lines" "$B/blk-n$sfx.lines"
bad=$(grep -c 'copied=[1-9][0-9]* match=no' "$B/blk-n$sfx.lines" || true)
check "block board$sfx =n: every case that copied has the source's bytes" test "$bad" -eq 0
no_efault() { ! grep -q errno=EFAULT "$1"; }
check "block board$sfx =n: no copy fails with EFAULT" no_efault "$B/blk-n$sfx.lines"
# Direct I/O moves whole sectors: the last byte of 1 MiB + 1 fails with
# EINVAL on both kernels (the copy is short by one byte), the rest copies.
for m in direct-in direct-out direct-both sync-out; do
	check "block board$sfx =n: $m copies 1 MiB at offset 0 with direct I/O" \
		grep -aEq "^blk: $m size=1048577 in=0 out=0 .* copied=104857[67] match=yes" "$B/blk-n$sfx.lines"
done
sed 's/^/# =n /' "$B/blk-n$sfx.lines"
