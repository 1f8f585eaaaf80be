#!/usr/bin/env bash
# corpus/peers.sh: boot each HTTP server of the corpus on both boards, beside this
# project's init, and record what each board did (make peers).
#   boards   images/tiny (splice family compiled out), images/base (built in)
#   servers  init: the board's own initramfs (images/VARIANT/uInitrd);
#            init-nofallback: the control, init built with no fallback;
#            each line of peers/servers.txt: an initramfs whose /init is
#            peers/peer-init.c (build/peers/peer-init) starting the server
#            from build/corpus/NAME/bin (scripts/corpus/build.sh)
# Per board and server: GET test.bin (2 MiB), GET hello.txt, and a range
# (bytes 1000-99999 of test.bin): HTTP status, bytes received, sha256 verdict
# against the host's copy, throughput of test.bin; free RAM from the
# console's "stats" at rest and after the fetches. One JSON object a line in
# build/peers/results.jsonl; scripts/corpus/peers-render.py makes the table.
# Everything on 127.0.0.1 (QEMU user networking forwards a free port).
# PEERS_BOARDS (default "tiny base") chooses the boards, PEERS_IMAGES (default
# images/) the folder holding them. PEERS_MULTIUSER=1 adds images/tiny-mu and
# images/base-mu (the same with CONFIG_MULTIUSER=y), where only init and
# PEERS_MU_SERVERS (default mini-httpd, which exits under MULTIUSER=n) run.
set -eu
# shellcheck source=scripts/lib/qemu-session.sh
. "$(dirname "$0")/../lib/qemu-session.sh"
DIE_PREFIX=peers
export TOP # as tests/lib.sh exported it when this script sourced it
out=$TOP/build/peers
images=${PEERS_IMAGES:-$TOP/images}
mkdir -p "$out"
srv=$TOP/build/rootfs/srv
results=$out/results.jsonl
: >"$results"
export QEMU_TIMEOUT=240

[ -x "$out/peer-init" ] || die "build/peers/peer-init missing (make peers)"
[ -r "$srv/test.bin" ] || die "build/rootfs/srv missing (make board)"
head -c 100000 "$srv/test.bin" | tail -c +1001 >"$out/range.want"
want_range=$(sha256sum <"$out/range.want" | cut -d' ' -f1)

