"""report: what every report renderer of the board shares (measure-ram and
its serving and audit sections, measure-stock, peers).

  load_env(path)           measure-ram's key=value files as a dict
  num(v)                   int(v), or None
  commas(n)                1234567 -> "1,234,567" (as printed in every table)
  md_table(head, rows, align)   a Markdown table, as a list of lines
  write_json(path, obj)    json.dump, with a final newline
  update_json(path, key, value)  add one object to a report's JSON
  svg_chart(path, title, groups, notes)  the one SVG chart: groups of bars
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
    """Write an SVG of horizontal bars to path. groups: [{"title", "unit",
    "bars": [(label, value or None, colour index)]}]; each group has its own
    scale (its largest |value|) and a zero line, so a saving of 9 KiB is not
    drawn next to 26 MiB. A bar without a value says "no figure". notes:
    lines under the chart. Every bar carries a <title> "label: value unit"."""
    w, x_label, x0, bw, bh, gap = 900, 10, 330, 420, 14, 4
    out = []
    y = 40
    for g in groups:
        vals = [abs(v) for _, v, _ in g["bars"] if v is not None]
        scale = max(vals) if vals and max(vals) > 0 else 1
        neg = any(v is not None and v < 0 for _, v, _ in g["bars"])
        zero = x0 + (bw / 2 if neg else 0)
        width = bw / 2 if neg else bw
        y += 18
        out.append('<text x="%d" y="%d" font-weight="bold">%s (%s)</text>' % (
            x_label, y, escape(g["title"]), escape(g["unit"])))
        y += 6
        top = y
        for label, v, c in g["bars"]:
            out.append('<text x="%d" y="%d">%s</text>' % (x_label, y + bh - 3, escape(label)))
            tip = "%s: %s %s" % (label, "no figure" if v is None else v, g["unit"])
            if v is None:
                out.append('<text x="%.2f" y="%d" fill="#777">no figure<title>%s</title></text>'
                           % (zero + 4, y + bh - 3, escape(tip)))
            else:
                ww = width * abs(v) / scale
                x = zero - ww if v < 0 else zero
                out.append('<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s">'
                           '<title>%s</title></rect>' % (x, y, ww, bh,
                                                         COLOURS[c % len(COLOURS)], escape(tip)))
                tx = zero + ww + 4 if v >= 0 else zero + 4
                out.append('<text x="%.2f" y="%d">%s</text>' % (
                    tx, y + bh - 3, escape(commas(v) if isinstance(v, int) else str(v))))
            y += bh + gap
        out.append('<line x1="%.2f" y1="%d" x2="%.2f" y2="%d" stroke="black"/>' % (
            zero, top - 2, zero, y - gap + 2))
        y += 8
    for n in notes:
        y += 16
        out.append('<text x="%d" y="%d">%s</text>' % (x_label, y, escape(n)))
    h = y + 14
    with open(path, "w") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
                'font-family="sans-serif" font-size="12">\n' % (w, h))
        f.write('<rect width="100%" height="100%" fill="white"/>\n')
        f.write('<text x="10" y="22" font-size="15">%s</text>\n' % escape(title))
        f.write("\n".join(out) + "\n</svg>\n")


def main(fn, doc, nargs):
    """The renderers' prologue: fn(*sys.argv[1:]) with nargs arguments."""
    if len(sys.argv) != nargs + 1:
        print(doc, file=sys.stderr)
        sys.exit(2)
    sys.exit(fn(*sys.argv[1:]))
