#!/usr/bin/env bash
# check-series-warnings.sh OLD-LOG OLD-TREE NEW-LOG NEW-TREE: print the
# compiler warnings of NEW-LOG that OLD-LOG does not have (more of them, by
# count), compared with the tree prefix and the line (and column) numbers
# removed, for compiler and kernel-doc warnings alike, so
# moved code does not count as new. Warnings from building the host tools
# under scripts/ (bison on genksyms' parse.y ...) are left out: they appear
# whenever a fresh tree builds its tools, and the series touches no tool.
# Exit 1 if there is any.
set -eu
[ $# -eq 4 ] || { echo "usage: $0 OLD-LOG OLD-TREE NEW-LOG NEW-TREE" >&2; exit 2; }

norm() { # LOG TREE: one normalized warning per line
	grep -a ': warning: ' "$1" |
		sed -e "s#$2/##g" -e 's#^\(\.\./\)*##' -e 's#:[0-9]\+\(:[0-9]\+\)\{0,1\}: warning:#: warning:#' |
		grep -v '^scripts/' || true
}

old=$(mktemp) new=$(mktemp)
trap 'rm -f "$old" "$new"' EXIT
norm "$1" "$2" | sort >"$old"
norm "$3" "$4" | sort >"$new"
# comm on sorted lists with duplicates keeps the surplus copies of NEW.
comm -13 "$old" "$new" | uniq -c | sed 's/^ *\([0-9]*\) /new (x\1): /' | grep . && exit 1
exit 0
