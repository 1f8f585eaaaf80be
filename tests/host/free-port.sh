#!/usr/bin/env bash
# free_port (scripts/lib/common.sh), which gives every QEMU its hostfwd
# port: it never gives a port some TCP socket holds, including a client's
# local port in TIME_WAIT, which accepts nothing yet makes QEMU's bind fail
# ("Could not set up host forwarding rule"); by default it stays below the
# kernel's ephemeral range, where clients take their ports.
. "$(dirname "$0")/../lib/common.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/free-port.XXXXXX")
trap 'rm -rf "$tmp"; kill "$lpid" 2>/dev/null' EXIT
echo 1..5

# A port free now, picked from a range of our own with its own claims.
pick() { TMPDIR=$tmp/$1 FREE_PORTS=45000-49999 free_port; }
# only P: free_port limited to port P, claims kept apart from pick's.
only() { TMPDIR=$tmp/only-$1 FREE_PORTS=$1-$1 free_port; }
refused() { ! only "$1" >/dev/null; }

read -r eph _ </proc/sys/net/ipv4/ip_local_port_range
# free_port's default top: 39999, or just below the ephemeral range.
top=39999
[ "$eph" -gt 21000 ] && [ "$eph" -le 39999 ] && top=$((eph - 1))
bad=0
for i in $(seq 100); do
	p=$(TMPDIR=$tmp/def free_port) || { bad=1; break; }
	[ "$p" -ge 20000 ] && [ "$p" -le "$top" ] || { bad=1; break; }
	[ $((i % 20)) = 0 ] && rm -rf "$tmp/def"
done
check "by default 100 ports, all in 20000-$top, below the ephemeral range ($eph)" [ "$bad" = 0 ]

p=$(pick a)
check "a port nobody holds is given ($p)" [ "$(only "$p")" = "$p" ]

# A client bound to port T connects to a listener and closes first: T is
# then in TIME_WAIT on the client's side, as curl's ports are after a fetch.
t=$(pick b)
python3 - "$t" <<'PY'
import socket, sys
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
c = socket.socket()
c.bind(("127.0.0.1", int(sys.argv[1])))
c.connect(srv.getsockname())
a, _ = srv.accept()
c.close()
a.recv(1)
a.close()
PY
check "a client's port in TIME_WAIT is the socket table's ($t)" port_in_use "$t"
check "a client's port in TIME_WAIT is not given" refused "$t"

l=$(pick c)
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1); time.sleep(30)' "$l" &
lpid=$!
for _ in $(seq 50); do port_in_use "$l" && break; sleep 0.1; done
check "a listening port is not given ($l)" refused "$l"
