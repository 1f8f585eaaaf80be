#!/usr/bin/env bash
# scripts/series/lib.sh's cs_tree_kept, which lets make check-series keep
# the patched tree of an earlier run (so an interrupted allmodlink resumes
# instead of recompiling): kept only when the tree's id names the same
# tarball and the same patches in the same order, and never after an
# extraction whose walk has not applied the patches yet.
. "$(dirname "$0")/../lib/common.sh"
echo 1..6
tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-tree-kept.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/linux-x" "$tmp/p"
echo 'int x;' >"$tmp/src/linux-x/x.c"
tar -cJf "$tmp/t.tar.xz" -C "$tmp/src" linux-x
echo 'diff --git a/x.c b/x.c (one)' >"$tmp/p/1.patch"
echo 'diff --git a/x.c b/x.c (two)' >"$tmp/p/2.patch"
export CS_DIR=$tmp/cs KERNEL_TARBALL=$tmp/t.tar.xz
# the library, in a subshell: it sets DIE_* and its own paths
lib() { (. "$TOP/scripts/series/lib.sh" && "$@"); }
tree=$tmp/cs/linux
walked() { lib cs_extract "$tree" && lib cs_tree_id "$tmp/p/1.patch" "$tmp/p/2.patch" >"$tree.id"; }
kept() { lib cs_tree_kept "$tree" "$@"; }
not_kept() { ! kept "$@"; }

walked
check "the same tarball and patches: kept" kept "$tmp/p/1.patch" "$tmp/p/2.patch"
check "the patches in another order: not kept" not_kept "$tmp/p/2.patch" "$tmp/p/1.patch"
echo 'diff --git a/x.c b/x.c (one, edited)' >"$tmp/p/1.patch"
check "a patch edited: not kept" not_kept "$tmp/p/1.patch" "$tmp/p/2.patch"
walked
echo 'int y;' >"$tmp/src/linux-x/x.c"
tar -cJf "$tmp/t.tar.xz" -C "$tmp/src" linux-x
check "another tarball: not kept" not_kept "$tmp/p/1.patch" "$tmp/p/2.patch"
walked
lib cs_extract "$tree"
fresh() { not_kept "$@" && grep -qx 'int y;' "$tree/x.c"; }
check "a fresh extraction, patches not applied yet: not kept, and the tree is the tarball's" \
	fresh "$tmp/p/1.patch" "$tmp/p/2.patch"
walked
rm -rf "$tree"
check "an id without its tree: not kept" not_kept "$tmp/p/1.patch" "$tmp/p/2.patch"
