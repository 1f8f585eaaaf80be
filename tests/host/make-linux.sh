#!/usr/bin/env bash
# LINUX=6.12 (mk/linux-6.12.mk) without building anything: make -n shows
# that the 6.12 variants take the 6.12 tree, series and defconfig, that the
# 6.1 board is left as it is, and that a wrong LINUX or a 6.12 variant
# configured against the 6.1 tree stops with a message. check-series and
# measure-kernels take the 6.12 series and boards the same way, and so does
# the flash board (mk/flash.mk), and the block probe board. A cover
# letter is not applied, so editing it extracts nothing again.
set -u
. "$(dirname "$0")/../lib/common.sh"
cd "$TOP" || exit 1
echo 1..23
n() { make -n --no-print-directory "$@" 2>&1; }
out=$(n -W kernel/6.12/patches/series LINUX=6.12 build/kernel-tiny-6.12/.config)
check "tiny-6.12 is configured from the 6.12 tree and defconfig" \
	grep -q "KSRC=$TOP/build/linux-6.12 DEFCONFIG=$TOP/kernel/6.12/configs/vexpress_tiny_defconfig scripts/board/configure.sh tiny-6.12" <<<"$out"
check "the 6.12 tree is Debian's linux-source-6.12 with kernel/6.12/patches" \
	grep -q "KERNEL_TARBALL=/usr/src/linux-source-6.12.tar.xz PATCH_DIR=$TOP/kernel/6.12/patches" <<<"$out"
out=$(n LINUX=6.12 build/kernel-base-6.12/arch/arm/boot/zImage)
check "base-6.12 is built in the 6.12 tree" \
	grep -q "KSRC=$TOP/build/linux-6.12 .*scripts/board/build.sh base-6.12" <<<"$out"
out=$(n build/kernel-tiny/.config)
check "tiny (6.1) is configured as before, without the 6.12 tree" \
	bash -c '! grep -q "linux-6.12" <<<"$1" && grep -q "scripts/board/configure.sh tiny\$" <<<"$1"' _ "$out"
out=$(n LINUX=6.12 run-arm)
check "run-arm LINUX=6.12 boots images/tiny-6.12" grep -q "VARIANT=tiny-6.12 scripts/board/run-arm.sh" <<<"$out"
out=$(n LINUX=5.10 board)
check "LINUX=5.10 stops with the kernels it knows" grep -q "LINUX=5.10: use 6.1 (default) or 6.12" <<<"$out"
out=$(KSRC=$TOP/build/linux-6.1 scripts/board/configure.sh tiny-6.12 2>&1)
check "configure.sh tiny-6.12 against the 6.1 tree refuses" grep -q "tiny-6.12 needs KSRC=.../build/linux-6.12" <<<"$out"
out=$(n LINUX=6.12 check-series)
check "check-series LINUX=6.12 checks kernel/6.12's series on linux-source-6.12 in its own folder" \
	grep -q "PATCH_DIR=$TOP/kernel/6.12/patches KERNEL_TARBALL=/usr/src/linux-source-6.12.tar.xz .*TINY_DEFCONFIG=$TOP/kernel/6.12/configs/vexpress_tiny_defconfig CS_DIR=$TOP/build/check-series-6.12 .*scripts/series/check.sh" <<<"$out"
out=$(n check-series)
check "check-series (6.1) is unchanged" grep -qx " *$TOP/scripts/series/check.sh" <<<"$out"
out=$(n -W kernel/6.12/patches/series build/kernel-tiny-nodce-6.12/.config)
check "tiny-nodce-6.12 is a 6.12 board" \
	grep -q "KSRC=$TOP/build/linux-6.12 DEFCONFIG=$TOP/kernel/6.12/configs/vexpress_tiny_defconfig scripts/board/configure.sh tiny-nodce-6.12" <<<"$out"
ko=$(mktemp -d)
out=$(KSRC=$TOP/build/linux-6.12 KOUT=$ko scripts/board/configure.sh tiny-bogus-6.12 2>&1)
rm -rf "$ko"
check "configure.sh names the measure-kernels, flash, trimmed and XIP variants when it refuses one" grep -q "tiny-nodce-6.12, base-nodce-6.12, tiny-slub-6.12, tiny-flash-6.12, base-flash-6.12, trim-6.12, trim-flash-6.12, tiny-xip-6.12 or tiny-xip-17-6.12" <<<"$out"
# make's own database (-p), so that the answer does not depend on whether
# the trees were extracted already: the trees' prerequisites are the series
# and its patches, and never the cover letter, which is not applied.
db=$(make -pn --no-print-directory LINUX=6.12 help 2>/dev/null)
for t in 6.1 6.12; do
	deps=$(grep -E "^build/linux-$t/\.patched:" <<<"$db")
	check "the $t tree depends on its series' patches, not on the cover letter" \
		bash -c 'grep -q "0001-" <<<"$1" && ! grep -q "0000-cover-letter" <<<"$1"' _ "$deps"
