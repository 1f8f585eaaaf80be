# shellcheck shell=bash
# Debian 12's binary packages for armel, exactly as the archive has them,
# cached in build/debian/ (or DIR). Nothing is rebuilt or changed: callers
# unpack them with `dpkg -x`. apt fails when armel is not in `dpkg
# --print-foreign-architectures` (scripts/board/deps.sh adds it), without
# package lists (apt-get update), or without a mirror.

# deb_info PKG...: "PKG VERSION MULTI-ARCH" for each armel candidate apt
# knows (one apt-cache call: each costs seconds, it reads the lists anew).
deb_info() {
	local p args=()
	for p in "$@"; do args+=("$p:armel"); done
	apt-cache show --no-all-versions "${args[@]}" 2>/dev/null | awk '
		/^Package: / { p = $2; v = ""; m = "no" }
		/^Version: / { v = $2 }
		/^Multi-Arch: / { m = $2 }
		/^$/ && p != "" { print p, v, m; p = "" }
		END { if (p != "") print p, v, m }'
}

# deb_get PKG [DIR [VERSION]]: download PKG:armel (`apt-get download`) into
# DIR (default build/debian/) unless VERSION (default: apt's candidate) is
# there already; prints the .deb's path. Status 1, apt's last lines on
# stderr, when apt cannot get it.
deb_get() {
	local pkg=$1 dir=${2:-$TOP/build/debian} ver=${3:-} f log
	mkdir -p "$dir"
	[ -n "$ver" ] || ver=$(deb_info "$pkg" | awk '{ print $2; exit }')
	if [ -z "$ver" ]; then
		echo "deb_get: apt knows no $pkg:armel (foreign architectures:" \
			"$(dpkg --print-foreign-architectures | tr '\n' ' ')); apt-get update?" >&2
		return 1
	fi
	f=$dir/${pkg}_${ver/:/%3a}_armel.deb # apt spells an epoch's colon %3a
	if [ ! -s "$f" ]; then
		log=$(cd "$dir" && apt-get download "$pkg:armel=$ver" 2>&1) || {
			echo "deb_get: apt-get download $pkg:armel=$ver failed:" >&2
			echo "$log" | tail -n 3 | sed 's/^/  | /' >&2
			return 1
		}
	fi
	[ -s "$f" ] || { echo "deb_get: $f missing after apt-get download" >&2; return 1; }
	echo "$f"
}
