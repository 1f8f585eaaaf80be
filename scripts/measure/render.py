#!/usr/bin/env python3
"""measure/render.py DATA OUT_PREFIX

Turns the figures measure-ram collected (DATA: key=value lines) into the
report: the table on stdout, OUT_PREFIX.md (the same table in Markdown,
with kernel version, config hash and date), OUT_PREFIX.json (schema
measure-ram/1, json.dump) and OUT_PREFIX.svg (what compiling out splice
saves, and free RAM per way of serving).

DATA keys: date kernel_version series_applied config_sha256_{tiny,base}
ram_mib serves; <v>.<size> (vmlinux_text ... initramfs); bloat_* and
removed_N; <v>.run1.<boot figure> and <v>.run2.<boot figure>;
<v>.min_ram_{k,status,step_k,unstable,probes}, min_clients; warning_N;
the serving figures <way>.run<N>.* of serve_ways (measure/serve.sh), with
load_ram_series, free RAM over time under load, drawn as one line per way.
Exit status 0; 2 on a usage error or a missing DATA.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from report import commas, load_env, main, md_table, series, svg_chart, write_json  # noqa: E402

NUMBER = re.compile(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def value(s):
    """A figure as a number, the way the report always read them: the
    leading number of s, 0 when there is none."""
    if isinstance(s, (int, float)):
        return s
    m = NUMBER.match(s or "")
    if not m:
        return 0
    x = float(m.group(0))
    return int(x) if x == int(x) else x


def text(x):
    """A number as the tables print it: whole numbers without a point,
    others with 6 significant digits; strings as they are."""
    if isinstance(x, str):
        return x
    if x == int(x):
        return str(int(x))
    return "%.6g" % x


def jnum(s):
    """The JSON value of a figure: null when missing."""
    if s == "" or s is None:
        return None
    x = value(s)
    return float(text(x)) if isinstance(x, float) else x


def signed(x):
    return ("+" if x > 0 else "") + commas(text(x))


ROWS = (  # key, label, unit, kind, better
    ("vmlinux_text", "vmlinux text", "B", "size", "less"),
    ("vmlinux_data", "vmlinux data", "B", "size", "less"),
    ("vmlinux_bss", "vmlinux bss", "B", "size", "less"),
    ("image", "Image", "B", "size", "less"),
    ("zimage", "zImage", "B", "size", "less"),
    ("uimage", "uImage", "B", "size", "less"),
    ("initramfs", "initramfs.cpio.gz", "B", "size", "less"),
    ("mem_available_k", "Memory: available at -m {ram}M", "KiB", "boot", "more"),
    ("code_k", "Memory: kernel code", "KiB", "boot", "less"),
    ("rwdata_k", "Memory: rwdata", "KiB", "boot", "less"),
    ("rodata_k", "Memory: rodata", "KiB", "boot", "less"),
    ("init_k", "Memory: init", "KiB", "boot", "less"),
    ("bss_k", "Memory: bss", "KiB", "boot", "less"),
    ("reserved_k", "Memory: reserved", "KiB", "boot", "less"),
    ("app_total_k", "sysinfo total RAM after boot", "KiB", "boot", "more"),
    ("app_free_k", "sysinfo free RAM after boot", "KiB", "boot", "more"),
    ("app_after_free_k", "sysinfo free RAM after {serves} x test.bin", "KiB", "boot", "more"),
    ("min_ram_k", "smallest -m serving {min_clients} clients at once", "KiB", "min", "less"),
)

# A saving that rounds to nothing: the row whose saving should show in it
# (None = the vmlinux text + data + bss saving), and why it does not.
ALIGN = ("the Memory: line prints whole KiB of each section span, and section alignment "
         "pads the span; the bytes saved fit in that")
PAGES = ("RAM is reserved and counted in whole 4 KiB pages from a page-aligned kernel end: "
         "the bytes saved fit in the last page's padding")
FREE = ("free RAM moves in 4 KiB pages and with what the kernel allocated by then; a saving "
        "under a page disappears in that")
COMPRESSED = "compressed size: the removed bytes compressed to nothing measurable"
ROUNDS = {
    "code_k": ("vmlinux_text", ALIGN), "rwdata_k": ("vmlinux_data", ALIGN),
    "bss_k": ("vmlinux_bss", ALIGN),
    "image": ("vmlinux_text", "Image ends on a section boundary: the bytes saved fell "
              "inside the alignment padding"),
    "zimage": ("image", COMPRESSED), "uimage": ("image", COMPRESSED),
    "mem_available_k": (None, PAGES), "reserved_k": (None, PAGES), "app_total_k": (None, PAGES),
    "app_free_k": (None, FREE), "app_after_free_k": (None, FREE),
    "min_ram_k": (None, "the bisection step is {step} KiB; the bytes saved are less than one step"),
}


class Row:
    """One figure of the table: its values on both boards (two boots for
    boot figures), the saving, its range over every pair of boots, a note."""

    def __init__(self, d, applied, key, label, unit, kind, better):
        self.key, self.label, self.unit, self.kind, self.better = key, label, unit, kind, better
        self.v, self.v2, self.unstable = {}, {}, ""
        for v in ("base", "tiny"):
            if kind == "size":
                a = b = d.get(v + "." + key, "")
            elif kind == "boot":
                a, b = d.get(v + ".run1." + key, ""), d.get(v + ".run2." + key, "")
            else:
                a = b = d.get(v + ".min_ram_k", "")
            self.v[v], self.v2[v] = a, b
            if a != "" and b != "" and a != b:
                self.unstable += "%s runs %s / %s; " % (v, a, b)
        self.s = self.pct = self.smin = self.smax = ""
        self.noise = False
        if self.v["base"] == "" or self.v["tiny"] == "":
            return
        if not applied:
            # Identical kernels: no saving to report. A difference between
            # the two columns is boot-to-boot noise, and said so.
            self.s = self.smin = self.smax = 0
            self.pct = "0.00"
            self.noise = self.v["base"] != self.v["tiny"] or bool(self.unstable)
            return
        self.s = self.saving(self.v["base"], self.v["tiny"])
        base = value(self.v["base"])
        self.pct = "%.2f" % (100 * self.s / base) if base != 0 else ""
        # Over every pair of boots (base boot i, tiny boot j): the range.
        xs = [self.saving(b, t) for b, t in ((self.v["base"], self.v["tiny"]),
                                             (self.v2["base"], self.v["tiny"]),
                                             (self.v["base"], self.v2["tiny"]),
                                             (self.v2["base"], self.v2["tiny"]))
              if b != "" and t != ""]
        self.smin, self.smax = min(xs), max(xs)

    def saving(self, b, t):
        return value(b) - value(t) if self.better == "less" else value(t) - value(b)

    def name(self):
        return "%s (%s)" % (self.label, self.unit)

    def cell(self, v):
        a, b = self.v[v], self.v2[v]
        if a == "":
            return "pending"
        s = commas(a)
        if b != "" and b != a:
            s += " / " + commas(b) + " (!)"
        return s

    def savecell(self):
        if self.s == "":
            return "-"
        if self.smin != self.smax:
            return signed(self.smin) + ".." + signed(self.smax)
        return signed(self.s)

    def pctcell(self):
        if self.pct == "":
            return "-"
        return ("+" if float(self.pct) > 0 else "") + self.pct + "%"

    def runs(self, v):
        if self.kind != "boot":
            return [jnum(self.v[v])]
        return [jnum(self.v[v]), jnum(self.v2[v])]

    def json(self, note):
        return {"label": self.label, "unit": self.unit, "better": self.better,
                "base": jnum(self.v["base"]), "tiny": jnum(self.v["tiny"]),
                "base_runs": self.runs("base"), "tiny_runs": self.runs("tiny"),
                "stable": not self.unstable, "saving": jnum(self.s),
                "saving_min": jnum(self.smin), "saving_max": jnum(self.smax),
                "saving_pct": jnum(self.pct), "note": note}


def notes(d, applied, rows):
    """{row key: note}: pending figures, boots that disagree, savings that
    round to nothing and why, the bisection's caveats."""
    r = {row.key: row for row in rows}
    note = {}

    def add(k, s):
        note[k] = note[k] + "; " + s if note.get(k) else s

    def has(k):
        return d.get(k, "") != ""

    pend = {}
    after = ("base.run1.app_after_free_k", "tiny.run1.app_after_free_k")
    if not has(after[0]) and not has(after[1]):
        pend["app_after_free_k"] = ("the program's console stats line does not print sysinfo "
                                    "free RAM (yet)")
    elif not has(after[0]) or not has(after[1]):
        pend["app_after_free_k"] = "no stats line with RAM from " + (
            "tiny" if has(after[0]) else "base")
    bytes_saved = sum(value(r[k].v["base"]) - value(r[k].v["tiny"])
                      for k in ("vmlinux_text", "vmlinux_data", "vmlinux_bss"))
    for row in rows:
        k = row.key
        if k in pend:
            note[k] = "pending: " + pend[k]
            continue
        if row.unstable:
            note[k] = "differs between the two runs: " + row.unstable[:-2]
        if row.noise:
            add(k, "identical kernels, so the difference between the columns is boot-to-boot "
                "noise, not a saving")
        if not applied or row.s == "" or row.s != 0 or k not in ROUNDS:
            continue
        basis, why = ROUNDS[k]
        base_saving = bytes_saved if basis is None else value(r[basis].s)
        if base_saving > 0:
            add(k, "saves nothing: " + why.format(step=d.get("tiny.min_ram_step_k", "")))
    # Serving costs the tiny board RAM the base board does not spend: its
    # program copies through the read/write fallback, whose buffer is only
    # touched then.
    s = r["app_after_free_k"].s
    if applied and s != "" and s < 0:
        add("app_after_free_k", "less free on tiny: what the read/write fallback left behind "
            "after serving (its buffer is unmapped when no body is in flight; see the serving "
            "table)")
    u = ", ".join("%s at %s KiB" % (v, d[v + ".min_ram_unstable"]) for v in ("tiny", "base")
                  if d.get(v + ".min_ram_unstable", "") != "")
    if u:
        add("min_ram_k", "the two boots disagreed (%s): counted as not serving; that is the "
            "noise of this figure" % u)
    for v in ("tiny", "base"):
        st = d.get(v + ".min_ram_status", "")
        if st == "gt_hi":
            add("min_ram_k", v + " did not serve at the upper bound of the bisection")
        elif st == "le_lo":
            add("min_ram_k", "%s served at the lower bound (%s KiB): the figure is an upper "
                "bound" % (v, r["min_ram_k"].v[v]))
    return note


