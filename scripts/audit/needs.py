#!/usr/bin/env python3
"""audit/needs.py: the other side of the fragment: the options the programs
need that the target configuration has off.

Usage:
  audit/needs.py KMAP.json CONFIG FRAGMENT [--json OUT] PROGRAM...

KMAP.json  audit/kmap.py KTREE --config CONFIG: what builds each syscall
           ("requires": every option its entry point needs, FUTEX and
           COMPAT_32BIT_TIME for ARM's futex, nr 240) and the argument gates
           (scripts/audit/gates.py: clock ids, socket families, fcntl
           commands)
CONFIG     the target's .config (e.g. build/kernel-tiny/.config, the tiny
           defconfig): an option is off unless CONFIG_X=y
FRAGMENT   written: `CONFIG_X=y` for every option some program needs and
           CONFIG has off, each with the programs and the syscalls (and
           arguments) that need it
PROGRAM    what each program calls, whatever produced it:
             - audit/syscalls.py --json (one report or a list): "syscalls",
               and "uses", the gated sites with their arguments resolved;
             - the same shape from any producer (the image mode):
               {"program": NAME, "syscalls": [NAME...], "uses": [{"syscall",
               "args": {"0": [values] or null}, "at"}]};
             - a names file (NAME.names, one syscall a line): no arguments
               known.
           A splice-family syscall every call of which falls back on ENOSYS
           (the report's verdicts, or "falls_back": [names]) needs nothing.
           A program whose set is not complete (code not accounted for, svc
           sites unresolved) is marked INCOMPLETE in the report and the
           fragment: it may need more than they list.
           A gated syscall with no use record, or whose argument is null, has
           its argument unknown (a null among the values: known on some
           paths, not on others; the known values count as resolved): the row's options all count ("keep"). The
           enabling side adds them only for rows that say "add" (clock ids:
           POSIX_TIMERS); for the others (socket families, fcntl commands,
           where an unknown value could need any of thirty options) the
           report lists the use as UNRESOLVED and adds nothing for it.
Prints the report. Exit status 0; 2 on bad input.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gates  # noqa: E402


def die(msg):
    print("audit-needs: " + msg, file=sys.stderr)
    sys.exit(2)


def load_programs(path):
    """[{"program", "syscalls": [names], "uses": [...] or None}] from one
    PROGRAM argument."""
    if not path.endswith(".json"):
        try:
            with open(path) as f:
                names = sorted({ln.strip() for ln in f if ln.strip()})
        except OSError as e:
            die("cannot read %s: %s" % (path, e.strerror))
        return [{"program": os.path.basename(path).split(".")[0], "syscalls": names,
                 "uses": None}]
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        die("cannot read %s: %s" % (path, e))
    out = []
    for r in data if isinstance(data, list) else [data]:
        name = r.get("program") or os.path.basename(r.get("elf", path))
        sc = [s["name"] if isinstance(s, dict) else s for s in r.get("syscalls", [])]
        out.append({"program": name, "syscalls": sorted(set(sc)), "uses": r.get("uses"),
                    "falls_back": sorted(r["falls_back"]) if "falls_back" in r
                    else fallbacks(r), "incomplete": incomplete(r)})
    return out


def fallbacks(r):
    """The splice-family syscalls every call of which falls back on ENOSYS
    (audit/syscalls.py's verdicts, audit_flow.py): the program works
    without them, so they need nothing."""
    calls = {}
    for s in r.get("splice_family", []):
        for c in s.get("calls") or [{"verdict": None, "syscalls": s["syscalls"]}]:
            for n in c.get("syscalls") or s["syscalls"]:
                calls.setdefault(n, []).append(c.get("verdict"))
    return sorted(n for n, v in calls.items() if v and all(x == "fallback" for x in v))


def incomplete(r):
    """Why the static set may miss syscalls: code not accounted for, svc
    sites not resolved; [] when it is all the program can call."""
    out = ["%s (%s)" % (u["why"], u["kind"]) for u in r.get("unaccounted", [])]
    if r.get("unresolved"):
        out.append("%d svc site(s) unresolved" % len(r["unresolved"]))
    return out


def program_needs(prog, kmap):
    """{option: [why...]} for one program: each option a syscall it makes
    requires (kmap "requires"), and each option an argument gate asks for
    (resolved, or every option of the row when the argument is unknown).
    A why is (syscall, note or None, unresolved: whether the option counts
    only because the argument is unknown, row adds it or not)."""
    out = {}
    sysc = kmap["syscalls"]
    for n in prog["syscalls"]:
        if n in prog.get("falls_back", []):
            continue
        for opt in (sysc.get(n) or {}).get("requires", []):
            out.setdefault(opt, []).append((n, None, None))
    rows = kmap.get("arg_gates") or []
    uses = prog.get("uses") or []
    for row in rows:
        for n in row["syscalls"]:
            if n not in prog["syscalls"]:
                continue
            mine = [u for u in uses if u["syscall"] == n]
            vals = [(u.get("args") or {}).get(str(row["arg"])) for u in mine] or [None]
            for v, u in zip(vals, mine or [None]):
                at = "" if u is None else " at " + u.get("at", "?")
                known = [x for x in v or [] if x is not None]
                parts = ([(known, None)] if known else []) + (
                    [(None, "add" if row["add"] else "report")] if v is None or None in v else [])
                for vs, how in parts:
                    opts, note = gates.needed(row, vs)
                    for opt in opts:
                        out.setdefault(opt, []).append((n, note + at, how))
    return out


def enabled_in(config):
    try:
        with open(config) as f:
            return set(re.findall(r"^CONFIG_(\w+)=y$", f.read(), re.M))
    except OSError as e:
        die("cannot read %s: %s" % (config, e.strerror))


def describe(whys):
    """'epoll_create1 epoll_ctl; clock_gettime64 (clock id CLOCK_REALTIME_COARSE at ...)'"""
    plain = sorted({n for n, note, _ in whys if note is None})
    noted = sorted({"%s (%s)" % (n, note) for n, note, _ in whys if note is not None})
    return "; ".join(([" ".join(plain)] if plain else []) + noted)


def two_sided(progs, kmap, yes):
    """({option: {program: whys}} to turn on, {(program, syscall, note):
    [options off]} for uses whose argument is unknown and whose row does not
    add its options)."""
    on, unresolved = {}, {}
    for p in progs:
        for opt, whys in program_needs(p, kmap).items():
            if opt in yes:
                continue
            firm = [w for w in whys if w[2] in (None, "add")]
            if firm:
                on.setdefault(opt, {})[p["program"]] = firm
            for n, note, how in whys:
                if how == "report":
                    unresolved.setdefault((p["program"], n, note), []).append(opt)
    return on, unresolved


def unresolved_lines(unresolved):
    return ["UNRESOLVED, not added: %s: %s (%s): any of %s may be needed, off now" % (
        p, n, note, " ".join("CONFIG_" + o for o in sorted(opts)))
        for (p, n, note), opts in sorted(unresolved.items())]


def unmapped_lines(progs, kmap):
    """The optional syscalls a program makes that kmap.py maps to no option
    (copy_file_range: built unconditionally in this tree; mremap: no option
    common to its two definitions): nothing to turn on, said so."""
    un = set(kmap.get("unmapped_optional", []))
    out = []
    for p in progs:
        hit = sorted(set(p["syscalls"]) & un)
        if hit:
            out.append("UNMAPPED: %s: %s optional, but kmap.py maps %s to no option (%s)" % (
                p["program"], " ".join(hit), "it" if len(hit) == 1 else "them",
                "; ".join("%s: %s" % (n, kmap["syscalls"][n]["how"]) for n in hit)))
    return out


def main(argv):
    args = argv[1:]
    out_json = None
    if "--json" in args:
        k = args.index("--json")
        if k + 1 >= len(args):
            die("--json needs a file")
        out_json = args[k + 1]
        del args[k:k + 2]
    if len(args) < 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    kmap_p, config, frag = args[:3]
    try:
        with open(kmap_p) as f:
            kmap = json.load(f)
    except (OSError, ValueError) as e:
        die("cannot read %s: %s" % (kmap_p, e))
    progs = [p for path in args[3:] for p in load_programs(path)]
    yes = enabled_in(config)
    on, unresolved = two_sided(progs, kmap, yes)
    print("# options the programs need that %s has off (%d):" % (config, len(on)))
    unmapped = unmapped_lines(progs, kmap)
    for line in unmapped:
        print("  " + line)
    for p in progs:
        for why in p.get("incomplete", []):
            print("  INCOMPLETE: %s: %s: it may need options not listed here" % (
                p["program"], why))
        if p.get("falls_back"):
            print("  %s falls back on ENOSYS from %s: not needed" % (
                p["program"], " ".join(p["falls_back"])))
    for opt in sorted(on):
        print("  CONFIG_%s=y: %s" % (opt, ", ".join(
            "%s (%s)" % (p, describe(w)) for p, w in sorted(on[opt].items()))))
    for line in unresolved_lines(unresolved):
        print("  " + line)
    with open(frag, "w") as f:
        f.write("# Written by `make audit` (scripts/audit/needs.py): options the audited\n"
                "# programs need that %s has off.\n" % config)
        for p in progs:
            f.write("# audited: %s\n" % p["program"])
            for why in p.get("incomplete", []):
                f.write("# INCOMPLETE: %s: %s: it may need options not listed here\n"
                        % (p["program"], why))
            if p.get("falls_back"):
                f.write("# %s falls back on ENOSYS from %s: not needed\n"
                        % (p["program"], " ".join(p["falls_back"])))
        for line in unresolved_lines(unresolved) + unmapped:
            f.write("# %s\n" % line)
        for opt in sorted(on):
            f.write("# %s\n" % ", ".join("%s: %s" % (p, describe(w))
                                        for p, w in sorted(on[opt].items())))
            f.write("CONFIG_%s=y\n" % opt)
    if out_json:
        with open(out_json, "w") as f:
            json.dump({"config": config, "on": {o: {p: [list(w) for w in ws]
                                                    for p, ws in v.items()}
                                                for o, v in on.items()},
                       "unresolved": [{"program": p, "syscall": n, "why": note, "options": o}
                                      for (p, n, note), o in sorted(unresolved.items())]},
                      f, indent=1, sort_keys=True)
    print("fragment: %d option%s set to y (%s)" % (len(on), "" if len(on) == 1 else "s", frag))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
