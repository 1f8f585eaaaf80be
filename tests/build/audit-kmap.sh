#!/usr/bin/env bash
# scripts/audit/kmap.py on the patched tree and the tiny board's .config:
# the splice family is one option (SYSCALL_SPLICE, off), a few well-known
# syscalls map to their options, and every COND_SYSCALL entry point in the
# ARM EABI table is reported as optional.
set -u
. "$(dirname "$0")/../lib/common.sh"
KTREE=$TOP/build/linux-6.1
CONFIG=$TOP/build/kernel-tiny/.config
if [ ! -f "$KTREE/kernel/sys_ni.c" ] || [ ! -f "$CONFIG" ]; then
	not_ok "audit-kmap: $KTREE and $CONFIG are needed (run make board)"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/audit-kmap.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
json=$tmp/kmap.json
export KTREE tmp
nice "$TOP/scripts/audit/kmap.py" "$KTREE" --config "$CONFIG" >"$json"
check "audit-kmap: exits 0 with --config" test $? -eq 0

# q EXPR: true when the Python expression EXPR holds; d is the JSON, s its
# "syscalls", f its "families", opt(name) the option of one syscall, env the
# environment.
q() {
	python3 -c 'import json, os, sys
d = json.load(open(sys.argv[1])); s = d["syscalls"]; f = d["families"]
opt = lambda n: s[n]["option"]; env = os.environ
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$json" "$1"
}

check "audit-kmap: JSON parses: kernel_tree, 400+ syscalls, families" \
	q 'd["kernel_tree"] == env["KTREE"] and len(s) > 400 and len(f) > 10'
check "audit-kmap: splice family -> SYSCALL_SPLICE, off: splice/tee/vmsplice in fs/splice.c (Makefile), sendfile/sendfile64 by #if in fs/read_write.c (series v2.1)" \
	q 'all(opt(n) == "SYSCALL_SPLICE" and s[n]["enabled"] is False
		for n in ("sendfile", "sendfile64", "splice", "tee", "vmsplice"))
		and all(s[n]["file"] == "fs/splice.c" and s[n]["how"].startswith("Makefile")
			for n in ("splice", "tee", "vmsplice"))
		and all(s[n]["file"] == "fs/read_write.c" and "#if CONFIG_SYSCALL_SPLICE" in s[n]["how"]
			for n in ("sendfile", "sendfile64"))'
check "audit-kmap: sendfile is 187, sendfile64 239 (sys_sendfile64)" \
	q 's["sendfile"]["nr"] == 187 and s["sendfile64"]["nr"] == 239
		and s["sendfile64"]["entry"] == "sys_sendfile64"'
check "audit-kmap: family SYSCALL_SPLICE: five syscalls, off, has a prompt" \
	q 'dict(f["SYSCALL_SPLICE"], about_syscalls=None) == {"syscalls": ["sendfile",
		"sendfile64", "splice", "tee", "vmsplice"], "enabled": False, "user_visible": True,
		"about_syscalls": None}'
check "audit-kmap: process_vm_readv/writev -> CROSS_MEMORY_ATTACH, on" \
	q 'all(opt(n) == "CROSS_MEMORY_ATTACH" and s[n]["enabled"] is True
		for n in ("process_vm_readv", "process_vm_writev"))'
check "audit-kmap: timer_create -> POSIX_TIMERS" q 'opt("timer_create") == "POSIX_TIMERS"'
check "audit-kmap: epoll_create1 -> EPOLL" q 'opt("epoll_create1") == "EPOLL"'
# On ARM "futex" is sys_futex_time32 (also under COMPAT_32BIT_TIME); sys_futex
# is the table's futex_time64.
check "audit-kmap: futex_time64 -> FUTEX; futex (time32) requires FUTEX" \
	q 'opt("futex_time64") == "FUTEX" and "FUTEX" in s["futex"]["requires"]'
check "audit-kmap: msgget -> SYSVIPC" q 'opt("msgget") == "SYSVIPC"'
check "audit-kmap: socket, bind, accept4: COND_SYSCALL in this tree, NET, on" \
	q 'all(s[n]["optional"] and opt(n) == "NET" and s[n]["enabled"]
		for n in ("socket", "bind", "accept4"))'
check "audit-kmap: unmapped_optional = optional syscalls without an option" \
	q 'd["unmapped_optional"] == sorted(n for n, r in s.items()
		if r["optional"] and r["option"] is None)'

# Independent of the script: every COND_SYSCALL(X) of sys_ni.c whose sys_X is
# the entry point of a common/eabi row of syscall.tbl.
sed -n 's/^COND_SYSCALL(\([A-Za-z0-9_]*\));.*/sys_\1/p' "$KTREE/kernel/sys_ni.c" >"$tmp/cond"
awk '!/^#/ && ($2 == "common" || $2 == "eabi") && NF >= 4 {print $4, $3}' \
	"$KTREE/arch/arm/tools/syscall.tbl" | sort >"$tmp/rows"
awk 'NR == FNR {c[$1]; next} $1 in c {print $2}' "$tmp/cond" "$tmp/rows" >"$tmp/want"
check "audit-kmap: sys_ni.c and syscall.tbl share 150+ entry points" \
	test "$(wc -l <"$tmp/want")" -gt 150
check "audit-kmap: every COND_SYSCALL entry point in the table is optional" \
	q 'all(s[n.strip()]["optional"] for n in open(env["tmp"] + "/want"))'

nice "$TOP/scripts/audit/kmap.py" "$KTREE" >"$json"
check "audit-kmap: without --config every enabled is null" \
	q 'all(r["enabled"] is None for r in list(s.values()) + list(f.values()))'
