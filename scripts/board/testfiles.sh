#!/usr/bin/env bash
# board/testfiles.sh DIR: the files the board serves, made the same way every
# time so the host knows their sha256.
#   test.bin   2 MiB: 65536 records of 32 bytes, each naming its own offset,
#              so a lost, doubled or shifted byte range shows in a diff; it
#              compresses well, which keeps the initramfs small.
#   hello.txt  a short text file.
# Their sha256 go to DIR/../SHA256SUMS (outside the served folder).
set -eu
dir=${1:?usage: board/testfiles.sh DIR}
mkdir -p "$dir"
LC_ALL=C awk 'BEGIN {
	for (i = 0; i < 65536; i++)
		printf "%08x: test.bin record %05d\n", i * 32, i % 100000
}' >"$dir/test.bin.tmp"
mv "$dir/test.bin.tmp" "$dir/test.bin"
printf 'Hello from the tiny vexpress-a9 board: no splice, still serving.\n' >"$dir/hello.txt"
(cd "$dir" && sha256sum test.bin hello.txt) >"$dir/../SHA256SUMS"
