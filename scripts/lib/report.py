"""report: what every report renderer of the board shares (measure-ram and
its serving and audit sections, measure-stock, peers).

  load_env(path)           measure-ram's key=value files as a dict
  num(v)                   int(v), or None
  series(s)                "T:F T:F ..." (ms:KiB) as [(seconds, KiB)]
  commas(n)                1234567 -> "1,234,567" (as printed in every table)
  md_table(head, rows, align)   a Markdown table, as a list of lines
  write_json(path, obj)    json.dump, with a final newline
  update_json(path, key, value)  add one object to a report's JSON
  svg_chart(path, title, groups, notes)  the one SVG chart: groups of bars
                           and line charts, one under the other
  main(fn, doc, nargs)     the prologue: usage on a wrong argument count
                           (exit 2), else exit with fn(*args)
"""
import json
import sys
from xml.sax.saxutils import escape


def load_env(path):
    """key=value lines of path as a dict (lines without "=" are skipped)."""
    d = {}
    with open(path) as f:
        for line in f:
            k, sep, v = line.rstrip("\n").partition("=")
            if sep:
                d[k] = v
    return d


def num(v):
    """int(v), or None when v is missing or not a whole number."""
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def series(s):
    """measure/boot.sh's load_ram_series, "T:F T:F ..." (ms, KiB), as
    [(seconds, KiB)]; words that are not T:F are skipped."""
    out = []
    for w in (s or "").split():
        t, sep, f = w.partition(":")
        if sep and t.isdigit() and f.isdigit():
            out.append((int(t) / 1000, int(f)))
    return out


def commas(n):
    """A whole number with thousands separators; anything else unchanged."""
    s = str(n)
    digits = s[1:] if s.startswith("-") else s
    if not digits.isdigit() or not digits.isascii():
        return s
    return "{:,}".format(int(s))


def md_table(head, rows, align=None):
    """The lines of a Markdown table: head, then rows (lists of cells);
    align: one "l" or "r" per column (default: first left, the rest right)."""
    align = align or ["l"] + ["r"] * (len(head) - 1)
    lines = ["| " + " | ".join(head) + " |",
             "|" + "".join("---|" if a == "l" else "---:|" for a in align)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return lines


def write_json(path, obj, indent=1):
    with open(path, "w") as f:
        json.dump(obj, f, indent=indent)
        f.write("\n")


def update_json(path, key, value, indent=1):
    """Set obj[key] = value in the JSON file path (an empty object when the
    file is missing or not JSON) and write it back."""
    try:
        with open(path) as f:
            obj = json.load(f)
    except (OSError, ValueError):
        obj = {}
    obj[key] = value
    write_json(path, obj, indent)


COLOURS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#9c755f", "#edc948", "#59a14f",
           "#b07aa1")


def svg_chart(path, title, groups, notes=()):
    """Write an SVG chart to path: groups, one under the other, then notes
    (lines of text). A group is {"title", "unit", and either "bars" or
    "lines"}:
      "bars": [(label, value or None, colour index)]: horizontal bars on the
        group's own scale (its largest |value|) from a zero line, so a
        saving of 9 KiB is not drawn next to 26 MiB; no value: "no figure".
        Every bar carries a <title> "label: value unit".
      "lines": [(label, [(x, y), ...], colour index)], with "x_unit": a
        line chart, y on the range of every point (not from zero), x from
        0; each line's lowest point is marked with its value, and the
        legend names it; a line without points says "no figure"."""
    out = []
    y = 40
    for g in groups:
        y = (_lines(g, y, out) if "lines" in g else _bars(g, y, out)) + 8
    for n in notes:
        y += 16
        out.append('<text x="%d" y="%d">%s</text>' % (X_LABEL, y, escape(n)))
    h = y + 14
    with open(path, "w") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
                'font-family="sans-serif" font-size="12">\n' % (900, h))
        f.write('<rect width="100%" height="100%" fill="white"/>\n')
        f.write('<text x="10" y="22" font-size="15">%s</text>\n' % escape(title))
        f.write("\n".join(out) + "\n</svg>\n")


X_LABEL, X0, BW, BH, GAP = 10, 330, 420, 14, 4  # label column, plot left, plot width


def _heading(g, y, out):
    y += 18
    out.append('<text x="%d" y="%d" font-weight="bold">%s (%s)</text>' % (
        X_LABEL, y, escape(g["title"]), escape(g["unit"])))
    return y + 6


