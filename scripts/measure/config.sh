#!/usr/bin/env bash
# measure/config.sh TINY_CONFIG BASE_CONFIG
#
# The guard of measure-ram: the two kernels may differ in CONFIG_SYSCALL_SPLICE
# only (tiny: not set, base: =y). Comments and blank lines are ignored; a
# "# CONFIG_X is not set" line counts as CONFIG_X=n. Prints key=value lines:
#
#   series_applied=true    the configs differ in CONFIG_SYSCALL_SPLICE only
#   series_applied=false   they are identical (the splice series is not in
#                          the tree: there is nothing to compare)
#   config_sha256_tiny=... config_sha256_base=...
#
# Exit status 1, with every differing symbol on stderr, when anything else
# differs or the splice symbol goes the wrong way; 2 on usage errors.
set -u
[ $# -eq 2 ] || { echo "usage: $0 TINY_CONFIG BASE_CONFIG" >&2; exit 2; }
for f in "$1" "$2"; do
	[ -f "$f" ] || { echo "measure-config: missing $f (run make board)" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-config.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$(dirname "$0")/config-normalize.sh" "$1" >"$tmp/tiny"
"$(dirname "$0")/config-normalize.sh" "$2" >"$tmp/base"
[ -s "$tmp/tiny" ] || { echo "measure-config: no CONFIG_ lines in $1" >&2; exit 2; }
[ -s "$tmp/base" ] || { echo "measure-config: no CONFIG_ lines in $2" >&2; exit 2; }

# Every symbol whose value differs, or that only one side has:
# "SYMBOL tiny-value base-value" ("-" when absent).
awk '{ i = index($0, "="); k = substr($0, 1, i - 1); v = substr($0, i + 1) }
	FNR == NR { t[k] = v; next }
	{ b[k] = v }
	END {
		for (k in t) if (!(k in b) || b[k] != t[k]) print k, t[k], (k in b) ? b[k] : "-"
		for (k in b) if (!(k in t)) print k, "-", b[k]
	}' "$tmp/tiny" "$tmp/base" | LC_ALL=C sort >"$tmp/diff"

splice=$(awk '$1 == "CONFIG_SYSCALL_SPLICE"' "$tmp/diff")
others=$(awk '$1 != "CONFIG_SYSCALL_SPLICE"' "$tmp/diff")

# Symbols Kconfig fills in from probing the toolchain, not from choices.
toolchain_syms='^CONFIG_(CC_CAN_LINK|CC_CAN_LINK_STATIC|CC_VERSION_TEXT|GCC_VERSION|AS_VERSION|LD_VERSION|CC_HAS_[A-Z0-9_]*|AS_HAS_[A-Z0-9_]*|LD_CAN_[A-Z0-9_]*) '
if [ -n "$others" ]; then
	echo "measure-config: the two configs differ in more than CONFIG_SYSCALL_SPLICE;" >&2
	echo "measure-config: refusing to compare them (symbol, tiny, base; - = absent):" >&2
	echo "$others" | sed 's/^/  /' >&2
	if ! echo "$others" | grep -Evq "$toolchain_syms"; then
		echo "measure-config: only toolchain probes differ: the cross toolchain changed between" >&2
		echo "measure-config: the two configurations (e.g. libc6-dev-armel-cross installed)." >&2
		echo "measure-config: run 'make board': it configures every variant again when the" >&2
		echo "measure-config: toolchain changes (build/toolchain.id), then measure again." >&2
	fi
	exit 1
fi
if [ -n "$splice" ] && [ "$splice" != "CONFIG_SYSCALL_SPLICE n y" ]; then
	echo "measure-config: CONFIG_SYSCALL_SPLICE must be 'not set' on tiny and =y on base;" >&2
	echo "measure-config: got (n = not set, - = absent): tiny=$(echo "$splice" | cut -d' ' -f2), base=$(echo "$splice" | cut -d' ' -f3)" >&2
	exit 1
fi

if [ -n "$splice" ]; then echo "series_applied=true"; else echo "series_applied=false"; fi
echo "config_sha256_tiny=$(sha256sum <"$1" | cut -d' ' -f1)"
echo "config_sha256_base=$(sha256sum <"$2" | cut -d' ' -f1)"
