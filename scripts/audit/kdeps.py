#!/usr/bin/env python3
"""audit/kdeps.py: why a `CONFIG_X=y` line did not hold, from Kconfig.

Usage:
  audit/kdeps.py KTREE CONFIG OPTION...

For each OPTION (without CONFIG_), the conditions of its `config` blocks
in KTREE's Kconfig files (`depends on EXPR`, and the `if EXPR` of a
prompt: such an option can only be set by hand when EXPR holds), and the
symbols named in them that are not =y in CONFIG (the .config olddefconfig
wrote). The `if` blocks around the entry (`if NET` in net/Kconfig) are not
read. Prints one line per option:

  X: depends on A && B; prompt if EXPERT; off here: B EXPERT

A negated symbol (`!A`, `!(A && B)`) is not listed: turning it on would not help.
Exit status 0; 2 on bad input.
"""
import os
import re
import subprocess
import sys


def blocks(ktree, opt):
    """The lines of every `config OPT` block."""
    out = subprocess.run(["grep", "-rEn", "--include=Kconfig*", r"^\s*(menu)?config\s+%s\s*$" % opt,
                          "."], cwd=ktree, capture_output=True, text=True,
                         errors="replace").stdout
    found = []
    for hit in out.splitlines():
        path, lineno, _ = hit.split(":", 2)
        with open(os.path.join(ktree, path), errors="replace") as f:
            lines = f.read().splitlines()[int(lineno):]
        block = []
        for line in lines:
            if line.strip() and not line[0].isspace():
                break
            block.append(line)
        found.append(block)
    return found


def conditions(block):
    """['depends on EXPR', 'prompt if EXPR'] of one block."""
    out = []
    for line in block:
        m = re.match(r"\s+depends on\s+(.*)", line)
        if m:
            out.append(("depends on", m.group(1).strip()))
        m = re.match(r'\s+(?:bool|tristate|prompt)\s+"[^"]*"\s+if\s+(.*)', line)
        if m:
            out.append(("prompt if", m.group(1).strip()))
        if re.match(r"\s+help\b", line):
            break
    return out


def main(argv):
    if len(argv) < 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    ktree, config = argv[1], argv[2]
    try:
        with open(config) as f:
            yes = set(re.findall(r"^CONFIG_(\w+)=y$", f.read(), re.M))
    except OSError as e:
        print("audit-kdeps: %s: %s" % (config, e.strerror), file=sys.stderr)
        return 2
    for opt in argv[3:]:
        conds = [c for b in blocks(ktree, opt) for c in conditions(b)]
        pos = [re.sub(r"!\s*(\([^)]*\)|\w+)", " ", e) for _, e in conds]
        off = sorted({s for e in pos for s in re.findall(r"\b([A-Z][A-Z0-9_]+)\b", e)
                      if s not in yes})
        print("%s: %s; off here: %s" % (
            opt, "; ".join("%s %s" % c for c in conds) or "no condition in Kconfig",
            " ".join(off) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
