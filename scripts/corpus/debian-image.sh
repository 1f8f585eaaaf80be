#!/usr/bin/env bash
# corpus/debian-image.sh [OUT]: a root filesystem folder (default
# build/debian-image/) of Debian 12 armel binary packages exactly as the
# archive has them: `apt-get download PKG:armel` (scripts/lib/debian-deb.sh,
# .debs cached in build/debian/), then `dpkg -x` of each into OUT. Never
# rebuilt, never changed; no maintainer script runs.
# Packages: PACKAGES below (the programs), and the closure of their
# Pre-Depends and Depends restricted to runtime libraries: a dependency is
# followed when its armel package is "Multi-Arch: same" (a library that must
# match the program's architecture: libc6, libgcc-s1, zlib1g, ...); the rest
# (init-system-helpers, media-types, lsb-base, ...) are scripts and data the
# programs do not load, and only the first of alternatives is taken.
# Writes OUT/PACKAGES (package version, one a line, sorted). OUT is made
# afresh when the list of .debs changes (OUT/.debs records it).
# Logs: build/logs/debian-image-*.log. Exit status 4 when apt cannot get a
# package (no armel architecture, no package lists, no mirror).
set -eu
# shellcheck source=scripts/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
# shellcheck source=scripts/lib/debian-deb.sh
. "$TOP/scripts/lib/debian-deb.sh"
DIE_PREFIX=debian-image
out=${1:-$TOP/build/debian-image}
PACKAGES="lighttpd nginx dropbear-bin busybox pv coreutils curl"

dpkg --print-foreign-architectures | grep -qx armel ||
	DIE_STATUS=4 die "armel is not a foreign architecture here (scripts/board/deps.sh: dpkg --add-architecture armel && apt-get update)"

# deps DEB: the package names of its Pre-Depends and Depends, the first of
# each set of alternatives, without versions or architecture qualifiers.
deps() {
	dpkg-deb -f "$1" Pre-Depends Depends | sed 's/^[A-Za-z-]*: //' | tr ',' '\n' |
		sed 's/|.*//; s/(.*)//; s/:any//; s/[[:space:]]//g' | grep -v '^$' || true
}

# closure LIST: download the programs and their library closure, breadth
# first (one apt-cache call per level); writes "PKG DEB" lines to LIST.
closure() {
	local list=$1 todo=$PACKAGES next p v m d deb
	declare -A seen=()
	for p in $todo; do seen[$p]=1; done
	: >"$list"
	while [ -n "$todo" ]; do
		next=
		# shellcheck disable=SC2086 # one word per package
		while read -r p v m; do
			deb=$(deb_get "$p" "$TOP/build/debian" "$v") || return 1
			echo "$p $deb" >>"$list"
			echo "$p $v: ${deb#"$TOP"/}"
			for d in $(deps "$deb"); do
				[ -n "${seen[$d]:-}" ] || { seen[$d]=1 && next="$next $d"; }
			done
		done < <(deb_info $todo)
		for p in $todo; do
			grep -q "^$p " "$list" || { echo "apt knows no $p:armel" && return 1; }
		done
		todo=
		# only libraries: Multi-Arch: same (a virtual package, which
		# apt-cache does not show, is not one)
		# shellcheck disable=SC2086 # one word per package
		[ -z "$next" ] || while read -r p v m; do
			if [ "$m" = same ]; then
				todo="$todo $p"
			else
				echo "  $p: not followed (Multi-Arch: $m, not a library)"
			fi
		done < <(deb_info $next)
	done
}

# unpack LIST: OUT afresh, each .deb of LIST unpacked into it.
unpack() {
	local p deb
	rm -rf "$out"
	mkdir -p "$out"
	while read -r p deb; do
		echo "dpkg -x ${deb#"$TOP"/}"
		dpkg -x "$deb" "$out"
		printf '%s %s\n' "$p" "$(dpkg-deb -f "$deb" Version)" >>"$out/PACKAGES.new"
	done <"$1"
	LC_ALL=C sort "$out/PACKAGES.new" >"$out/PACKAGES"
	rm "$out/PACKAGES.new"
	cp "$1" "$out/.debs"
	echo "$PACKAGES" >"$out/.programs"
}

list=$LOGS/debian-image.list
# An image made before, of the same programs, whose .debs are all still
# cached, is kept as it is
# (no apt call: seconds, not a minute) unless DEBIAN_IMAGE_UPDATE=1 asks apt
# for the candidates again.
if [ "${DEBIAN_IMAGE_UPDATE:-0}" != 1 ] && [ -s "$out/.debs" ] && [ -s "$out/PACKAGES" ] &&
	[ "$(cat "$out/.programs" 2>/dev/null)" = "$PACKAGES" ] &&
	awk '{ print $2 }' "$out/.debs" | xargs ls >/dev/null 2>&1; then
	echo "debian-image: ${out#"$TOP"/}: up to date, $(wc -l <"$out/PACKAGES") packages (DEBIAN_IMAGE_UPDATE=1 asks apt again)"
	exit 0
fi

# Every failure of closure is apt's: no such package or no mirror (exit 4).
log=$LOGS/debian-image-download.log
printf '  %-10s %s\n' download "${log#"$TOP"/}"
if ! closure "$list" >"$log" 2>&1; then
	show_log "$log" 5 >&2
	DIE_STATUS=4 die "apt cannot get Debian 12's armel packages (full log: $log)"
fi
echo "  download   $(wc -l <"$list") packages"
if cmp -s "$list" "$out/.debs" && [ -s "$out/PACKAGES" ]; then
	echo "  unpack     up to date: ${out#"$TOP"/}"
else
	phase unpack debian-image-unpack unpack "$list"
fi
echo "debian-image: ${out#"$TOP"/}: $(wc -l <"$out/PACKAGES") packages, $(du -sh "$out" | cut -f1)"
