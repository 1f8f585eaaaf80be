#!/usr/bin/env bash
# U-Boot boots the board the way a real one boots, for both variants and
# both boot paths: from the SD card image (BOOT=sd) and over DHCP + TFTP
# (BOOT=tftp). Distro boot finds boot.scr, which loads uImage, uInitrd and
# the dtb; bootm checks their CRCs and starts the kernel with the dtb's
# command line; the server serves test.bin (sha256 compared) and powers the
# board off when told on the console.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/lib/uboot.sh"

want=$(testfile_sha test.bin)
for v in ${VARIANTS:-tiny base}; do
	for b in sd tftp; do
		export VARIANT=$v BOOT=$b QEMU_TIMEOUT=120
		unset PORT
		t="$b $v"
		qemu_start "uboot-$b-$v"
		check "$t: U-Boot starts" qemu_wait_for '^U-Boot 2023\.01' 30
		case $b in
		sd) src='Found U-Boot script /boot\.scr' ;;
		tftp) src="Filename 'boot.scr'" ;;
		esac
		check "$t: distro boot finds boot.scr ($b)" qemu_wait_for "$src" 30
		check "$t: boot.scr loads the dtb last" \
			qemu_wait_for "boot.scr: loading vexpress-tiny.dtb from (mmc|dhcp)" 30
		check "$t: bootm verifies the kernel's CRC" \
			qemu_wait_for 'Verifying Checksum \.\.\. OK' 30
		check "$t: the server comes up" qemu_wait_for '^fileserver: ready' 60
		check "$t: the kernel got the dtb's command line (ip= kept)" \
			grep -q 'Kernel command line: console=ttyAMA0 ip=10\.0\.2\.15' "$QEMU_LOG"
		got=$(curl -s --max-time 30 "http://127.0.0.1:$PORT/test.bin" | sha256sum | cut -d' ' -f1)
		check "$t: serves test.bin (sha256 matches)" test "$got" = "$want"
		qemu_send poweroff
		qemu_wait_exit 60
		rc=$?
		check "$t: 'poweroff' ends it with status 0 (got $rc)" test "$rc" -eq 0
		check "$t: boot log has no device-tree dependency complaints" boot_log_clean
		[ "$rc" -eq 0 ] || qemu_log_tail
	done
done
