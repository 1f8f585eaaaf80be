#!/usr/bin/env bash
# scripts/audit/allowlist.py, the CONFIG_SYSCALL_ALLOWLIST file `make audit`
# writes beside the fragment: the table names of every syscall the
# programs make, without ARM's private calls; no list at all (and a stale
# one removed) when a site is unresolved, even with the risk accepted, or
# when the fragment fails closed.
. "$(dirname "$0")/../lib/common.sh"
echo 1..8
tmp=$(mktemp -d "${TMPDIR:-/tmp}/audit-allowlist.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# al: run it; prints its exit status
al() {
	"$TOP/scripts/audit/allowlist.py" "$tmp/s.json" "$tmp/a.fragment" "$tmp/out" >"$tmp/msg"
	echo $?
}
# report N: two programs' audit, the second with N unresolved svc sites
report() {
	python3 - "$1" >"$tmp/s.json" <<'PY'
import json, sys
n = int(sys.argv[1])
a = {"elf": "a", "syscalls": [{"nr": 4, "name": "write"}, {"nr": 0xF0005, "name": "ARM_set_tls"},
                               {"nr": 248, "name": "exit_group"}], "unresolved": []}
b = {"elf": "b", "syscalls": [{"nr": 3, "name": "read"}, {"nr": 4, "name": "write"}],
     "unresolved": [{"addr": 16, "func": "f", "unresolved": ["r7 from memory"]}] * n}
json.dump([a, b], sys.stdout)
PY
}
report 0
echo '# CONFIG_KCMP is not set' >"$tmp/a.fragment"
check "a sound audit: the list is written (exit 0)" [ "$(al)" = 0 ]
check "it holds each syscall of every program once, sorted, and no ARM private call" \
	diff <(grep -v '^#' "$tmp/out") <(printf '%s\n' exit_group read write)
check "its first line says which programs it is for" \
	grep -qx '# The system calls made by a, b (scripts/audit/allowlist.py)' "$tmp/out"
report 1
check "an unresolved svc site: no list (exit 3), the stale one removed" \
	test "$(al)" = 3 -a ! -e "$tmp/out"
check "it says why" grep -q '^allowlist: not written.*b: 1 svc site(s) unresolved' "$tmp/msg"
report 0
printf '%s\n' '# AUDIT_ACCEPT_UNRESOLVED=1: assumed to call none of these: x' >"$tmp/a.fragment"
check "the risk accepted for the fragment is not accepted for the list (exit 3)" [ "$(al)" = 3 ]
python3 - "$tmp/s.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r[0]["unaccounted"] = [{"why": "PT_INTERP /lib/ld-linux.so.3: dynamically linked"}]
json.dump(r, open(sys.argv[1], "w"))
PY
echo '# CONFIG_KCMP is not set' >"$tmp/a.fragment"
rc=$(al)
check "a program the audit cannot account for (dynamic, dlopen...): no list (exit 3), and why" \
	test "$rc" = 3 -a -n "$(grep "a: not accounted for: PT_INTERP" "$tmp/msg")"
report 0
printf '%s\n' '# FAIL CLOSED: unresolved svc sites could make any syscall: y' >"$tmp/a.fragment"
check "a fragment that fails closed: no list (exit 3)" [ "$(al)" = 3 ]
