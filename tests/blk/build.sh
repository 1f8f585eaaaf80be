#!/usr/bin/env bash
# tests/blk/build.sh: the block probe board, for tests/e2e/splice-blk.sh.
#   build/kernel-blk-n, build/kernel-blk-y   the tiny kernel + blk.fragment
#                                    (MULTIUSER=y too: the peers' -mu boards),
#                                    CONFIG_SYSCALL_SPLICE=n and =y (zImage)
#   build/kernel-blk-n-6.12, -y-6.12 the same on Linux 6.12 with its series
#                                    and defconfig (BLK_LINUX=6.12; make
#                                    test-blk LINUX=6.12)
#   build/blk/vexpress-tiny-sd.dtb   the board's dtb with the SD controller
#                                    (mmci@5000) switched back on
#   build/blk/blk.cpio.gz            initramfs: blkprobe as /init, /dev nodes
#   build/blk/sd.img                 a 16 MiB ext2 image for QEMU's SD slot
# BLK_VARIANTS="n" (or "y") builds one kernel only (default: "n y").
# Needs the pipeline's patched tree and images/tiny (make board) and
# build/probe/arm/blkprobe (make probe-arm) and
# build/probe/selftests-arm/splice_family (make selftests-arm). Kernel
# builds are niced and incremental, like the board's.
set -eu
. "$(dirname "$0")/../../scripts/lib/common.sh"
case ${BLK_LINUX:-6.1} in
6.1) sfx='' defconfig=$TOP/kernel/configs/vexpress_tiny_defconfig ;;
6.12) sfx=-6.12 defconfig=$TOP/kernel/6.12/configs/vexpress_tiny_defconfig ;;
*) die "BLK_LINUX=$BLK_LINUX: 6.1 or 6.12" ;;
esac
export KSRC=$TOP/build/linux${sfx:--6.1} DEFCONFIG=$defconfig
. "$TOP/scripts/lib/kbuild.sh"

out=$TOP/build/blk
mkdir -p "$out"
frag=$TOP/tests/blk/blk.fragment
MMCI=/bus@40000000/motherboard-bus@40000000/iofpga@7,00000000/mmci@5000

[ -f "$KSRC/.patched" ] || die "no patched kernel tree in $KSRC: run 'make board${sfx:+ LINUX=6.12}'"
for v in ${BLK_VARIANTS:-n y}; do
	k=$TOP/build/kernel-blk-$v$sfx
	variant=tiny$sfx
	[ "$v" = y ] && variant=base$sfx
	# configure only when the inputs changed (keeps the build incremental)
	stamp=$k/.blk-config-inputs
	inputs=$(cat "$defconfig" "$frag" "$KSRC/.patched" 2>/dev/null | sha256sum)
	if [ ! -f "$k/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$inputs" ]; then
		KOUT=$k CONFIG_FRAGMENTS=$frag "$TOP/scripts/board/configure.sh" "$variant"
		echo "$inputs" >"$stamp"
	fi
	phase "blk-$v$sfx" "build-blk-$v$sfx" nice -n 19 "${KMAKE[@]}" O="$k" zImage
done

dtb=$out/vexpress-tiny-sd.dtb
board=$TOP/images/tiny$sfx
[ -f "$board/vexpress-tiny.dtb" ] || die "${board#"$TOP"/} missing: run 'make board${sfx:+ LINUX=6.12}'"
cp "$board/vexpress-tiny.dtb" "$dtb.tmp"
fdtput -t s "$dtb.tmp" "$MMCI" status okay
mv "$dtb.tmp" "$dtb"

probe=$TOP/build/probe/arm/blkprobe
[ -f "$probe" ] || die "$probe missing: run 'make probe-arm'"
selftest=$TOP/build/probe/selftests-arm/splice_family
[ -f "$selftest" ] || die "$selftest missing: run 'make selftests-arm'"
cat >"$out/blk.list" <<EOT
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
nod /dev/null 0666 0 0 c 1 3
nod /dev/mmcblk0 0600 0 0 b 179 0
dir /proc 0555 0 0
file /init $probe 0755 0 0
file /splice_family $selftest 0755 0 0
EOT
"$TOP/scripts/board/initramfs.sh" "$out/blk.list" "$out/blk"

if [ ! -f "$out/sd.img" ]; then
	rm -f "$out/sd.img.tmp"
	truncate -s 16M "$out/sd.img.tmp"
	mke2fs -q -F -t ext2 -b 1024 "$out/sd.img.tmp"
	mv "$out/sd.img.tmp" "$out/sd.img"
fi
echo "block probe board: $out"
