#!/usr/bin/env bash
# Extract Debian's linux-source-6.1 into build/linux-6.1 and apply the
# patches named in kernel/patches/series, in order.
#
# The tree is built in build/linux-6.1.new and renamed into place only
# when every patch applied, so build/linux-6.1 is never half-patched.
# Files get the extraction time as mtime (--touch), so objects in the
# O= build folders are rebuilt for every file of a re-extracted tree
# (ccache makes that cheap); stale objects cannot survive a patch change.
# KERNEL_TARBALL, PATCH_DIR and KSRC_DEST override the source, the patch
# folder and the destination (mk/linux-6.12.mk: the 6.12 tree and series).
set -eu
. "$(dirname "$0")/../lib/common.sh"

tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
series_dir=${PATCH_DIR:-$TOP/kernel/patches}
dest=${KSRC_DEST:-$TOP/build/linux-6.1}
new=$dest.new

[ -f "$tarball" ] || die "$tarball not found (Debian package $(basename "$tarball" .tar.xz))"

rm -rf "$new"
mkdir -p "$new"
phase extract extract tar -x --touch --strip-components=1 -C "$new" -f "$tarball"

n=0
if [ -f "$series_dir/series" ]; then
	while read -r p _; do
		case $p in '' | '#'*) continue ;; esac
		[ -f "$series_dir/$p" ] || die "patch '$p' named in ${series_dir#"$TOP"/}/series does not exist"
		if ! patch -d "$new" -p1 -s -N --no-backup-if-mismatch -r - \
			<"$series_dir/$p" >"$LOGS/patch.log" 2>&1; then
			tail -n 20 "$LOGS/patch.log" | sed 's/^/  | /' >&2
			rm -rf "$new"
			die "patch '$p' does not apply (log: build/logs/patch.log)"
		fi
		n=$((n + 1))
	done <"$series_dir/series"
fi
echo "  patch      $n patch(es) from ${series_dir#"$TOP"/}/series applied"

rm -rf "$dest"
mv "$new" "$dest"
touch "$dest/.patched"
