#!/usr/bin/env bash
# scripts/lib/qemu.sh, the one QEMU command line, without booting: what it
# adds for ICOUNT, and how it refuses a missing image or an unknown BOOT.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/scripts/lib/qemu.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qemu-cmd.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/uImage"
: >"$tmp/uInitrd"
: >"$tmp/board.dtb"
export KERNEL=$tmp/uImage INITRD=$tmp/uInitrd DTB=$tmp/board.dtb
echo 1..5

qemu_cmd
check "by default the guest's clock is the host's (no -icount)" \
	bash -c '! grep -qw -- -icount <<<"$1"' _ "${QEMU_ARGS[*]}"
check "the images given are the ones QEMU loads" \
	grep -qF -- "-kernel $tmp/uImage -initrd $tmp/uInitrd -dtb $tmp/board.dtb" <<<"${QEMU_ARGS[*]}"
ICOUNT=shift=0 qemu_cmd
check "ICOUNT=shift=0 adds -icount shift=0" grep -qF -- "-icount shift=0" <<<"${QEMU_ARGS[*]}"
out=$(KERNEL=$tmp/none qemu_cmd 2>&1)
check "a missing kernel image stops with its name" grep -qF "missing $tmp/none" <<<"$out"
out=$(BOOT=usb qemu_cmd 2>&1)
check "an unknown BOOT stops with the ones it knows" grep -qF "BOOT=usb: use direct, sd or tftp" <<<"$out"
