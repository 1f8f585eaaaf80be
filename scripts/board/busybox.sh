#!/usr/bin/env bash
# board/busybox.sh: put an ARM BusyBox at build/busybox/bin/busybox.
# busybox-static:armel is downloaded with apt-get download and unpacked
# with dpkg -x into the build folder. It is never installed: installing it
# would replace the host's /bin/busybox with an ARM binary.
set -eu
. "$(dirname "$0")/../lib/common.sh"
dest=$TOP/build/busybox
dl=$TOP/build/downloads
log=$LOGS/busybox.log
mkdir -p "$dl"

download() {
	(cd "$dl" && rm -f busybox-static_*_armel.deb &&
		apt-get download busybox-static:armel) >>"$log" 2>&1
}

echo "  busybox    build/logs/busybox.log"
: >"$log"
if ! download; then
	# The armel package lists may be missing or stale: refresh them once.
	if [ "$(id -u)" -eq 0 ] && apt-get update >>"$log" 2>&1 && download; then
		:
	else
		tail -n 10 "$log" | sed 's/^/  | /' >&2
		die "cannot download busybox-static:armel (is the armel architecture added? 'dpkg --add-architecture armel && apt-get update' as root)"
	fi
fi
rm -rf "$dest.new"
dpkg -x "$dl"/busybox-static_*_armel.deb "$dest.new"
[ -x "$dest.new/bin/busybox" ] || die "busybox-static:armel has no bin/busybox"
rm -rf "$dest"
mv "$dest.new" "$dest"
# The package keeps its own old mtimes; mark the fetch time for make.
touch "$dest/bin/busybox"
echo "  busybox    $(basename "$dl"/busybox-static_*_armel.deb)"
