#!/usr/bin/env bash
# measure-ram's chart of free RAM over time while the clients fetch, no
# boot: scripts/measure/render.py and serve-render.py on a committed fixture,
# tests/host/measure/serving.env (the figures of measure-render.sh plus a
# serving section: four ways, two boots each, with load_ram_series). The SVG
# and JSON must be the committed serving.svg and serving.json byte for byte;
# the chart has one line per way whose lowest point is the serving table's
# lowest free RAM under load; the JSON carries every series.
# After a deliberate change to the report, rewrite the expected files with:
#   d=tests/host/measure; scripts/measure/render.py $d/serving.env $d/serving >/dev/null &&
#   scripts/measure/serve-render.py $d/serving.env $d/serving >/dev/null; rm $d/serving.md
# and say in the commit what changed in them.
. "$(dirname "$0")/../lib/common.sh"
echo 1..10
fx=$TOP/tests/host/measure
tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-chart.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ways="base-sendfile tiny-read tiny-mmap tiny-read64k"

# render DATA PREFIX: both renderers, as measure/ram.sh runs them.
render() {
	"$TOP/scripts/measure/render.py" "$1" "$2" >"$2.term" &&
		"$TOP/scripts/measure/serve-render.py" "$1" "$2" >>"$2.term"
}

render "$fx/serving.env" "$tmp/s"
check "chart: both renderers exit 0 on the fixture" [ $? = 0 ]
check "chart: the SVG is the committed tests/host/measure/serving.svg" cmp "$fx/serving.svg" "$tmp/s.svg"
diff "$fx/serving.svg" "$tmp/s.svg" | head -n 20 | sed 's/^/# /'
check "chart: the JSON is the committed tests/host/measure/serving.json" cmp "$fx/serving.json" "$tmp/s.json"
diff "$fx/serving.json" "$tmp/s.json" | head -n 20 | sed 's/^/# /'

# lines SVG: "label|lowest" for each polyline of SVG (from its <title>).
lines() {
	python3 - "$1" <<'PY'
import re, sys
import xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
for p in E.parse(sys.argv[1]).getroot().iter(ns + "polyline"):
    t = p.find(ns + "title").text
    m = re.match(r"(.*): lowest ([0-9,]+) KiB at ", t)
    print("%s|%s" % (m.group(1), m.group(2).replace(",", "")))
PY
}
lines "$tmp/s.svg" >"$tmp/lines"
sed 's/^/# line: /' "$tmp/lines"
check "chart: one line per way of serving (4)" [ "$(wc -l <"$tmp/lines")" = 4 ]
# The table's lowest free RAM under load, boot 1, in the order of the ways.
table=$(python3 -c "
import json; s = json.load(open('$tmp/s.json'))['serving']
print(' '.join(str(s['rows']['load_low_free_k']['values'][w][0]) for w in s['ways']))")
check "chart: each line's lowest point is the table's lowest free RAM under load ($table)" \
	[ "$(cut -d'|' -f2 "$tmp/lines" | tr '\n' ' ' | sed 's/ $//')" = "$table" ]
check "chart: the note says the lines agree with the table" \
	grep -q "Each line's lowest point is the serving table's lowest" "$tmp/s.svg"
check "chart: the JSON has both boots' series of every way, as in the data" python3 - "$tmp/s.json" "$fx/serving.env" "$ways" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))["serving"]["ram_over_time"]
env = dict(l.rstrip("\n").split("=", 1) for l in open(sys.argv[2]) if "=" in l)
for w in sys.argv[3].split():
    if len(o["ways"][w]) != 2:
        sys.exit("%s: %d runs" % (w, len(o["ways"][w])))
    for r, got in zip((1, 2), o["ways"][w]):
        want = [[int(t) / 1000, int(f)] for t, f in
                (x.split(":") for x in env["%s.run%d.load_ram_series" % (w, r)].split())]
        if not got or got != want:
            sys.exit("%s run %d: %s" % (w, r, got[:3]))
sys.exit(o["unit"] != "KiB" or o["time_unit"] != "s")
PY

# A table figure that is not the lowest sample: the note names the way.
sed 's/^tiny-mmap\.run1\.load_low_free_k=.*/tiny-mmap.run1.load_low_free_k=25000/' \
	"$fx/serving.env" >"$tmp/differ.env"
render "$tmp/differ.env" "$tmp/d"
check "chart: a table lowest that no sample shows is named in the notes" \
	grep -q 'differs from the table.*tiny: mmap: table 25,000, lowest sample 25,210' "$tmp/d.svg"

# No series (a measure-ram from before): no line chart, the old note, and
# the serving JSON says there were none.
grep -v 'load_ram_series=' "$fx/serving.env" >"$tmp/none.env"
render "$tmp/none.env" "$tmp/n"
check "chart: without series, no line chart and the note says only the lowest is drawn" \
	bash -c "! grep -q '<polyline' '$tmp/n.svg' && grep -q 'reports only the lowest' '$tmp/n.svg'"
check "chart: without series, the JSON's series are empty" python3 -c "
import json, sys; o = json.load(open('$tmp/n.json'))['serving']['ram_over_time']['ways']
sys.exit(any(r for runs in o.values() for r in runs))"
