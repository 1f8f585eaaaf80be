#!/usr/bin/env bash
# scripts/series/lib.sh's cs_patches, the patch list every check-series
# stage works on: the series file's patches in order, cover letters left
# out, and patches in a subfolder (kernel/6.12/patches/allowlist/, an RFC
# of its own on top of the series) left out unless CS_RFC=1.
. "$(dirname "$0")/../lib/common.sh"
echo 1..3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-patches.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/p/rfc"
echo 'Subject: [PATCH 0/2] cover' >"$tmp/p/0000-cover-letter.patch"
echo 'diff --git a/x.c b/x.c' >"$tmp/p/0001-a.patch"
echo 'diff --git a/y.c b/y.c' >"$tmp/p/0002-b.patch"
echo 'diff --git a/z.c b/z.c' >"$tmp/p/rfc/0001-c.patch"
printf '# comment\n0000-cover-letter.patch\n0001-a.patch\n0002-b.patch\n# the RFC\nrfc/0001-c.patch\n' >"$tmp/p/series"
export CS_DIR=$tmp/cs PATCH_DIR=$tmp/p
# the library, in a subshell: it sets DIE_* and its own paths
lib() { (. "$TOP/scripts/series/lib.sh" && "$@"); }
list() { lib cs_patches | sed "s#^$tmp/p/##" | tr '\n' ' '; }
is() { [ "$(list)" = "$1" ] || { echo "# got: $(list)"; return 1; }; }
check "the series' patches in order, without the cover letter or the RFC" is '0001-a.patch 0002-b.patch '
rfc() { CS_RFC=1 is '0001-a.patch 0002-b.patch rfc/0001-c.patch '; }
check "CS_RFC=1: the RFC's patch too, after them" rfc
rm "$tmp/p/rfc/0001-c.patch"
missing() { ! CS_RFC=1 lib cs_patches >/dev/null 2>&1; }
check "CS_RFC=1 and a named patch missing: fails" missing