done
# The 6.12 defconfig is made from both fragments, the 6.1 one from the
# shared fragment only, each into its own file.
out=$(n -W kernel/6.12/patches/series LINUX=6.12 defconfig-update)
check "defconfig-update LINUX=6.12 merges 6.12's fragment into kernel/6.12/configs" \
	grep -q "EXTRA_FRAGMENTS=$TOP/kernel/6.12/configs/vexpress_tiny.fragment.*defconfig-update.sh $TOP/kernel/6.12/configs/vexpress_tiny_defconfig" <<<"$(tr -d '\\\n' <<<"$out")"
out=$(n -W kernel/patches/series defconfig-update)
check "defconfig-update (6.1) writes kernel/configs' defconfig with no extra fragment" \
	bash -c 'grep -qx " *scripts/board/defconfig-update.sh" <<<"$1"' _ "$out"
check "the 6.12 defconfig has what 6.12's fragment asks for" \
	grep -qx CONFIG_LD_DEAD_CODE_DATA_ELIMINATION=y kernel/6.12/configs/vexpress_tiny_defconfig
# The flash board (mk/flash.mk): a 6.12 kernel with the flash fragment,
# remade when the fragment changes; its images come from the flash rule.
out=$(n -W kernel/configs/vexpress_flash.fragment build/kernel-tiny-flash-6.12/.config)
check "the flash fragment is a prerequisite of the flash board's 6.12 .config" \
	grep -q "KSRC=$TOP/build/linux-6.12 .*scripts/board/configure.sh tiny-flash-6.12" <<<"$out"
out=$(n -W build/kernel-tiny-flash-6.12/arch/arm/boot/zImage images/tiny-flash-6.12/MANIFEST)
check "the flash board's images are made by the flash rule (romfs image, no initramfs)" \
	bash -c 'grep -q "scripts/board/images.sh tiny-flash-6.12" <<<"$1" && ! grep -q "initramfs" <<<"$1"' _ "$out"
check "test-6.12 builds the flash board" \
	bash -c 'grep -E "^test-6\.12:" <<<"$1" | grep -q "images/tiny-flash-6.12/MANIFEST"' _ "$db"
# make test builds the 6.12 tiny board while the other tests run, then runs
# its tests (tests/e2e/*-6.12.sh); test-6.12 runs those and tests/linux-6.12,
# and CI only the latter again.
check "make test builds the 6.12 tiny board (in tests/run's background, its tests held back)" \
	bash -c 'grep -E "^TEST_612_BG :=" <<<"$1" | grep -q "images/tiny-6.12/MANIFEST" &&
		grep -qF "TEST_BG='"'"'\$(TEST_612_BG)'"'"' TEST_AFTER='"'"'e2e/*-6.12.sh'"'"' tests/run" "$2"' _ "$db" "$TOP/Makefile"
check "test-6.12 runs tests/e2e/*-6.12.sh and tests/linux-6.12, CI only the latter" \
	bash -c 'grep -qF "TEST_DIRS=\"e2e linux-6.12\" TESTS='"'"'\$(or \$(TESTS),*6.12*)'"'"'" <<<"$1" &&
		grep -qF "make test-6.12 TESTS='"'"'linux-6.12/*'"'"'" "$2"' _ "$db" "$TOP/.ci/run"
# The block probe board on 6.12 (tests/blk/build.sh): the tree and board
# it needs come first, and the variable reaches both scripts.
check "probe-blk LINUX=6.12 waits for the 6.12 tiny board" \
	bash -c 'grep -E "^probe-blk:" <<<"$1" | grep -q "images/tiny-6.12/MANIFEST"' _ "$db"
check "probe-blk and test-blk pass LINUX on as BLK_LINUX" \
	bash -c 'grep -qF "BLK_LINUX=\$(LINUX) \$(TOP)/tests/blk/build.sh" <<<"$1" &&
		grep -qF "BLK_BOARD=1 BLK_LINUX=\$(LINUX) TESTS=" <<<"$1"' _ "$db"
