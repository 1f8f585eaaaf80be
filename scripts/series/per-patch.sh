#!/usr/bin/env bash
# per-patch.sh BISECT-DIR PATCH...: what each patch of the series does to
# the tiny ARM board's size, from the vmlinux files the bisect stage keeps
# (BISECT-DIR/K-y.vmlinux and K-n.vmlinux after patch K, 0 = pristine).
# One line per patch: the bloat-o-meter total with =y and with =n against
# the build before it. Before the option has a prompt, =n is =y, so a
# missing K-n is read as K-y. These are the figures each commit message
# quotes where size is the point. Exit 3 if the bisect builds are missing.
set -eu
# shellcheck source=scripts/series/lib.sh
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: per-patch.sh BISECT-DIR PATCH...}
shift
bt=$(cs_bloat_tree) || exit 2
[ -f "$dir/0-y.vmlinux" ] || { echo "no bisect builds in $dir (run CHECKS=bisect)"; exit 3; }

# build K V: the vmlinux after patch K with value V (=n falls back to =y).
build() {
	if [ -f "$dir/$1-$2.vmlinux" ]; then echo "$dir/$1-$2.vmlinux"; else echo "$dir/$1-y.vmlinux"; fi
}
delta() { # OLD NEW: the net bloat-o-meter total, or "-" if a build failed
	if [ ! -f "$1" ] || [ ! -f "$2" ]; then
		echo "-"
		return
	fi
	local out
	out=$(mktemp)
	cs_bloat "$bt" "$1" "$2" arm-linux-gnueabi- >"$out"
	cs_bloat_total "$out"
	rm -f "$out"
}

printf '%-3s %8s %8s  %s\n' "#" "=y" "=n" "patch (bytes against the build before it)"
k=0
for p in "$@"; do
	k=$((k + 1))
	printf '%-3s %8s %8s  %s\n' "$k" "$(delta "$(build $((k - 1)) y)" "$(build $k y)")" \
		"$(delta "$(build $((k - 1)) n)" "$(build $k n)")" "$(basename "$p" .patch)"
done
printf '%-3s %8s %8s  %s\n' "all" "$(delta "$(build 0 y)" "$(build $k y)")" \
	"$(delta "$(build 0 y)" "$(build $k n)")" "pristine -> the whole series"
