#!/usr/bin/env bash
# The cross toolchain's identity (scripts/board/toolchain-id.sh): rewritten only
# when it changes, and every kernel .config depends on it, so a toolchain
# change (a new compiler, libc6-dev-armel-cross installed) configures every
# variant again instead of leaving two variants with different probes.
set -u
. "$(dirname "$0")/../lib/common.sh"
echo "1..6"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/toolchain-id.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
id=$tmp/toolchain.id

"$TOP/scripts/board/toolchain-id.sh" "$id" >/dev/null
check "toolchain-id: names the compiler and its link probes" \
	bash -c "grep -q '^compiler: arm-linux-gnueabi-gcc' '$id' && grep -q '^can link: [yn]\$' '$id'"
touch -d '2001-01-01' "$id"
"$TOP/scripts/board/toolchain-id.sh" "$id" >"$tmp/out2"
check "toolchain-id: unchanged toolchain, file left alone (mtime kept)" \
	[ "$(stat -c %Y "$id")" = "$(date -d 2001-01-01 +%s)" ]

# A different compiler on PATH (same name, another version line).
mkdir -p "$tmp/bin"
real=$(command -v arm-linux-gnueabi-gcc)
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "arm-linux-gnueabi-gcc (Other) 99.0"; exit 0; }\nexec %s "$@"\n' "$real" \
	>"$tmp/bin/arm-linux-gnueabi-gcc"
chmod +x "$tmp/bin/arm-linux-gnueabi-gcc"
PATH=$tmp/bin:$PATH "$TOP/scripts/board/toolchain-id.sh" "$id" >"$tmp/out3"
check "toolchain-id: another compiler rewrites the file and says so" \
	bash -c "grep -q '(Other) 99.0' '$id' && grep -q 'configured again' '$tmp/out3'"

# The Makefile: a newer identity makes every variant's .config stale.
check "Makefile: every kernel .config depends on build/toolchain.id" \
	bash -c "make -C '$TOP' -pn build/kernel-tiny/.config 2>/dev/null | grep -q '^build/kernel-%/.config:.*build/toolchain.id'"
check "Makefile: every make board checks the toolchain's identity (make -n)" \
	bash -c "make -C '$TOP' -n board 2>/dev/null | grep -q 'scripts/board/toolchain-id.sh build/toolchain.id'"
if [ -f "$TOP/build/kernel-tiny/.config" ] && [ -f "$TOP/build/toolchain.id" ]; then
	check "Makefile: a changed toolchain id reconfigures (make -n)" \
		bash -c "make -C '$TOP' -n -W build/toolchain.id build/kernel-tiny/.config 2>/dev/null | grep -q 'board/configure.sh tiny'"
else
	ok "Makefile: a changed toolchain id reconfigures (make -n) # skip no configured kernel yet"
fi
