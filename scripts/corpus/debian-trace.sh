#!/usr/bin/env bash
# corpus/debian-trace.sh IMAGE OUTDIR: Debian's own armel programs
# (scripts/corpus/debian-image.sh), run from IMAGE exactly as downloaded under
# `qemu-arm -L IMAGE -strace` doing real work, each run bounded by a timeout,
# network on 127.0.0.1 only. Writes per program OUTDIR/PROG.strace (the raw
# log, "# ..." lines separate runs) and OUTDIR/PROG.trace.names (the syscall
# names seen, one a line, spelled as in arch/arm/tools/syscall.tbl, as
# `syscalls.py --names` prints them). The work is checked (bytes by sha256,
# HTTP status, exit status); on failure the tail of the run's log is shown
# and the exit status is 1.
#   lighttpd     serves a 2 MiB file (GET, range, 404) and a CGI whose body
#                is 100 KiB with a Content-Length, which lighttpd may move
#                with splice (mod_cgi, dlopened; the CGI is a host sh
#                script: without binfmt_misc an ARM one cannot be executed)
#   curl         Debian's curl:armel fetches the file from that lighttpd
#   nginx        master and worker (drops to nobody), sendfile on: serves
#                the file (GET, range, 404), stops on SIGQUIT
#   busybox      sh -c with a pipe, redirections and applets (each applet
#                the shell runs is BusyBox again under qemu-arm, traced)
#   pv           file -> pipe and pipe -> file
#   cat, cp, dd  coreutils copying the file (cp tries copy_file_range)
#   sha256sum    coreutils summing it
#   dropbearkey  generates an ed25519 key and prints its public half
# qemu-arm -strace does not log ARM private calls (0xf0000 + n: cacheflush,
# set_tls), which the names therefore never hold (docs/audit.md).
set -eu
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
DIE_PREFIX=debian-trace
export TOP

