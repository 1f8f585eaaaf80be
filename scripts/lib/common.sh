# shellcheck shell=bash
# The one shell library of the scripts (tests use it too, through
# tests/lib/common.sh): one line per phase, full logs under build/logs/,
# and the tail of the log with its path when a phase fails.
#   die MESSAGE...          "error: MESSAGE" on stderr, exit 1 (DIE_PREFIX
#                           replaces "error", DIE_STATUS the status)
#   phase NAME LOG CMD...   run CMD with its output in build/logs/LOG.log
#   show_log FILE [N] [IN]  the last N lines (20) of FILE, each as IN"| "
#   free_port               a free 127.0.0.1 TCP port
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

# free_port: print a 127.0.0.1 TCP port nobody listens on now, from
# 20000-39999, or from FREE_PORTS=LOW-HIGH (runs sharing a machine each
# keep to their own range).
free_port() {
	local p lo=20000 n=20000
	if [ -n "${FREE_PORTS:-}" ]; then
		lo=${FREE_PORTS%-*} n=$((${FREE_PORTS#*-} - ${FREE_PORTS%-*} + 1))
	fi
	for _ in $(seq 50); do
		p=$((lo + RANDOM % n))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
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
