#!/usr/bin/env bash
# measure/ab-initrd.sh COMMIT NAME: the board's initramfs with the init of
# app/ as it was at COMMIT, for scripts/measure/ab.sh and measure-ram runs
# against another app version. Touches neither app/ nor build/app/:
#   build/ab/src-NAME/   app/ and mk/ of COMMIT (git archive)
#   build/ab/app-NAME/   its static ARM init (the Makefile of that commit)
#   build/ab/NAME.cpio.gz, build/ab/NAME.uInitrd   packed like the board's,
#                        with build/rootfs/srv (run make board first)
# /init gets a fixed mtime so that two of these differ in the program only.
# One line per phase; logs: build/logs/ab-initrd-NAME-*.log.
set -eu
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
[ $# -eq 2 ] || die "usage: $0 COMMIT NAME"
commit=$1 what=$2 # (not "name": phase() has a local of that name)
[[ $what =~ ^[A-Za-z0-9_.-]+$ ]] || die "NAME: letters, digits, _ . - only"
git -C "$TOP" rev-parse -q --verify "$commit^{commit}" >/dev/null || die "no commit $commit"
[ -d "$TOP/build/rootfs/srv" ] || die "no build/rootfs/srv (run make board first)"
ab=$TOP/build/ab
src=$ab/src-$what app=$ab/app-$what

# git archive gives the sources the commit's time: an old build of another
# commit under the same NAME would look newer, so it goes too.
extract() {
	rm -rf "$src" "$app"
	mkdir -p "$src"
	git -C "$TOP" archive "$commit" app mk | tar -x -C "$src"
}
build() { nice -n 10 make -C "$src/app" O="$app" TARGET=arm; }
pack() {
	touch -d @0 "$app/init"
	"$TOP/scripts/board/initramfs-list.sh" board "$app/init" "$TOP/build/rootfs/srv" >"$ab/$what.list"
	"$TOP/scripts/board/initramfs.sh" "$ab/$what.list" "$ab/$what"
}

echo "ab-initrd: app/ of $(git -C "$TOP" rev-parse --short "$commit") as $what"
phase extract "ab-initrd-$what-extract" extract
phase build "ab-initrd-$what-build" build
phase pack "ab-initrd-$what-pack" pack
echo "ab-initrd: ${ab#"$TOP"/}/$what.uInitrd; init $(stat -c %s "$app/init") B, sha256 $(sha256sum <"$app/init" | cut -c1-16)"
