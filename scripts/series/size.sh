#!/usr/bin/env bash
# check-series-size.sh SIZES-DIR: the size figures of the series, from the
# vmlinux files check-series.sh left there:
#   tiny-pristine, tiny-y, tiny-n   the tiny ARM board (Thumb-2, -Os)
#   x86-pristine, x86-y, x86-n      x86_64 tinyconfig
# Prints bloat-o-meter totals against the targets (tiny y->n at least
# TINY_TARGET=9000 bytes removed, x86 y->n at least X86_TARGET=8399, =y
# within PRISTINE_SLACK=0 bytes of pristine, weak aliases not counted:
# =y costs nothing) and every symbol with
# "splice" or "sendfile" in its name left in the =n images.
# Exit 0 targets met, 1 a target missed, 3 nothing to compare.
set -eu
# shellcheck source=scripts/series/lib.sh
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: check-series-size.sh SIZES-DIR}
TINY_TARGET=${TINY_TARGET:-9000}
X86_TARGET=${X86_TARGET:-8399}
PRISTINE_SLACK=${PRISTINE_SLACK:-0}
# bloat-o-meter is the same script in every tree; any extracted one will do.
bt=$(cs_bloat_tree) || exit 2

missed=0
compared=0

# compare NAME OLD NEW PREFIX LIMIT KIND: KIND 'min' needs total <= -LIMIT,
# 'slack' needs |total| <= LIMIT.
compare() {
	local name=$1 old=$dir/$2.vmlinux new=$dir/$3.vmlinux pfx=$4 lim=$5 kind=$6 out total plain verdict
	if [ ! -f "$old" ] || [ ! -f "$new" ]; then
		echo "$name: not measured ($2/$3 vmlinux missing)"
		return 0
	fi
	compared=1
	out=$dir/$2-vs-$3.bloat
	cs_bloat "$bt" "$old" "$new" "$pfx" >"$out"
	total=$(cs_bloat_total "$out")
	# =y against pristine: a weak alias (a COND_SYSCALL() name of
	# sys_ni_syscall) occupies no byte, so it does not count
	if [ "$kind" = slack ]; then
		cs_bloat "$bt" "$old" "$new" "$pfx" noalias >"$out.noalias"
		plain=$total
		total=$(cs_bloat_total "$out.noalias")
		[ "$plain" = "$total" ] || name="$name (weak aliases not counted; with them $plain)"
		out=$out.noalias
	fi
	case $kind in
	min) if [ "${total:-0}" -le "-$lim" ]; then verdict="meets target (>= $lim removed)"
	     else verdict="MISSES target (>= $lim removed)"; missed=1; fi ;;
	slack) if [ "${total#-}" -le "$lim" ]; then verdict="within $lim bytes"
	       else verdict="MORE than $lim bytes apart"; missed=1; fi ;;
	esac
	printf '%-34s %7s bytes  %s\n' "$name:" "$total" "$verdict"
	tail -n 1 "$out" | sed 's/^/    /'
}

# leftovers NAME FILE NM: symbols still there with splice/sendfile in them.
leftovers() {
	[ -f "$dir/$2.vmlinux" ] || return 0
	local syms
	syms=$("$3" --size-sort -S -t d "$dir/$2.vmlinux" | grep -iE 'splice|sendfile' || true)
	echo "symbols with splice/sendfile left in $1 (=n): $(grep -c . <<<"$syms" || true)"
	[ -z "$syms" ] || awk '{ printf "    %6d %s %s\n", $2, $3, $4 }' <<<"$syms"
}

compare "tiny ARM pristine -> =y" tiny-pristine tiny-y arm-linux-gnueabi- "$PRISTINE_SLACK" slack
compare "tiny ARM =y -> =n" tiny-y tiny-n arm-linux-gnueabi- "$TINY_TARGET" min
compare "x86_64 tinyconfig pristine -> =y" x86-pristine x86-y "" "$PRISTINE_SLACK" slack
compare "x86_64 tinyconfig =y -> =n" x86-y x86-n "" "$X86_TARGET" min
leftovers "tiny ARM" tiny-n arm-linux-gnueabi-nm
leftovers "x86_64 tinyconfig" x86-n nm
[ "$compared" -eq 1 ] || exit 3
exit "$missed"
