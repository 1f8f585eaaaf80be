#!/usr/bin/env python3
"""corpus/debian-sound.py: is a fragment sound for a traced program?

Usage:
  corpus/debian-sound.py KMAP KMAP_TINY TINY_CONFIG NAMES FRAGMENT OUT_JSON

KMAP         audit/kmap.py's map for the configuration audited
KMAP_TINY    the same for the tiny board's configuration
TINY_CONFIG  the tiny board's .config
NAMES        PROG.trace.names (scripts/corpus/debian-trace.sh): the syscalls
             the program made, one a line
FRAGMENT     audit/report.py's fragment for the program

Sound: no option that a traced syscall requires (KMAP's "requires": every
option its entry point needs, FUTEX and COMPAT_32BIT_TIME for futex) is
turned off by FRAGMENT ("# CONFIG_X is not set"). Prints one line per
broken option and exits 1 when there is one; prints, not judged, the
options the traces need that the tiny board has off, and the traced
syscalls kmap.py could not map to an option ("unmapped_optional"). OUT_JSON
gets all of it. Exit status 2 on bad input.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import fragment_off as off_in  # noqa: E402  (the corpus check's own reader)


def on_in(config):
    with open(config) as f:
        return {m.group(1) for m in (re.match(r"CONFIG_([A-Za-z0-9_]+)=[ym]$", l.strip())
                                     for l in f) if m}


def needs(names, kmap, options):
    """{option: [syscalls]}: the options of OPTIONS that a traced syscall
    requires."""
    out = {}
    for s in names:
        for opt in kmap["syscalls"].get(s, {}).get("requires", []):
            if opt in options:
                out.setdefault(opt, []).append(s)
    return out


def main(argv):
    if len(argv) != 7:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    kmap_p, tiny_kmap_p, tiny_p, names_p, frag_p, out_p = argv[1:]
    kmap, tiny_kmap = (json.load(open(p)) for p in (kmap_p, tiny_kmap_p))
    with open(names_p) as f:
        names = sorted({l.strip() for l in f if l.strip()})
    if not names:
        print("%s: no syscalls" % names_p, file=sys.stderr)
        return 2
    prog = os.path.basename(names_p).split(".")[0]
    unknown = [s for s in names if s not in kmap["syscalls"]]
    if unknown:
        print("%s: not in the kernel's map: %s" % (names_p, " ".join(unknown)), file=sys.stderr)
        return 2
    broken = needs(names, kmap, off_in(frag_p))
    every = {o for s in names for o in tiny_kmap["syscalls"][s]["requires"]}
    tiny_off = needs(names, tiny_kmap, every - on_in(tiny_p))
    unmapped = sorted(set(names) & set(kmap.get("unmapped_optional", [])))
    res = {"name": prog, "traced": len(names), "names": names,
           "fragment_breaks": broken, "tiny_off": tiny_off, "unmapped_optional": unmapped}
    with open(out_p, "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
    print("# %s: %d syscalls traced; tiny has off: %s" % (
        prog, len(names), " ".join("%s (%s)" % (o, " ".join(sorted(s)))
                                   for o, s in sorted(tiny_off.items())) or "none"))
    if unmapped:
        print("# %s: traced, optional but mapped to no option by kmap.py: %s"
              % (prog, " ".join(unmapped)))
    for o, s in sorted(broken.items()):
        print("# %s: the fragment turns off %s, which %s need(s)" % (prog, o, " ".join(sorted(s))))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
