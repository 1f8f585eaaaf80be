#!/usr/bin/env bash
# timeout: 1500
# The audit on programs nobody here wrote (issue 21): each program of
# tests/audit/corpus.txt, built static for ARM with musl from its Debian
# source package (scripts/corpus/build.sh, cached), runs under
# `qemu-arm -strace` doing real work (scripts/corpus/trace.sh checks the
# work: bytes by sha256, status codes), then scripts/corpus/check.py audits
# it against the kernel users start from (vexpress_defconfig + EXPERT, the
# series applied: CONFIG_SYSCALL_SPLICE=y, MULTIUSER=y) and checks recall,
# the splice verdict against the source's ground truth, the fragment, and
# the fragment's other side against the tiny board (issue 39, item 3).
# Five cases per program; precision is printed ("# name: precision ...").
# Results: build/corpus-audit/results.json.
set -u
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
cd "$TOP" || exit 1
truth=tests/audit/corpus.txt
config=build/kernel-vexpress/.config
names=$(grep -v '^#' "$truth" | awk 'NF { print $1 }')
echo "1..$(($(echo "$names" | wc -w) * 5))"
for f in "$config" build/linux-6.1/arch/arm/tools/syscall.tbl build/rootfs/srv/test.bin; do
	[ -f "$f" ] || { echo "missing $f (make test-audit builds it)"; exit 1; }
done
if ! scripts/corpus/build.sh; then
	for n in $names; do not_ok "$n: built from its Debian source package"; done
	exit 1
fi
traced=()
for n in $names; do
	rm -f "build/corpus-trace/$n.strace"
	if scripts/corpus/trace.sh "$n" build/corpus-trace; then
		ok "$n: traced doing real work under qemu-arm -strace"
		traced+=("$n")
	else
		not_ok "$n: traced doing real work under qemu-arm -strace"
		for c in recall "splice verdict" fragment two-sided; do not_ok "$n: $c (no trace)"; done
	fi
done
[ ${#traced[@]} -gt 0 ] || exit 1
scripts/corpus/check.py "$truth" build/linux-6.1 "$config" build/corpus-trace \
	build/corpus-audit "${traced[@]}"
