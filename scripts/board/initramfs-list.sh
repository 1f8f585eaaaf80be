#!/usr/bin/env bash
# board/initramfs-list.sh board|debug INIT SRVDIR: print the gen_init_cpio list
# of the board's initramfs.
#   board  /init is the file server; /srv holds what it serves.
#   debug  /init is BusyBox init starting a shell on the console; the
#          server is at /sbin/fileserver to run by hand.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
kind=${1:?usage: board/initramfs-list.sh board|debug INIT SRVDIR}
init=${2:?usage}
srv=${3:?usage}

cat <<EOT
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /srv 0755 0 0
EOT
for f in "$srv"/*; do
	echo "file /srv/$(basename "$f") $f 0644 0 0"
done
case $kind in
board)
	echo "file /init $init 0755 0 0"
	;;
debug)
	cat <<EOT
nod /dev/null 0666 0 0 c 1 3
dir /bin 0755 0 0
dir /sbin 0755 0 0
dir /etc 0755 0 0
dir /proc 0755 0 0
dir /tmp 1777 0 0
file /bin/busybox $top/build/busybox/bin/busybox 0755 0 0
slink /init /bin/busybox 0777 0 0
slink /bin/sh busybox 0777 0 0
file /etc/inittab $top/scripts/board/debug-inittab 0644 0 0
file /sbin/fileserver $init 0755 0 0
EOT
	;;
*)
	echo "unknown initramfs kind '$kind'" >&2
	exit 1
	;;
esac
