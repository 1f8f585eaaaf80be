#!/usr/bin/env bash
# The board's index page, read by a real browser (headless Chromium, from
# Debian): on the tiny board, after one fetch of test.bin, the page says the
# kernel version, that sendfile answered ENOSYS, that read/write moved the
# last body, RAM total and free, requests served, and each file with its
# size; it is plain HTML with no script. A screenshot is kept in
# build/logs/tests/index-browser.png for a person to look at.
set -u
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/qemu.sh"
echo "1..9"
EXTRA_PKGS=chromium "$TOP/scripts/board/deps.sh" >/dev/null || { not_ok "index: chromium installed"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/index-browser.XXXXXX")
trap 'qemu_stop; rm -rf "$tmp"' EXIT
srv=$TOP/build/rootfs/srv

# browser ARGS...: headless Chromium as the environment notes say it runs
# here (no sandbox as root, no background networking), bounded.
browser() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/profile" "$@" 2>>"$tmp/chromium.err"
}

VARIANT=tiny RAM=32 qemu_start index-browser || { not_ok "index: board boots"; exit 1; }
qemu_wait_for '^fileserver: ready' 120 || { not_ok "index: board ready"; qemu_log_tail; exit 1; }
curl -sf --max-time 60 -o /dev/null "http://127.0.0.1:$PORT/test.bin" || not_ok "index: fetch test.bin first"
browser --dump-dom "http://127.0.0.1:$PORT/" >"$tmp/dom.html"
browser --screenshot="$TOP/build/logs/tests/index-browser.png" --window-size=900,700 \
	"http://127.0.0.1:$PORT/" >/dev/null
kver=$(awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
	$1 == "SUBLEVEL" { s = $2 } END { print v "." p "." s }' "$TOP/build/linux-6.1/Makefile")
td() { grep -o "<td id=\"$1\">[^<]*</td>" "$tmp/dom.html" | sed 's/<[^>]*>//g'; }

check "index: the browser rendered the page" grep -q '<h1>vexpress-a9 file server</h1>' "$tmp/dom.html"
check "index: kernel version ($(td kernel))" bash -c "[[ '$(td kernel)' == 'Linux $kver '* ]]"
check "index: sendfile answered ENOSYS ($(td sendfile))" [ "$(td sendfile)" = "not available (ENOSYS)" ]
check "index: read/write moved the last body ($(td last-via))" [ "$(td last-via)" = "read/write" ]
check "index: RAM total and free now ($(td ram))" \
	bash -c "[[ '$(td ram)' =~ ^([0-9]+)\ KiB\ total,\ ([0-9]+)\ KiB\ free$ ]] && (( BASH_REMATCH[2] > 0 && BASH_REMATCH[2] < BASH_REMATCH[1] ))"
check "index: requests served counts the fetch ($(td requests))" [ "$(td requests)" = 1 ]
check "index: test.bin listed with its size" \
	grep -q "<a href=\"/test.bin\">/test.bin</a> $(stat -c %s "$srv/test.bin") bytes" "$tmp/dom.html"
check "index: no script in the page" bash -c "! curl -sf --max-time 20 'http://127.0.0.1:$PORT/' | grep -qi '<script'"
check "index: screenshot taken (build/logs/tests/index-browser.png)" test -s "$TOP/build/logs/tests/index-browser.png"
qemu_send poweroff
qemu_wait_exit 60 >/dev/null
