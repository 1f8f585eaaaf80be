#!/usr/bin/env bash
# Both sides of the fragment, and the options that gate an argument (issue
# 39, item 3): audit/kmap.py reads a kernel tree in miniature
# (tests/host/audit/minitree: posix-stubs.c accepts CLOCK_REALTIME and
# CLOCK_MONOTONIC, AF_UNIX is registered under UNIX, epoll under EPOLL,
# futex under FUTEX and COMPAT_32BIT_TIME); audit/syscalls.py --kmap
# resolves the clock id and the family at each site of the programs of
# tests/host/audit/gates.S (a family known at one call of a wrapper and
# not at the other counts both ways); audit/report.py writes the =n side against a
# config with everything on, audit/needs.py the =y side against one with
# only NET and INET (tiny's shape).
. "$(dirname "$0")/../lib/common.sh"
echo 1..18
tmp=$(mktemp -d "${TMPDIR:-/tmp}/audit-gates.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tree=$TOP/tests/host/audit/minitree
a=$TOP/scripts/audit
printf 'CONFIG_%s=y\n' NET INET UNIX POSIX_TIMERS EPOLL FUTEX COMPAT_32BIT_TIME >"$tmp/on.config"
printf 'CONFIG_%s=y\n' NET INET >"$tmp/tiny.config"
"$a/kmap.py" "$tree" --config "$tmp/on.config" >"$tmp/on.json"
"$a/kmap.py" "$tree" --config "$tmp/tiny.config" >"$tmp/tiny.json"
# side N: both sides for CASE N: $tmp/gN.off (=n), $tmp/gN.on (=y), gN.json
side() {
	arm-linux-gnueabi-as --defsym CASE="$1" -o "$tmp/g$1.o" "$TOP/tests/host/audit/gates.S" &&
		arm-linux-gnueabi-ld -o "$tmp/g$1" "$tmp/g$1.o" &&
		"$a/syscalls.py" --ktree "$tree" --kmap "$tmp/on.json" --json "$tmp/g$1" >"$tmp/g$1.json" &&
		"$a/report.py" "$tmp/on.json" "$tmp/g$1.json" "$tmp/g$1.off" >"$tmp/g$1.report" &&
		"$a/needs.py" "$tmp/tiny.json" "$tmp/tiny.config" "$tmp/g$1.on" "$tmp/g$1.json" >"$tmp/g$1.needs"
}
# arg N SYSCALL ARGS: the uses of SYSCALL in CASE N have these args (JSON)
arg() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
got = [json.dumps(u["args"], sort_keys=True) for u in r["uses"] if u["syscall"] == sys.argv[2]]
sys.exit(got != sys.argv[3:])' "$tmp/g$1.json" "${@:2}"
}
kept() { ! grep -qx "# CONFIG_$2 is not set" "$tmp/g$1.off"; }
added() { grep -qx "CONFIG_$2=y" "$tmp/g$1.on"; }
for c in 1 2 3 4 5 6; do side "$c" || echo "# case $c: the audit failed"; done

check "kmap: the clock row from posix-stubs.c: REALTIME and MONOTONIC free, any other clock POSIX_TIMERS" \
	python3 -c 'import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["arg_gates"] if r["kind"] == "clock id"]
sys.exit(not (len(rows) == 1 and rows[0]["syscalls"] == ["clock_gettime64"] and
              rows[0]["needs"] == {"0": [], "1": []} and rows[0]["otherwise"] == ["POSIX_TIMERS"]))' \
	"$tmp/on.json"
check "kmap: the family row from sock_register(): AF_UNIX needs UNIX, AF_INET INET" \
	python3 -c 'import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["arg_gates"] if r["kind"] == "address family"]
sys.exit(rows[0]["needs"] != {"1": ["UNIX"], "2": ["INET"]})' "$tmp/on.json"
check "CLOCK_REALTIME_COARSE through a wrapper: the clock resolved to 5 at the svc" \
	arg 1 clock_gettime64 '{"0": [5]}'
