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

# The time32 entries glibc and musl fall back to on ARM need COMPAT_32BIT_TIME
# (off on tiny); the _time64 ones are always built but futex_time64.
check "audit-kmap: futex (240) requires FUTEX and COMPAT_32BIT_TIME, clock_gettime (263) COMPAT_32BIT_TIME; clock_gettime64 always built" \
	q 'sorted(s["futex"]["requires"]) == ["COMPAT_32BIT_TIME", "FUTEX"] and s["futex"]["nr"] == 240
		and s["clock_gettime"]["requires"] == ["COMPAT_32BIT_TIME"]
		and s["clock_gettime64"]["option"] is None and not s["clock_gettime64"]["optional"]'
# Argument gates (audit/gates.py), read from the tree: kernel/time/posix-stubs.c
# (do_clock_gettime() and the clock_getres/clock_nanosleep switches accept
# CLOCK_REALTIME, CLOCK_MONOTONIC and CLOCK_BOOTTIME; clock_settime only
# CLOCK_REALTIME), in 6.1 and 6.12; sock_register() callers; and the
# namespace stubs that refuse a CLONE_NEW bit (copy_utsname() and the like).
gates() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); g = d["arg_gates"]
clk = {n: r for r in g if r["kind"] == "clock id" for n in r["syscalls"]}
fam = [r for r in g if r["kind"] == "address family"][0]
ok = all(sorted(clk[n]["needs"]) == ["0", "1", "7"] and clk[n]["otherwise"] == ["POSIX_TIMERS"]
         for n in ("clock_gettime", "clock_gettime64", "clock_getres", "clock_getres_time64",
                   "clock_nanosleep", "clock_nanosleep_time64"))
ok &= all(list(clk[n]["needs"]) == ["0"] for n in ("clock_settime", "clock_settime64"))
ok &= "UNIX" in fam["needs"]["1"] and "INET" in fam["needs"]["2"] and "IPV6" in fam["needs"]["10"]
ok &= "PACKET" in fam["needs"]["17"] and d["gate_options"]["UNIX"] is False
ns = [r for r in g if r["kind"] == "namespace flags"][0]
ok &= ns["mask"] and ns["syscalls"] == ["clone", "unshare"] and {ns["names"][b]: o for b, o in
      ns["needs"].items()} == {"CLONE_NEWUTS": ["UTS_NS"], "CLONE_NEWIPC": ["IPC_NS"],
      "CLONE_NEWUSER": ["USER_NS"], "CLONE_NEWPID": ["PID_NS"], "CLONE_NEWNET": ["NET_NS"],
      "CLONE_NEWTIME": ["TIME_NS"]}
sys.exit(not ok)' "$1"
}
check "audit-kmap: gates: clocks of posix-stubs.c (0, 1, 7 free; settime 0), AF_UNIX UNIX (off), AF_INET INET, AF_INET6 IPV6, AF_PACKET PACKET, CLONE_NEWUTS UTS_NS ... CLONE_NEWTIME TIME_NS" \
	gates "$json"
if [ -f "$TOP/build/linux-6.12/kernel/time/posix-stubs.c" ]; then
	nice "$TOP/scripts/audit/kmap.py" "$TOP/build/linux-6.12" --config "$CONFIG" >"$tmp/k612.json"
	check "audit-kmap: gates: the same rows from 6.12" gates "$tmp/k612.json"
else
	ok "audit-kmap: gates: the same rows from 6.12 # skip no build/linux-6.12"
fi

nice "$TOP/scripts/audit/kmap.py" "$KTREE" >"$json"
check "audit-kmap: without --config every enabled is null" \
	q 'all(r["enabled"] is None for r in list(s.values()) + list(f.values()))'
