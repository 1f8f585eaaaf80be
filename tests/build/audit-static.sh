#!/usr/bin/env bash
# The static syscall audit (scripts/audit/syscalls.py, scripts/audit/audit.sh):
#   - a hand-written ELF (tests/host/audit/svc-cases.S) with one svc per way
#     a number reaches r7: exact set of numbers, the OABI site flagged, the
#     unresolvable site listed with its function, the wrapper found;
#   - the init program: every site resolved, sendfile64 the only splice-family
#     call, and both its calls fall back on ENOSYS (compare and branch
#     found by following the result, scripts/audit/audit_flow.py);
#   - BusyBox (stripped, glibc): audited, unresolved sites listed;
#   - make audit's report and fragment for the init program.
. "$(dirname "$0")/../lib/common.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/audit-static.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
audit=$TOP/scripts/audit/syscalls.py
pyq() { python3 -c "import json,sys; d=json.load(open('$1')); sys.exit(0 if ($2) else 1)"; }

# --- the hand-written cases ---
if arm-linux-gnueabi-gcc -march=armv7-a -nostdlib -static -o "$tmp/svc-cases" \
	"$TOP/tests/host/audit/svc-cases.S" && "$audit" --json "$tmp/svc-cases" >"$tmp/cases.json"; then
	ok "audit: svc-cases.S assembles and is audited"
else
	not_ok "audit: svc-cases.S assembles and is audited"
fi
"$audit" "$tmp/svc-cases" || true
# exit read write close getpid mkdir dup ioctl fcntl semop statx, ARM set_tls
want="[1, 3, 4, 6, 20, 39, 41, 54, 55, 298, 397, 0xf0005]"
check "audit: cases: exactly the numbers set by imm, movw/movt, literal, reg move, add, moveq/movne, wrapper, stack slot, Thumb" \
	pyq "$tmp/cases.json" "sorted(s['nr'] for s in d['syscalls']) == $want"
check "audit: cases: the wrapper (number in r0) is found and resolved at its two calls" \
	pyq "$tmp/cases.json" "any(w.startswith('wrapper@') for w in d['wrappers'])"
check "audit: cases: OABI svc #0x900004 flagged in oabi" \
	pyq "$tmp/cases.json" "[(s['func'], s['oabi']) for s in d['oabi']] == [('oabi', 0x900004)]"
check "audit: cases: the svc after 'ldr r7, [r0]' is listed unresolved, in unknown" \
	pyq "$tmp/cases.json" "[s['func'] for s in d['unresolved']] == ['unknown']"
check "audit: cases: the Thumb-2 site in thumb_fn is read as Thumb and gives mkdir (39)" \
	pyq "$tmp/cases.json" "[(s['mode'], s['numbers']) for s in d['sites'] if s['func'] == 'thumb_fn'] == [('thumb', [39])]"

# --- the init program ---
init=$TOP/build/app/arm/init.unstripped
"$audit" --json "$init" >"$tmp/init.json" || not_ok "audit: init audited"
"$audit" "$init" | grep -v '^  syscalls:'
check "audit: init: every svc site resolved" pyq "$tmp/init.json" "not d['unresolved'] and not d['oabi']"
check "audit: init: socket, accept4, poll, pread64, sendfile64, reboot among its syscalls" \
	pyq "$tmp/init.json" "{'socket', 'accept4', 'poll', 'pread64', 'sendfile64', 'reboot'} <= {s['name'] for s in d['syscalls']}"
check "audit: init: no splice-family syscall but sendfile64" \
	pyq "$tmp/init.json" "{n for s in d['splice_family'] for n in s['syscalls']} == {'sendfile64'} and not {'splice', 'tee', 'vmsplice', 'sendfile'} & {s['name'] for s in d['syscalls']}"
check "audit: init: both calls of sendfile (probe, transfer) fall back on ENOSYS" \
	pyq "$tmp/init.json" "len([c for s in d['splice_family'] for c in s['calls']]) == 2 and all(c['verdict'] == 'fallback' and c['enosys_check'] for s in d['splice_family'] for c in s['calls'])"
check "audit: init: the transfer's ENOSYS compare is in xfer_run, its branch leads to pread64" \
	pyq "$tmp/init.json" "any(c['caller'] == 'xfer_run' and 'xfer_run' in c['enosys_check'] and 'pread64' in c['compares'][0]['leads_to'] for s in d['splice_family'] for c in s['calls'])"

