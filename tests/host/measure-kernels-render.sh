#!/usr/bin/env bash
# measure-kernels' report (scripts/measure/kernels-render.py) on synthetic
# figures, no boot: three boards, two comparisons, one board that did not
# find its smallest RAM. The JSON parses and holds the figures by board and
# comparison; the Markdown puts each figure in its board's column; the SVG
# is well-formed and draws both totals.
. "$(dirname "$0")/../lib/common.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-kernels-render.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo 1..8

cat >"$tmp/data.env" <<'EOF'
date=2026-01-01T00:00:00Z
boards=base-6.12 tiny-6.12 tiny-nodce-6.12
ram_mib=32
serves=3
min_clients=64
min_fine_k=16
base-6.12.vmlinux_text=1455176
tiny-6.12.vmlinux_text=1446060
tiny-nodce-6.12.vmlinux_text=1194200
base-6.12.served=1
tiny-6.12.served=1
tiny-nodce-6.12.served=0
tiny-6.12.app_free_k=26804
base-6.12.min_ram_k=6400
base-6.12.min_ram_status=found
tiny-6.12.min_ram_k=6384
tiny-6.12.min_ram_status=found
tiny-nodce-6.12.min_ram_k=
tiny-nodce-6.12.min_ram_status=gt_hi
cmp.splice-6.12.bloat_delta=-8764
cmp.splice-6.12.from=base-6.12
cmp.splice-6.12.to=tiny-6.12
cmp.splice-6.12.removed_1=do_splice 772
cmp.dce-6.12.bloat_delta=-279178
cmp.dce-6.12.from=tiny-nodce-6.12
cmp.dce-6.12.to=tiny-6.12
warning_1=tiny-nodce-6.12 did not serve at -m 32M (kernel panic)
EOF
"$TOP/scripts/measure/kernels-render.py" "$tmp/data.env" "$tmp/out" >"$tmp/stdout"
rc=$?
check "the renderer succeeds" test "$rc" -eq 0
check "the JSON holds each board's figures as numbers" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
b = r["boards"]
assert b["tiny-6.12"]["vmlinux_text"] == 1446060, b
assert b["tiny-6.12"]["min_ram_k"] == 6384
assert b["tiny-nodce-6.12"]["min_ram_k"] is None
assert r["min_clients"] == 64' "$tmp/out.json"
check "the JSON holds the comparisons by name" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["comparisons"]
assert c["splice-6.12"]["bloat_delta"] == -8764 and c["dce-6.12"]["to"] == "tiny-6.12", c
assert "splice-6.1" not in c' "$tmp/out.json"
row() { grep -F "| $1" "$tmp/out.md"; }
check "vmlinux text sits in the boards' columns, in order" \
	grep -qF "| vmlinux text (B) | 1,455,176 | 1,446,060 | 1,194,200 |" "$tmp/out.md"
check "a board without a smallest RAM says why in its cell" \
	grep -qF "| smallest -m serving 64 clients (KiB) | 6,400 | 6,384 | gt_hi - |" "$tmp/out.md"
check "a board that did not serve is marked NO, and the warning is listed" \
	bash -c 'grep -qF "| served at -m RAM | yes | yes | NO |" "$1" && grep -qF -- "- tiny-nodce-6.12 did not serve" "$1"' _ "$tmp/out.md"
check "the comparison table gives each total with its boards" \
	grep -qF "| splice=n on 6.12 (with dead-code elimination) | base-6.12 -> tiny-6.12 | -8,764 | do_splice 772 |" "$tmp/out.md"
check "the SVG is XML and draws each comparison's total" python3 -c '
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot()
titles = [e.text for e in t.iter("{http://www.w3.org/2000/svg}title")]
assert "splice=n on 6.12 (with dead-code elimination): -8764 B" in titles and "dead-code elimination alone (6.12 tiny): -279178 B" in titles, titles' "$tmp/out.svg"
