#!/usr/bin/env bash
# tests/run's background command (TEST_BG, TEST_AFTER), on scripts of a
# scratch folder: the held-back scripts run last, after the command has
# finished; it runs at nice 19 in the runner's session (a session of its
# own would be an autogroup of its own, where nice counts for nothing);
# when it fails, the held-back scripts count as failed and are not run;
# it is not started when no selected script waits for it, and it is
# stopped when the runner is.
. "$(dirname "$0")/../lib/common.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/runner.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo 1..9

mkdir -p "$tmp/t/x" "$tmp/logs"
# x/a.sh, x/b-late.sh, x/c.sh: each appends its name to $tmp/order;
# b-late passes only if the background command's marker is there.
for n in a c; do
	printf '#!/bin/sh\necho %s >>"%s/order"\necho "ok - %s"\n' "$n" "$tmp" "$n" >"$tmp/t/x/$n.sh"
done
printf '#!/bin/sh\necho b >>"%s/order"\nif [ -e "%s/bg-done" ]; then echo "ok - b"; else echo "not ok - b"; fi\n' \
	"$tmp" "$tmp" >"$tmp/t/x/b-late.sh"
chmod +x "$tmp"/t/x/*.sh

# runner TEST_BG [TESTS]: run tests/run on the scratch folder; its output
# in $tmp/out, its exit status in $tmp/rc.
runner() {
	rm -f "$tmp/order" "$tmp/bg-done"
	TEST_ROOT=$tmp/t TEST_LOGS=$tmp/logs TEST_DIRS=x TESTS=${2:-*/*} \
		TEST_BG=$1 TEST_AFTER='x/b-*' "$TOP/tests/run" >"$tmp/out" 2>&1
	echo $? >"$tmp/rc"
}

my_sid=$(ps -o sid= -p $$ | tr -d ' ')
runner "sleep 1; ps -o ni=,sid= -p \$\$ >$tmp/bg-ps; touch $tmp/bg-done"
check "the held-back script runs last, after the command finished" \
	test "$(tr -d '\n' <"$tmp/order")" = acb
check "every case passes and the runner exits 0" \
	bash -c "grep -qx '3 passed, 0 failed, 0 skipped' '$tmp/out' && [ \$(cat '$tmp/rc') = 0 ]"
read -r ni sid <"$tmp/bg-ps"
check "the command runs at nice 19 (got ${ni:-?})" test "${ni:-}" = 19
check "the command runs in the runner's session (got ${sid:-?}, want $my_sid)" test "${sid:-}" = "$my_sid"

runner "echo the build broke; exit 3"
check "a failed command: the held-back script is not run" \
	bash -c "! grep -qx b '$tmp/order' && grep -qx a '$tmp/order'"
check "a failed command: it counts as failed, its log's tail is shown, exit non-zero" \
	bash -c "grep -q 'not ok - x/b-late.sh not run' '$tmp/out' &&
		grep -q '| the build broke' '$tmp/out' &&
		grep -qx '2 passed, 1 failed, 0 skipped' '$tmp/out' && [ \$(cat '$tmp/rc') != 0 ]"

runner "touch $tmp/bg-done" 'x/[ac].sh'
check "no held-back script selected: the command is not started" \
	bash -c "[ ! -e '$tmp/bg-done' ] && grep -qx '2 passed, 0 failed, 0 skipped' '$tmp/out'"

# Stopped: a slow script, TERM to the runner once the command is up (the
# runner handles it when that script ends).
printf '#!/bin/sh\nsleep 3\necho "ok - a"\n' >"$tmp/t/x/a.sh"
rm -f "$tmp/bg-pid"
TEST_ROOT=$tmp/t TEST_LOGS=$tmp/logs TEST_DIRS=x TESTS="*/*" TEST_AFTER='x/b-*' \
	TEST_BG="echo \$\$ >$tmp/bg-pid; sleep 300; touch $tmp/bg-done" "$TOP/tests/run" >"$tmp/out" 2>&1 &
rpid=$!
for _ in $(seq 50); do [ -s "$tmp/bg-pid" ] && break; sleep 0.2; done
kill -TERM "$rpid"
wait "$rpid"
rc=$?
bgp=$(cat "$tmp/bg-pid" 2>/dev/null)
sleep 0.5
check "the runner stopped by TERM exits 143 (got $rc)" test "$rc" = 143
# Live members of process group $1 (a zombie is dead: where PID 1 does
# not reap, the orphans of a stopped group stay as zombies).
alive_in_group() { ps -eo pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/' | grep -q .; }
stopped() { [ -n "$bgp" ] && ! kill -0 "$bgp" 2>/dev/null && ! alive_in_group "$bgp"; }
check "the command is stopped with the runner" stopped
