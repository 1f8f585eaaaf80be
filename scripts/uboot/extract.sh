#!/usr/bin/env bash
# uboot/extract.sh: fetch (scripts/uboot/fetch.sh) and unpack Debian's u-boot
# source package, with Debian's patches applied by dpkg-source, into
# build/u-boot-src. It is unpacked into build/u-boot-src.new and renamed
# into place, so the tree is never half there. The source is never
# committed, like the kernel's.
set -eu
. "$(dirname "$0")/../lib/common.sh"
"$TOP/scripts/uboot/fetch.sh"
dsc=$(cat "$TOP/build/downloads/u-boot/dsc")
dest=$TOP/build/u-boot-src
rm -rf "$dest.new"
# apt-get checked the files against the signed Sources index; dpkg-source
# checks them against the .dsc again.
phase extract uboot-extract dpkg-source -x "$dsc" "$dest.new"
rm -rf "$dest"
mv "$dest.new" "$dest"
basename "$dsc" .dsc >"$dest/.extracted"
