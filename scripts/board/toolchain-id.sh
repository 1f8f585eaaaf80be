#!/usr/bin/env bash
# board/toolchain-id.sh FILE: write the cross toolchain's identity to FILE, but
# only when it changed (so make rebuilds what depends on FILE only then):
# the compiler's version line, the Debian packages behind it, and whether
# it can link user programs, dynamically and statically, the way the
# kernel's Kconfig probes it (CONFIG_CC_CAN_LINK, CONFIG_CC_CAN_LINK_STATIC).
# Installing libc6-dev-armel-cross flips those probes: every kernel config
# must then be made again, or two variants end up with different symbols.
set -eu
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/scripts/lib/kbuild.sh"
out=${1:?usage: board/toolchain-id.sh FILE}
cc=${CROSS_COMPILE}gcc
canlink=$KSRC/scripts/cc-can-link.sh

id() {
	echo "compiler: $("$cc" --version | head -n 1)"
	local p
	for p in gcc-arm-linux-gnueabi binutils-arm-linux-gnueabi libc6-dev-armel-cross; do
		echo "package $p: $(dpkg-query -W -f='${db:Status-Status} ${Version}' "$p" 2>/dev/null || echo unknown)"
	done
	if [ -f "$canlink" ]; then
		echo "can link: $(sh "$canlink" "$cc" >/dev/null 2>&1 && echo y || echo n)"
		echo "can link static: $(sh "$canlink" "$cc" -static >/dev/null 2>&1 && echo y || echo n)"
	fi
}

mkdir -p "$(dirname "$out")"
new=$(id)
if [ -f "$out" ] && [ "$(cat "$out")" = "$new" ]; then
	exit 0
fi
[ -f "$out" ] && echo "  toolchain  changed: every kernel variant is configured again"
printf '%s\n' "$new" >"$out"
