#!/usr/bin/env python3
"""measure/stock-render.py DATA_ENV OUT_PREFIX: the report of
scripts/measure/stock.sh (its key=value DATA_ENV): the stock kernel
(vexpress_defconfig + EXPERT) against the same with the audit fragment, and
what each option of the fragment saves. Prints the report, writes
OUT_PREFIX.md and OUT_PREFIX.json. Exit status 0, or 1 when a board did not
serve or the per-option figures do not add up to the whole."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from report import load_env, main, num, write_json  # noqa: E402

BOARDS = (("vexpress", "stock"), ("vexpress_trim", "trimmed"))
ROWS = (  # (label, key under each board, unit, +1: more is better)
    ("vmlinux text", "vmlinux_text", "B", -1),
    ("vmlinux data", "vmlinux_data", "B", -1),
    ("vmlinux bss", "vmlinux_bss", "B", -1),
    ("Image", "image", "B", -1),
    ("zImage", "zimage", "B", -1),
    ("Memory: available", "boot.mem_available_k", "KiB", 1),
    ("free RAM after boot", "boot.app_free_k", "KiB", 1),
    ("free RAM after serving", "boot.app_after_free_k", "KiB", 1),
    ("smallest RAM that boots and serves", "min_ram_k", "KiB", -1),
)


def options(d):
    """[{name, delta, line, text, held, deferred, seconds}] in the order measured."""
    out = []
    for o in d.get("options", "").split():
        p = "option_%s_" % o
        out.append({"name": o, "delta": num(d.get(p + "delta")), "line": d.get(p + "line"),
                    "text": num(d.get(p + "text")),
                    "held": {"1": True, "0": False}.get(d.get(p + "held")),
                    "deferred": d.get(p + "deferred") == "1",
                    "seconds": num(d.get(p + "seconds"))})
    return out


def table(d):
    """[{figure, unit, stock, trimmed, saving}]: the saving is positive when
    the trimmed board is better (smaller, or more RAM free)."""
    rows = []
    for label, key, unit, better in ROWS:
        a, b = (num(d.get("%s.%s" % (k, key))) for k, _ in BOARDS)
        rows.append({"figure": label, "unit": unit, "stock": a, "trimmed": b,
                     "saving": (b - a) * better if a is not None and b is not None else None})
    return rows


def fmt(v):
    return "pending" if v is None else "{:,}".format(v)


def render(data, out):
    d = load_env(data)
    opts = options(d)
    rows = table(d)
    total = num(d.get("bloat_delta"))
    summed = sum(o["delta"] for o in opts if o["delta"] is not None) if opts else None
    served = {k: d.get("%s.boot.served" % k) == "1" for k, _ in BOARDS}
    removed = [d[k].rsplit(" ", 1) for k in sorted(d, key=lambda k: num(k[8:]) or 0)
               if k.startswith("removed_")]
    warnings = [d[k] for k in sorted(d) if k.startswith("warning_")]
    j = {
        "date": d.get("date"), "ram_mib": num(d.get("ram_mib")),
        "min_clients": num(d.get("min_clients")),
        "min_ram_search": {"lo_mib": num(d.get("min_lo")), "hi_mib": num(d.get("min_hi")),
                           "step_k": num(d.get("min_fine"))},
        "fragment": d.get("fragment_options", "").split(),
        "config_changed_with_it": d.get("config_changed", "").split(),
        "config_gone_with_it": d.get("config_gone", "").split(),
        "bloat_o_meter": {"delta": total, "line": d.get("bloat_line"),
                          "total_line": d.get("bloat_total_line"),
                          "largest_removed": [{"name": n, "bytes": num(b)} for n, b in removed]},
        "figures": rows,
        "options": opts,
        "options_sum": summed,
        "options_chain_matches_trim": d.get("chain_matches_trim") == "1",
        "served": served,
        "warnings": warnings,
    }
    adds_up = opts and summed == total and j["options_chain_matches_trim"]
    lines = ["stock vexpress_defconfig (+EXPERT, series applied) against stock + the audit "
             "fragment (%d options =n)" % len(j["fragment"]),
             "  %-40s %14s %14s %12s" % ("", "stock", "trimmed", "saving")]
    for r in rows:
        lines.append("  %-40s %14s %14s %12s" % (
            "%s (%s)" % (r["figure"], r["unit"]), fmt(r["stock"]), fmt(r["trimmed"]),
            fmt(r["saving"])))
    lines.append("  bloat-o-meter stock -> trimmed: %s" % d.get("bloat_line"))
    if j["config_gone_with_it"]:
        lines.append("  also gone (options that depend on those turned off): %d, among them %s"
                     % (len(j["config_gone_with_it"]), " ".join(
                         o for o in j["config_gone_with_it"]
                         if o in ("NFS_FS", "ROOT_NFS", "SUNRPC", "TRACING", "NAMESPACES",
                                  "SECURITY", "HW_PERF_EVENTS", "PTP_1588_CLOCK"))))
    lines.append("  per option (one build each, in this order; bytes saved):")
    for o in opts:
        lines.append("    CONFIG_%-24s %8s%s" % (
            o["name"], fmt(-o["delta"] if o["delta"] is not None else None),
            "  (did NOT hold: something selects it)" if o["held"] is False else
            "  (measured last: an option on until then selected it)" if o["deferred"] else ""))
    if opts:
        lines.append("    sum %s, whole fragment %s: %s" % (
            fmt(-summed if summed is not None else None), fmt(-total if total is not None else None),
            "they agree" if adds_up else "THEY DO NOT AGREE"))
    lines.append("  both boot and serve test.bin at -m %s MiB: stock %s, trimmed %s" % (
        d.get("ram_mib"), "yes" if served["vexpress"] else "NO",
        "yes" if served["vexpress_trim"] else "NO"))
    for w in warnings:
        lines.append("  warning: " + w)
    print("\n".join(lines))

    with open(out + ".md", "w") as f:
        f.write("# make audit BASE=vexpress: init on the stock vexpress_defconfig\n\n")
        f.write("Measured %s. Stock: the kernel's own `vexpress_defconfig` with EXPERT=y and "
                "the CONFIG_SYSCALL_SPLICE series applied (splice on, as by default). Trimmed: "
                "the same plus the fragment `make audit BASE=vexpress` wrote for init: %s.\n\n" % (
                    d.get("date"), ", ".join("CONFIG_%s=n" % o for o in j["fragment"])))
        if j["config_gone_with_it"]:
            f.write("Options on in stock that go with them (they depend on one of the "
                    "options turned off; init needs none of them, a product might): %s.\n\n"
                    % ", ".join(j["config_gone_with_it"]))
        f.write("| figure | stock | trimmed | saving |\n|---|---:|---:|---:|\n")
        for r in rows:
            f.write("| %s (%s) | %s | %s | %s |\n" % (r["figure"], r["unit"], fmt(r["stock"]),
                                                     fmt(r["trimmed"]), fmt(r["saving"])))
        f.write("\nbloat-o-meter, stock -> trimmed: `%s`\n\n" % d.get("bloat_line"))
        f.write("## What each option saves\n\nOne kernel build per option: a copy of the stock "
                "build folder gets the options turned off one at a time, in this order, and "
                "bloat-o-meter compares each build with the one before. Each figure is what "
                "the option saves with the ones above it already off, so the figures add up "
                "to the whole fragment's saving; code two options share counts for the later "
                "one. bloat-o-meter attribution from one build was not used: a symbol does "
                "not say which option removed it (inlined helpers, `#ifdef`s inside "
                "functions).\n\n| option | bytes saved | build (s) |\n|---|---:|---:|\n")
        for o in opts:
            f.write("| CONFIG_%s%s | %s | %s |\n" % (
                o["name"], " (did not hold)" if o["held"] is False else
                " (measured last: an option on until then selected it)" if o["deferred"] else "",
                fmt(-o["delta"] if o["delta"] is not None else None), fmt(o["seconds"])))
        if opts:
            f.write("| sum | %s | |\n\nThe whole fragment: %s bytes; %s.\n" % (
                fmt(-summed if summed is not None else None),
                fmt(-total if total is not None else None),
                "the per-option builds end in the trimmed .config and add up to it" if adds_up
                else "**the per-option figures do not add up to it**"))
        f.write("\nBoth boards boot and serve test.bin at -m %s MiB: stock %s, trimmed %s. "
                "Smallest RAM: %s clients at once, bisection between %s and %s MiB, then "
                "steps of %s KiB. Free RAM is sysinfo's, which counts the 16 MiB CMA area "
                "(CMA=y in vexpress_defconfig); the Memory: line does not.\n" % (
                    d.get("ram_mib"), "yes" if served["vexpress"] else "no",
                    "yes" if served["vexpress_trim"] else "no", d.get("min_clients"),
                    d.get("min_lo"), d.get("min_hi"), d.get("min_fine")))
        for w in warnings:
            f.write("\n- warning: %s" % w)
    write_json(out + ".json", j)
    return 0 if all(served.values()) and (adds_up or not opts) else 1


if __name__ == "__main__":
    main(render, __doc__, 2)
