#!/usr/bin/env bash
# The console's "ram on" / "ram off" (app/README.md, Console): one line
# "fileserver: ram T F" per free-RAM sample (T ms since "ram on", F KiB
# free) while it is on, the first at T = 0; nothing extra without it. The
# server is linked with the sysinfo test double, so the free RAM it samples
# is what this test writes to a file: the lines must carry those values, and
# their lowest is the `stats` line's "lowest" (what measure-ram's table
# reports and its chart draws).
# timeout: 120
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/app-host.sh"
echo 1..10
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: ram log: build"; exit 1; }
app_make_root "$APP_ROOT"
want=$(filesha "$APP_ROOT/test.bin")
ramfile=$APP_TMP/free_k
echo 26564 >"$ramfile"
export WRAP_SYSINFO_FILE=$ramfile WRAP_SYSINFO_TOTAL_K=30280
mkfifo "$APP_TMP/console"
exec 6<>"$APP_TMP/console" # read-write: opening does not block

# wait_lines ERE N: wait (10 s at most) until N log lines match ERE.
wait_lines() {
	local t=0
	while [ "$(log_count "$1")" -lt "$2" ]; do
		[ $t -ge 100 ] && return 1
		sleep 0.1
		t=$((t + 1))
	done
}

# serve: a slow reader of test.bin (2 MiB at 4 MiB/s: the server's loop
# runs, and samples, for about half a second), lowering the free RAM to
# 20000 KiB while it reads, then raising it back; then a stats line.
# Prints the reader's result.
serve() {
	local r stats
	stats=$(log_count '^fileserver: stats: ')
	client slowread /test.bin 4194304 --wait 30 --mark "$APP_TMP/started" >"$APP_TMP/reader" &
	for _ in $(seq 100); do [ -e "$APP_TMP/started" ] && break; sleep 0.05; done
	echo 20000 >"$ramfile"
	sleep 0.2
	echo 26564 >"$ramfile"
	wait $!
	rm -f "$APP_TMP/started"
	r=$(cat "$APP_TMP/reader")
	echo stats >&6
	wait_lines '^fileserver: stats: ' $((stats + 1)) || echo "no stats line"
	echo "$r"
}

APP_STDIN=$APP_TMP/console app_start ramlog "$APP_TBIN/fileserver-wrap-sysinfo" -- -t 30 ||
	{ not_ok "app: ram log: server starts"; exit 1; }

# Without "ram on": the same serving prints no ram line, and every line
# after ready is a request's or the stats line.
r=$(serve)
check "app: ram log off: the slow reader gets test.bin ($r)" [ "$(kv sha256 "$r")" = "$want" ]
check "app: ram log off: no ram line" [ "$(log_count '^fileserver: ram ')" = 0 ]
extra=$(sed '1,/^fileserver: ready/d' "$APP_LOG" | grep -Evc '^fileserver: (127\.0\.0\.1:[0-9]+ GET |stats: )')
check "app: ram log off: nothing but the request and stats lines after ready ($extra others)" [ "$extra" = 0 ]

# "ram on": a sample at once, at time 0, then one per sample while it serves.
echo "ram on" >&6
wait_lines '^fileserver: ram ' 1
check "app: ram on: the first line is 'ram 0 26564' at once" \
	[ "$(grep -m1 '^fileserver: ram ' "$APP_LOG")" = "fileserver: ram 0 26564" ]
r=$(serve)
echo "ram off" >&6
wait_lines '^fileserver: ram ' 3
grep '^fileserver: ram ' "$APP_LOG" | sed 's/^/# /' | head -n 40
lines=$(grep -c '^fileserver: ram ' "$APP_LOG")
check "app: ram on: the slow reader gets test.bin ($r)" [ "$(kv sha256 "$r")" = "$want" ]
check "app: ram on: every ram line is 'ram T F', T never going back ($lines lines)" awk '
	/^fileserver: ram / { n++; if (NF != 4 || $3 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/ || $3 + 0 < t) bad = 1; t = $3 }
	END { exit bad || n < 3 }' "$APP_LOG"
check "app: ram on: the samples carry the free RAM lowered while the reader read (20000 KiB)" \
	grep -qx 'fileserver: ram [0-9]* 20000' "$APP_LOG"
low=$(grep '^fileserver: stats: ' "$APP_LOG" | tail -n 1 | sed -n 's/.*lowest \([0-9]*\) KiB free$/\1/p')
min=$(awk '/^fileserver: ram / && (m == "" || $4 < m) { m = $4 } END { print m }' "$APP_LOG")
check "app: ram on: the lowest sample is the stats line's lowest ($min, $low)" [ -n "$min" -a "$min" = "$low" ]

# "ram off": a last sample, then nothing more.
wait_lines '^fileserver: ram ' "$lines"
r=$(serve)
check "app: ram off: no ram line while it serves again ($r)" \
	[ "$(grep -c '^fileserver: ram ' "$APP_LOG")" = "$lines" -a "$(kv sha256 "$r")" = "$want" ]
echo poweroff >&6
app_wait_exit 10
exec 6>&-
check "app: ram log: poweroff ends with status 0 ($APP_RC)" [ "$APP_RC" = 0 ]
