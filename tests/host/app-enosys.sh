#!/usr/bin/env bash
# The read/write fallback on the host: sendfile made to answer ENOSYS by a
# seccomp filter (as on the tiny kernel), and a link-time test double that
# lets sendfile move part of a body and then fail with ENOSYS or EINVAL.
# Every byte must arrive exactly once (sha256).
# timeout: 300
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/app-host.sh"
echo 1..15
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build"; exit 1; }
app_make_root "$APP_ROOT"
big=$APP_ROOT/test.bin
want=$(filesha "$big")

# 1. seccomp: sendfile answers ENOSYS from the start.
app_start seccomp "$APP_TBIN/nosendfile" "$APP_BIN" -- || { not_ok "app: start under seccomp"; exit 1; }
check "app: seccomp: banner reports sendfile not available (ENOSYS)" \
	grep -q '^fileserver: sendfile: not available (probe: ENOSYS)' "$APP_LOG"
check "app: seccomp: test.bin sha256" [ "$(curl -sf --max-time 30 "$(url test.bin)" | sha)" = "$want" ]
check "app: seccomp: range sha256" [ "$(curl -sf --max-time 30 -r 777-300000 "$(url test.bin)" | sha)" = \
	"$(tail -c +778 "$big" | head -c 299224 | sha)" ]
check "app: seccomp: second fetch sha256" [ "$(curl -sf --max-time 30 "$(url test.bin)" | sha)" = "$want" ]
check "app: seccomp: exactly one ENOSYS fallback line" [ "$(log_count "ENOSYS.*read/write")" = 1 ]
check "app: seccomp: request lines say read/write" [ "$(log_count 'GET /test.bin 20[06] [0-9]+ read/write$')" = 3 ]
app_stop

# 2. test double: sendfile moves 300001 bytes (in 65536-byte calls) then ENOSYS.
WRAP_SENDFILE_BYTES=300001 WRAP_SENDFILE_ERRNO=ENOSYS \
	app_start wrap-enosys "$APP_TBIN/fileserver-wrap" -- || not_ok "app: start test double"
check "app: partial sendfile then ENOSYS: sha256" [ "$(curl -sf --max-time 30 "$(url test.bin)" | sha)" = "$want" ]
check "app: partial sendfile then ENOSYS: logged as sendfile+read/write" \
	grep -q "GET /test.bin 200 $(stat -c %s "$big") sendfile+read/write\$" "$APP_LOG"
check "app: partial sendfile then ENOSYS: next transfer read/write only" \
	[ "$(curl -sf --max-time 30 "$(url test.bin)" | sha)" = "$want" ]
check "app: partial sendfile then ENOSYS: one fallback line" [ "$(log_count "ENOSYS.*read/write")" = 1 ]
check "app: partial sendfile then ENOSYS: second request via read/write" \
	[ "$(log_count 'GET /test.bin 200 [0-9]+ read/write$')" = 1 ]
app_stop

# 3. test double: EINVAL after an odd number of bytes, range requests too.
WRAP_SENDFILE_BYTES=123457 WRAP_SENDFILE_ERRNO=EINVAL WRAP_SENDFILE_CHUNK=10007 \
	app_start wrap-einval "$APP_TBIN/fileserver-wrap" -- || not_ok "app: start test double"
check "app: partial sendfile then EINVAL: sha256" [ "$(curl -sf --max-time 30 "$(url test.bin)" | sha)" = "$want" ]
check "app: partial sendfile then EINVAL: range sha256" \
	[ "$(curl -sf --max-time 30 -r 100000-200000 "$(url test.bin)" | sha)" = "$(tail -c +100001 "$big" | head -c 100001 | sha)" ]
check "app: EINVAL is not remembered as ENOSYS" [ "$(log_count "ENOSYS")" = 0 ]
app_stop

# 4. test double under load: 16 clients at once, sendfile dies mid-way.
WRAP_SENDFILE_BYTES=1000000 WRAP_SENDFILE_ERRNO=ENOSYS WRAP_SENDFILE_CHUNK=4099 \
	app_start wrap-load "$APP_TBIN/fileserver-wrap" -- || not_ok "app: start test double"
# All 16 answered while all 16 are connected: their transfers interleave.
r=$(client concurrent /test.bin 16 "$want" --head-wait 20 --wait 120)
check "app: 16 clients at once while sendfile fails mid-way: all bytes exactly once ($r)" \
	[ "$r" = "started=16 complete=16" ]
