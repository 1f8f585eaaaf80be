#!/usr/bin/env bash
# scripts/series/warnings.sh, which decides "no new W=1 warnings" for
# make check-series: code that moved (other line numbers, other tree) is not
# new, for gcc's FILE:LINE:COL and kernel-doc's FILE:LINE forms; a warning
# the old log does not have, or has fewer times, is.
. "$(dirname "$0")/../lib/common.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-warnings.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmp_logs() { "$TOP/scripts/series/warnings.sh" "$tmp/old.log" /a "$tmp/new.log" /b >"$tmp/out"; }

cat >"$tmp/old.log" <<'LOG'
/a/kernel/fork.c:169:13: warning: no previous prototype for 'x' [-Wmissing-prototypes]
/a/kernel/fork.c:1276: warning: Function parameter or member 'mm' not described in 'set_mm_exe_file'
LOG
cat >"$tmp/new.log" <<'LOG'
/b/kernel/fork.c:171:13: warning: no previous prototype for 'x' [-Wmissing-prototypes]
/b/kernel/fork.c:1278: warning: Function parameter or member 'mm' not described in 'set_mm_exe_file'
LOG
# A fresh tree builds its host tools: their warnings are not the series'.
echo "/b/scripts/genksyms/parse.y: warning: 9 shift/reduce conflicts [-Wconflicts-sr]" >>"$tmp/new.log"
check "series warnings: moved gcc and kernel-doc warnings, host tool warnings: not new (exit 0)" cmp_logs
printf '%s\n' "/b/fs/splice.c:12:3: warning: unused variable 'y' [-Wunused-variable]" \
	"/b/kernel/fork.c:1300: warning: Function parameter or member 'mm' not described in 'set_mm_exe_file'" \
	>>"$tmp/new.log"
cmp_logs
rc=$?
check "series warnings: a new warning and a second copy of an old one fail (exit 1)" [ "$rc" = 1 ]
check "series warnings: both are printed, the copy counted once" \
	bash -c "grep -q \"new (x1): fs/splice.c: warning: unused variable 'y'\" '$tmp/out' &&
		grep -q \"new (x1): kernel/fork.c: warning: Function parameter or member 'mm'\" '$tmp/out' &&
		[ \$(wc -l <'$tmp/out') = 2 ]"