def targets(d, applied, r):
    """[(key, label, target, value, met)]; value "" when pending."""
    ram, mc = d.get("ram_mib", ""), d.get("min_clients", "")
    removed = -value(d["bloat_delta"]) if d.get("bloat_delta", "") != "" else ""
    free = r["app_free_k"].smin
    base_min = r["min_ram_k"].v["base"]
    tiny_min = r["min_ram_k"].v["tiny"]
    return [
        ("bloat_removed_bytes", "bloat-o-meter: bytes removed on tiny", 9000, removed,
         removed != "" and removed >= 9000),
        ("free_ram_after_boot_kib",
         "more free RAM after boot on tiny (KiB, -m %sM, worst pair of boots)" % ram, 8, free, free != "" and free >= 8),
        ("tiny_min_ram_kib",
         "smallest RAM serving %s clients, tiny (KiB, at most base's)" % mc,
         base_min if base_min != "" else None, tiny_min,
         tiny_min != "" and base_min != "" and value(tiny_min) <= value(base_min)),
    ]


def verdict(applied, i, t, no):
    if not applied and i < 2:
        return "n/a: the series is not applied"
    if t[3] == "":
        return "pending"
    return "met" if t[4] else no


def removed_list(d):
    out = []
    i = 1
    while "removed_%d" % i in d:
        a = d["removed_%d" % i].split()
        out.append((a[0] if a else "", a[1] if len(a) > 1 else ""))
        i += 1
    return out


