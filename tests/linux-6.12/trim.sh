#!/usr/bin/env bash
# timeout: 1500
# The board trimmed to what init calls (images/trim-6.12, make trim-board;
# mk/linux-6.12.mk): tiny-6.12 with CONFIG_SYSCALL_ALLOWLIST naming the
# syscalls `make audit LINUX=6.12` found in init.
#   - the kernel was built with the audit's list, not without one;
#   - init's whole e2e suite passes on it, as on the other boards;
#   - 64 clients at the smallest RAM the board claims (tests/e2e/min-ram.env);
#   - the allowlist probe (tests/probe/nosys.c) as /init: every entry of the
#     table the list leaves out answers ENOSYS.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
. "$TOP/tests/lib/app-board.sh"
. "$TOP/tests/e2e/min-ram.env"
v=trim-6.12
k=$TOP/build/kernel-$v
allow=$TOP/build/audit-6.12/syscall.allow
check "$v: built with the audit's allowlist (CONFIG_SYSCALL_ALLOWLIST)" \
	grep -qx 'CONFIG_SYSCALL_ALLOWLIST="syscall.allow"' "$k/.config"
check "$v: the list in the build folder is the audit's ($allow)" cmp -s "$allow" "$k/syscall.allow"

# The plan: the 38 cases of app_e2e, the 2 above, 5 of the load run, 1 of the probe.
E2E_EXTRA_CASES=8 app_e2e "$v"

# shellcheck source=tests/lib/load-64.sh
. "$TOP/tests/lib/load-64.sh"
(run "$v" "${MIN_RAM_K_TRIM}K" load64-trim-min 0)

# The allowlist probe: its summary line, and no entry that answered
# anything but ENOSYS.
nosys_probe() {
	local initrd=$TOP/build/probe/nosys/nosys.uInitrd line n
	if [ ! -f "$initrd" ]; then
		not_ok "$v: the allowlist probe boots and reports"
		echo "# $initrd missing: run 'make nosys-initramfs'"
		return
	fi
	n=$(grep -c '^	{' "$TOP/build/probe/nosys/nosys-table.h")
	VARIANT=$v INITRD=$initrd QEMU_TIMEOUT=300 qemu_start "nosys-$v" || {
		not_ok "$v: the allowlist probe boots and reports"
		return
	}
	qemu_wait_for '^nosys: checked=' 120
	qemu_wait_exit 60
	line=$(grep -a '^nosys: checked=' "$QEMU_LOG" | tr -d '\r' | head -n 1)
	check "$v: the allowlist probe checked all $n entries the list leaves out ($line)" \
		[ "$line" = "nosys: checked=$n enosys=$n other=0" ]
	grep -a '^nosys: .* nr=' "$QEMU_LOG" | head -n 20 | sed 's/^/# /'
	qemu_stop
}
nosys_probe
