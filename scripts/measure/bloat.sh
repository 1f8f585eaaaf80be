#!/usr/bin/env bash
# measure/bloat.sh KSRC OLD_VMLINUX NEW_VMLINUX OUT_TXT [TOP_N]
#
# Runs the kernel's own scripts/bloat-o-meter (from KSRC) between two ARM
# vmlinux files, keeps its full output in OUT_TXT, and prints key=value lines:
#   bloat_add bloat_remove bloat_grow bloat_shrink bloat_up bloat_down
#   bloat_delta          the add/remove line (delta: bytes, negative = smaller)
#   bloat_line           that line as printed
#   bloat_before bloat_after bloat_chg   the Total: line
#   bloat_total_line     that line as printed
#   removed_N=NAME OLD   the TOP_N (default 10) largest functions that are gone
#                        (from a second run with -t, kept in OUT_TXT.functions)
#
# bloat-o-meter calls "<prefix>nm". This Thumb-2 vmlinux has a few symbols
# without a name, on which the script stops (ValueError: not enough values
# to unpack), so the prefix points at an nm wrapper that drops those lines.
set -u
[ $# -ge 4 ] || { echo "usage: $0 KSRC OLD_VMLINUX NEW_VMLINUX OUT_TXT [TOP_N]" >&2; exit 2; }
ksrc=$1 old=$2 new=$3 out=$4 top=${5:-10}
bom=$ksrc/scripts/bloat-o-meter
[ -x "$bom" ] || { echo "measure-bloat: no $bom (run make board)" >&2; exit 2; }
for f in "$old" "$new"; do
	[ -f "$f" ] || { echo "measure-bloat: missing $f (run make board)" >&2; exit 2; }
done
command -v python3 >/dev/null || { echo "measure-bloat: python3 is needed by bloat-o-meter" >&2; exit 2; }
nm=${CROSS_COMPILE:-arm-linux-gnueabi-}nm
command -v "$nm" >/dev/null || { echo "measure-bloat: $nm not found" >&2; exit 2; }

wrap=$(mktemp -d "${TMPDIR:-/tmp}/measure-bloat.XXXXXX")
trap 'rm -rf "$wrap"' EXIT
cat >"$wrap/arm-nm" <<EOF
#!/bin/sh
set -e
"$nm" "\$@" | awk 'NF == 3'
EOF
chmod +x "$wrap/arm-nm"

mkdir -p "$(dirname "$out")"
"$bom" -p "$wrap/arm-" "$old" "$new" >"$out" || { echo "measure-bloat: bloat-o-meter failed" >&2; exit 1; }
"$bom" -t -p "$wrap/arm-" "$old" "$new" >"$out.functions" ||
	{ echo "measure-bloat: bloat-o-meter -t failed" >&2; exit 1; }
cat "$out" >&2

awk -v top="$top" -v main="$out" '
	FILENAME == main && /^add\/remove: / {
		# add/remove: A/R grow/shrink: G/S up/down: U/D (T)
		split($2, ar, "/"); split($4, gs, "/"); split($6, ud, "/")
		t = $7; gsub(/[()]/, "", t)
		print "bloat_add=" ar[1]; print "bloat_remove=" ar[2]
		print "bloat_grow=" gs[1]; print "bloat_shrink=" gs[2]
		print "bloat_up=" ud[1]; print "bloat_down=" ud[2]
		print "bloat_delta=" t
		print "bloat_line=" $0
		next
	}
	FILENAME == main && /^Total: Before=/ {
		s = $0; gsub(/[^0-9.,+-]/, " ", s); split(s, a, /[ ,]+/)
		n = 0; for (i = 1; i in a; i++) if (a[i] != "") v[++n] = a[i]
		print "bloat_total_line=" $0
		print "bloat_before=" v[1]; print "bloat_after=" v[2]; print "bloat_chg=" v[3]
		next
	}
	FILENAME != main && NF == 4 && $3 == "-" && $2 ~ /^[0-9]+$/ { gone[$1] = $2 }
	END {
		n = 0
		for (k in gone) names[++n] = k
		# selection sort by size, largest first (n is small)
		for (i = 1; i <= n && i <= top; i++) {
			m = i
			for (j = i + 1; j <= n; j++)
				if (gone[names[j]] + 0 > gone[names[m]] + 0 || (gone[names[j]] + 0 == gone[names[m]] + 0 && names[j] < names[m])) m = j
			tmp = names[i]; names[i] = names[m]; names[m] = tmp
			print "removed_" i "=" names[i] " " gone[names[i]]
		}
	}' "$out" "$out.functions"
