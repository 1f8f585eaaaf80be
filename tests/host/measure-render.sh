#!/usr/bin/env bash
# measure-ram's report (scripts/measure/render.py) on synthetic figures, no
# boot: a series that saves something, a boot figure that differs between
# the two runs, a pending figure. The JSON parses and holds every key, the
# Markdown and terminal tables agree, the SVG is well-formed XML.
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/tests/lib/measure.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-render.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

boot() { # boot V RUN AVAILABLE CODE FREE AFTER_FREE
	cat <<EOF
$1.run$2.served=1
$1.run$2.mem_available_k=$3
$1.run$2.mem_total_k=32768
$1.run$2.code_k=$4
$1.run$2.rwdata_k=459
$1.run$2.rodata_k=172
$1.run$2.init_k=112
$1.run$2.bss_k=166
$1.run$2.reserved_k=$((32768 - $3))
$1.run$2.cma_k=0
$1.run$2.app_total_k=$(($3 + 448))
$1.run$2.app_free_k=$5
${6:+$1.run$2.app_after_total_k=$(($3 + 448))}
${6:+$1.run$2.app_after_free_k=$6}
EOF
}
{
	cat <<'EOF'
date=2026-01-01T00:00:00Z
kernel_version=6.1.192
ram_mib=32
serves=3
series_applied=true
config_sha256_tiny=1111111111111111111111111111111111111111111111111111111111111111
config_sha256_base=2222222222222222222222222222222222222222222222222222222222222222
base.vmlinux_text=1358144
base.vmlinux_data=679116
base.vmlinux_bss=170096
base.image=2059328
base.zimage=924472
base.uimage=924536
base.initramfs=340981
tiny.vmlinux_text=1348000
tiny.vmlinux_data=679000
tiny.vmlinux_bss=170096
tiny.image=2049088
tiny.zimage=920000
tiny.uimage=920064
tiny.initramfs=340981
bloat_add=0
bloat_remove=52
bloat_grow=1
bloat_shrink=9
bloat_up=8
bloat_down=-10152
bloat_delta=-10144
bloat_line=add/remove: 0/52 grow/shrink: 1/9 up/down: 8/-10152 (-10144)
bloat_before=2019643
bloat_after=2009499
bloat_chg=-0.50
bloat_total_line=Total: Before=2019643, After=2009499, chg -0.50%
removed_1=__do_splice 1200
removed_2=do_sendfile 700
base.min_ram_mib=7
base.min_ram_status=found
base.min_ram_step=0.25
base.min_ram_unstable=
base.min_ram_probes=32:pass/pass 7:pass/pass 6.75:fail/fail
tiny.min_ram_mib=6.75
tiny.min_ram_status=found
tiny.min_ram_step=0.25
tiny.min_ram_unstable=6.5
tiny.min_ram_probes=32:pass/pass 6.75:pass/pass 6.5:pass/fail
warning_1=base run 2 did not print stats
EOF
	boot base 1 29832 1173 26552 26000
	boot base 2 29832 1173 26556 26000
	boot tiny 1 29840 1163 26560 ""
	boot tiny 2 29840 1163 26560 ""
} | grep -v '^$' >"$tmp/data.env"

"$TOP/scripts/measure/render.py" "$tmp/data.env" "$tmp/r" >"$tmp/term"
rc=$?
cat "$tmp/term"
check "render: exits 0 (got $rc)" [ "$rc" = 0 ]
check "render: writes .md, .json, .svg" test -s "$tmp/r.md" -a -s "$tmp/r.json" -a -s "$tmp/r.svg"
check "render: the JSON parses and holds every key" measure_json_keys "$tmp/r.json"
pyq() { python3 -c "import json,sys; d=json.load(open('$tmp/r.json')); print($1)"; }
check "render: vmlinux text saving = base - tiny = 10144 B" [ "$(pyq "d['figures']['vmlinux_text']['saving']")" = 10144 ]
check "render: free RAM saving = tiny - base = 8 KiB (boot 1)" [ "$(pyq "d['figures']['app_free_k']['saving']")" = 8 ]
check "render: a figure that differs between runs is flagged, not averaged" \
	[ "$(pyq "d['figures']['app_free_k']['stable'], d['figures']['app_free_k']['base_runs']")" = "False [26552, 26556]" ]
