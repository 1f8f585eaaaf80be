#!/usr/bin/env bash
# corpus/trace.sh NAME OUTDIR: run a corpus program (scripts/corpus/build.sh)
# under `qemu-arm -strace` doing real work, and check that the work was done
# (bytes by sha256, status codes, exit status). Writes OUTDIR/NAME.strace,
# the raw strace of every run ("# ..." lines separate runs; a forked child
# logs into its parent's file). scripts/corpus/check.py maps it to names.
# Servers listen on 127.0.0.1 only, on a free port. Each run is bounded by a
# timeout; on failure the tail of its log is shown and the exit status is 1.
#   busybox     httpd (GET, range, HEAD, 404) and a set of applets
#   mini-httpd  started as root with -u nobody: drops privileges, serves
#   civetweb    serves (GET, range, 404)
#   pv          file -> pipe and pipe -> file (splice), bytes checked
#   lua5.4      a script: strings, tables, files, os.*
#   jimtcl      a script: strings, lists, files, clock, glob
set -eu
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
DIE_PREFIX=corpus-trace
export TOP # as tests/lib.sh exported it when this script sourced it

[ $# -eq 2 ] || die "usage: $0 NAME OUTDIR"
name=$1
mkdir -p "$2"
out=$(cd "$2" && pwd)
qemu=$(command -v qemu-arm) || die "qemu-arm not found (Debian package qemu-user)"
srv=$TOP/build/rootfs/srv
if [ ! -r "$srv/test.bin" ] || [ ! -r "$TOP/build/rootfs/SHA256SUMS" ]; then
	die "build/rootfs/srv missing (scripts/board/testfiles.sh build/rootfs/srv)"
fi
bin=$TOP/build/corpus/$name/bin
[ -d "$bin" ] || die "$bin missing (scripts/corpus/build.sh $name)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/corpus-trace.XXXXXX")
chmod 755 "$tmp"
srv_pid=
cleanup() {
	if [ -n "$srv_pid" ]; then kill "$srv_pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trace=$out/$name.strace
: >"$trace"

fail() {
	echo "corpus-trace: last lines of $1:" >&2
	show_log "$1" >&2
	die "$name: $2"
}

# run LABEL CMD...: one traced run of an ARM program to completion.
run() {
	local label=$1 rc=0
	shift
	timeout 60 "$qemu" -strace -D "$tmp/run.strace" "$@" >"$tmp/run.out" 2>&1 </dev/null || rc=$?
	[ "$rc" = 0 ] || fail "$tmp/run.out" "$label: exit status $rc"
	{
		echo "# $name: $label"
		cat "$tmp/run.strace"
	} >>"$trace"
}

# serve LABEL CMD...: start a traced server in the background on $port.
serve() {
	local label=$1
	shift
	echo "# $name: $label" >>"$trace"
	timeout 120 "$qemu" -strace -D "$tmp/srv.strace" "$@" >"$tmp/srv.out" 2>&1 </dev/null &
	srv_pid=$!
	for _ in $(seq 100); do
		curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$port/hello.txt" && return 0
		kill -0 "$srv_pid" 2>/dev/null || fail "$tmp/srv.out" "$label ended before serving"
		sleep 0.2
	done
	fail "$tmp/srv.out" "$label: no answer on 127.0.0.1:$port after 20 s"
}

stop() {
	kill -TERM "$srv_pid" 2>/dev/null || true
	for _ in $(seq 50); do
		kill -0 "$srv_pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$srv_pid" 2>/dev/null || true
	wait "$srv_pid" 2>/dev/null || true
	srv_pid=
	cat "$tmp/srv.strace" >>"$trace"
}

# requests: GET test.bin and hello.txt (sha256), a range, a 404.
requests() {
	local url=http://127.0.0.1:$port c=(curl -s --max-time 30) got want
	want=$(testfile_sha test.bin)
	got=$("${c[@]}" -f "$url/test.bin" | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || fail "$tmp/srv.out" "GET test.bin: sha256 $got, want $want"
	got=$("${c[@]}" -f "$url/hello.txt" | sha256sum | cut -d' ' -f1)
	[ "$got" = "$(testfile_sha hello.txt)" ] || fail "$tmp/srv.out" "GET hello.txt: wrong sha256"
	# A server may ignore Range (RFC 9110, 14.2): 206 with the bytes asked
	# for, or 200 with the whole file.
	got=$("${c[@]}" -f -r 1000-99999 -w ' %{http_code}' -o "$tmp/range" "$url/test.bin")
	got="$(wc -c <"$tmp/range")$got"
	case $got in "99000 206" | "2097152 200") ;;
	*) fail "$tmp/srv.out" "range 1000-99999 gave bytes and status '$got'" ;;
	esac
	got=$("${c[@]}" -o /dev/null -w '%{http_code}' "$url/no-such-file")
	[ "$got" = 404 ] || fail "$tmp/srv.out" "missing file gave $got, want 404"
}

