#!/usr/bin/env python3
"""measure/kernels-render.py DATA.env OUT: the report of measure/kernels.sh.

Reads its key=value lines (BOARD.key=value, cmp.NAME.key=value and a few
plain keys) and writes OUT.md (the boards as columns, then the
bloat-o-meter comparisons), OUT.json (the same figures by board and by
comparison) and OUT.svg (what each change saves: bloat-o-meter totals, and
the smallest RAM per board). Prints the Markdown on stdout.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import report  # noqa: E402

LABELS = {
    "base": "6.1<br>splice=y",
    "tiny": "6.1<br>splice=n",
    "base-6.12": "6.12 (DCE)<br>splice=y",
    "tiny-6.12": "6.12 (DCE)<br>splice=n",
    "base-nodce-6.12": "6.12, no DCE<br>splice=y",
    "tiny-nodce-6.12": "6.12, no DCE<br>splice=n",
    "tiny-slub-6.12": "6.12 (DCE), SLUB_TINY=n<br>splice=n",
    "tiny-flash-6.12": "6.12 (DCE), files on flash<br>splice=n",
    "trim-6.12": "6.12 (DCE), only init's syscalls<br>splice=n",
    "trim-flash-6.12": "6.12 (DCE), files on flash, only init's syscalls<br>splice=n",
}

# (key, row title, unit), in table order
ROWS = [
    ("vmlinux_text", "vmlinux text", "B"),
    ("vmlinux_data", "vmlinux data", "B"),
    ("vmlinux_bss", "vmlinux bss", "B"),
    ("zimage", "zImage", "B"),
    ("mem_available_k", "Memory: available", "KiB"),
    ("code_k", "Memory: kernel code", "KiB"),
    ("rwdata_k", "Memory: rwdata", "KiB"),
    ("rodata_k", "Memory: rodata", "KiB"),
    ("init_k", "Memory: init", "KiB"),
    ("bss_k", "Memory: bss", "KiB"),
    ("app_free_k", "free after boot", "KiB"),
    ("app_after_free_k", "free after serving", "KiB"),
    ("min_ram_k", "smallest -m serving {clients} clients", "KiB"),
]

COMPARISONS = [
    ("splice-6.1", "splice=n on 6.1"),
    ("splice-6.12", "splice=n on 6.12 (with dead-code elimination)"),
    ("splice-6.12-nodce", "splice=n on 6.12 without dead-code elimination"),
    ("dce-6.12", "dead-code elimination alone (6.12 tiny)"),
    ("slub-tiny-6.12", "SLUB_TINY=y against n (6.12 tiny)"),
    ("flash-6.12", "the flash board's MTD, CFI flash and romfs (6.12 tiny)"),
    ("trim-6.12", "the syscall table cut to init's calls (6.12 tiny, CONFIG_SYSCALL_ALLOWLIST)"),
    ("trim-flash-6.12", "the same list on the flash board (6.12 tiny-flash)"),
]


def value(v):
    """A whole number as int, an empty value as None, else the text."""
    if v == "":
        return None
    return v if report.num(v) is None else report.num(v)


def figures_of(data, prefix):
    """The keys under "prefix." as a dict of value()s."""
    p = prefix + "."
    return {k[len(p):]: value(v) for k, v in data.items() if k.startswith(p)}


def cell(v):
    return "-" if v in (None, "") else report.commas(v)


def board_rows(boards, figs, clients):
    rows = []
    for key, title, unit in ROWS:
        row = ["%s (%s)" % (title.format(clients=clients), unit)]
        for b in boards:
            v = cell(figs[b].get(key))
            status = figs[b].get("min_ram_status")
            if key == "min_ram_k" and status not in (None, "found"):
                v = "%s %s" % (status, v)
            row.append(v)
        rows.append(row)
    rows.append(["served at -m RAM"] + ["yes" if figs[b].get("served") == 1 else "NO"
                                        for b in boards])
    return rows


def comparisons(data):
    """[(name, title, figures)] for the comparisons that were measured."""
    found = []
    for name, title in COMPARISONS:
        f = figures_of(data, "cmp." + name)
        if f:
            found.append((name, title, f))
    return found


def whole(f, key):
    """f[key] when it is a whole number, else None (drawn as "no figure")."""
    v = f.get(key)
    return v if isinstance(v, int) else None


def chart(path, boards, figs, cmps, clients):
    groups = [
        {"title": "What each change removes (bloat-o-meter)", "unit": "B",
         "bars": [(title, whole(f, "bloat_delta"), i) for i, (_, title, f) in enumerate(cmps)]},
        {"title": "Smallest RAM serving %s clients" % clients, "unit": "KiB",
         "bars": [(LABELS.get(b, b).replace("<br>", ", "), whole(figs[b], "min_ram_k"), i)
                  for i, b in enumerate(boards)]},
    ]
    report.svg_chart(path, "The board on Linux 6.1 and 6.12", groups)


def render(data_path, out):
    data = report.load_env(data_path)
    boards = data.get("boards", "").split()
    clients = data.get("min_clients", "64")
    figs = {b: figures_of(data, b) for b in boards}
    cmps = comparisons(data)
    md = ["# The board on Linux 6.1 and 6.12 (%s)" % data.get("date", "?"), "",
          "One run of `make measure-kernels`: one boot per board at -m %sM with %s "
          "sequential fetches of test.bin, and the smallest -m that boots and serves "
          "%s clients at once (steps of %s KiB, two boots per size). "
          "DCE = LD_DEAD_CODE_DATA_ELIMINATION=y, which the 6.12 board's defconfig "
          "has (kernel/6.12/configs/vexpress_tiny.fragment)." % (
              data.get("ram_mib"), data.get("serves"), clients, data.get("min_fine_k")), ""]
    md += report.md_table([""] + [LABELS.get(b, b) for b in boards],
                          board_rows(boards, figs, clients))
    md += [""]
    md += report.md_table(
        ["comparison", "from -> to", "bloat-o-meter total (B)", "largest removals"],
        [[title, "%s -> %s" % (f.get("from"), f.get("to")), cell(f.get("bloat_delta")),
          ", ".join(str(f[k]) for k in sorted(f) if k.startswith("removed_"))]
         for _, title, f in cmps],
        ["l", "l", "r", "l"])
    warnings = [v for k, v in sorted(data.items()) if k.startswith("warning_")]
    if warnings:
        md += ["", "Warnings:"] + ["- " + w for w in warnings]
    text = "\n".join(md) + "\n"
    with open(out + ".md", "w") as f:
        f.write(text)
    report.write_json(out + ".json", {
        "date": data.get("date"),
        "ram_mib": report.num(data.get("ram_mib")),
        "min_clients": report.num(clients),
        "boards": figs,
        "comparisons": {name: f for name, _, f in cmps},
        "warnings": warnings,
    })
    chart(out + ".svg", boards, figs, cmps, clients)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    report.main(render, __doc__, 2)
