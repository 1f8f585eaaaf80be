#!/usr/bin/env bash
# measure-render.sh DATA OUT_PREFIX
#
# Turns the figures measure-ram collected (DATA: key=value lines) into the
# report: the table on stdout, OUT_PREFIX.md (the same table in Markdown,
# with kernel version, config hash and date), OUT_PREFIX.json (stable keys,
# listed in JSON_KEYS below) and OUT_PREFIX.svg (RAM breakdown of both
# boards). awk and printf only.
#
# DATA keys: date kernel_version series_applied config_sha256_{tiny,base}
# ram_mib serves; <v>.<size> (vmlinux_text ... initramfs); bloat_* and
# removed_N; <v>.run1.<boot figure> and <v>.run2.<boot figure>;
# <v>.min_ram_{k,status,step_k,unstable,probes}, min_clients; warning_N.
set -u
[ $# -eq 2 ] || { echo "usage: $0 DATA OUT_PREFIX" >&2; exit 2; }
data=$1 out=$2
[ -f "$data" ] || { echo "measure-render: missing $data" >&2; exit 2; }
mkdir -p "$(dirname "$out")"

awk -v md="$out.md" -v json="$out.json" -v svg="$out.svg" '
function has(k) { return (k in d) && d[k] != "" }
function commas(n,   s, neg, r) {
	if (n == "" || n !~ /^-?[0-9]+$/) return n
	neg = (n ~ /^-/); s = neg ? substr(n, 2) : n; r = ""
	while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
	return (neg ? "-" : "") s r
}
function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, " ", s); return "\"" s "\"" }
function jnum(v) { return (v == "" ? "null" : v + 0) }
function signed(n) { return (n > 0 ? "+" : "") commas(n) }

# row KEY LABEL UNIT KIND BETTER: one figure of the table.
#   KIND size: d[v "." KEY]; boot: d[v ".run1." KEY] and run2; min: d[v ".min_ram_k"]
#   BETTER less (saving = base - tiny) or more (saving = tiny - base)
function row(key, label, unit, kind, better,   v, a, b, i) {
	nrows++
	R[nrows] = key; L[key] = label; U[key] = unit; K[key] = kind; B[key] = better
	for (i = 1; i <= 2; i++) {
		v = (i == 1) ? "base" : "tiny"
		if (kind == "size") { a = d[v "." key]; b = a }
		else if (kind == "boot") { a = d[v ".run1." key]; b = d[v ".run2." key] }
		else { a = d[v ".min_ram_k"]; b = a }
		V[key, v] = a; V2[key, v] = b
		if (a != "" && b != "" && a != b) unstable[key] = unstable[key] sprintf("%s runs %s / %s; ", v, a, b)
	}
	S[key] = P[key] = Smin[key] = Smax[key] = ""
	if (V[key, "base"] == "" || V[key, "tiny"] == "") return
	if (!applied) {
		# Identical kernels: no saving to report. A difference between the
		# two columns is boot-to-boot noise, and said so.
		S[key] = Smin[key] = Smax[key] = 0; P[key] = "0.00"
		if (V[key, "base"] != V[key, "tiny"] || (key in unstable))
			noise[key] = "identical kernels, so the difference between the columns is boot-to-boot noise, not a saving"
		return
	}
	S[key] = saving(key, V[key, "base"], V[key, "tiny"])
	P[key] = (V[key, "base"] + 0 != 0) ? sprintf("%.2f", 100 * S[key] / V[key, "base"]) : ""
	# Over every pair of runs (base run i, tiny run j): the range of the saving.
	Smin[key] = Smax[key] = S[key]
	pair(key, V2[key, "base"], V[key, "tiny"]); pair(key, V[key, "base"], V2[key, "tiny"]); pair(key, V2[key, "base"], V2[key, "tiny"])
}
function saving(key, b, t) { return (B[key] == "less") ? b - t : t - b }
function pair(key, b, t,   x) {
	if (b == "" || t == "") return
	x = saving(key, b, t)
	if (x < Smin[key]) Smin[key] = x
	if (x > Smax[key]) Smax[key] = x
}
function cell(key, v,   a, b, s) {
	a = V[key, v]; b = V2[key, v]
	if (a == "") return "pending"
	s = (U[key] == "MiB") ? a : commas(a)
	if (b != "" && b != a) s = s " / " ((U[key] == "MiB") ? b : commas(b)) " (!)"
	return s
}
# runs KEY V: the JSON array of the two boots (boot figures) or of the one
# measurement (sizes, bisection).
function runs(key, v) {
	if (K[key] != "boot") return "[" jnum(V[key, v]) "]"
	return "[" jnum(V[key, v]) ", " jnum(V2[key, v]) "]"
}
function verdict(i, no) {
	if (!applied && i < 3) return "n/a: the series is not applied"
	if (TV[i] == "") return "pending"
	if (TM[i]) return "met"
	return no
}
function num(key, x) { return (U[key] == "MiB") ? (x > 0 ? "+" : "") x : signed(x) }
function savecell(key) {
	if (S[key] == "") return "-"
	if (Smin[key] != Smax[key]) return num(key, Smin[key]) ".." num(key, Smax[key])
	return num(key, S[key])
}
function pctcell(key) { return (P[key] == "") ? "-" : ((P[key] + 0 > 0 ? "+" : "") P[key] "%") }

