#!/usr/bin/env python3
"""measure/serve-render.py DATA OUT_PREFIX: the serving table of measure-ram.

DATA is measure-ram's data.env (key=value lines): the "<way>.run<N>.*"
figures of scripts/measure/serve.sh, the min-ram figures of base, tiny and
"<way>.min_ram_*", and the splice saving (tiny.run<N>.app_free_k against
base's, bloat_delta). Prints the table on the terminal, appends it as a
section to OUT_PREFIX.md and adds a "serving" object to OUT_PREFIX.json:
{"ways": [...], "rows": {key: {label, unit, better, values: {way: [run1,
run2]}, vs_base: {way: [min, max]}}}, "splice_saving": {...}, "targets": {...},
"ram_over_time": {label, unit, time_unit, ways: {way: [run1, run2]}}}, each
run the free RAM samples while the clients fetched, [[seconds, KiB], ...]
(from "<way>.run<N>.load_ram_series"; [] when there were none).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from report import load_env, main, md_table, num, series, update_json  # noqa: E402

MIB = 1024 * 1024
LABELS = {
    "base-sendfile": "base: sendfile",
    "tiny-read": "tiny: read/write (default)",
    "tiny-mmap": "tiny: mmap",
    "tiny-read64k": "tiny: read/write, 64 KiB buffer",
}


def runs(d, way, key):
    return [num(d.get(f"{way}.run{r}.{key}")) for r in (1, 2)]


def per_run(d, way, fn):
    """fn(run_figures) for each run, None where a figure is missing."""
    out = []
    for r in (1, 2):
        f = {k.split(".", 2)[2]: num(v) for k, v in d.items()
             if k.startswith(f"{way}.run{r}.")}
        try:
            out.append(fn(f))
        except (TypeError, ZeroDivisionError, KeyError):
            out.append(None)
    return out


def cpu_per_mib(f):
    return round((f["seq_cpu_ms"] + f["load_cpu_ms"]) / ((f["seq_bytes"] + f["load_bytes"]) / MIB), 1)


def seq_mbps(f):
    return round(f["seq_bytes"] / 1e6 / (f["seq_wall_ms"] / 1000), 2)


def load_mbps(f):
    return round(f["load_bytes"] / 1e6 / (f["load_wall_ms"] / 1000), 2)


def min_ram(d, way):
    key = {"base-sendfile": "base", "tiny-read": "tiny"}.get(way, way)
    v = num(d.get(f"{key}.min_ram_k"))
    return [v, v] if v is not None else [None, None]


def fmt(v):
    if v is None:
        return "-"
    return f"{v:,}" if isinstance(v, int) else f"{v:,.2f}".rstrip("0").rstrip(".")


def cell(vals):
    a, b = vals
    if a is None and b is None:
        return "-"
    if a == b or b is None:
        return fmt(a)
    if a is None:
        return fmt(b)
    return f"{fmt(a)} / {fmt(b)}"


def spread(base, other, better):
    """[worst, best] of (other - base) over every pair of runs, signed so
    that positive is better for the tiny way."""
    xs = [(o - b) if better == "more" else (b - o)
          for b in base if b is not None for o in other if o is not None]
    return [min(xs), max(xs)] if xs else [None, None]


def render(data, out):
    d = load_env(data)
    ways = d.get("serve_ways", "").split()
    if not ways:
        return 0
    serves, clients, mclients = d.get("serves"), d.get("load_clients"), d.get("min_clients")
    rows = [
        ("app_free_k", "free RAM after boot", "KiB", "more", lambda w: runs(d, w, "app_free_k")),
        ("app_after_free_k", f"free RAM after {serves} fetches, one at a time", "KiB", "more",
         lambda w: runs(d, w, "app_after_free_k")),
        ("load_low_free_k", f"lowest free RAM while {clients} clients fetch", "KiB", "more",
         lambda w: runs(d, w, "load_low_free_k")),
        ("cpu_ms_per_mib", "server CPU per MiB sent", "ms", "less", lambda w: per_run(d, w, cpu_per_mib)),
        ("seq_mbps", "throughput, one client", "MB/s", "more", lambda w: per_run(d, w, seq_mbps)),
        ("load_mbps", f"throughput, {clients} clients", "MB/s", "more", lambda w: per_run(d, w, load_mbps)),
        ("min_ram_k", f"smallest -m serving {mclients} clients", "KiB", "less", lambda w: min_ram(d, w)),
    ]
    table = {}
    for key, label, unit, better, get in rows:
        vals = {w: get(w) for w in ways}
        vs = {w: spread(vals["base-sendfile"], vals[w], better) for w in ways if w != "base-sendfile"}
        table[key] = {"label": label, "unit": unit, "better": better, "values": vals, "vs_base": vs}

    saved_free = spread(runs(d, "base", "app_free_k"), runs(d, "tiny", "app_free_k"), "more")
    bloat = num(d.get("bloat_delta"))
    saving = {"bloat_bytes": -bloat if bloat is not None else None,
              "free_ram_after_boot_k": saved_free}

    def worst(key, way):
        return table[key]["vs_base"].get(way, [None, None])[0]

    def ratio(way):
        b = [x for x in table["cpu_ms_per_mib"]["values"]["base-sendfile"] if x]
        t = [x for x in table["cpu_ms_per_mib"]["values"].get(way, []) if x]
        return round(max(t) / min(b), 2) if b and t else None

    targets = {
        "tiny_after_serving_free_k": {
            "label": "tiny (read/write) has more free RAM than base after serving (KiB, worst pair)",
            "target": 8, "value": worst("app_after_free_k", "tiny-read")},
        "tiny_min_ram_vs_base_k": {
            "label": f"tiny (read/write) smallest RAM for {mclients} clients, below base's by (KiB)",
            "target": 0, "value": worst("min_ram_k", "tiny-read")},
        "mmap_cpu_vs_sendfile": {
            "label": "mmap: server CPU per MiB over sendfile's (worst ratio)",
            "target": 1.10, "value": ratio("tiny-mmap")},
        "read_cpu_vs_sendfile": {
            "label": "read/write: server CPU per MiB over sendfile's (worst ratio)",
            "target": 2.0, "value": ratio("tiny-read")},
    }
    for name, t in targets.items():
        v = t["value"]
        t["met"] = None if v is None else (v <= t["target"] if "cpu" in name else v >= t["target"])

    over_time = {"label": f"free RAM over time while {clients} clients fetch", "unit": "KiB",
                 "time_unit": "s",
                 "ways": {w: [[list(p) for p in series(d.get(f"{w}.run{r}.load_ram_series"))]
                              for r in (1, 2)] for w in ways}}

    # Terminal and Markdown.
    head = ["figure"] + [LABELS.get(w, w) for w in ways]
    lines = []
    for key, r in table.items():
        cells = [f"{r['label']} ({r['unit']})"]
        for w in ways:
            c = cell(r["values"][w])
            if w != "base-sendfile":
                lo, hi = r["vs_base"][w]
                if lo is not None:
                    c += f" ({lo:+,})" if lo == hi and isinstance(lo, int) else \
                        f" ({fmt(lo) if lo < 0 else '+' + fmt(lo)}..{fmt(hi) if hi < 0 else '+' + fmt(hi)})"
            cells.append(c)
        lines.append(cells)
    md = ["", "## What each way of serving costs", "",
          f"Each board booted twice at -m {d.get('ram_mib')}M per way: test.bin fetched {serves} times "
          f"one after the other, then by {clients} clients at once; the smallest RAM is for "
          f"{mclients} clients at once, bisected to {d.get('tiny.min_ram_step_k', '?')} KiB, each size booted "
          "twice. A cell gives both boots when they differ; in brackets, the tiny way against base "
          "over every pair of boots, positive = better than base.", "",
          *md_table(head, lines)]
    md += ["", f"Compiling out splice saved: bloat-o-meter {fmt(saving['bloat_bytes'])} B; "
           f"free RAM after boot {fmt(saved_free[0])}..{fmt(saved_free[1])} KiB (tiny against base, -m {d.get('ram_mib')}M).", ""]
    firsts = {w: runs_[0] for w, runs_ in over_time["ways"].items() if runs_[0]}
    if firsts:
        md += [f"Free RAM over time while {clients} clients fetch: `measure-ram.svg`, one line per "
               "way (boot 1), from " + ", ".join(
                   f"{len(s)} samples over {s[-1][0]:g} s ({LABELS.get(w, w)})"
                   for w, s in firsts.items()) + ".", ""]
    for name, t in targets.items():
        state = "n/a" if t["met"] is None else ("met" if t["met"] else "NOT met")
        md.append(f"- target: {t['label']}: {fmt(t['value'])} (target {t['target']}): {state}")
    print("\n".join(md))
    with open(out + ".md", "a") as f:
        f.write("\n".join(md) + "\n")
    update_json(out + ".json", "serving", {"ways": ways, "rows": table,
                                            "splice_saving": saving, "targets": targets,
                                            "ram_over_time": over_time},
                indent=2)
    return 0


if __name__ == "__main__":
    main(render, __doc__, 2)
