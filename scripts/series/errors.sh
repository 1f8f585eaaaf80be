#!/usr/bin/env bash
# errors.sh OLD-LOG OLD-TREE NEW-LOG NEW-TREE: is a failed build of the
# patched tree (NEW) the failure the pristine tree (OLD) has with the same
# .config? Prints the error lines of NEW-LOG that OLD-LOG does not have:
# gcc's and the linker's errors, modpost's ERRORs and undefined references,
# compared with the tree prefix, line and column numbers and addresses
# removed (the same section overflow lies at other addresses when the
# series has removed code). make's own "*** ... Error N" lines say only
# that something failed and are left out.
# Exit 0 when NEW-LOG has error lines and every one is in OLD-LOG; exit 1
# otherwise. A NEW-LOG without any error line exits 1 too: a build killed
# or stopped for a reason this cannot read is not "the same failure".
set -eu
[ $# -eq 4 ] || { echo "usage: $0 OLD-LOG OLD-TREE NEW-LOG NEW-TREE" >&2; exit 2; }

norm() { # LOG TREE: one normalized error line per line
	grep -aE '(^|: )(fatal )?(error|ERROR):|(^|[-/ ])ld: |undefined reference' "$1" |
		grep -avE '^make(\[[0-9]+\])?: \*\*\*' |
		sed -e "s#$2/##g" -e 's#^\(\.\./\)*##' \
			-e 's#:[0-9]\+\(:[0-9]\+\)\{0,1\}: \(fatal \)\{0,1\}error:#: \2error:#' \
			-e 's#0x[0-9a-fA-F]\+#0xN#g' -e 's#\b[0-9a-fA-F]\{8,\}\b#N#g' || true
}

old=$(mktemp) new=$(mktemp)
trap 'rm -f "$old" "$new"' EXIT
norm "$1" "$2" | sort -u >"$old"
norm "$3" "$4" | sort -u >"$new"
if [ ! -s "$new" ]; then
	echo "no error line in ${3##*/}: cannot tell it is the pristine tree's failure"
	exit 1
fi
comm -13 "$old" "$new" | sed 's/^/new: /' | grep . && exit 1
sed 's/^/also in pristine: /' "$new"
exit 0