{ i = index($0, "="); if (i > 1) d[substr($0, 1, i - 1)] = substr($0, i + 1) }

END {
	applied = (d["series_applied"] == "true")
	meminfo = (d["proc_fs"] == "y") ? "not read: the program mounts nothing, so it cannot open /proc/meminfo; sysinfo gives total and free" \
		: "not available: the kernel is built without /proc (CONFIG_PROC_FS off); sysinfo gives total and free"
	ram = d["ram_mib"]; serves = d["serves"]
	row("vmlinux_text", "vmlinux text", "B", "size", "less")
	row("vmlinux_data", "vmlinux data", "B", "size", "less")
	row("vmlinux_bss", "vmlinux bss", "B", "size", "less")
	row("image", "Image", "B", "size", "less")
	row("zimage", "zImage", "B", "size", "less")
	row("uimage", "uImage", "B", "size", "less")
	row("initramfs", "initramfs.cpio.gz", "B", "size", "less")
	row("mem_available_k", "Memory: available at -m " ram "M", "KiB", "boot", "more")
	row("code_k", "Memory: kernel code", "KiB", "boot", "less")
	row("rwdata_k", "Memory: rwdata", "KiB", "boot", "less")
	row("rodata_k", "Memory: rodata", "KiB", "boot", "less")
	row("init_k", "Memory: init", "KiB", "boot", "less")
	row("bss_k", "Memory: bss", "KiB", "boot", "less")
	row("reserved_k", "Memory: reserved", "KiB", "boot", "less")
	row("app_total_k", "sysinfo total RAM after boot", "KiB", "boot", "more")
	row("app_free_k", "sysinfo free RAM after boot", "KiB", "boot", "more")
	row("app_after_free_k", "sysinfo free RAM after " serves " x test.bin", "KiB", "boot", "more")
	row("min_ram_k", "smallest -m serving " d["min_clients"] " clients at once", "KiB", "min", "less")

	# Pending figures, and what each rounds away.
	if (!has("base.run1.app_after_free_k") && !has("tiny.run1.app_after_free_k"))
		pend["app_after_free_k"] = "the program'"'"'s console stats line does not print sysinfo free RAM (yet)"
	else if (!has("base.run1.app_after_free_k") || !has("tiny.run1.app_after_free_k"))
		pend["app_after_free_k"] = "no stats line with RAM from " (has("base.run1.app_after_free_k") ? "tiny" : "base")
	bytes_saved = V["vmlinux_text", "base"] + V["vmlinux_data", "base"] + V["vmlinux_bss", "base"] \
		- V["vmlinux_text", "tiny"] - V["vmlinux_data", "tiny"] - V["vmlinux_bss", "tiny"]
	# A saving that rounds to nothing: the row, what it rests on, and why.
	# basis[k] is the row whose saving should show in k ("" = the vmlinux
	# text + data + bss saving).
	basis["code_k"] = "vmlinux_text"; basis["rwdata_k"] = "vmlinux_data"; basis["bss_k"] = "vmlinux_bss"
	why["code_k"] = why["rwdata_k"] = why["bss_k"] = \
		"the Memory: line prints whole KiB of each section span, and section alignment pads the span; the bytes saved fit in that"
	basis["image"] = "vmlinux_text"
	why["image"] = "Image ends on a section boundary: the bytes saved fell inside the alignment padding"
	basis["zimage"] = basis["uimage"] = "image"
	why["zimage"] = why["uimage"] = "compressed size: the removed bytes compressed to nothing measurable"
	basis["mem_available_k"] = basis["reserved_k"] = basis["app_total_k"] = ""
	why["mem_available_k"] = why["reserved_k"] = why["app_total_k"] = \
		"RAM is reserved and counted in whole 4 KiB pages from a page-aligned kernel end: the bytes saved fit in the last page'"'"'s padding"
	basis["app_free_k"] = basis["app_after_free_k"] = ""
	why["app_free_k"] = why["app_after_free_k"] = \
		"free RAM moves in 4 KiB pages and with what the kernel allocated by then; a saving under a page disappears in that"
	basis["min_ram_k"] = ""
	why["min_ram_k"] = "the bisection step is " d["tiny.min_ram_step_k"] " KiB; the bytes saved are less than one step"
	for (i = 1; i <= nrows; i++) {
		k = R[i]
		if (k in pend) { note[k] = "pending: " pend[k]; continue }
		if (k in unstable) { u = unstable[k]; sub(/; $/, "", u); note[k] = "differs between the two runs: " u }
		if (k in noise) note[k] = note[k] (note[k] == "" ? "" : "; ") noise[k]
		if (!applied || S[k] == "" || S[k] + 0 != 0 || !(k in why)) continue
		base_saving = (basis[k] == "") ? bytes_saved : S[basis[k]]
		if (base_saving + 0 > 0) note[k] = note[k] (note[k] == "" ? "" : "; ") "saves nothing: " why[k]
	}
	# Serving costs the tiny board RAM the base board does not spend: its
	# program copies through the read/write fallback, whose static buffer
	# (RW_BUF_SIZE in app/main.c) is only touched then.
	if (applied && S["app_after_free_k"] != "" && S["app_after_free_k"] + 0 < 0)
		note["app_after_free_k"] = note["app_after_free_k"] (note["app_after_free_k"] == "" ? "" : "; ") \
			"less free on tiny: what the read/write fallback left behind after serving (its buffer is unmapped when no body is in flight; see the serving table)"
	u = ""
	if (d["tiny.min_ram_unstable"] != "") u = "tiny at " d["tiny.min_ram_unstable"] " KiB"
	if (d["base.min_ram_unstable"] != "") u = u (u == "" ? "" : ", ") "base at " d["base.min_ram_unstable"] " KiB"
	if (u != "") note["min_ram_k"] = note["min_ram_k"] (note["min_ram_k"] == "" ? "" : "; ") "the two boots disagreed (" u "): counted as not serving; that is the noise of this figure"
	split("tiny base", vs, " ")
	for (j = 1; j <= 2; j++) {
		v = vs[j]; u = ""
		if (d[v ".min_ram_status"] == "gt_hi") u = v " did not serve at the upper bound of the bisection"
		if (d[v ".min_ram_status"] == "le_lo") u = v " served at the lower bound (" V["min_ram_k", v] " KiB): the figure is an upper bound"
		if (u != "") note["min_ram_k"] = note["min_ram_k"] (note["min_ram_k"] == "" ? "" : "; ") u
	}

	# Warnings from measure-ram, then the series one.
	nw = 0
	if (!applied) W[++nw] = "the splice series is not applied: the two configs are identical, so there is nothing to compare; every saving below is 0 by construction, not a measurement"
	for (i = 1; ("warning_" i) in d; i++) W[++nw] = d["warning_" i]

	# Targets.
	removed = (d["bloat_delta"] != "") ? -d["bloat_delta"] : ""
	T[1] = "bloat_removed_bytes"; TL[1] = "bloat-o-meter: bytes removed on tiny"; TT[1] = 9000; TV[1] = removed; TM[1] = (removed != "" && removed >= 9000)
	T[2] = "free_ram_after_boot_kib"; TL[2] = "more free RAM after boot on tiny (KiB, -m " ram "M, worst pair of boots)"; TT[2] = 8; TV[2] = Smin["app_free_k"]; TM[2] = (TV[2] != "" && TV[2] >= 8)
	T[3] = "tiny_min_ram_kib"; TL[3] = "smallest RAM serving " d["min_clients"] " clients, tiny (KiB, at most base'"'"'s)"; TT[3] = (V["min_ram_k", "base"] != "" ? V["min_ram_k", "base"] : "null"); TV[3] = V["min_ram_k", "tiny"]; TM[3] = (TV[3] != "" && TT[3] != "null" && TV[3] <= TT[3])

	# ---- terminal ----
	printf "measure-ram: Linux %s, vexpress-a9, -m %sM, %s, series %s\n", d["kernel_version"], ram, d["date"], applied ? "applied" : "NOT applied"
	for (i = 1; i <= nw; i++) printf "WARNING: %s\n", W[i]
	printf "%-42s %16s %16s %10s %8s\n", "figure", "base (splice=y)", "tiny (splice=n)", "saving", "%"
	for (i = 1; i <= nrows; i++) {
		k = R[i]
		printf "%-42s %16s %16s %10s %8s\n", L[k] " (" U[k] ")", cell(k, "base"), cell(k, "tiny"), savecell(k), pctcell(k)
	}
	printf "%-42s %s\n", "bloat-o-meter base -> tiny", d["bloat_line"]
	printf "%-42s %s\n", "", d["bloat_total_line"]
	for (i = 1; ("removed_" i) in d; i++) {
		split(d["removed_" i], a, " ")
		printf "  removed: %-40s %8s B\n", a[1], commas(a[2])
	}
	for (i = 1; i <= nrows; i++) if (R[i] in note) printf "note: %s: %s\n", L[R[i]], note[R[i]]
	printf "note: /proc/meminfo (MemTotal, MemFree, MemAvailable): %s\n", meminfo
	for (i = 1; i <= 3; i++) printf "target: %-56s %s (target %s): %s\n", TL[i], (TV[i] == "" ? "pending" : TV[i]), TT[i], verdict(i, "NOT met")
	printf "saving = what the tiny board gains: base - tiny for sizes, tiny - base for free RAM (boot 1 of each; a..b = the range over both boots).\n(!) = the two boots of that board disagreed: both values shown.\n"

	# ---- Markdown ----
	printf "# What compiling out the splice family saves (vexpress-a9)\n\n" > md
	printf "Linux %s, QEMU vexpress-a9 at -m %s MiB, %s; config sha256 base %s, tiny %s. Series %s. Each boot figure is from two boots; test.bin fetched %s times.\n\n", \
		d["kernel_version"], ram, d["date"], substr(d["config_sha256_base"], 1, 12), substr(d["config_sha256_tiny"], 1, 12), applied ? "applied" : "**not applied**", serves > md
	for (i = 1; i <= nw; i++) printf "> **Warning:** %s.\n\n", W[i] > md
	printf "| figure | base (splice=y) | tiny (splice=n) | saving | %% |\n|---|---:|---:|---:|---:|\n" > md
	for (i = 1; i <= nrows; i++) {
		k = R[i]
		printf "| %s (%s) | %s | %s | %s | %s |\n", L[k], U[k], cell(k, "base"), cell(k, "tiny"), savecell(k), pctcell(k) > md
	}
	printf "\nbloat-o-meter (base -> tiny): `%s`, `%s`\n\n", d["bloat_line"], d["bloat_total_line"] > md
	if (("removed_1") in d) {
		printf "| largest removed function | bytes |\n|---|---:|\n" > md
		for (i = 1; ("removed_" i) in d; i++) { split(d["removed_" i], a, " "); printf "| `%s` | %s |\n", a[1], commas(a[2]) > md }
		printf "\n" > md
	}
	for (i = 1; i <= nrows; i++) if (R[i] in note) printf "- %s: %s\n", L[R[i]], note[R[i]] > md
	printf "- /proc/meminfo (MemTotal, MemFree, MemAvailable): %s.\n", meminfo > md
	for (i = 1; i <= 3; i++) printf "- target: %s: %s (target %s): %s\n", TL[i], (TV[i] == "" ? "pending" : TV[i]), TT[i], verdict(i, "**not met**") > md
	printf "\nSaving = what the tiny board gains (base - tiny for sizes, tiny - base for free RAM), from boot 1 of each; a..b = its range over both boots of each board; (!) = the two boots of that board disagreed, both values shown. Chart: `measure-ram.svg`.\n" > md

	# ---- JSON ----
	printf "{\n  \"schema\": \"measure-ram/1\",\n  \"date\": %s,\n  \"kernel_version\": %s,\n  \"series_applied\": %s,\n", \
		jstr(d["date"]), jstr(d["kernel_version"]), applied ? "true" : "false" > json
	printf "  \"config_sha256\": {\"base\": %s, \"tiny\": %s},\n  \"ram_mib\": %s,\n  \"serves\": %s,\n", \
		jstr(d["config_sha256_base"]), jstr(d["config_sha256_tiny"]), jnum(ram), jnum(serves) > json
	printf "  \"figures\": {\n" > json
	for (i = 1; i <= nrows; i++) {
		k = R[i]
		printf "    %s: {\"label\": %s, \"unit\": %s, \"better\": %s, \"base\": %s, \"tiny\": %s, \"base_runs\": %s, \"tiny_runs\": %s, \"stable\": %s, \"saving\": %s, \"saving_min\": %s, \"saving_max\": %s, \"saving_pct\": %s, \"note\": %s}%s\n", \
			jstr(k), jstr(L[k]), jstr(U[k]), jstr(B[k]), jnum(V[k, "base"]), jnum(V[k, "tiny"]), \
			runs(k, "base"), runs(k, "tiny"), \
			(k in unstable) ? "false" : "true", jnum(S[k]), jnum(Smin[k]), jnum(Smax[k]), jnum(P[k]), jstr(note[k]), (i < nrows ? "," : "") > json
	}
	printf "  },\n  \"bloat_o_meter\": {\"line\": %s, \"total_line\": %s, \"add\": %s, \"remove\": %s, \"grow\": %s, \"shrink\": %s, \"up\": %s, \"down\": %s, \"delta\": %s, \"before\": %s, \"after\": %s, \"chg_pct\": %s, \"largest_removed\": [", \
		jstr(d["bloat_line"]), jstr(d["bloat_total_line"]), jnum(d["bloat_add"]), jnum(d["bloat_remove"]), jnum(d["bloat_grow"]), jnum(d["bloat_shrink"]), \
		jnum(d["bloat_up"]), jnum(d["bloat_down"]), jnum(d["bloat_delta"]), jnum(d["bloat_before"]), jnum(d["bloat_after"]), jnum(d["bloat_chg"]) > json
	for (i = 1; ("removed_" i) in d; i++) { split(d["removed_" i], a, " "); printf "%s{\"name\": %s, \"bytes\": %s}", (i > 1 ? ", " : ""), jstr(a[1]), jnum(a[2]) > json }
	printf "]},\n  \"min_ram\": {" > json
	for (j = 1; j <= 2; j++) {
		v = (j == 1) ? "base" : "tiny"
		printf "%s%s: {\"kib\": %s, \"mib\": %s, \"clients\": %s, \"status\": %s, \"step_kib\": %s, \"unstable\": [", (j > 1 ? ", " : ""), jstr(v), jnum(d[v ".min_ram_k"]), (d[v ".min_ram_k"] == "" ? "null" : sprintf("%.4f", d[v ".min_ram_k"] / 1024)), jnum(d["min_clients"]), jstr(d[v ".min_ram_status"]), jnum(d[v ".min_ram_step_k"]) > json
		n = split(d[v ".min_ram_unstable"], a, " "); for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? ", " : ""), jnum(a[i]) > json
		printf "], \"probes\": [" > json
		n = split(d[v ".min_ram_probes"], a, " "); for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? ", " : ""), jstr(a[i]) > json
		printf "]}" > json
	}
	printf "},\n  \"meminfo\": null,\n  \"meminfo_note\": %s,\n  \"targets\": {", jstr(meminfo) > json
	for (i = 1; i <= 3; i++) printf "%s%s: {\"label\": %s, \"target\": %s, \"value\": %s, \"met\": %s}", (i > 1 ? ", " : ""), jstr(T[i]), jstr(TL[i]), TT[i], jnum(TV[i]), ((TV[i] == "" || (!applied && i < 3)) ? "null" : (TM[i] ? "true" : "false")) > json
	printf "},\n  \"warnings\": [" > json
	for (i = 1; i <= nw; i++) printf "%s%s", (i > 1 ? ", " : ""), jstr(W[i]) > json
	printf "]\n}\n" > json

	# ---- SVG: RAM breakdown at -m ram, both boards, after boot ----
	# Segments sum to the board RAM: code, rwdata, rodata, bss (the kernel
	# image kept after boot), other reserved (mem_map, page tables, DTB,
	# padding: RAM sysinfo never counts), in use (total - free), free.
	nseg = split("code rwdata rodata bss other used free", seg, " ")
	split("#4e79a7 #f28e2b #e15759 #76b7b2 #9c755f #edc948 #59a14f", col, " ")
	split("kernel code|rwdata|rodata|bss|other reserved|in use after boot|free after boot", sname, "|")
	w = 900; x0 = 190; bw = 660; bh = 24
	# First pass: the segments, and the largest non-free part (the zoom scale).
	zmax = 0
	for (j = 1; j <= 2; j++) {
		v = (j == 1) ? "base" : "tiny"
		tot = d[v ".run1.mem_total_k"]
		okv[v] = (tot != "" && d[v ".run1.app_total_k"] != "" && d[v ".run1.code_k"] != "")
		if (!okv[v]) continue
		vals[v, 1] = d[v ".run1.code_k"]; vals[v, 2] = d[v ".run1.rwdata_k"]; vals[v, 3] = d[v ".run1.rodata_k"]; vals[v, 4] = d[v ".run1.bss_k"]
		vals[v, 5] = tot - d[v ".run1.app_total_k"] - vals[v, 1] - vals[v, 2] - vals[v, 3] - vals[v, 4]
		vals[v, 7] = d[v ".run1.app_free_k"]
		vals[v, 6] = d[v ".run1.app_total_k"] - vals[v, 7]
		if (tot - vals[v, 7] > zmax) zmax = tot - vals[v, 7]
	}
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", w, 360 > svg
	printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n" > svg
	printf "<text x=\"10\" y=\"22\" font-size=\"15\">Board RAM at -m %s MiB after boot (KiB): splice built in (base) vs compiled out (tiny)%s</text>\n", ram, applied ? "" : ", series NOT applied" > svg
	for (j = 1; j <= 2; j++) {
		v = (j == 1) ? "base" : "tiny"
		y = 45 + (j - 1) * 75
		printf "<text x=\"10\" y=\"%d\" font-weight=\"bold\">%s (splice=%s)</text>\n", y + 16, v, (v == "base" ? "y" : "n") > svg
		printf "<text x=\"10\" y=\"%d\">all RAM</text><text x=\"10\" y=\"%d\">zoom: all but free</text>\n", y + 32, y + 62 > svg
		if (!okv[v]) { printf "<text x=\"%d\" y=\"%d\">no boot figures</text>\n", x0, y + 16 > svg; continue }
		tot = d[v ".run1.mem_total_k"]
		for (z = 0; z <= 1; z++) {
			x = x0; yy = y + 16 + z * 30
			for (s = 1; s <= nseg; s++) {
				if (z == 1 && s == nseg) break
				ww = bw * vals[v, s] / (z ? zmax : tot)
				printf "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>%s %s: %s KiB</title></rect>\n", x, yy, ww, bh, col[s], v, sname[s], vals[v, s] > svg
				x += ww
			}
		}
	}
	ly = 215
	printf "<text x=\"10\" y=\"%d\" font-weight=\"bold\">segment</text><text x=\"260\" y=\"%d\" font-weight=\"bold\" text-anchor=\"end\">base</text><text x=\"350\" y=\"%d\" font-weight=\"bold\" text-anchor=\"end\">tiny</text><text x=\"440\" y=\"%d\" font-weight=\"bold\" text-anchor=\"end\">tiny - base</text>\n", ly, ly, ly, ly > svg
	for (s = 1; s <= nseg; s++) {
		yy = ly + 16 * s
		printf "<rect x=\"10\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"28\" y=\"%d\">%s</text>", yy - 10, col[s], yy, sname[s] > svg
		printf "<text x=\"260\" y=\"%d\" text-anchor=\"end\">%s</text><text x=\"350\" y=\"%d\" text-anchor=\"end\">%s</text>", yy, (okv["base"] ? commas(vals["base", s]) : "-"), yy, (okv["tiny"] ? commas(vals["tiny", s]) : "-") > svg
		dd = (okv["base"] && okv["tiny"]) ? vals["tiny", s] - vals["base", s] : ""
		printf "<text x=\"440\" y=\"%d\" text-anchor=\"end\">%s</text>\n", yy, (dd == "" ? "-" : signed(dd)) > svg
	}
	printf "<text x=\"460\" y=\"%d\">kernel image kept after boot: code, rwdata, rodata, bss.</text>\n", ly + 16 > svg
	printf "<text x=\"460\" y=\"%d\">other reserved: mem_map, page tables, DTB, padding</text>\n", ly + 32 > svg
	printf "<text x=\"460\" y=\"%d\">(RAM - sysinfo total - the four above).</text>\n", ly + 48 > svg
	printf "<text x=\"460\" y=\"%d\">in use: sysinfo total - free (kernel allocations,</text>\n", ly + 64 > svg
	printf "<text x=\"460\" y=\"%d\">the initramfs files, the program). Figures from boot 1.</text>\n", ly + 80 > svg
	printf "</svg>\n" > svg
}' "$data"
