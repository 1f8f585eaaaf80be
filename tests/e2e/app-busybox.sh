#!/usr/bin/env bash
# BusyBox wget as a client: the debug image (BusyBox shell as init, the
# server at /sbin/fileserver) on the base kernel; the server runs as an
# ordinary process (pid != 1) and BusyBox wget fetches over loopback.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
SRV=$TOP/build/rootfs/srv
export VARIANT=${VARIANT:-base}
INITRD=$TOP/images/$VARIANT/uInitrd-debug
export INITRD
if [ ! -f "$INITRD" ] || [ ! -f "$SRV/test.bin" ]; then
	not_ok "app-busybox: debug image and test files exist (run make board)"
	exit 1
fi
want=$(sha256sum <"$SRV/test.bin" | cut -d' ' -f1)
hello=$(sha256sum <"$SRV/hello.txt" | cut -d' ' -f1)
qemu_start app-busybox || { not_ok "app-busybox: boot"; exit 1; }
qemu_wait_for 'debug image' 90 || { not_ok "app-busybox: debug shell"; qemu_log_tail; exit 1; }
sleep 1
# No /dev/null in the debug image: an empty file as the server's stdin, so
# it does not read the shell's console input.
qemu_send ': >/tmp/empty; ifconfig lo 127.0.0.1 up; /sbin/fileserver -p 8081 </tmp/empty &'
check "app-busybox: server starts as a process" qemu_wait_for 'fileserver: ready' 30
check "app-busybox: banner says it is not init" grep -aq 'fileserver: starting as a process' "$QEMU_LOG"
qemu_send 'wget -q -O /tmp/t.bin http://127.0.0.1:8081/test.bin && sha256sum /tmp/t.bin; rm -f /tmp/t.bin'
check "app-busybox: BusyBox wget gets test.bin, sha256 matches" qemu_wait_for "^$want +/tmp/t.bin" 120
qemu_send 'wget -q -O - http://127.0.0.1:8081/hello.txt | sha256sum'
check "app-busybox: BusyBox wget gets hello.txt, sha256 matches" qemu_wait_for "^$hello +-" 60
qemu_send 'wget -q -O - http://127.0.0.1:8081/nothere'
check "app-busybox: BusyBox wget reports the 404" qemu_wait_for 'server returned error: HTTP/1.1 404' 60
check "app-busybox: requests logged with BusyBox as the client" \
	grep -Eq '^fileserver: 127\.0\.0\.1:[0-9]+ GET /test\.bin 200 2097152 ' "$QEMU_LOG"
qemu_send 'poweroff -f'
qemu_wait_exit 60
check "app-busybox: board powered off" [ $? = 0 ]
