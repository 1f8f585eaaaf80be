#!/usr/bin/env bash
# nm-noalias.sh NM ARGS... FILE: what `NM ARGS... FILE` prints, without
# the weak aliases: a weak symbol (W or w) at an address where a strong
# symbol of the same image is too. An alias occupies no byte (the
# COND_SYSCALL() ones are names of sys_ni_syscall), yet bloat-o-meter
# counts it at the size nm gives it. size.sh's =y against pristine check
# runs bloat-o-meter with this nm (cs_bloat ... noalias in lib.sh).
# Nameless symbols are dropped too, as cs_bloat's nm does.
set -eu
nm=$1
shift
file=${!#}
aliases=$("$nm" "$file" | awk '
	NF == 3 && $2 ~ /^[TtDdRrBbVv]$/ { strong[$1] = 1 }
	NF == 3 && $2 ~ /^[Ww]$/ { weak[$3] = $1 }
	END { for (n in weak) if (weak[n] in strong) print n }')
"$nm" "$@" | awk -v list="$aliases" '
	BEGIN { n = split(list, a, "\n"); for (i = 1; i <= n; i++) drop[a[i]] = 1 }
	NF == 3 && !($3 in drop)'
