#!/usr/bin/env bash
# scripts/series/per-patch.sh, the size stage's per-patch figures from the
# bisect builds: each patch against the build before it, =n read as =y
# until a K-n build exists, a failed build shown as "-". ARM objects stand
# in for vmlinux; bloat-o-meter comes from the linux-source-6.1 tarball.
. "$(dirname "$0")/../lib/common.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-per-patch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$TOP/tests/lib/series.sh"
series_bloat_setup 6.1 "$tmp"
mkdir -p "$tmp/b"
obj() { # NAME C-SOURCE
	printf '%s\n' "$2" >"$tmp/$1.c"
	arm-linux-gnueabi-gcc -Os -c -o "$tmp/b/$1.vmlinux" "$tmp/$1.c"
}
base='int keep(int x) { return x * 3 + 1; }'
big='int big(volatile int *p) { int i, s = 0; for (i = 0; i < 64; i++) s += p[i] * i; return s; }'
obj 0-y "$base
$big"
obj 1-y "$base
$big"
obj 2-y "$base
$big"
obj 2-n "$base"
obj 3-n "$base"
# patch 3's =y build failed: no 3-y.vmlinux
"$TOP/scripts/series/per-patch.sh" "$tmp/b" p1.patch p2.patch p3.patch >"$tmp/out" 2>&1
rc=$?
check "per-patch: exit 0 with the builds there" [ "$rc" = 0 ]
row() { awk -v k="$1" '$1 == k { print $2, $3, $4 }' "$tmp/out"; }
check "per-patch: a patch that changes nothing is 0 0" bash -c "[ \"$(row 1)\" = '0 0 p1' ]"
n2=$(row 2 | cut -d' ' -f2)
check "per-patch: =n appears at patch 2, against 1's =y (negative)" bash -c "[ \"$(row 2 | cut -d' ' -f1)\" = 0 ] && [ '$n2' -lt 0 ]"
check "per-patch: a missing build is '-', the next =n compares" bash -c "[ \"$(row 3)\" = '- 0 p3' ]"
check "per-patch: the whole series' =n total is patch 2's" bash -c "[ \"$(row all | cut -d' ' -f2)\" = '$n2' ]"
rm "$tmp/b/0-y.vmlinux"
"$TOP/scripts/series/per-patch.sh" "$tmp/b" p1.patch >/dev/null 2>&1
rc=$?
check "per-patch: no pristine build: exit 3" [ "$rc" = 3 ]
