#!/usr/bin/env bash
# initramfs-list.sh PROBE SELFTEST-DIR: print the gen_init_cpio list of the
# probe's test initramfs: /init is the probe, /selftests holds the kernel's
# splice selftest programs, /dev has the two nodes the probe needs (no
# devtmpfs on the tiny board).
set -eu
probe=${1:?usage: initramfs-list.sh PROBE SELFTEST-DIR}
st=${2:?usage: initramfs-list.sh PROBE SELFTEST-DIR}
for f in "$probe" "$st/default_file_splice_read" "$st/splice_read" "$st/splice_family"; do
	[ -f "$f" ] || { echo "initramfs-list.sh: missing $f" >&2; exit 1; }
done
cat <<EOT
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
nod /dev/null 0666 0 0 c 1 3
dir /selftests 0755 0 0
file /selftests/default_file_splice_read $st/default_file_splice_read 0755 0 0
file /selftests/splice_read $st/splice_read 0755 0 0
file /selftests/splice_family $st/splice_family 0755 0 0
file /init $probe 0755 0 0
EOT
