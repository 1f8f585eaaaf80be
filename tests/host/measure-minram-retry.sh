#!/usr/bin/env bash
# The smallest-RAM search fails a size only for the board's reasons (issue
# 42, item 5), no boot: measure/failed-by.sh on synthetic consoles calls
# requests that the server timed out before they arrived the host's
# ("host"), and a panic, an OOM, a server that stops answering or clients
# missing without such timeouts the board's; measure/minram.sh, with a fake
# boot script, boots a size again after a host failure (and counts it as
# passing when the new boot serves), but not after a board failure.
. "$(dirname "$0")/../lib/common.sh"
fb=$TOP/scripts/measure/failed-by.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-minram-retry.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo 1..9

console() {
	printf '%s\r\n' "Booting Linux on physical CPU 0x0" "fileserver: ready on 0.0.0.0:80"
	printf '%s\r\n' "$@"
}
console "fileserver: 10.0.2.2:40001 closed: timeout" \
	"fileserver: 10.0.2.2:40002 GET /test.bin 200 2097152 read/write" >"$tmp/late"
console "fileserver: 10.0.2.2:40001 closed: timeout" "fileserver: 10.0.2.2:40003 closed: timeout (request incomplete)" \
	"Kernel panic - not syncing: Out of memory and no killable processes..." >"$tmp/panic"
console "fileserver invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0" \
	"fileserver: 10.0.2.2:40001 closed: timeout" >"$tmp/oom"
console "fileserver: 10.0.2.2:40002 GET /test.bin 200 1000 read/write aborted: timeout" >"$tmp/cut"

verdict() { "$fb" "$@" | cut -d' ' -f1; }
check "one client missing, one request timed out, server answers: host" \
	test "$(verdict "$tmp/late" 1 1)" = host
check "two clients missing, one request timeout: board" \
	test "$(verdict "$tmp/late" 2 1)" = board
check "a panic is the board's, request timeouts or not" \
	test "$(verdict "$tmp/panic" 1 1)" = board
check "an OOM report is the board's" \
	test "$(verdict "$tmp/oom" 1 1)" = board
check "a server that does not answer stats after the clients: board" \
	test "$(verdict "$tmp/late" 1 0)" = board
check "a response cut short by its send deadline is not a late request: board" \
	test "$(verdict "$tmp/cut" 1 1)" = board

# A fake boot.sh: per size, a list of results, one per boot in order
# (pass, host or board), kept in $tmp/plan/SIZE; every boot is logged.
mkdir -p "$tmp/plan"
cat >"$tmp/boot" <<'EOF'
#!/usr/bin/env bash
# fake measure/boot.sh VARIANT RAM NAME SERVES
k=${2%K}
exec 9>"$PLAN/lock"
flock 9
res=$(head -n 1 "$PLAN/$k" 2>/dev/null)
[ -n "$res" ] || res=pass
sed -i 1d "$PLAN/$k" 2>/dev/null
echo "$3 $res" >>"$PLAN/boots"
flock -u 9
case $res in
pass) echo served=1; exit 0 ;;
host) echo served=0; echo "reason=63 of 64 (1 request(s) late)"; echo failed_by=host; exit 1 ;;
*) echo served=0; echo "reason=kernel panic"; echo failed_by=board; exit 1 ;;
esac
EOF
chmod +x "$tmp/boot"
# LO 1, HI 3 MiB, whole MiB only: 3072 passes, 2048 decides.
# 2048: boot 1 late once then serves; boot 2 serves. -> passes, 1 retry.
printf 'host\npass\n' >"$tmp/plan/2048"
printf 'board\n' >"$tmp/plan/1024"
run() {
	PLAN=$tmp/plan MEASURE_BOOT=$tmp/boot MEASURE_LOGS=t "$TOP/scripts/measure/minram.sh" tiny 1 3 0 \
		>"$tmp/out" 2>"$tmp/err"
}
: >"$tmp/plan/boots"
run
check "a size whose boot was late once is booted again and passes" \
	grep -qx 'min_ram_k=2048' "$tmp/out"
check "the retry is named in min_ram_retried and its console kept apart" \
	bash -c 'grep -qx "min_ram_retried=2048:1" "$1/out" && grep -q "t-min-tiny-2048K-[12]-retry1 pass" "$1/plan/boots"' _ "$tmp"
# 2048 late in every boot of one side: still late after 2 retries -> fails;
# 1024 panics: not retried. The search ends at 3072.
: >"$tmp/plan/boots"
printf 'host\nhost\nhost\nhost\nhost\nhost\n' >"$tmp/plan/2048"
printf 'board\nboard\n' >"$tmp/plan/1024"
run
check "late in every retry: the size fails (3 boots a side), a panic is not retried" \
	bash -c 'grep -qx "min_ram_k=3072" "$1/out" && [ "$(grep -c " 2048K-1" "$1/plan/boots")" -le 3 ] &&
		[ "$(grep -c "2048K.*retry" "$1/plan/boots")" = 4 ] && ! grep -q "1024K.*retry" "$1/plan/boots"' _ "$tmp"
