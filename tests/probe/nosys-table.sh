#!/usr/bin/env bash
# nosys-table.sh SYSCALL.TBL ALLOW: print nosys-table.h, the entries of the
# kernel's syscall table (common and eabi, with an entry point) that the
# allowlist ALLOW leaves out and the kernel does not keep by itself
# (restart_syscall, sigreturn, rt_sigreturn): tests/probe/nosys.c calls each.
set -eu
tbl=${1:?usage: nosys-table.sh SYSCALL.TBL ALLOW}
allow=${2:?usage: nosys-table.sh SYSCALL.TBL ALLOW}
for f in "$tbl" "$allow"; do
	[ -r "$f" ] || { echo "nosys-table.sh: cannot read $f" >&2; exit 1; }
done
echo "/* Written by tests/probe/nosys-table.sh from $tbl and $allow */"
echo "static const struct entry nosys_entries[] = {"
awk 'NR == FNR { sub(/#.*/, ""); if (NF) keep[$1] = 1; next }
	/^[0-9]/ && ($2 == "common" || $2 == "eabi") && NF >= 4 && !($3 in keep) &&
	$3 != "restart_syscall" && $3 != "sigreturn" && $3 != "rt_sigreturn" {
		printf "\t{ %d, \"%s\" },\n", $1, $3
	}' "$allow" "$tbl"
echo "};"