trace_busybox() {
	local bb=$bin/busybox w=$tmp/work
	mkdir -p "$w/x"
	printf 'one\ntwo\nthree\nfour\nfive\n' >"$w/in.txt"
	port=$(free_port) || die "no free port"
	serve "httpd" "$bb" httpd -f -p "127.0.0.1:$port" -h "$srv"
	requests
	stop
	cd "$w"
	local a
	for a in 'cat in.txt' 'ls -l .' 'sha256sum in.txt' 'wc in.txt' 'sort in.txt' \
		'grep -n two in.txt' 'sed -e s/one/ONE/ in.txt' 'head -n 2 in.txt' \
		'tail -n 2 in.txt' 'date' 'sleep 0' 'mkdir -p a/b' 'cp in.txt a/b/c.txt' \
		'tar cf t.tar a in.txt' 'tar xf t.tar -C x' 'gzip in.txt' 'gunzip in.txt.gz' \
		'rm -r a t.tar'; do
		# shellcheck disable=SC2086 # an applet and its words
		run "$a" "$bb" $a
	done
	# shellcheck disable=SC2016 # for the guest's shell
	run "sh builtins" "$bb" sh -c 'x=1; echo $x; read y <in.txt; echo "$y"; test -f in.txt'
	cmp -s "$w/in.txt" <(printf 'one\ntwo\nthree\nfour\nfive\n') || die "busybox: gzip/gunzip changed in.txt"
	cd "$TOP"
}

trace_mini_httpd() {
	[ "$(id -u)" = 0 ] || die "mini-httpd drops privileges only when started as root"
	port=$(free_port) || die "no free port"
	serve "mini_httpd -u nobody" "$bin/mini_httpd" -D -h 127.0.0.1 -p "$port" \
		-d "$srv" -u nobody -l "$tmp/access.log"
	requests
	stop
	grep -q 'setuid\|setuid32' "$trace" || die "mini-httpd: no setuid in the trace (did it drop privileges?)"
}

trace_civetweb() {
	port=$(free_port) || die "no free port"
	serve "civetweb" "$bin/civetweb" -document_root "$srv" -listening_ports "127.0.0.1:$port" \
		-num_threads 2
	requests
	stop
}

trace_pv() {
	local want got
	want=$(testfile_sha test.bin)
	echo "# pv: file | pipe" >>"$trace"
	timeout 60 "$qemu" -strace -D "$tmp/pv1.strace" "$bin/pv" -q "$srv/test.bin" | cat >"$tmp/o1" ||
		die "pv file | pipe: exit status $?"
	cat "$tmp/pv1.strace" >>"$trace"
	got=$(sha256sum <"$tmp/o1" | cut -d' ' -f1)
	[ "$got" = "$want" ] || die "pv file | pipe: sha256 $got, want $want"
	echo "# pv: pipe | pv > file" >>"$trace"
	# shellcheck disable=SC2002 # pv must read a pipe: splice from it
	cat "$srv/test.bin" | timeout 60 "$qemu" -strace -D "$tmp/pv2.strace" "$bin/pv" -q >"$tmp/o2" ||
		die "pipe | pv > file: exit status $?"
	cat "$tmp/pv2.strace" >>"$trace"
	got=$(sha256sum <"$tmp/o2" | cut -d' ' -f1)
	[ "$got" = "$want" ] || die "pipe | pv > file: sha256 $got, want $want"
	grep -q ' splice(' "$trace" || die "pv: no splice in the trace"
}

trace_lua5_4() {
	cat >"$tmp/t.lua" <<'EOT'
local dir = arg[1]
local t = {}
for i = 1, 1000 do t[#t + 1] = string.format("%04d:%s", i, string.rep("x", i % 7)) end
table.sort(t, function(a, b) return a > b end)
local p = dir .. "/out.txt"
local f = assert(io.open(p, "w"))
f:write(table.concat(t, "\n"), "\n")
f:close()
local n = 0
for _ in io.lines(p) do n = n + 1 end
assert(n == 1000, "lines " .. n)
assert(os.rename(p, p .. ".2"))
assert(os.remove(p .. ".2"))
assert(os.time() > 0 and os.clock() >= 0 and os.date("%Y") ~= nil)
assert(os.getenv("HOME") ~= nil or true)
local tn = os.tmpname(); os.remove(tn)
print(("ok %d %s"):format(n, ("%x"):format(12345)))
EOT
	run "script" "$bin/lua" "$tmp/t.lua" "$tmp"
	grep -qx 'ok 1000 3039' "$tmp/run.out" || fail "$tmp/run.out" "lua: wrong output"
}

trace_jimtcl() {
	cat >"$tmp/t.tcl" <<'EOT'
set dir [lindex $argv 0]
set l {}
for {set i 0} {$i < 1000} {incr i} { lappend l [format "%04d:%s" $i [string repeat x [expr {$i % 7}]]] }
set l [lsort -decreasing $l]
set p [file join $dir out.txt]
set f [open $p w]; puts $f [join $l \n]; close $f
set f [open $p r]; set n [llength [split [string trim [read $f]] \n]]; close $f
file mkdir [file join $dir sub]
file rename $p [file join $dir sub out.txt]
set g [glob -directory [file join $dir sub] *.txt]
file delete [file join $dir sub out.txt]
after 10
regexp {([0-9]+):x} "0001:x" -> m
puts "ok $n [llength $g] [clock seconds] $m"
EOT
	run "script" "$bin/jimsh" "$tmp/t.tcl" "$tmp"
	grep -q '^ok 1000 1 [0-9]* 0001$' "$tmp/run.out" || fail "$tmp/run.out" "jimsh: wrong output"
}

case $name in
busybox | mini-httpd | civetweb | pv | lua5.4 | jimtcl) "trace_${name//[.-]/_}" ;;
*) die "no trace for '$name'" ;;
esac
[ -s "$trace" ] || die "$name: empty trace"
echo "corpus-trace: $name: $(grep -c '^[0-9]' "$trace") strace lines in ${trace#"$TOP"/}"