# --- the probe: splice-family calls through musl's variadic syscall() ---
probe=$TOP/build/probe/arm/probe.unstripped
"$audit" --json "$probe" >"$tmp/probe.json" || not_ok "audit: probe audited"
check "audit: probe: syscall() is a wrapper, its number found at each call (stack slot)" \
	pyq "$tmp/probe.json" "any(w.startswith('syscall@') for w in d['wrappers'])"
check "audit: probe: splice, vmsplice, tee, sendfile, sendfile64, copy_file_range all found" \
	pyq "$tmp/probe.json" "{'splice', 'vmsplice', 'tee', 'sendfile', 'sendfile64', 'copy_file_range'} <= {s['name'] for s in d['syscalls']}"
check "audit: probe: each splice-family call names its own syscall" \
	pyq "$tmp/probe.json" "all(len(c['syscalls']) <= 2 for s in d['splice_family'] for c in s['calls']) and {n for s in d['splice_family'] for c in s['calls'] for n in c['syscalls']} >= {'splice', 'vmsplice', 'tee', 'sendfile'}"

# --- BusyBox (stripped, glibc, ARM) ---
bb=$TOP/build/busybox/bin/busybox
"$audit" --json "$bb" >"$tmp/bb.json" || not_ok "audit: busybox audited"
check "audit: busybox: over 300 svc sites, most resolved, the rest listed with an address" \
	pyq "$tmp/bb.json" "d['svc_sites'] > 300 and d['resolved_sites'] > 0.8 * d['svc_sites'] and all(s['addr'] and s['unresolved'] for s in d['unresolved'])"

# --- make audit: report and fragment for init ---
"$TOP/scripts/audit/audit.sh" >"$tmp/audit.out" 2>&1 || { cat "$tmp/audit.out"; not_ok "audit: scripts/audit/audit.sh runs"; }
cat "$TOP/build/audit/report.txt"
frag=$TOP/build/audit/audit.fragment
check "audit: fragment proposes CONFIG_CROSS_MEMORY_ATTACH=n (process_vm_*, never called, on in tiny)" \
	grep -qx '# CONFIG_CROSS_MEMORY_ATTACH is not set' "$frag"
check "audit: fragment leaves out options that do more than syscalls (PRINTK)" \
	bash -c "! grep -q PRINTK '$frag' && grep -q 'CONFIG_PRINTK .*decide by hand' '$TOP/build/audit/report.txt'"
check "audit: fragment never turns off a family init calls (NET, SYSCALL_SPLICE is off already)" \
	bash -c "! grep -Eq 'CONFIG_(NET|INET|MMU)[ =]' '$frag'"
check "audit: report: the splice family is off and init checks ENOSYS after sendfile" \
	bash -c "grep -q 'CONFIG_SYSCALL_SPLICE (OFF' '$TOP/build/audit/report.txt' && grep -q 'sendfile64 .*xfer_run: fallback' '$TOP/build/audit/report.txt'"
# The other side (audit/needs.py): what init needs that tiny has off.
# musl's locks reach futex (240: FUTEX and COMPAT_32BIT_TIME); sendfile64
# falls back, so SYSCALL_SPLICE is not needed; init's clocks are
# CLOCK_REALTIME and CLOCK_MONOTONIC, which posix-stubs.c serves, so
# POSIX_TIMERS is not needed either. product.fragment (both sides) holds.
needs=$TOP/build/audit/needs.fragment
check "audit: needs: FUTEX and COMPAT_32BIT_TIME turned on for futex; not SYSCALL_SPLICE (falls back), not POSIX_TIMERS (clocks 0 and 1)" \
	bash -c "grep -qx CONFIG_FUTEX=y '$needs' && grep -qx CONFIG_COMPAT_32BIT_TIME=y '$needs' &&
		! grep -q 'SPLICE=y' '$needs' && ! grep -q 'POSIX_TIMERS=y' '$needs' &&
		grep -q '^# init.unstripped falls back on ENOSYS from sendfile64' '$needs'"
check "audit: product.fragment is both sides and every line holds on tiny (olddefconfig)" \
	bash -c "grep -qx '# CONFIG_CROSS_MEMORY_ATTACH is not set' '$TOP/build/audit/product.fragment' &&
		grep -qx CONFIG_FUTEX=y '$TOP/build/audit/product.fragment' &&
		grep -q '^product fragment: 2 option(s) on, 0 not holding' '$TOP/build/audit/report.txt'"
