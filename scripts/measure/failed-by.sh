#!/usr/bin/env bash
# measure/failed-by.sh LOG MISSING ANSWERED
#
# Whose failure a boot was, when MISSING (> 0) of its concurrent clients
# did not get test.bin whole: prints "board" or "host" and a reason.
#
#   board  the board's own reasons: a kernel panic or an OOM report on the
#          console (LOG), the server not answering `stats` after the
#          clients (ANSWERED is not 1), or clients missing that no
#          request timeout explains (cut short, wrong bytes, curl's own
#          limit)
#   host   every missing client is a connection the server closed because
#          its request had not arrived within srv_timeout ("fileserver:
#          <peer> closed: timeout", app/conn.c, conn_close()), and the
#          board is otherwise well: under emulation on a loaded host a
#          request can reach the guest late (issue 42, item 5). Such a
#          boot says nothing about the board's RAM; measure/minram.sh boots
#          the size again.
#
# Exit status 0 (the verdict is on stdout), 2 usage.
set -u
[ $# -eq 3 ] || { echo "usage: $0 LOG MISSING ANSWERED" >&2; exit 2; }
log=$1 missing=$2 answered=$3
[[ $missing =~ ^[0-9]+$ ]] || { echo "measure-failed-by: bad MISSING '$missing'" >&2; exit 2; }

if grep -q 'Kernel panic' "$log" 2>/dev/null; then
	echo "board kernel panic"
elif grep -Eq 'invoked oom-killer|Out of memory' "$log" 2>/dev/null; then
	echo "board out of memory"
elif [ "$answered" != 1 ]; then
	echo "board the server stopped answering"
else
	late=$(tr -d '\r' <"$log" 2>/dev/null | grep -c '^fileserver: .* closed: timeout')
	if [ "$missing" -gt 0 ] && [ "$late" -ge "$missing" ]; then
		echo "host $missing request(s) late: $late closed: timeout"
	else
		echo "board $missing client(s) missing, $late request timeout(s)"
	fi
fi