def warnings(d, applied):
    w = []
    if not applied:
        w.append("the splice series is not applied: the two configs are identical, so there is "
                 "nothing to compare; every saving below is 0 by construction, not a measurement")
    i = 1
    while "warning_%d" % i in d:
        w.append(d["warning_%d" % i])
        i += 1
    return w


def render(data, out):
    if not os.path.isfile(data):
        print("measure-render: missing " + data, file=sys.stderr)
        return 2
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    d = load_env(data)
    applied = d.get("series_applied") == "true"
    ram, serves = d.get("ram_mib", ""), d.get("serves", "")
    fmt = {"ram": ram, "serves": serves, "min_clients": d.get("min_clients", "")}
    rows = [Row(d, applied, k, label.format(**fmt), u, kind, b)
            for k, label, u, kind, b in ROWS]
    r = {row.key: row for row in rows}
    note = notes(d, applied, rows)
    meminfo = ("not read: the program mounts nothing, so it cannot open /proc/meminfo; sysinfo "
               "gives total and free" if d.get("proc_fs") == "y" else
               "not available: the kernel is built without /proc (CONFIG_PROC_FS off); sysinfo "
               "gives total and free")
    warn = warnings(d, applied)
    tg = targets(d, applied, r)
    removed = removed_list(d)

    def shown(t):
        return "pending" if t[3] == "" else text(t[3])

    def target_text(t):
        return "null" if t[2] is None else text(t[2])

    # ---- terminal ----
    t = ["measure-ram: Linux %s, vexpress-a9, -m %sM, %s, series %s" % (
        d.get("kernel_version", ""), ram, d.get("date", ""),
        "applied" if applied else "NOT applied")]
    t += ["WARNING: " + w for w in warn]
    t.append("%-42s %16s %16s %10s %8s" % ("figure", "base (splice=y)", "tiny (splice=n)",
                                           "saving", "%"))
    for row in rows:
        t.append("%-42s %16s %16s %10s %8s" % (row.name(), row.cell("base"), row.cell("tiny"),
                                               row.savecell(), row.pctcell()))
    t.append("%-42s %s" % ("bloat-o-meter base -> tiny", d.get("bloat_line", "")))
    t.append("%-42s %s" % ("", d.get("bloat_total_line", "")))
    t += ["  removed: %-40s %8s B" % (n, commas(b)) for n, b in removed]
    t += ["note: %s: %s" % (row.label, note[row.key]) for row in rows if row.key in note]
    t.append("note: /proc/meminfo (MemTotal, MemFree, MemAvailable): " + meminfo)
    t += ["target: %-56s %s (target %s): %s" % (x[1], shown(x), target_text(x),
                                                 verdict(applied, i, x, "NOT met"))
          for i, x in enumerate(tg)]
    t.append("saving = what the tiny board gains: base - tiny for sizes, tiny - base for free "
             "RAM (boot 1 of each; a..b = the range over both boots).")
    t.append("(!) = the two boots of that board disagreed: both values shown.")
    print("\n".join(t))

    # ---- Markdown ----
    m = ["# What compiling out the splice family saves (vexpress-a9)", "",
         "Linux %s, QEMU vexpress-a9 at -m %s MiB, %s; config sha256 base %s, tiny %s. "
         "Series %s. Each boot figure is from two boots; test.bin fetched %s times." % (
             d.get("kernel_version", ""), ram, d.get("date", ""),
             d.get("config_sha256_base", "")[:12], d.get("config_sha256_tiny", "")[:12],
             "applied" if applied else "**not applied**", serves), ""]
    for w in warn:
        m += ["> **Warning:** %s." % w, ""]
    m += md_table(["figure", "base (splice=y)", "tiny (splice=n)", "saving", "%"],
                  [[row.name(), row.cell("base"), row.cell("tiny"), row.savecell(),
                    row.pctcell()] for row in rows])
    m += ["", "bloat-o-meter (base -> tiny): `%s`, `%s`" % (d.get("bloat_line", ""),
                                                            d.get("bloat_total_line", "")), ""]
    if removed:
        m += md_table(["largest removed function", "bytes"],
                      [["`%s`" % n, commas(b)] for n, b in removed])
        m.append("")
    m += ["- %s: %s" % (row.label, note[row.key]) for row in rows if row.key in note]
    m.append("- /proc/meminfo (MemTotal, MemFree, MemAvailable): %s." % meminfo)
    m += ["- target: %s: %s (target %s): %s" % (x[1], shown(x), target_text(x),
                                                 verdict(applied, i, x, "**not met**"))
          for i, x in enumerate(tg)]
    m += ["", "Saving = what the tiny board gains (base - tiny for sizes, tiny - base for free "
          "RAM), from boot 1 of each; a..b = its range over both boots of each board; (!) = "
          "the two boots of that board disagreed, both values shown. Chart: `measure-ram.svg`."]
    with open(out + ".md", "w") as f:
        f.write("\n".join(m) + "\n")

    # ---- JSON ----
    def min_ram(v):
        k = d.get(v + ".min_ram_k", "")
        return {"kib": jnum(k), "mib": None if k == "" else round(value(k) / 1024, 4),
                "clients": jnum(d.get("min_clients", "")),
                "status": d.get(v + ".min_ram_status", ""),
                "step_kib": jnum(d.get(v + ".min_ram_step_k", "")),
                "unstable": [jnum(x) for x in d.get(v + ".min_ram_unstable", "").split()],
                "probes": d.get(v + ".min_ram_probes", "").split()}

    bloat = {"line": d.get("bloat_line", ""), "total_line": d.get("bloat_total_line", "")}
    for k, key in (("add", "add"), ("remove", "remove"), ("grow", "grow"),
                   ("shrink", "shrink"), ("up", "up"), ("down", "down"), ("delta", "delta"),
                   ("before", "before"), ("after", "after"), ("chg_pct", "chg")):
        bloat[k] = jnum(d.get("bloat_" + key, ""))
    bloat["largest_removed"] = [{"name": n, "bytes": jnum(b)} for n, b in removed]
    j = {"schema": "measure-ram/1", "date": d.get("date", ""),
         "kernel_version": d.get("kernel_version", ""), "series_applied": applied,
         "config_sha256": {"base": d.get("config_sha256_base", ""),
                           "tiny": d.get("config_sha256_tiny", "")},
         "ram_mib": jnum(ram), "serves": jnum(serves),
         "figures": {row.key: row.json(note.get(row.key, "")) for row in rows},
         "bloat_o_meter": bloat, "min_ram": {"base": min_ram("base"), "tiny": min_ram("tiny")},
         "meminfo": None, "meminfo_note": meminfo,
         "targets": {x[0]: {"label": x[1], "target": jnum(x[2]) if x[2] is not None else None,
                            "value": jnum(x[3]),
                            "met": None if x[3] == "" or (not applied and i < 2) else bool(x[4])}
                     for i, x in enumerate(tg)},
         "warnings": warn}
    write_json(out + ".json", j, indent=2)

    chart(d, applied, rows, out + ".svg")
    return 0