check "render: the terminal shows both values of that figure" grep -q '26,552 / 26,556 (!)' "$tmp/term"
check "render: and the range of its saving over both boots (+4..+8)" \
	[ "$(pyq "d['figures']['app_free_k']['saving_min'], d['figures']['app_free_k']['saving_max']")" = "4 8" ]
check "render: a target is judged on the worst pair of boots (4 KiB < 8: not met)" \
	[ "$(pyq "d['targets']['free_ram_after_boot_kib']['value'], d['targets']['free_ram_after_boot_kib']['met']")" = "4 False" ]
check "render: a missing figure is pending (null), with a reason" \
	[ "$(pyq "d['figures']['app_after_free_k']['tiny'], bool(d['figures']['app_after_free_k']['note'])")" = "None True" ]
check "render: a saving that rounds to nothing (116 B of data, 0 KiB rwdata) says why" \
	bash -c "python3 -c \"import json; d=json.load(open('$tmp/r.json')); assert 'saves nothing' in d['figures']['rwdata_k']['note']; assert d['figures']['bss_k']['note'] == ''\""
check "render: series applied: no 'not applied' warning" bash -c "! grep -qi 'not applied' '$tmp/term'"
check "render: measure-ram's own warnings are passed on" grep -q 'WARNING: base run 2 did not print stats' "$tmp/term"
check "render: the bloat-o-meter target is met at 10144 B" [ "$(pyq "d['targets']['bloat_removed_bytes']['met']")" = True ]
check "render: the unstable bisection size is named" [ "$(pyq "d['min_ram']['tiny']['unstable']")" = "[6.5]" ]
check "render: the Markdown table has every figure row" \
	[ "$(grep -c '^| [A-Za-z].* | .* | .* | .* | .* |$' "$tmp/r.md")" -ge 19 ]
check "render: the Markdown names kernel, config hash and date" \
	grep -q 'Linux 6.1.192.*2026-01-01T00:00:00Z.*config sha256 base 222222222222, tiny 111111111111' "$tmp/r.md"
check "render: the SVG is well-formed XML with bars for both boards" \
	python3 -c "import xml.etree.ElementTree as E,sys; r=E.parse('$tmp/r.svg').getroot(); t=' '.join(x.text or '' for x in r.iter('{http://www.w3.org/2000/svg}title')); sys.exit(not ('base kernel code' in t and 'tiny free after boot' in t))"

# Not applied: identical figures, a plain warning, savings 0, exit 0.
sed -e 's/^series_applied=true/series_applied=false/' -e 's/^tiny\.\(vmlinux\|image\|zimage\|uimage\)/IGNORED.&/' \
	"$tmp/data.env" | grep -v '^IGNORED' >"$tmp/na.env"
grep '^base\.\(vmlinux\|image\|zimage\|uimage\)' "$tmp/data.env" | sed 's/^base/tiny/' >>"$tmp/na.env"
"$TOP/scripts/measure/render.py" "$tmp/na.env" "$tmp/na" >"$tmp/na.term"
check "render, series not applied: exits 0" [ $? = 0 ]
check "render, series not applied: says so plainly" grep -q 'WARNING: the splice series is not applied' "$tmp/na.term"
check "render, series not applied: series_applied=false in the JSON" \
	[ "$(python3 -c "import json; print(json.load(open('$tmp/na.json'))['series_applied'])")" = False ]
check "render, series not applied: the JSON still holds every key" measure_json_keys "$tmp/na.json"
check "render, series not applied: no saving anywhere, even where boots differ" \
	python3 -c "import json,sys; d=json.load(open('$tmp/na.json')); sys.exit(any(f['saving'] not in (0, None) for f in d['figures'].values()))"
check "render, series not applied: a boot-to-boot difference is called noise" \
	python3 -c "import json,sys; d=json.load(open('$tmp/na.json')); sys.exit('noise' not in d['figures']['app_free_k']['note'])"
check "render, series not applied: the saving targets are n/a, not met" \
	python3 -c "import json,sys; d=json.load(open('$tmp/na.json')); sys.exit(d['targets']['bloat_removed_bytes']['met'] is not None)"
