#!/usr/bin/env bash
# measure/audit.sh RAM_MIB SERVES WORK LOGNAME: what the audit fragment
# (build/audit/audit.fragment, `make audit`) saves on top of the tiny board.
# measure-ram runs it when AUDIT=1 (`make measure-ram AUDIT=1`).
# Prints key=value lines:
#   options=...                     the options the fragment sets to n
#   tiny_<size> audit_<size>        measure/sizes.sh keys of both kernels
#                                   (tiny's from WORK/sizes.env, which
#                                   measure-ram's sizes phase wrote)
#   bloat_delta bloat_line ...      bloat-o-meter tiny -> audit
#   served mem_available_k code_k app_free_k ...  one boot of the audit
#                                   board at -m RAM_MIB (measure/boot.sh)
set -eu -o pipefail
[ $# -eq 4 ] || { echo "usage: $0 RAM_MIB SERVES WORK LOGNAME" >&2; exit 2; }
ram=$1 serves=$2 work=$3 lg=$4
here=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$here/../.." && pwd)
frag=$TOP/build/audit/audit.fragment
[ -f "$frag" ] && [ -f "$TOP/build/kernel-audit/vmlinux" ] ||
	{ echo "measure-audit: no audit kernel: run 'make board AUDIT=1'" >&2; exit 2; }
grep -q "CONFIG_SYSCALL_SPLICE is not set" "$TOP/build/kernel-audit/.config" ||
	{ echo "measure-audit: the audit kernel is not built on top of tiny" >&2; exit 1; }

echo "options=$(sed -n 's/^# CONFIG_\(.*\) is not set$/\1/p' "$frag" | tr '\n' ' ' | sed 's/ $//')"
# tiny's sizes: measured by measure-ram already (WORK/sizes.env, tiny.*)
sed -n 's/^tiny\./tiny_/p' "$work/sizes.env"
"$here/sizes.sh" audit | sed 's/^/audit_/'
"$here/bloat.sh" "$TOP/build/linux-6.1" "$TOP/build/kernel-tiny/vmlinux" \
	"$TOP/build/kernel-audit/vmlinux" "$work/audit-bloat-o-meter.txt" 5
"$here/boot.sh" audit "$ram" "$lg-audit" "$serves" || true