# initramfs NAME PROGRAM ARGV...: build/peers/NAME.uInitrd
initramfs() {
	local name=$1 prog=$2 w
	shift 2
	w=$out/$name
	mkdir -p "$w"
	printf '%s\n' "$@" >"$w/peer-cmd"
	arm-linux-gnueabi-strip -o "$w/prog" "$prog"
	{
		cat <<EOT
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
nod /dev/null 0666 0 0 c 1 3
dir /bin 0755 0 0
dir /etc 0755 0 0
dir /tmp 1777 0 0
dir /srv 0755 0 0
file /etc/passwd $TOP/peers/passwd 0644 0 0
file /etc/group $TOP/peers/group 0644 0 0
file /init $out/peer-init 0755 0 0
file /peer-cmd $w/peer-cmd 0644 0 0
file $1 $w/prog 0755 0 0
EOT
		for f in "$srv"/*; do
			echo "file /srv/$(basename "$f") $f 0644 0 0"
		done
	} >"$w/list"
	"$TOP/scripts/board/initramfs.sh" "$w/list" "$w/initramfs"
}

# fetch KEY URL [CURL ARGS]: status, bytes, seconds and sha256 of one GET,
# as JSON members "KEY_status" ...
fetch() {
	local key=$1 url=$2 w
	shift 2
	w=$(curl -s --max-time 60 -o "$out/body" -w '%{http_code} %{size_download} %{time_total}' "$@" "$url") || true
	[ -n "$w" ] || w="000 0 0"
	[ -f "$out/body" ] || : >"$out/body"
	local st bytes secs
	read -r st bytes secs <<<"$w"
	printf '"%s_status": %s, "%s_bytes": %s, "%s_seconds": %s, "%s_sha": "%s"' \
		"$key" "$((10#$st))" "$key" "$bytes" "$key" "$secs" "$key" "$(sha256sum <"$out/body" | cut -d' ' -f1)"
	rm -f "$out/body"
}

# free_k: the last "N KiB free" the console printed after a "stats".
free_k() {
	local before
	before=$(grep -c 'KiB free' "$QEMU_LOG" || true)
	qemu_send stats
	for _ in $(seq 50); do
		[ "$(grep -c 'KiB free' "$QEMU_LOG" || true)" -gt "$before" ] && break
		sleep 0.2
	done
	grep -o '[0-9]* KiB free' "$QEMU_LOG" | tail -n 1 | cut -d' ' -f1
}

# one BOARD SERVER INITRD READY-REGEX
one() {
	local board=$1 name=$2 initrd=$3 ready=$4 started=false rest after body
	echo "peers: $board / $name"
	unset PORT
	KERNEL=$images/$board/uImage DTB=$images/$board/vexpress-tiny.dtb \
		VARIANT=$board INITRD=$initrd qemu_start "peers-$board-$name" >/dev/null || die "cannot boot $board"
	local url=http://127.0.0.1:$PORT
	if qemu_wait_for "$ready" 90; then
		for _ in $(seq 100); do
			curl -s -o /dev/null --max-time 3 "$url/" && { started=true; break; }
			grep -q 'server exited\|server killed' "$QEMU_LOG" && break
			kill -0 "$QEMU_PID" 2>/dev/null || break
			sleep 0.3
		done
	fi
	rest=$(free_k)
	if $started; then
		body="$(fetch big "$url/test.bin"), $(fetch small "$url/hello.txt"), $(fetch range "$url/test.bin" -r 1000-99999)"
	else
		body='"big_status": 0, "small_status": 0, "range_status": 0'
	fi
	after=$(free_k)
	local why
	why=$(grep -Eo 'server exited with status [0-9]+|server killed by signal [0-9]+' "$QEMU_LOG" | head -n 1 || true)
	local err
	err=$(grep -Ei 'not implemented|function not implemented|ENOSYS|setgroups|setgid|setuid' "$QEMU_LOG" | head -n 1 | tr -d '\r"' | sed 's/\\//g' || true)
	qemu_send poweroff
	qemu_wait_exit 30 >/dev/null || qemu_stop
	printf '{"board": "%s", "server": "%s", "started": %s, %s, "free_rest_k": %s, "free_after_k": %s, "exit": "%s", "console": "%s", "log": "%s"}\n' \
		"$board" "$name" "$started" "$body" "${rest:-null}" "${after:-null}" "$why" "$err" \
		"${QEMU_LOG#"$TOP"/}" >>"$results"
}

# init-nofallback, the control: this project's init with its ENOSYS branch
# (app/xfer.c sendfile_error()) ending the transfer instead of retrying on
# read/write, as a server without a fallback does. Built from a copy of
# app/ in build/peers/init-nofallback/; nothing in app/ changes.
nofallback() {
	local w=$out/init-nofallback
	rm -rf "$w/app"
	mkdir -p "$w"
	cp -a "$TOP/app" "$w/app"
	mkdir -p "$w/mk"
	cp -a "$TOP/mk/cross.mk" "$w/mk/"
	sed -i '/^\tcase ENOSYS:$/,/return STEP_RETRY;/ s/return STEP_RETRY;/return STEP_FAIL; \/* peers: no fallback *\//' \
		"$w/app/xfer.c"
	grep -q 'STEP_FAIL; /\* peers: no fallback' "$w/app/xfer.c" ||
		die "init-nofallback: app/xfer.c's ENOSYS case not found"
	make -s -C "$w/app" O="$w/arm" TARGET=arm >"$w/build.log" 2>&1 ||
		{ tail -n 20 "$w/build.log" >&2; die "init-nofallback: build failed"; }
	"$TOP/scripts/board/initramfs-list.sh" board "$w/arm/init" "$srv" >"$w/list"
	"$TOP/scripts/board/initramfs.sh" "$w/list" "$w/initramfs"
}
nofallback

names=()
while read -r name argv; do
	case $name in '#'* | '') continue ;; esac
	# shellcheck disable=SC2086 # the server's argv, one word each
	set -- $argv
	prog=$(ls "$TOP/build/corpus/$name/bin/"*)
	initramfs "$name" "$prog" "$@"
	names+=("$name")
done <"$TOP/peers/servers.txt"

boards=${PEERS_BOARDS:-tiny base}
[ "${PEERS_MULTIUSER:-0}" = 1 ] && boards="$boards tiny-mu base-mu"
for board in $boards; do
	[ -f "$images/$board/MANIFEST" ] || die "$images/$board missing (make board, or make peers PEERS_MULTIUSER=1)"
	only=
	case $board in *-mu) only=" ${PEERS_MU_SERVERS:-mini-httpd} " ;; esac
	one "$board" init "$images/$board/uInitrd" '^fileserver: ready'
	[ -n "$only" ] ||
		one "$board" init-nofallback "$out/init-nofallback/initramfs.uInitrd" '^fileserver: ready'
	for name in "${names[@]}"; do
		[ -z "$only" ] || [[ $only == *" $name "* ]] || continue
		one "$board" "$name" "$out/$name/initramfs.uInitrd" 'peer-init: started'
	done
done
sha_big=$(testfile_sha test.bin)
sha_small=$(testfile_sha hello.txt)
printf '{"want": {"big_sha": "%s", "small_sha": "%s", "range_sha": "%s", "big_bytes": %s, "range_bytes": %s}}\n' \
	"$sha_big" "$sha_small" "$want_range" "$(stat -c %s "$srv/test.bin")" "$(stat -c %s "$out/range.want")" >"$out/want.json"
echo "peers: $(wc -l <"$results") runs in ${results#"$TOP"/}"
