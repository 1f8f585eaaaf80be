#!/usr/bin/env python3
"""corpus/debian-uses.py: what a traced program called, in audit/needs.py's
input shape, with the gated arguments the trace printed.

Usage:
  corpus/debian-uses.py KMAP NAMES STRACE OUT_JSON

KMAP    audit/kmap.py's map (its arg_gates give the names of the values:
        CLOCK_REALTIME_COARSE is 5)
NAMES   PROG.trace.names (scripts/corpus/debian-trace.sh)
STRACE  PROG.strace, the raw qemu-arm -strace log: "PID name(args) = ret",
        several calls a line when processes share the log. qemu prints a
        clock as CLOCK_X, a socket family as PF_X (AF_X's value), an fcntl
        command as F_X, clone's flags as CLONE_X|...|0x11, or a number.
OUT_JSON {"program", "syscalls": [names], "uses": [{"syscall", "args":
        {"ARG": [value]}, "at": "trace"}]}, one use per distinct argument. A
        name the row does not know (F_SETFL, a family no file registers)
        counts as -1: a known value the row does not gate.
This is the trace's side, the input of the two-sided fragment until the
image mode (issue 39, item 2) gives each program's static uses.
Exit status 0; 2 on bad input.
"""
import json
import os
import re
import sys


def value(text, row, by_name):
    """The value qemu printed: a number, a name, or for a mask row
    (clone's flags) NAME|NAME|0x11, where a name the row does not know is
    a bit it does not gate (0)."""
    if row.get("mask"):
        v = 0
        for part in text.split("|"):
            v |= int(part, 0) if re.fullmatch(r"0x[0-9a-fA-F]+|\d+", part) else by_name.get(part, 0)
        return v
    return int(text) if re.fullmatch(r"-?\d+", text) else by_name.get(text, -1)


def main(argv):
    if len(argv) != 5:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    kmap_p, names_p, strace_p, out_p = argv[1:]
    with open(kmap_p) as f:
        rows = json.load(f).get("arg_gates", [])
    with open(names_p) as f:
        names = sorted({ln.strip() for ln in f if ln.strip()})
    with open(strace_p, errors="replace") as f:
        text = f.read()
    uses = {}
    for row in rows:
        by_name = {v: int(k) for k, v in row["names"].items()}
        if row["kind"] == "address family":
            by_name.update({"PF_" + n[3:]: v for n, v in list(by_name.items())})
        for n in row["syscalls"]:
            pat = r"(?<![\w])%s\(%s([A-Z_0-9|x]+|-?\d+)[,)]" % (n, r"[^,()]*," * row["arg"])
            for m in re.finditer(pat, text):
                uses.setdefault((n, str(row["arg"])), set()).add(value(m.group(1), row, by_name))
    out = {"program": os.path.basename(names_p).split(".")[0], "syscalls": names,
           "uses": [{"syscall": n, "args": {k: [v]}, "at": "trace"}
                    for (n, k), vals in sorted(uses.items()) for v in sorted(vals)]}
    with open(out_p, "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
