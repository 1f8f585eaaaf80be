#!/usr/bin/env bash
# scripts/board/deps.sh: silent and cheap when everything is installed; without
# root and with a package missing it stops and prints the exact apt-get line.
. "$(dirname "$0")/../lib/common.sh"

out=$("$TOP/scripts/board/deps.sh" 2>&1)
rc=$?
echo "$out"
check "all packages present: exit 0" test "$rc" -eq 0
check "all packages present: prints nothing" test -z "$out"

# A package that is surely not installed stands for a missing one.
missing=splice-free-board-no-such-package
if command -v setpriv >/dev/null; then
	out=$(EXTRA_PKGS=$missing setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TOP/scripts/board/deps.sh" 2>&1)
	rc=$?
	echo "$out"
	check "missing package, not root: stops with status 1" test "$rc" -eq 1
	check "missing package, not root: names the package" \
		grep -q "^Missing Debian packages: $missing\$" <<<"$out"
	check "missing package, not root: prints the exact apt-get line" \
		grep -q "^  apt-get update && apt-get install -y --no-install-recommends $missing\$" <<<"$out"
else
	not_ok "setpriv (util-linux) is needed to run deps.sh as another user"
fi
