#!/usr/bin/env bash
# run-arm.sh: boot the board in QEMU with the serial console on this
# terminal. VARIANT=tiny|base, RAM= (MiB), PORT= (host port, 127.0.0.1),
# DEBUG_SHELL=1 for the BusyBox debug image.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/qemu-cmd.sh"

export VARIANT=${VARIANT:-tiny} RAM=${RAM:-32} PORT=${PORT:-8080}
off="type 'poweroff' + Enter on the console"
if [ "${DEBUG_SHELL:-0}" = 1 ]; then
	export INITRD=$top/images/$VARIANT/uInitrd-debug
	off="type 'poweroff -f' in the BusyBox shell"
fi
qemu_cmd

cat <<EOT
Booting the $VARIANT board: vexpress-a9, ${RAM} MiB, guest port 80 on 127.0.0.1:$PORT.
  From another terminal:  curl -o test.bin http://127.0.0.1:$PORT/test.bin
                          curl http://127.0.0.1:$PORT/        (file list)
  Quit QEMU: Ctrl-A then X.  Power the board off: $off.
  ${QEMU_ARGS[*]}

EOT
exec "${QEMU_ARGS[@]}"
