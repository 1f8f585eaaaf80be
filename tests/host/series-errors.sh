#!/usr/bin/env bash
# scripts/series/errors.sh, which decides for make check-series' rand stage
# that a randconfig failing with =n fails the same way on the pristine
# tree: the same errors at other addresses and lines are the same failure;
# an error pristine does not have, or a log with no error line at all
# (only make's "*** Error"), is not.
. "$(dirname "$0")/../lib/common.sh"
echo 1..6
tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-errors.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
same() { "$TOP/scripts/series/errors.sh" "$tmp/old.log" /a "$tmp/new.log" /b >"$tmp/out"; }
differ() { ! same; }
make_err='make[4]: *** [/a/scripts/Makefile.vmlinux:34: vmlinux] Error 1'

cat >"$tmp/old.log" <<LOG
  LD      vmlinux
arm-linux-gnueabi-ld: section .data VMA [00808000,00b1ff27] overlaps section .text VMA [00080060,0112ed67]
/a/drivers/x/y.c:12:3: error: 'z' undeclared (first use in this function)
$make_err
LOG
cat >"$tmp/new.log" <<LOG
arm-linux-gnueabi-ld: section .data VMA [00808000,00b1df27] overlaps section .text VMA [00080060,0112cd67]
/b/drivers/x/y.c:14:3: error: 'z' undeclared (first use in this function)
${make_err//\/a\//\/b\/}
LOG
cp "$tmp/new.log" "$tmp/same.log"
check "the same overflow at other addresses, the same gcc error moved: the same failure (exit 0)" same
check "it says which errors pristine has too" grep -q "^also in pristine: arm-linux-gnueabi-ld: section .data VMA \[N,N\] overlaps" "$tmp/out"
echo 'arm-linux-gnueabi-ld: fs/read_write.o: in function `do_sendfile'"'"': read_write.c:(.text+0x5c): undefined reference to `splice_file_to_pipe'"'" >>"$tmp/new.log"
check "an undefined reference pristine does not have: not the same (exit 1)" differ
check "the new error is printed" grep -q "^new: .*undefined reference to .splice_file_to_pipe" "$tmp/out"
printf '%s\n' "  LD      vmlinux" "${make_err//\/a\//\/b\/}" >"$tmp/new.log"
check "only make's *** Error, no error line: not the same (exit 1)" differ
cp "$tmp/same.log" "$tmp/new.log"
echo 'ERROR: modpost: "splice_to_pipe" [fs/fuse/fuse.ko] undefined!' >>"$tmp/new.log"
check "a modpost ERROR pristine does not have: not the same (exit 1)" differ
