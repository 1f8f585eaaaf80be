#!/usr/bin/env bash
# `make board AUDIT=1`: the tiny board plus the =n fragment `make audit`
# wrote for the init program. The fragment holds in the kernel's .config,
# the two configs differ in nothing else the fragment did not cause, and the
# board boots, serves test.bin (sha256), falls back on ENOSYS and powers off.
# timeout: 1800
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
echo 1..10

# fragment_holds FRAGMENT CONFIG: both files there, the fragment has at
# least one '# CONFIG_... is not set' line, and CONFIG has every one of them
# (grep's status 1: no line of the fragment is missing; 2, a missing file,
# is a failure).
fragment_holds() {
	local lines
	[ -s "$1" ] && [ -s "$2" ] || return 1
	lines=$(grep '^# CONFIG_' "$1") || return 1
	grep -vxF -f "$2" <<<"$lines"
	[ $? -eq 1 ]
}

log=$TOP/build/logs/tests/audit-board-make.log
if make -C "$TOP" -s board AUDIT=1 >"$log" 2>&1; then
	ok "audit board: make board AUDIT=1 builds images/audit"
else
	not_ok "audit board: make board AUDIT=1 builds images/audit"
	tail -n 30 "$log"
fi
frag=$TOP/build/audit/audit.fragment
cfg=$TOP/images/audit/config
check "audit board: the fragment sets at least one option to n" \
	grep -q '^# CONFIG_.* is not set$' "$frag"
check "audit board: images/audit/config is there" test -s "$cfg"
check "audit board: every line of the fragment holds in the kernel's .config" fragment_holds "$frag" "$cfg"
# The options that differ from tiny: the fragment's, and only symbols that
# depend on them (none for CROSS_MEMORY_ATTACH).
diffs=$(diff <(grep -E '^(CONFIG_|# CONFIG_)' "$TOP/images/tiny/config" | sort) \
	<(grep -E '^(CONFIG_|# CONFIG_)' "$cfg" | sort) | sed -n 's/^[<>] //p' |
	sed -E 's/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1/; s/=.*//' | sort -u)
want=$(sed -n 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p' "$frag" | sort -u)
shown=$(head -n 5 <<<"$diffs" | tr '\n' ' ')
[ "$(grep -c . <<<"$diffs")" -gt 5 ] && shown+="... ($(grep -c . <<<"$diffs") options)"
check "audit board: tiny and audit configs differ only in the fragment's options (${shown% })" \
	[ -n "$want" -a "$diffs" = "$want" ]

export VARIANT=audit BOOTARGS_EXTRA=srv_max_requests=1
unset PORT
qemu_start audit-board
check "audit board: boots and prints ready" qemu_wait_for '^fileserver: ready' 60
got=$(curl -s --max-time 60 "http://127.0.0.1:$PORT/test.bin" | sha256sum | cut -d' ' -f1)
want=$(testfile_sha test.bin)
check "audit board: serves test.bin (sha256 matches)" [ "$got" = "$want" ]
check "audit board: sendfile answers ENOSYS and the program falls back to read/write" \
	grep -q 'sendfile: ENOSYS, falling back to read/write' "$QEMU_LOG"
qemu_wait_exit 60
rc=$?
check "audit board: powers off on its own, QEMU exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "audit board: no kernel panic" bash -c "! grep -q 'Kernel panic' '$QEMU_LOG'"
[ "$rc" -eq 0 ] || qemu_log_tail
