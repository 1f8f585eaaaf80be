#!/usr/bin/env bash
# scripts/series/size.sh, the =y against pristine check: a weak alias of
# another symbol's address (what COND_SYSCALL() adds for a syscall that
# is built) occupies no byte and does not count; a real byte does, and
# the check fails. ARM objects stand in for vmlinux; bloat-o-meter comes
# from the linux-source-6.12 tarball: 6.12's bloat-o-meter counts weak
# symbols (W) as functions (6.1's does not), so the alias counts there.
# The same for the x86_64 tinyconfig builds, with host objects.
. "$(dirname "$0")/../lib/common.sh"
echo 1..7
tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-size.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$TOP/tests/lib/series.sh"
series_bloat_setup 6.12 "$tmp"
obj() { # DIR NAME C-SOURCE [CC]: NAME is ARM, or built by CC
	mkdir -p "$tmp/$1"
	printf '%s\n' "$3" >"$tmp/$1/$2.c"
	"${4:-arm-linux-gnueabi-gcc}" -Os -c -o "$tmp/$1/$2.vmlinux" "$tmp/$1/$2.c"
}
ni='long sys_ni_syscall(void) { return -38; }
int keep(int x) { return x * 3 + 1; }'
alias='__asm__(".weak compat_sys_sendfile\n.set compat_sys_sendfile, sys_ni_syscall");'

obj a tiny-pristine "$ni"
obj a tiny-y "$ni
$alias"
out=$("$TOP/scripts/series/size.sh" "$tmp/a" 2>&1)
rc=$?
echo "$out"
check "an added weak alias: nm sees it at sys_ni_syscall's address" \
	bash -c 'arm-linux-gnueabi-nm "$1" | grep -q " W compat_sys_sendfile$"' _ "$tmp/a/tiny-y.vmlinux"
check "an added weak alias: =y within 0 bytes of pristine, exit 0" \
	bash -c '[ "$1" = 0 ] && grep -q "pristine -> =y.*  *0 bytes  within 0 bytes" <<<"$2"' _ "$rc" "$out"
check "an added weak alias: the line says it was not counted, and what counting it gives" \
	grep -q "weak aliases not counted; with them [1-9]" <<<"$out"

obj b tiny-pristine "$ni"
obj b tiny-y "$ni
int more(volatile int *p) { return p[1] + p[2]; }"
out=$("$TOP/scripts/series/size.sh" "$tmp/b" 2>&1)
rc=$?
echo "$out"
check "a real new function: MORE than 0 bytes apart, exit 1" \
	bash -c '[ "$1" = 1 ] && grep -q "pristine -> =y.*MORE than 0 bytes apart" <<<"$2"' _ "$rc" "$out"
check "a real new function: no alias note" bash -c '! grep -q "weak aliases" <<<"$1"' _ "$out"

# x86_64 tinyconfig: the same check on the x86-pristine and x86-y builds
# (host objects stand in), beside the ARM one.
obj c x86-pristine "$ni" gcc
obj c x86-y "$ni
$alias" gcc
out=$("$TOP/scripts/series/size.sh" "$tmp/c" 2>&1)
rc=$?
echo "$out"
check "x86_64, an added weak alias: pristine -> =y within 0 bytes, exit 0" \
	bash -c '[ "$1" = 0 ] && grep -q "x86_64 tinyconfig pristine -> =y.*  *0 bytes  within 0 bytes" <<<"$2"' _ "$rc" "$out"
obj d x86-pristine "$ni" gcc
obj d x86-y "$ni
int more(volatile int *p) { return p[1] + p[2]; }" gcc
out=$("$TOP/scripts/series/size.sh" "$tmp/d" 2>&1)
rc=$?
echo "$out"
check "x86_64, a real new function: pristine -> =y MORE than 0 bytes apart, exit 1" \
	bash -c '[ "$1" = 1 ] && grep -q "x86_64 tinyconfig pristine -> =y.*MORE than 0 bytes apart" <<<"$2"' _ "$rc" "$out"
