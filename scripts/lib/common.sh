# shellcheck shell=bash
# The one shell library of the scripts (tests use it too, through
# tests/lib/common.sh): one line per phase, full logs under build/logs/,
# and the tail of the log with its path when a phase fails.
#   die MESSAGE...          "error: MESSAGE" on stderr, exit 1 (DIE_PREFIX
#                           replaces "error", DIE_STATUS the status)
#   phase NAME LOG CMD...   run CMD with its output in build/logs/LOG.log
#   show_log FILE [N] [IN]  the last N lines (20) of FILE, each as IN"| "
#   free_port               a free 127.0.0.1 TCP port (in FREE_PORTS=LOW-HIGH
#                           when set: helpers sharing a host get ranges)
#   port_in_use PORT        a TCP socket has PORT as its local port
#   testfile_sha NAME       sha256 of build/rootfs/srv/NAME
#   deb_src_ready PKG       apt knows Debian's source package PKG
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LOGS=$TOP/build/logs
mkdir -p "$LOGS"

die() {
	echo "${DIE_PREFIX:-error}: $*" >&2
	exit "${DIE_STATUS:-1}"
}

show_log() {
	tail -n "${2:-20}" "$1" | sed "s/^/${3:-  }| /"
}

# phase NAME LOGNAME COMMAND...: run COMMAND with its output in
# build/logs/LOGNAME.log, print one line before and one after.
phase() {
	local name=$1 log=$LOGS/$2.log start=$SECONDS
	shift 2
	printf '  %-10s %s\n' "$name" "${log#"$TOP"/}"
	if ! "$@" >"$log" 2>&1; then
		echo "error: $name failed; last lines of ${log#"$TOP"/}:" >&2
		show_log "$log" 30 >&2
		echo "error: full log: $log" >&2
		exit 1
	fi
	printf '  %-10s done in %ss\n' "$name" $((SECONDS - start))
}

# testfile_sha NAME: the sha256 of build/rootfs/srv/NAME, as
# build/rootfs/SHA256SUMS (written by scripts/board/testfiles.sh) gives it.
testfile_sha() {
	awk -v n="$1" '$2 == n { print $1 }' "$TOP/build/rootfs/SHA256SUMS"
}

# port_in_use PORT: some TCP socket (IPv4 or IPv6, any state: listening,
# connected, TIME_WAIT) has PORT as its local port (/proc/net/tcp{,6}).
port_in_use() {
	local f files=()
	for f in /proc/net/tcp /proc/net/tcp6; do
		[ -r "$f" ] && files+=("$f")
	done
	# Without /proc: at least a listener answers a connect.
	[ ${#files[@]} -gt 0 ] || { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; return; }
	awk -v h="$(printf ':%04X' "$1")" \
		'FNR > 1 && substr($2, length($2) - 4) == h { f = 1; exit } END { exit !f }' "${files[@]}"
}

# free_port: print a 127.0.0.1 TCP port no socket uses now, between
# FREE_PORTS's LOW and HIGH (default: 20000 up to the kernel's ephemeral
# range, ip_local_port_range), and claim it for a minute
# ($TMPDIR/free-port-claims/PORT): two boots started at once (ab.sh,
# minram.sh) would otherwise both see the same port free before either
# QEMU binds it, and one QEMU then fails; in a narrow range that happens.
# "Uses" includes the local end of a client's connection, even in
# TIME_WAIT: such a port accepts nothing, yet QEMU's hostfwd cannot bind
# it ("Could not set up host forwarding rule"; libslirp 4.7.0's
# tcpx_listen() sets SO_REUSEADDR, binds, then listen(s, 1), and the
# client's socket has no SO_REUSEADDR). A connect is no test either: a
# listener whose backlog of 1 is full refuses it. Staying below the
# ephemeral range keeps clients (curl, the tests' 64 clients) from taking
# the port between this check and QEMU's bind.
free_port() {
	local p lo=20000 hi=39999 claims=${TMPDIR:-/tmp}/free-port-claims t eph
	read -r eph _ 2>/dev/null </proc/sys/net/ipv4/ip_local_port_range &&
		[ "$eph" -gt $((lo + 1000)) ] && [ "$eph" -le "$hi" ] && hi=$((eph - 1))
	if [ -n "${FREE_PORTS:-}" ]; then
		[[ $FREE_PORTS =~ ^([0-9]+)-([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] ||
			{ echo "free_port: FREE_PORTS must be LOW-HIGH, not '$FREE_PORTS'" >&2; return 1; }
		lo=${BASH_REMATCH[1]} hi=${BASH_REMATCH[2]}
	fi
	mkdir -p "$claims" || return 1
	for _ in $(seq 50); do
		p=$((lo + RANDOM % (hi - lo + 1)))
		port_in_use "$p" && continue
		if t=$(stat -c %Y "$claims/$p" 2>/dev/null); then
			[ $(($(date +%s) - t)) -lt 60 ] && continue
			rmdir "$claims/$p" 2>/dev/null
		fi
		mkdir "$claims/$p" 2>/dev/null || continue
		echo "$p"
		return 0
	done
	return 1
}

# deb_src_ready PKG: make sure apt knows Debian's source package PKG. As
# root, add the deb-src entries for bookworm and bookworm-security in the
# board's own file (once) and run apt-get update; otherwise die with what
# to do. Used by every `apt-get source` of the board (U-Boot, the corpus).
deb_src_ready() {
	local srcfile=/etc/apt/sources.list.d/board-deb-src.sources
	[ -n "$(apt-cache showsrc "$1" 2>/dev/null | sed -n 's/^Version: //p')" ] && return 0
	[ "$(id -u)" -eq 0 ] ||
		die "apt has no source package $1: run as root, or add a deb-src entry for bookworm and bookworm-security and run apt-get update"
	if [ ! -f "$srcfile" ]; then
		cat >"$srcfile" <<'EOT'
# Added by the board's scripts (lib/common.sh, deb_src_ready): Debian source
# packages, for `apt-get source` of U-Boot and the audit's corpus.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
		echo "  deb-src    added $srcfile"
	fi
	phase apt-update "src-apt-update" apt-get update -o DPkg::Lock::Timeout=300
}
