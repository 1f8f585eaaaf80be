#!/usr/bin/env bash
# scripts/syscalltbl.sh --allow, the 6.12 series' CONFIG_SYSCALL_ALLOWLIST
# (kernel/6.12/patches), on the patched tree's own ARM table: a list of
# every name changes nothing; a short list keeps those entries and the
# three the kernel needs itself, and makes the rest sys_ni_syscall; a name
# the table lacks, or that is no name, stops the build.
. "$(dirname "$0")/../lib/common.sh"
echo 1..6
k=$TOP/build/linux-6.12
tbl=$k/arch/arm/tools/syscall.tbl
if [ ! -f "$k/.patched" ]; then
	not_ok "build/linux-6.12 is extracted and patched (make board LINUX=6.12)"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/syscall-allowlist.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
gen() { sh "$k/scripts/syscalltbl.sh" --abis common,eabi "$@" "$tbl" "$tmp/out.S" 2>"$tmp/err"; }
gen && mv "$tmp/out.S" "$tmp/all.S"
awk '/^[0-9]/ { print $3 }' "$tbl" >"$tmp/every"
check "a list of every name in the table: the same table as without --allow" \
	bash -c 'sh "$1/scripts/syscalltbl.sh" --abis common,eabi --allow "$2" "$3" "$4" && cmp -s "$4" "$5"' _ \
	"$k" "$tmp/every" "$tbl" "$tmp/every.S" "$tmp/all.S"
printf '%s\n' '# two and a comment' read 'write # and another' >"$tmp/short"
gen --allow "$tmp/short"
check "read and write: their entries, restart_syscall, sigreturn and rt_sigreturn, nothing else" \
	diff <(grep -v 'sys_ni_syscall' "$tmp/out.S") - <<'EOF2'
__SYSCALL(0, sys_restart_syscall)
__SYSCALL(3, sys_read)
__SYSCALL(4, sys_write)
__SYSCALL(119, sys_sigreturn_wrapper)
__SYSCALL(173, sys_rt_sigreturn_wrapper)
EOF2
check "the table keeps its length (every number has an entry)" \
	[ "$(wc -l <"$tmp/out.S")" = "$(wc -l <"$tmp/all.S")" ]
echo nosuchcall >>"$tmp/short"
rm -f "$tmp/out.S"
check "a name the table does not have: an error that names it, no table" \
	bash -c '! sh "$1/scripts/syscalltbl.sh" --abis common,eabi --allow "$2" "$3" "$4" 2>"$5" &&
		grep -q "has no system call \"nosuchcall\"" "$5" && [ ! -e "$4" ]' _ "$k" "$tmp/short" "$tbl" "$tmp/out.S" "$tmp/err"
printf '%s\n' read 'a*' >"$tmp/bad"
check "a word that is no name: an error" bash -c '! sh "$1/scripts/syscalltbl.sh" --allow "$2" "$3" "$4" 2>/dev/null' _ \
	"$k" "$tmp/bad" "$tbl" "$tmp/out.S"
check "a list that cannot be read: an error" bash -c '! sh "$1/scripts/syscalltbl.sh" --allow "$2" "$3" "$4" 2>/dev/null' _ \
	"$k" "$tmp/none" "$tbl" "$tmp/out.S"