[ $# -eq 2 ] || die "usage: $0 IMAGE OUTDIR"
img=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
qemu=$(command -v qemu-arm) || die "qemu-arm not found (Debian package qemu-user)"
ktree=$TOP/build/linux-6.1
[ -r "$ktree/arch/arm/tools/syscall.tbl" ] || die "$ktree/arch/arm/tools/syscall.tbl missing (make extract)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/debian-trace.XXXXXX")
chmod 755 "$tmp"
srv_pid=
cleanup() {
	if [ -n "$srv_pid" ]; then kill "$srv_pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
q=("$qemu" -L "$img")

fail() {
	echo "debian-trace: last lines of $1:" >&2
	show_log "$1" >&2
	die "$2"
}

# names PROG: OUTDIR/PROG.strace -> OUTDIR/PROG.trace.names (the parser of
# scripts/corpus/check.py, which scripts/audit/trace.sh's awk matches).
names() {
	PYTHONPATH=$TOP/scripts/corpus python3 -c '
import sys
from check import table, trace_names
byname, bynr = table(sys.argv[1])
with open(sys.argv[3], "w") as f:
    f.writelines(n + "\n" for n in sorted(trace_names(sys.argv[2], byname, bynr)))
' "$ktree" "$out/$1.strace" "$out/$1.trace.names"
	[ -s "$out/$1.trace.names" ] || die "$1: no syscalls in $out/$1.strace"
	echo "debian-trace: $1: $(wc -l <"$out/$1.trace.names") syscalls"
}

# run PROG LABEL CMD...: one traced run to completion (60 s at most),
# stdin /dev/null, stdout to $tmp/run.out; appended to PROG.strace.
run() {
	local prog=$1 label=$2 rc=0
	shift 2
	timeout 60 "${q[@]}" -strace -D "$tmp/run.strace" "$@" </dev/null >"$tmp/run.out" \
		2>"$tmp/run.err" || rc=$?
	[ "$rc" = 0 ] || fail "$tmp/run.err" "$prog: $label: exit status $rc"
	{
		echo "# $prog: $label"
		cat "$tmp/run.strace"
	} >>"$out/$prog.strace"
}

# sha FILE: its sha256
sha() { sha256sum <"$1" | cut -d' ' -f1; }

# The input: 2 MiB, fixed bytes (sha256 known to this script's run).
head -c 2097152 /dev/urandom >"$tmp/test.bin"
want=$(sha "$tmp/test.bin")

trace_lighttpd() {
	local www=$tmp/www port url rc
	mkdir -p "$www"
	cp "$tmp/test.bin" "$www/test.bin"
	# A CGI whose body, 100 KiB, is larger than the 32 KiB from which
	# lighttpd moves a CGI's response with splice (issue 39).
	head -c 102400 "$tmp/test.bin" >"$tmp/cgi.body"
	printf '#!/bin/sh\nprintf "Content-Type: application/octet-stream\\r\\nContent-Length: 102400\\r\\n\\r\\n"\nexec cat %s\n' \
		"$tmp/cgi.body" >"$www/big.cgi"
	chmod 755 "$www/big.cgi"
	port=$(free_port) || die "no free port"
	url=http://127.0.0.1:$port
	cat >"$tmp/lighttpd.conf" <<EOT
server.document-root = "$www"
server.bind = "127.0.0.1"
server.port = $port
server.errorlog = "$tmp/lighttpd-error.log"
server.modules = ( "mod_cgi" )
cgi.assign = ( ".cgi" => "" )
mimetype.assign = ( ".bin" => "application/octet-stream" )
EOT
	echo "# lighttpd: serves test.bin, a range, a 404, big.cgi; curl:armel fetches test.bin" \
		>>"$out/lighttpd.strace"
	timeout 120 "${q[@]}" -strace -D "$tmp/srv.strace" "$img/usr/sbin/lighttpd" -D \
		-f "$tmp/lighttpd.conf" >"$tmp/srv.out" 2>&1 </dev/null &
	srv_pid=$!
	for _ in $(seq 100); do
		curl -s -o /dev/null --max-time 2 "$url/" && break
		kill -0 "$srv_pid" 2>/dev/null || fail "$tmp/srv.out" "lighttpd ended before serving"
		sleep 0.2
	done
	local c=(curl -s --max-time 30) got
	got=$("${c[@]}" -f "$url/test.bin" | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || fail "$tmp/srv.out" "lighttpd: GET test.bin: sha256 $got, want $want"
	got=$("${c[@]}" -f -r 1000-99999 -w ' %{http_code}' -o "$tmp/range" "$url/test.bin")
	got="$(wc -c <"$tmp/range")$got"
	[ "$got" = "99000 206" ] || fail "$tmp/srv.out" "lighttpd: range 1000-99999: '$got', want '99000 206'"
	got=$("${c[@]}" -o /dev/null -w '%{http_code}' "$url/no-such-file")
	[ "$got" = 404 ] || fail "$tmp/srv.out" "lighttpd: missing file: $got, want 404"
	got=$("${c[@]}" -f "$url/big.cgi" | sha256sum | cut -d' ' -f1)
	[ "$got" = "$(sha "$tmp/cgi.body")" ] ||
		fail "$tmp/lighttpd-error.log" "lighttpd: big.cgi: sha256 $got, want the CGI's 100 KiB"
	# Debian's curl, the client under trace now.
	run curl "GET test.bin from lighttpd" "$img/usr/bin/curl" -sSf --max-time 30 \
		-o "$tmp/curl.out" "$url/test.bin"
	[ "$(sha "$tmp/curl.out")" = "$want" ] || die "curl:armel: GET test.bin: wrong sha256"
	kill -TERM "$srv_pid" 2>/dev/null || true
	rc=0
	wait "$srv_pid" || rc=$?
	srv_pid=
	[ "$rc" = 0 ] || fail "$tmp/srv.out" "lighttpd: exit status $rc after SIGTERM, want 0"
	cat "$tmp/srv.strace" >>"$out/lighttpd.strace"
	# Said, not judged: lighttpd splices a CGI's body only when more than
	# 32 KiB of it (within the announced Content-Length) wait in the pipe
	# at one read, which depends on timing.
	echo "debian-trace: lighttpd: splice calls (the CGI's body, pipe to temporary file): $(grep -c ' splice(' "$tmp/srv.strace" || true)"
}

# nginx as Debian starts it (master and one worker, which drops to
# nobody), sendfile on; every path it would write is under $tmp/nginx
# (-p, -e, the temp paths): under -L a path missing from the image is the
# host's.
trace_nginx() {
	local ng=$tmp/nginx www=$tmp/www port url rc got
	mkdir -p "$ng"
	chmod 755 "$ng"
	chmod 644 "$www/test.bin"
	port=$(free_port) || die "no free port"
	url=http://127.0.0.1:$port
	cat >"$ng/nginx.conf" <<EOT
daemon off;
worker_processes 1;
pid $ng/nginx.pid;
error_log $ng/error.log;
events { worker_connections 64; }
http {
	access_log $ng/access.log;
	sendfile on;
	client_body_temp_path $ng/body;
	proxy_temp_path $ng/proxy;
	fastcgi_temp_path $ng/fastcgi;
	uwsgi_temp_path $ng/uwsgi;
	scgi_temp_path $ng/scgi;
	types { application/octet-stream bin; }
	server { listen 127.0.0.1:$port; root $www; }
}
EOT
	echo "# nginx: serves test.bin, a range, a 404" >>"$out/nginx.strace"
	timeout 120 "${q[@]}" -strace -D "$tmp/ng.strace" "$img/usr/sbin/nginx" -p "$ng" \
		-e "$ng/error.log" -c "$ng/nginx.conf" >"$tmp/ng.out" 2>&1 </dev/null &
	srv_pid=$!
	for _ in $(seq 100); do
		curl -s -o /dev/null --max-time 2 "$url/" && break
		kill -0 "$srv_pid" 2>/dev/null || fail "$ng/error.log" "nginx ended before serving"
		sleep 0.2
	done
	local c=(curl -s --max-time 30)
	got=$("${c[@]}" -f "$url/test.bin" | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || fail "$ng/error.log" "nginx: GET test.bin: sha256 $got, want $want"
	got=$("${c[@]}" -f -r 1000-99999 -w ' %{http_code}' -o "$tmp/range" "$url/test.bin")
	got="$(wc -c <"$tmp/range")$got"
	[ "$got" = "99000 206" ] || fail "$ng/error.log" "nginx: range 1000-99999: '$got', want '99000 206'"
	got=$("${c[@]}" -o /dev/null -w '%{http_code}' "$url/no-such-file")
	[ "$got" = 404 ] || fail "$ng/error.log" "nginx: missing file: $got, want 404"
	kill -QUIT "$srv_pid" 2>/dev/null || true # graceful shutdown
	rc=0
	wait "$srv_pid" || rc=$?
	srv_pid=
	[ "$rc" = 0 ] || fail "$ng/error.log" "nginx: exit status $rc after SIGQUIT, want 0"
	cat "$tmp/ng.strace" >>"$out/nginx.strace"
}

# The shell runs applets by exec; without binfmt_misc an ARM file cannot be
# executed, so the guest's PATH is a folder of host scripts, one per applet,
# that run BusyBox under qemu-arm again; QEMU_STRACE=1 makes those trace
# into their own logs (%d: pid).
trace_busybox() {
	local bb=$img/bin/busybox wrap=$tmp/bin w=$tmp/bb a rc=0 f
	mkdir -p "$wrap" "$w" "$tmp/bblog"
	# shellcheck disable=SC2016 # $0 and $@ are for the wrapper
	printf '#!/bin/sh\nexec %s -L %s %s "${0##*/}" "$@"\n' "$qemu" "$img" "$bb" >"$wrap/busybox"
	chmod +x "$wrap/busybox"
	for a in cat sort wc cp sha256sum ls mkdir rm tee; do ln -s busybox "$wrap/$a"; done
	# shellcheck disable=SC2016 # for the guest's shell
	(cd "$w" && timeout 120 env PATH="$wrap" QEMU_STRACE=1 QEMU_LOG_FILENAME="$tmp/bblog/sh.%d" \
		"${q[@]}" "$bb" sh -c 'set -e
mkdir -p d
i=0; while [ $i -lt 5 ]; do echo "line $((5 - i))"; i=$((i + 1)); done >d/in
sort d/in | tee d/sorted | wc -l >d/n
read n <d/n; [ "$n" = 5 ]
cp d/sorted d/copy
cat d/copy d/in >d/both
sha256sum d/both
ls -l d >/dev/null
rm -r d') >"$tmp/bb.out" 2>&1 || rc=$?
	[ "$rc" = 0 ] || fail "$tmp/bb.out" "busybox sh: exit status $rc"
	local both
	both=$(printf 'line %s\n' 1 2 3 4 5 5 4 3 2 1 | sha256sum | cut -d' ' -f1)
	grep -q "^$both  d/both\$" "$tmp/bb.out" || fail "$tmp/bb.out" "busybox sh: wrong sha256sum of d/both"
	for f in "$tmp/bblog"/sh.*; do
		[ -e "$f" ] || die "busybox: no strace log"
		echo "# busybox sh [pid ${f##*.}]"
		cat "$f"
	done >"$out/busybox.strace"
}

trace_pv() {
	run pv "file | pipe" "$img/usr/bin/pv" -q "$tmp/test.bin"
	[ "$(sha "$tmp/run.out")" = "$want" ] || die "pv file | pipe: wrong sha256"
	# pv reads a pipe (a process substitution is one)
	echo "# pv: pipe | pv > file" >>"$out/pv.strace"
	timeout 60 "${q[@]}" -strace -D "$tmp/pv2.strace" "$img/usr/bin/pv" -q \
		< <(cat "$tmp/test.bin") >"$tmp/pv2.out" 2>"$tmp/pv2.err" || fail "$tmp/pv2.err" "pv pipe | file: failed"
	cat "$tmp/pv2.strace" >>"$out/pv.strace"
	[ "$(sha "$tmp/pv2.out")" = "$want" ] || die "pv pipe | file: wrong sha256"
}

trace_cat() {
	run cat "file > stdout" "$img/bin/cat" "$tmp/test.bin"
	[ "$(sha "$tmp/run.out")" = "$want" ] || die "cat: wrong sha256"
}

trace_cp() {
	rm -f "$tmp/cp.out"
	run cp "file -> file" "$img/bin/cp" "$tmp/test.bin" "$tmp/cp.out"
	[ "$(sha "$tmp/cp.out")" = "$want" ] || die "cp: wrong sha256"
}

trace_sha256sum() {
	run sha256sum "a file" "$img/usr/bin/sha256sum" "$tmp/test.bin"
	[ "$(cut -d' ' -f1 "$tmp/run.out")" = "$want" ] || die "sha256sum: wrong sum"
}

trace_dd() {
	rm -f "$tmp/dd.out"
	run dd "file -> file, bs=64k" "$img/bin/dd" if="$tmp/test.bin" of="$tmp/dd.out" bs=64k
	[ "$(sha "$tmp/dd.out")" = "$want" ] || die "dd: wrong sha256"
}

trace_dropbearkey() {
	rm -f "$tmp/key"
	run dropbearkey "generate ed25519" "$img/usr/bin/dropbearkey" -t ed25519 -f "$tmp/key"
	[ -s "$tmp/key" ] || die "dropbearkey: no key written"
	run dropbearkey "print the public key" "$img/usr/bin/dropbearkey" -y -f "$tmp/key"
	grep -q '^ssh-ed25519 AAAA' "$tmp/run.out" || fail "$tmp/run.out" "dropbearkey -y: no ssh-ed25519 line"
}

PROGRAMS="lighttpd nginx curl busybox pv cat cp dd sha256sum dropbearkey"
for p in $PROGRAMS; do : >"$out/$p.strace"; done
for t in lighttpd nginx busybox pv cat cp dd sha256sum dropbearkey; do "trace_$t"; done
for p in $PROGRAMS; do names "$p"; done
