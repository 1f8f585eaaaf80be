# shellcheck shell=bash
# Boot the board for a test: ok/not_ok/check (common.sh) and the QEMU
# session of the scripts (scripts/lib/qemu-session.sh: qemu_start,
# qemu_wait_for, qemu_send, qemu_wait_exit, qemu_stop, ...).
# shellcheck source=tests/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=scripts/lib/qemu-session.sh
. "$TOP/scripts/lib/qemu-session.sh"
