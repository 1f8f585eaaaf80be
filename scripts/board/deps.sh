#!/usr/bin/env bash
# Make sure the Debian packages the pipeline needs are installed.
# As root, install what is missing; otherwise print the exact apt-get line.
# Cheap when all is there: one dpkg-query call, no apt.
set -eu
. "$(dirname "$0")/../lib/common.sh"

pkgs=(gcc-arm-linux-gnueabi linux-source-6.1 linux-source-6.12 qemu-system-arm u-boot-tools
	device-tree-compiler bison flex bc cpio curl make gcc libc6-dev patch
	xz-utils ccache wget musl-dev:armel qemu-user
	dpkg-dev mtools fdisk libssl-dev strace shellcheck pyflakes3 genromfs
	python3-pyelftools python3-capstone)
# dpkg-dev: dpkg-source for `apt-get source u-boot`; mtools, fdisk (sfdisk):
# the SD card image without root; genromfs: the flash board's romfs;
# libssl-dev: U-Boot's host tools; strace: the audit's trace injects faults (scripts/audit/trace.sh); and for make
# lint, shellcheck and pyflakes3. python3-pyelftools: the audit reads program
# headers, the dynamic section and symbols with it (scripts/audit/accounted.py);
# python3-capstone: the image mode decodes ARM code with it (scripts/audit/image/).
read -ra extra <<<"${EXTRA_PKGS:-}"
pkgs+=("${extra[@]}")

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

need_armel=no
for p in "${missing[@]}"; do
	case $p in *:armel) need_armel=yes ;; esac
done
have_armel=no
dpkg --print-foreign-architectures | grep -qx armel && have_armel=yes

if [ "$(id -u)" -ne 0 ]; then
	echo "Missing Debian packages: ${missing[*]}" >&2
	echo "Run as root:" >&2
	if [ "$need_armel" = yes ] && [ "$have_armel" = no ]; then
		echo "  dpkg --add-architecture armel && apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
	else
		echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
	fi
	exit 1
fi

echo "  deps       installing ${missing[*]}"
[ "$need_armel" = yes ] && [ "$have_armel" = no ] && dpkg --add-architecture armel
phase apt-update deps-apt-update apt-get update
phase apt-install deps-apt-install env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y --no-install-recommends "${missing[@]}"
