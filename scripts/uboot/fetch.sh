#!/usr/bin/env bash
# uboot/fetch.sh: download Debian's source package u-boot, the version in
# uboot/debian-version, into build/downloads/u-boot with
# `apt-get source --download-only`, and write the .dsc's path to
# build/downloads/u-boot/dsc. The default sources have no deb-src entry:
# as root, this adds one in its own file,
# /etc/apt/sources.list.d/board-deb-src.sources, and runs apt-get update.
# Nothing is downloaded when the .dsc is already there. If the archive no
# longer has that version (a newer security update replaced it), the
# version it has is used, and a line says so.
set -eu
. "$(dirname "$0")/../lib/common.sh"
version=$(cat "$TOP/uboot/debian-version")
dl=$TOP/build/downloads/u-boot
mkdir -p "$dl"
if [ -f "$dl/u-boot_${version}.dsc" ]; then
	echo "$dl/u-boot_${version}.dsc" >"$dl/dsc"
	exit 0
fi

versions() { apt-cache showsrc u-boot 2>/dev/null | sed -n 's/^Version: //p'; }
deb_src_ready u-boot
if ! versions | grep -qxF "$version"; then
	got=$(versions | sort -V | tail -n 1)
	[ -n "$got" ] || die "apt has no source package u-boot (log: build/logs/src-apt-update.log)"
	echo "  u-boot     $version is no longer in the archive; using $got (put it in uboot/debian-version)"
	version=$got
fi
phase download uboot-download \
	sh -c "cd '$dl' && apt-get source --download-only 'u-boot=$version'"
[ -f "$dl/u-boot_${version}.dsc" ] ||
	die "apt-get source did not give u-boot_${version}.dsc (log: build/logs/uboot-download.log)"
echo "$dl/u-boot_${version}.dsc" >"$dl/dsc"