check "CLOCK_REALTIME_COARSE: POSIX_TIMERS kept on (=n side)" kept 1 POSIX_TIMERS
check "CLOCK_REALTIME_COARSE: POSIX_TIMERS=y added against tiny (=y side)" added 1 POSIX_TIMERS
check "an unknown clock id: resolved to null" arg 2 clock_gettime64 '{"0": null}'
check "an unknown clock id: POSIX_TIMERS kept on, and added against tiny" \
	bash -c "! grep -qx '# CONFIG_POSIX_TIMERS is not set' '$tmp/g2.off' && grep -qx CONFIG_POSIX_TIMERS=y '$tmp/g2.on'"
check "CLOCK_REALTIME and CLOCK_MONOTONIC only: resolved to 0 and 1" arg 3 clock_gettime64 '{"0": [0, 1]}'
check "CLOCK_REALTIME and CLOCK_MONOTONIC only: POSIX_TIMERS turned off, nothing added" \
	bash -c "grep -qx '# CONFIG_POSIX_TIMERS is not set' '$tmp/g3.off' && ! grep -q '=y' '$tmp/g3.on'"
check "socket: the family resolved at each svc site, AF_UNIX then AF_INET" \
	arg 4 socket '{"0": [1]}' '{"0": [2]}'
check "socket(AF_UNIX): UNIX=y added against tiny, INET (on) not" \
	bash -c "grep -qx CONFIG_UNIX=y '$tmp/g4.on' && ! grep -q CONFIG_INET '$tmp/g4.on'"
check "epoll_wait and futex: EPOLL, FUTEX and COMPAT_32BIT_TIME added, each with its syscall" \
	bash -c "grep -A1 -x '# g4: epoll_wait' '$tmp/g4.on' | grep -qx CONFIG_EPOLL=y &&
		grep -A1 -x '# g4: futex' '$tmp/g4.on' | grep -qx CONFIG_FUTEX=y &&
		grep -qx CONFIG_COMPAT_32BIT_TIME=y '$tmp/g4.on'"
check "epoll_wait called: EPOLL kept on (=n side), turned off when not called" \
	bash -c "! grep -q 'CONFIG_EPOLL is not' '$tmp/g4.off' && grep -qx '# CONFIG_EPOLL is not set' '$tmp/g3.off'"
check "an unknown family: reported UNRESOLVED, UNIX not added" \
	bash -c "grep -q '^# UNRESOLVED, not added: g5: socket (address family not resolved.*CONFIG_UNIX' '$tmp/g5.on' &&
		! grep -q '=y' '$tmp/g5.on'"
check "a wrapper's family known at one call, not at the other: AF_UNIX and null" \
	arg 6 socket '{"0": [1, null]}'
check "known at one call: UNIX=y added, and the unknown call reported UNRESOLVED" \
	bash -c "grep -qx CONFIG_UNIX=y '$tmp/g6.on' &&
		grep -q '^# UNRESOLVED, not added: g6: socket (address family not resolved' '$tmp/g6.on'"
# The image mode's shape, and a names file (no arguments: unknown).
echo '{"program": "img", "syscalls": ["socket", "clock_gettime64"],
 "uses": [{"syscall": "socket", "args": {"0": [1]}, "at": "libc"},
          {"syscall": "clock_gettime64", "args": {"0": [1]}, "at": "libc"}]}' >"$tmp/img.json"
check "another producer's JSON: socket(AF_UNIX) adds UNIX, a MONOTONIC clock nothing" \
	bash -c "'$a/needs.py' '$tmp/tiny.json' '$tmp/tiny.config' '$tmp/img.on' '$tmp/img.json' >/dev/null &&
		grep -qx CONFIG_UNIX=y '$tmp/img.on' && [ \$(grep -c '=y' '$tmp/img.on') = 1 ]"
printf '%s\n' clock_gettime64 epoll_wait >"$tmp/t.names"
check "a names file: the clock unknown, so POSIX_TIMERS is added, and EPOLL" \
	bash -c "'$a/needs.py' '$tmp/tiny.json' '$tmp/tiny.config' '$tmp/t.on' '$tmp/t.names' >/dev/null &&
		grep -qx CONFIG_POSIX_TIMERS=y '$tmp/t.on' && grep -qx CONFIG_EPOLL=y '$tmp/t.on'"