def _bars(g, y, out):
    """One group of bars (see svg_chart) from y down; returns where it ends."""
    vals = [abs(v) for _, v, _ in g["bars"] if v is not None]
    scale = max(vals) if vals and max(vals) > 0 else 1
    neg = any(v is not None and v < 0 for _, v, _ in g["bars"])
    zero = X0 + (BW / 2 if neg else 0)
    width = BW / 2 if neg else BW
    y = _heading(g, y, out)
    top = y
    for label, v, c in g["bars"]:
        out.append('<text x="%d" y="%d">%s</text>' % (X_LABEL, y + BH - 3, escape(label)))
        tip = "%s: %s %s" % (label, "no figure" if v is None else v, g["unit"])
        if v is None:
            out.append('<text x="%.2f" y="%d" fill="#777">no figure<title>%s</title></text>'
                       % (zero + 4, y + BH - 3, escape(tip)))
        else:
            ww = width * abs(v) / scale
            x = zero - ww if v < 0 else zero
            out.append('<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s">'
                       '<title>%s</title></rect>' % (x, y, ww, BH,
                                                     COLOURS[c % len(COLOURS)], escape(tip)))
            tx = zero + ww + 4 if v >= 0 else zero + 4
            out.append('<text x="%.2f" y="%d">%s</text>' % (
                tx, y + BH - 3, escape(commas(v) if isinstance(v, int) else str(v))))
        y += BH + GAP
    out.append('<line x1="%.2f" y1="%d" x2="%.2f" y2="%d" stroke="black"/>' % (
        zero, top - 2, zero, y - GAP + 2))
    return y


def _number(v):
    return commas(v) if isinstance(v, int) else "%g" % v


def _lines(g, y, out):
    """One line chart (see svg_chart) from y down; returns where it ends.
    The legend is in the label column, the y axis's figures right of the
    plot, the x axis's under it."""
    pts = [p for _, ps, _ in g["lines"] for p in ps]
    y = _heading(g, y, out)
    ph = max(160, len(g["lines"]) * (BH + GAP) * 2)
    top, bottom = y + 4, y + 4 + ph
    xmax = max([x for x, _ in pts] + [0]) or 1
    lo = min(v for _, v in pts) if pts else 0
    hi = max(v for _, v in pts) if pts else 1
    lo, hi = (lo - 1, hi + 1) if lo == hi else (lo, hi)

    def px(x):
        return X0 + BW * x / xmax

    def py(v):
        return bottom - ph * (v - lo) / (hi - lo)

    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>'
               % (X0, top, BW, ph))
    for v in (hi, (lo + hi) / 2, lo):
        v = int(round(v)) if isinstance(lo, int) else v
        out.append('<text x="%d" y="%.2f">%s</text>' % (X0 + BW + 4, py(v) + 4, escape(_number(v))))
    for x in (0, xmax / 2, xmax):
        out.append('<text x="%.2f" y="%d" text-anchor="middle">%s %s</text>' % (
            px(x), bottom + 14, escape("%g" % round(x, 2)), escape(g["x_unit"])))
    ly = top
    for label, ps, c in g["lines"]:
        colour = COLOURS[c % len(COLOURS)]
        if not ps:
            out.append('<text x="%d" y="%d" fill="#777">%s: no figure</text>'
                       % (X_LABEL, ly + BH - 3, escape(label)))
            ly += BH + GAP
            continue
        mx, mv = min(ps, key=lambda p: (p[1], p[0]))
        tip = "%s: lowest %s %s at %g %s" % (label, _number(mv), g["unit"], mx, g["x_unit"])
        out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/>'
                   % (X_LABEL, ly + 2, colour))
        out.append('<text x="%d" y="%d">%s</text>' % (X_LABEL + 14, ly + BH - 3,
                                                      escape("%s: lowest %s" % (label, _number(mv)))))
        out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s">'
                   '<title>%s</title></polyline>' % (
                       colour, " ".join("%.2f,%.2f" % (px(x), py(v)) for x, v in ps), escape(tip)))
        out.append('<circle cx="%.2f" cy="%.2f" r="3" fill="%s"><title>%s</title></circle>'
                   % (px(mx), py(mv), colour, escape(tip)))
        ly += BH + GAP
    return bottom + 18


def main(fn, doc, nargs):
    """The renderers' prologue: fn(*sys.argv[1:]) with nargs arguments."""
    if len(sys.argv) != nargs + 1:
        print(doc, file=sys.stderr)
        sys.exit(2)
    sys.exit(fn(*sys.argv[1:]))