SEGMENTS = ("kernel code", "rwdata", "rodata", "bss", "other reserved", "in use after boot",
            "free after boot")
WAYS = {"base-sendfile": "base: sendfile", "tiny-read": "tiny: read/write (default)",
        "tiny-mmap": "tiny: mmap", "tiny-read64k": "tiny: read/write, 64 KiB buffer"}


def series_notes(d, ways, lines):
    """What the line chart draws, and whether each line's lowest point is
    the serving table's lowest free RAM under load (boot 1)."""
    out = ["Over time: each sysinfo sample the server took (at most every 20 ms), from `ram on` "
           "before the clients start to `ram off` after they end."]
    differ = []
    for w, (label, ps, _) in zip(ways, lines):
        table = d.get(w + ".run1.load_low_free_k", "")
        low = min(v for _, v in ps) if ps else None
        if low is not None and table != "" and value(table) != low:
            differ.append("%s: table %s, lowest sample %s" % (label, commas(table), commas(low)))
    if differ:
        out.append("Lowest point differs from the table's lowest (the stats line samples "
                   "once more): " + "; ".join(differ) + ".")
    else:
        out.append("Each line's lowest point is the serving table's lowest free RAM while "
                   "the clients fetch.")
    return out


def chart(d, applied, rows, path):
    """The savings themselves (each group on its own scale), free RAM per
    way of serving (after boot, after the fetches, lowest under load), free
    RAM over time while the clients fetch, one line per way (when the data
    has load_ram_series), and where the RAM goes after boot on each board
    (boot 1)."""
    groups = []
    sizes = [row for row in rows if row.unit == "B"]
    ram = [row for row in rows if row.unit == "KiB"]
    for title, unit, rs in (("what compiling out splice saves: sizes", "B", sizes),
                            ("what compiling out splice saves: RAM", "KiB", ram)):
        groups.append({"title": title + ", tiny against base" if applied else
                       title + " (series NOT applied: none)", "unit": unit,
                       "bars": [(row.label, None if row.s == "" else value(row.s), 0 if
                                 row.unit == "B" else 6) for row in rs]})
    ways = d.get("serve_ways", "").split()
    lines = []
    if ways:
        bars = []
        for i, (key, what) in enumerate((("app_free_k", "after boot"),
                                         ("app_after_free_k", "after the fetches"),
                                         ("load_low_free_k", "lowest while %s clients fetch"
                                          % d.get("load_clients", "")))):
            for w in ways:
                v = d.get("%s.run1.%s" % (w, key), "")
                bars.append(("%s, %s" % (WAYS.get(w, w), what), None if v == "" else value(v), i + 1))
        groups.append({"title": "free RAM per way of serving (boot 1)", "unit": "KiB",
                       "bars": bars})
        lines = [(WAYS.get(w, w), series(d.get(w + ".run1.load_ram_series")), i)
                 for i, w in enumerate(ways)]
        if not any(ps for _, ps, _ in lines):
            lines = []
        if lines:
            groups.append({"title": "free RAM over time while %s clients fetch (boot 1)"
                           % d.get("load_clients", ""), "unit": "KiB", "x_unit": "s",
                           "lines": lines})
    bars = []
    for v in ("base", "tiny"):
        g = {k: d.get("%s.run1.%s" % (v, k), "") for k in
             ("mem_total_k", "app_total_k", "code_k", "rwdata_k", "rodata_k", "bss_k",
              "app_free_k")}
        if "" in (g["mem_total_k"], g["app_total_k"], g["code_k"]):
            bars += [("%s %s" % (v, s), None, i) for i, s in enumerate(SEGMENTS)]
            continue
        x = {k: value(s) for k, s in g.items()}
        seg = [x["code_k"], x["rwdata_k"], x["rodata_k"], x["bss_k"],
               x["mem_total_k"] - x["app_total_k"] - x["code_k"] - x["rwdata_k"] - x["rodata_k"]
               - x["bss_k"], x["app_total_k"] - x["app_free_k"], x["app_free_k"]]
        bars += [("%s %s" % (v, s), seg[i], i) for i, s in enumerate(SEGMENTS)]
    groups.append({"title": "where the RAM goes after boot (boot 1)", "unit": "KiB",
                   "bars": bars})
    notes = ["Savings: base - tiny for sizes, tiny - base for RAM; positive = tiny gains.",
             "Other reserved: mem_map, page tables, DTB, padding (RAM - sysinfo total - "
             "the kernel image kept after boot). In use: sysinfo total - free."]
    if ways and not lines:
        notes.append("The server samples free RAM every 20 ms but reports only the lowest "
                     "(not yet the samples over time): the chart shows that lowest.")
    elif ways:
        notes += series_notes(d, ways, lines)
    svg_chart(path, "What compiling out the splice family saves (vexpress-a9, -m %s MiB)"
              % d.get("ram_mib", ""), groups, notes)


if __name__ == "__main__":
    main(render, __doc__, 2)
