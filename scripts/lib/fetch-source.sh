#!/usr/bin/env bash
# lib/fetch-source.sh PACKAGE DEST: download and unpack Debian's source package
# PACKAGE (the version apt offers for bookworm) into DEST with
# `apt-get source`, the way scripts/uboot/fetch.sh fetches U-Boot. DEST/dsc
# gets the .dsc's path, DEST/version the version, DEST/src the unpacked
# tree (Debian's patches applied by dpkg-source). Nothing is downloaded or
# unpacked again when DEST/src is already there for that version.
# The default sources have no deb-src entry: as root, lib/common.sh's
# deb_src_ready adds /etc/apt/sources.list.d/board-deb-src.sources (the
# same file as for U-Boot) and runs apt-get update once.
set -eu
. "$(dirname "$0")/common.sh"
[ $# -eq 2 ] || die "usage: $0 PACKAGE DEST"
pkg=$1
dest=$2
mkdir -p "$dest"
versions() { apt-cache showsrc "$pkg" 2>/dev/null | sed -n 's/^Version: //p'; }
deb_src_ready "$pkg"
version=$(versions | sort -V | tail -n 1)
[ -n "$version" ] || die "apt has no source package $pkg"
if [ -d "$dest/src" ] && [ "$(cat "$dest/version" 2>/dev/null)" = "$version" ]; then
	exit 0
fi
rm -rf "$dest/src" "$dest/unpack"
mkdir -p "$dest/unpack"
phase "$pkg" "src-$pkg" sh -c "cd '$dest/unpack' && apt-get source '$pkg=$version'"
dsc=$(ls "$dest"/unpack/*.dsc)
tree=$(find "$dest/unpack" -mindepth 1 -maxdepth 1 -type d | head -n 1)
[ -n "$tree" ] || die "apt-get source $pkg gave no tree (log: build/logs/src-$pkg.log)"
mv "$tree" "$dest/src"
echo "$dsc" >"$dest/dsc"
echo "$version" >"$dest/version"
