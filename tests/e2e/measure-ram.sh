#!/usr/bin/env bash
# measure-ram end to end on both kernels: the real entry point on the real
# boards, with a narrow bisection (6..8 MiB, whole MiB) and one fetch per
# boot to keep it short; the report goes to a temp folder, so the one in
# images/ is left alone. Checks behaviour, not the figures' values: the table
# comes out, the JSON parses and holds every key, both boards have boot
# figures from two boots each and a smallest -m, and the report says plainly
# whether the series is applied (a saving when it is, 0 and a warning when not).
# With AUDIT=1 the audit board's section is there too.
# timeout: 1800
. "$(dirname "$0")/../lib/common.sh"
echo 1..30
. "$TOP/tests/lib/measure.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-e2e.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
out=$tmp/measure-ram

# AUDIT=1: the audit board too (built here if tests/e2e/audit-board.sh
# has not built it yet).
make -C "$TOP" -s board AUDIT=1 >"$tmp/make-audit.log" 2>&1 || cat "$tmp/make-audit.log"
# The report in images/ and the README's figures must not change: their
# checksums (and which of them exist) before and after.
kept() { (cd "$TOP" && sha256sum README.md images/measure-ram.* 2>/dev/null); }
kept >"$tmp/kept.before"
AUDIT=1 MEASURE_OUT=$out MEASURE_WORK=$tmp/work MEASURE_LOGS=measure-test \
	MEASURE_SERVES=1 MEASURE_MIN_LO=6 MEASURE_MIN_HI=8 MEASURE_MIN_FINE=0 \
	MEASURE_MIN_CLIENTS=4 MEASURE_LOAD_CLIENTS=2 MEASURE_SERVE_MINRAM='' \
	"$TOP/scripts/measure/ram.sh" >"$tmp/term" 2>&1
rc=$?
cat "$tmp/term"
check "measure-ram: exits 0 on both kernels (got $rc)" [ "$rc" = 0 ]
check "measure-ram: writes .md, .json and .svg" test -s "$out.md" -a -s "$out.json" -a -s "$out.svg"
check "measure-ram: prints the table on the terminal" \
	grep -q '^figure  *base (splice=y)  *tiny (splice=n)  *saving' "$tmp/term"
check "measure-ram: the JSON parses and holds every key" measure_json_keys "$out.json"
check "measure-ram: the SVG is well-formed XML" \
	python3 -c "import xml.etree.ElementTree as E; E.parse('$out.svg')"

pyq() { python3 -c "import json; d=json.load(open('$out.json')); print($1)" 2>/dev/null; }
for v in base tiny; do
	check "measure-ram: $v: Memory: line read from two boots" \
		[ "$(pyq "all(isinstance(x, int) for x in d['figures']['mem_available_k']['${v}_runs'])")" = True ]
	check "measure-ram: $v: the program's free RAM after boot read from two boots" \
		[ "$(pyq "all(isinstance(x, int) and x > 0 for x in d['figures']['app_free_k']['${v}_runs'])")" = True ]
	check "measure-ram: $v: free RAM after serving read from the stats line of two boots" \
		[ "$(pyq "all(isinstance(x, int) and x > 0 for x in d['figures']['app_after_free_k']['${v}_runs'])")" = True ]
	check "measure-ram: $v: smallest -m found between 6 and 8 MiB" \
		[ "$(pyq "d['min_ram']['$v']['status'] in ('found', 'le_lo') and 6 <= d['min_ram']['$v']['mib'] <= 8")" = True ]
	check "measure-ram: $v: consoles kept in build/logs/qemu" test -s "$TOP/build/logs/qemu/measure-test-$v-run2.log"
done

# What the guard said about the configs this run measured: it must have
# said it (true or false), and the JSON must say the same.
applied=$(sed -n 's/^series_applied=//p' "$tmp/work/config.env" 2>/dev/null)
check "measure-ram: the config guard wrote series_applied=true|false (got '${applied}')" \
	[ "$applied" = true -o "$applied" = false ]
got=$(pyq "str(d['series_applied']).lower()")
check "measure-ram: series_applied in the JSON matches the config guard (JSON '$got', guard '$applied')" \
	[ -n "$applied" -a "$got" = "$applied" ]
if [ "$applied" = true ]; then
	check "measure-ram, series applied: bloat-o-meter shows bytes removed" [ "$(pyq "d['bloat_o_meter']['delta'] < 0")" = True ]
	check "measure-ram, series applied: vmlinux text is smaller on tiny" [ "$(pyq "d['figures']['vmlinux_text']['saving'] > 0")" = True ]
	check "measure-ram, series applied: names the largest removed functions" [ "$(pyq "len(d['bloat_o_meter']['largest_removed']) > 0")" = True ]
	check "measure-ram, series applied: no 'not applied' warning" bash -c "! grep -q 'series is not applied' '$tmp/term'"
else
	check "measure-ram, series not applied: says so plainly" grep -q '^WARNING: the splice series is not applied' "$tmp/term"
	check "measure-ram, series not applied: prints no saving (all sizes 0)" \
		[ "$(pyq "all(d['figures'][k]['saving'] == 0 for k in ('vmlinux_text', 'image', 'zimage'))")" = True ]
	check "measure-ram, series not applied: bloat-o-meter delta 0" [ "$(pyq "d['bloat_o_meter']['delta']")" = 0 ]
	check "measure-ram, series not applied: names no removed function" \
		[ "$(pyq "len(d['bloat_o_meter']['largest_removed']) == 0")" = True ]
fi
check "measure-ram, AUDIT=1: reports the audit fragment's options and bloat-o-meter saving" \
	[ "$(pyq "len(d['audit']['options']) > 0 and d['audit']['bloat_delta'] < 0")" = True ]
check "measure-ram, AUDIT=1: the audit board served at the same -m" [ "$(pyq "d['audit']['served']")" = True ]
check "measure-ram, AUDIT=1: the Markdown report has the audit section" \
	grep -q '^## The audit fragment on top of tiny' "$out.md"
check "measure-ram: the serving table has all four ways" \
	[ "$(pyq "d['serving']['ways'] == ['base-sendfile', 'tiny-read', 'tiny-mmap', 'tiny-read64k']")" = True ]
check "measure-ram: each way served 2 clients at once on both boots" \
	[ "$(pyq "all(isinstance(v, int) and v > 0 for w in d['serving']['ways'] for v in d['serving']['rows']['load_low_free_k']['values'][w])")" = True ]
check "measure-ram: the serving section is in the Markdown report" grep -q '^## What each way of serving costs' "$out.md"
check "measure-ram: free RAM over time while the clients fetch: a series per way on both boots" \
	[ "$(pyq "all(len(runs) == 2 and all(len(r) > 0 and all(len(p) == 2 and p[1] > 0 for p in r) for r in runs) for w, runs in d['serving']['ram_over_time']['ways'].items()) and list(d['serving']['ram_over_time']['ways']) == d['serving']['ways']")" = True ]
check "measure-ram: the chart draws one line per way" [ "$(grep -c '<polyline' "$out.svg")" = 4 ]
kept >"$tmp/kept.after"
check "measure-ram: images/measure-ram.* and README.md left alone (same files, same sha256)" \
	cmp -s "$tmp/kept.before" "$tmp/kept.after"
diff "$tmp/kept.before" "$tmp/kept.after" | sed 's/^/# /'
