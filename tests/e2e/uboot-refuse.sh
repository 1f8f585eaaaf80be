#!/usr/bin/env bash
# What U-Boot does with bad media, for both variants: these boots stop in
# U-Boot, so each takes a few seconds, and every one is bounded (QEMU under
# timeout, each wait with its limit).
# - A uImage with one flipped byte, on the SD card and over TFTP: bootm's
#   CRC check refuses it and the kernel never starts.
# - A file missing from the SD card: U-Boot's load says which, and so does
#   boot.scr; the kernel never starts.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/lib/uboot.sh"

work=$TOP/build/tests/uboot-refuse
rm -rf "$work"
mkdir -p "$work"
export QEMU_TIMEOUT=60

# expect_refusal NAME WHAT REGEX: boot (BOOT, SDCARD/TFTP_DIR set by the
# caller), wait for REGEX, then for boot.scr's error line, which comes once
# the failed load or bootm has returned; check the kernel never started,
# stop QEMU.
expect_refusal() {
	local name=$1 what=$2 re=$3
	unset PORT
	qemu_start "$name"
	check "$what" qemu_wait_for "$re" 40
	qemu_wait_for 'boot\.scr: error:' 20
	# bootm prints "Starting kernel" only when it jumps to the kernel.
	check "$what: the kernel is not started" \
		bash -c "! grep -q 'Starting kernel' '$QEMU_LOG'"
	qemu_stop
}

for v in ${VARIANTS:-tiny base}; do
	export VARIANT=$v
	# One byte in the middle of the kernel's data (after the 64-byte header).
	d=$work/$v-flipped
	uboot_files "$v" "$d"
	flip_byte "$d/uImage" $((64 + 4096))
	"$TOP/scripts/uboot/sdcard.sh" "$d.img" "${UBOOT_FILES[@]/#/$d/}"

	export BOOT=sd SDCARD=$d.img
	expect_refusal "uboot-flipped-sd-$v" "sd $v: a uImage with one flipped byte is refused (Bad Data CRC)" \
		'Bad Data CRC'
	check "sd $v: boot.scr reports that bootm refused the images" \
		grep -q 'boot.scr: error: bootm refused' "$QEMU_LOG"
	unset SDCARD

	export BOOT=tftp TFTP_DIR=$d
	expect_refusal "uboot-flipped-tftp-$v" "tftp $v: a uImage with one flipped byte is refused (Bad Data CRC)" \
		'Bad Data CRC'
	unset TFTP_DIR

	# Each file boot.scr loads, missing from the card in turn.
	for f in uImage uInitrd vexpress-tiny.dtb; do
		m=$work/$v-no-$f
		uboot_files "$v" "$m"
		rm "$m/$f"
		"$TOP/scripts/uboot/sdcard.sh" "$m.img" "$m"/*
		export BOOT=sd SDCARD=$m.img
		expect_refusal "uboot-missing-$f-sd-$v" \
			"sd $v: $f missing from the card: U-Boot says \"Failed to load '$f'\"" \
			"Failed to load '$f'"
		check "sd $v: $f missing: boot.scr names it" \
			grep -q "boot.scr: error: cannot load $f from mmc" "$QEMU_LOG"
		unset SDCARD
	done
done
