# shellcheck shell=bash
# What the tests of scripts/series/ share. Source it after common.sh.

# series_bloat_setup VERSION DIR: scripts/bloat-o-meter of Debian's
# linux-source-VERSION extracted into DIR and exported as BLOAT_TREE, and
# CS_DIR inside DIR. Skips the test (exit 4) without the tarball.
series_bloat_setup() {
	local tarball=/usr/src/linux-source-$1.tar.xz
	[ -f "$tarball" ] || { echo "SKIP: no $tarball (make deps)"; exit 4; }
	tar -xJf "$tarball" -C "$2" --occurrence=1 --wildcards '*/scripts/bloat-o-meter'
	export BLOAT_TREE=$2/linux-source-$1 CS_DIR=$2/cs
}
