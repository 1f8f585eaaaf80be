#!/usr/bin/env bash
# board/flash-image.sh OUT INIT SRVDIR: the flash board's NOR flash image:
# a romfs (genromfs) holding /init and /srv (the files the board serves).
# QEMU's -drive if=pflash wants the bank's exact size, the 64 MiB of
# vexpress-a9's first flash, so the file is extended to it (sparse: the
# zeros after the romfs take no disk space and nothing reads them). A real
# board gets only the romfs written: its first `romfs` bytes, printed.
set -eu
. "$(dirname "$0")/../lib/common.sh"
out=${1:?usage: board/flash-image.sh OUT INIT SRVDIR}
init=${2:?usage: board/flash-image.sh OUT INIT SRVDIR}
srv=${3:?usage: board/flash-image.sh OUT INIT SRVDIR}
bank=$((64 * 1024 * 1024))
stage=$out.d
rm -rf "$stage" "$out.tmp"
mkdir -p "$stage/srv"
install -m 0755 "$init" "$stage/init"
install -m 0644 "$srv"/* "$stage/srv/"
genromfs -f "$out.tmp" -d "$stage" -V board
rm -rf "$stage"
size=$(stat -c %s "$out.tmp")
[ "$size" -le "$bank" ] || die "romfs is $size B, the flash bank $bank B"
truncate -s "$bank" "$out.tmp"
mv "$out.tmp" "$out"
echo "  flash      ${out#"$TOP"/}: romfs $size B in a $bank B bank"
