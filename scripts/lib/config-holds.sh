#!/usr/bin/env bash
# lib/config-holds.sh CONFIG FRAGMENT: does every line of FRAGMENT hold in the
# .config CONFIG? Kconfig drops a value whose dependencies are missing, or an
# =n of a symbol something else selects, and the fragment would then say one
# thing and the kernel do another. "# CONFIG_X is not set" also holds when X
# is absent. Prints each line that does not hold; exit 1 if any.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 CONFIG FRAGMENT" >&2; exit 2; }
bad=0
while read -r line; do
	case $line in
	CONFIG_*=* | "# CONFIG_"*" is not set") ;;
	*) continue ;;
	esac
	sym=$(sed -E 's/^# //; s/[ =].*//' <<<"$line")
	got=$(grep -E "^($sym=|# $sym is not set)" "$1" || true)
	if [ "$got" != "$line" ] && ! { [ -z "$got" ] && [ "${line:0:1}" = "#" ]; }; then
		echo "fragment ${2##*/}: '$line' but the configuration has '${got:-nothing}'" >&2
		bad=1
	fi
done <"$2"
exit "$bad"
