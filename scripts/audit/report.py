#!/usr/bin/env python3
"""audit-report.py: turn a static syscall audit into kernel configuration advice.

Usage:
  audit-report.py KMAP.json SYSCALLS.json FRAGMENT [MEASURE.json]

KMAP.json      scripts/audit/kmap.py KTREE --config .config (the syscall table,
               which syscalls a Kconfig option gates, and which are on)
SYSCALLS.json  scripts/audit/syscalls.py --json ELF... (one report or a list)
FRAGMENT       written: a Kconfig fragment with `# CONFIG_X is not set` for
               every candidate option (see below)
MEASURE.json   optional, images/measure-ram.json: the measured bytes of
               CONFIG_SYSCALL_SPLICE (bloat-o-meter, base -> tiny)

Prints the report on stdout:
  - per program: svc sites, how many were resolved, every unresolved site,
    OABI sites;
  - the syscalls the programs may call, the optional ones marked with their
    option;
  - the optional families they call, and whether the configuration has them
    (a family that is off answers ENOSYS: for the splice family, per call,
    whether the program falls back, with the compare and branch found);
  - the optional families they never call: with the option on and
    user-visible, a candidate for =n (with the bytes it saves where measured);
  - an option an argument gates (KMAP's arg_gates, audit/gates.py: a
    clock id other than REALTIME, MONOTONIC and BOOTTIME needs
    POSIX_TIMERS) counts as called when some use needs it or when the
    argument is not resolved (SYSCALLS.json's "uses", null or missing):
    it is never a candidate then;
  - an optional family they do call, but only the splice family and with
    the verdict "fallback" for every call (its result reaches a compare
    with ENOSYS whose ENOSYS branch leads to another way of moving the data:
    scripts/audit/audit_flow.py): a candidate too, marked as such (this is what
    makes CONFIG_SYSCALL_SPLICE=n safe for the board's init). Any other
    verdict ("no fallback proven") keeps the option on.
    When any svc site is unresolved (it could make any syscall), the audit
    fails closed: no option goes into FRAGMENT, and the report names, beside
    each candidate kept on, the sites that could call it.
    AUDIT_ACCEPT_UNRESOLVED=1 in the environment accepts the risk (the
    candidates then assume those sites call none of their syscalls, and the
    fragment says so).
    When a program holds anything the audit cannot account for
    (scripts/audit/accounted.py: dynamic linking, dlopen of unknown
    targets, executable code objdump did not read), it fails closed the
    same way, and AUDIT_ACCEPT_UNRESOLVED=1 does not change that.
    A candidate goes into FRAGMENT only when its Kconfig entry (prompt and
    help) speaks of syscalls or system calls (KMAP's "about_syscalls"): an
    option such as PRINTK or MIGRATION also gates a syscall the
    program never makes, but does much more, so it is listed for a human to
    decide and left out of the fragment.
Exit status 0; 2 on bad input.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import needs  # noqa: E402


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print("audit-report: cannot read %s: %s" % (path, e), file=sys.stderr)
        sys.exit(2)


def measured_savings(path):
    """Option -> bytes removed, from measure-ram's JSON when there is one."""
    if not path:
        return {}
    try:
        with open(path) as f:
            m = json.load(f)
        delta = m["bloat_o_meter"]["delta"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    out = {"SYSCALL_SPLICE": -delta} if isinstance(delta, int) and delta < 0 else {}
    # measure-ram AUDIT=1 measured the last fragment: a figure per option
    # only when it held one option.
    a = m.get("audit") or {}
    if len(a.get("options") or []) == 1 and isinstance(a.get("bloat_delta"), int):
        out[a["options"][0]] = -a["bloat_delta"]
    return out


def program_lines(r):
    out = ["%s: %d svc sites, %d resolved%s" % (
        r["elf"], r["svc_sites"], r["resolved_sites"],
        "" if r["symbols"] else " (stripped)")]
    for s in r["unresolved"]:
        out.append("  unresolved svc at %#x in %s: %s" % (
            s["addr"], s["func"], "; ".join(s["unresolved"][:3])))
    for s in r["oabi"]:
        out.append("  OABI svc #%#x at %#x in %s" % (s["oabi"], s["addr"], s["func"]))
    for u in r.get("unaccounted", []):
        out.append("  NOT ACCOUNTED FOR (%s): %s" % (u["kind"], u["why"]))
    if r.get("pruning_off"):
        out.append("  pruning off: " + r["pruning_off"])
    if r.get("svc_imm"):
        out.append("  %d svc #imm outside the OABI range (data read as code)" % len(r["svc_imm"]))
    return out + reach_lines(r) + pruning_lines(r)


def pruning_lines(r):
    """What the target kernel made dead (audit-syscalls.py --kmap)."""
    pr = r.get("pruning")
    if not pr:
        return []
    out = ["  pruned for the target config: %d of %d syscalls (%s), %d dead instructions" % (
        len(pr["pruned"]), len(pr["unpruned"]), " ".join(pr["pruned"]) or "none",
        pr["dead_instructions"])]
    for f, w in pr["why"].items():
        out.append("    dead in %s: %s" % (f, "; ".join(w)))
    return out


def reach_lines(r):
    """Which sites count, and the syscalls reached only through functions
    whose address is taken (a path a run may never take)."""
    x = r.get("reachability")
    if not x:
        return []
    out = ["  %s; %d of %d svc sites counted" % (x["why"], r["svc_sites"], x["svc_sites_all"])]
    for s in r["syscalls"]:
        if (s.get("indirect_hops") or 0) >= 2:
            out.append("  %s only through %d address-taken functions: %s" % (
                s["name"], s["indirect_hops"], " > ".join(p["func"] for p in s["path"])))
    return out


def splice_lines(reports):
    out = []
    for r in reports:
        for s in r["splice_family"]:
            calls = s["calls"] or [{"call": None, "caller": "?", "verdict": "no fallback proven",
                                    "why": "no direct caller found", "compares": []}]
            for c in calls:
                at = ("called at %#x in %s" % (c["call"], c["caller"])) if c["call"] \
                    else "no direct caller found"
                out.append("  %s (svc %#x in %s), %s: %s (%s)" % (
                    "/".join(c.get("syscalls") or s["syscalls"]), s["addr"], s["func"],
                    at, c.get("verdict", "no fallback proven"), c.get("why", "")))
                for k in c.get("compares", []):
                    tests = "%s == ENOSYS" % k["tests"] if not k.get("zero_for") else \
                        "zero for %s %s, ENOSYS among them" % (
                            k["tests"], " ".join(str(e) for e in k["zero_for"]))
                    out.append("    compare '%s' at %s (%s); branch: %s; the ENOSYS "
                               "path (%s) reaches: %s" % (
                                   k["insn"], k["at"], tests, k["branch"],
                                   k["enosys_path"], " ".join(k["leads_to"]) or "none"))
    return out


def falls_back(progs, names):
    """True when every call of every syscall in NAMES is a splice-family
    call whose ENOSYS verdict is "fallback" (scripts/audit/audit_flow.py: the
    result reaches a compare with ENOSYS, and the ENOSYS branch leads to
    another way of moving the data)."""
    sites = [s for r in progs for s in r["splice_family"]]
    covered = {n for s in sites for n in s["syscalls"]}
    if not names or not set(names) <= covered:
        return False
    calls = [c for s in sites if set(s["syscalls"]) & set(names) for c in s["calls"]]
    return bool(calls) and all(c.get("verdict") == "fallback" for c in calls)


def gate_needs(progs, kmap):
    """{option: ["prog: syscall (clock id CLOCK_X at ...)"]} for the options
    an argument gate asks for in any program."""
    out = {}
    for r in progs:
        p = {"program": r.get("program") or os.path.basename(r["elf"]), "uses": r.get("uses"),
             "syscalls": [s["name"] for s in r["syscalls"]]}
        for opt, whys in needs.program_needs(p, kmap).items():
            for n, note, _ in whys:
                if note is not None:
                    w = "%s: %s (%s)" % (p["program"], n, note)
                    if w not in out.setdefault(opt, []):
                        out[opt].append(w)
    return out


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    kmap = load(argv[1])
    progs = load(argv[2])
    progs = progs if isinstance(progs, list) else [progs]
    frag_path = argv[3]
    saved = measured_savings(argv[4] if len(argv) == 5 else None)
    sysc = kmap["syscalls"]
    fams = kmap["families"]

    used = sorted({s["name"] for r in progs for s in r["syscalls"]})
    by_opt = {}
    for n in used:
        opt = sysc.get(n, {}).get("option")
        if opt:
            by_opt.setdefault(opt, []).append(n)

    # Options an argument asks for (audit/gates.py: POSIX_TIMERS for a clock
    # other than REALTIME, MONOTONIC and BOOTTIME, or one not resolved):
    # called, whatever syscall gates them.
    gated = gate_needs(progs, kmap)
    for opt, whys in gated.items():
        if opt in fams and opt not in by_opt:
            by_opt[opt] = whys

    print("# syscall audit")
    for r in progs:
        print("\n".join(program_lines(r)))
    print("\nsyscalls the program%s may call (%d):" % ("s" if len(progs) > 1 else "", len(used)))
    print("  " + " ".join(n + ("[%s]" % sysc[n]["option"] if sysc.get(n, {}).get("option") else "")
                          for n in used))

    print("\noptional families called (%d):" % len(by_opt))
    for opt in sorted(by_opt):
        en = fams.get(opt, {}).get("enabled")
        state = {True: "on", False: "OFF: these calls get ENOSYS", None: "?"}[en]
        print("  CONFIG_%s (%s): %s" % (opt, state, " ".join(by_opt[opt])))
    if gated:
        print("options an argument needs (audit/gates.py; an argument not resolved "
              "keeps every option it could need):")
        for opt in sorted(gated):
            print("  CONFIG_%s: %s" % (opt, "; ".join(gated[opt])))
    sl = splice_lines(progs)
    if sl:
        print("splice family calls:")
        print("\n".join(sl))

    cands, by_hand, others = [], [], []
    fallback = [o for o in sorted(by_opt) if fams.get(o, {}).get("enabled") and
                fams[o].get("user_visible") and fams[o].get("about_syscalls") and
                falls_back(progs, by_opt[o])]
    for opt in fallback:
        print("  CONFIG_%s=n candidate (on now): every call of %s falls back on ENOSYS "
              "(compare and branch above)" % (opt, " ".join(by_opt[opt])))
    cands += fallback
    for opt in sorted(fams):
        if opt in by_opt:
            continue
        f = fams[opt]
        if not (f.get("enabled") and f.get("user_visible")):
            others.append(opt)
        elif f.get("about_syscalls"):
            cands.append(opt)
        else:
            by_hand.append(opt)
    print("\noptional families never called (%d):" % (len(cands) + len(by_hand) + len(others)))
    for opt in (c for c in cands if c not in fallback):
        b = saved.get(opt)
        print("  CONFIG_%s=n candidate (on now)%s: %s" % (
            opt, ", saves %d bytes (measured)" % b if b else "",
            " ".join(fams[opt]["syscalls"])))
    for opt in by_hand:
        print("  CONFIG_%s (on now) gates %s, never called, but its Kconfig entry is not "
              "about syscalls: it does more; decide by hand (not in the fragment)" % (
                  opt, " ".join(fams[opt]["syscalls"])))
    off = [o for o in others if fams[o].get("enabled") is False]
    fixed = [o for o in others if fams[o].get("enabled") and not fams[o].get("user_visible")]
    if off:
        print("  already off: " + " ".join("CONFIG_" + o for o in off))
    if fixed:
        print("  on, but not user-visible (set by other options): " +
              " ".join("CONFIG_" + o for o in fixed))
    blind = ["svc at %#x in %s (%s)" % (s["addr"], s["func"], os.path.basename(r["elf"]))
             for r in progs for s in r["unresolved"]]
    accept = os.environ.get("AUDIT_ACCEPT_UNRESOLVED") == "1"
    kept = []
    # Code the audit did not read (accounted.py: libraries, dlopen, code
    # objdump did not disassemble): no escape, AUDIT_ACCEPT_UNRESOLVED is
    # for svc sites in code it read.
    unread = ["%s: %s" % (os.path.basename(r["elf"]), u["why"])
              for r in progs for u in r.get("unaccounted", [])]
    if unread:
        print("\nFAIL CLOSED: %d thing(s) the audit cannot account for; the programs may make "
              "syscalls it never saw, so no option goes into the fragment%s:" % (
                  len(unread), " (AUDIT_ACCEPT_UNRESOLVED=1 accepts unresolved svc sites, "
                  "not these)" if accept else ""))
        for u in unread:
            print("  " + u)
        for opt in cands:
            print("  CONFIG_%s stays on: code not audited could call %s" % (
                opt, " ".join(fams[opt]["syscalls"])))
        kept, cands = cands, []
    elif blind and not accept:
        # Fail closed: an unresolved svc could make any syscall, so every
        # option it could touch stays on.
        print("\nFAIL CLOSED: %d svc site(s) unresolved (listed above); each could make "
              "any syscall, so no option goes into the fragment "
              "(AUDIT_ACCEPT_UNRESOLVED=1 accepts the risk):" % len(blind))
        for opt in cands:
            print("  CONFIG_%s stays on: %s could call %s" % (
                opt, ", ".join(blind), " ".join(fams[opt]["syscalls"])))
        kept, cands = cands, []
    elif blind:
        print("\nWARNING: %d svc site(s) unresolved (listed above); AUDIT_ACCEPT_UNRESOLVED=1: "
              "the candidates assume they call none of these families." % len(blind))

    with open(frag_path, "w") as f:
        f.write("# Written by `make audit` (scripts/audit/report.py): optional syscall\n"
                "# families the audited programs never call (or call only with an\n"
                "# ENOSYS fallback), on in the audited configuration.\n")
        for r in progs:
            f.write("# audited: %s\n" % r["elf"])
        if kept and unread:
            for u in unread:
                f.write("# FAIL CLOSED: not accounted for: %s\n" % u)
            for opt in kept:
                f.write("# kept on: CONFIG_%s (code not audited)\n" % opt)
        elif kept:
            f.write("# FAIL CLOSED: unresolved svc sites could make any syscall: %s\n"
                    % ", ".join(blind))
            for opt in kept:
                f.write("# kept on: CONFIG_%s (%s)\n" % (opt, ", ".join(blind)))
        elif blind:
            f.write("# AUDIT_ACCEPT_UNRESOLVED=1: assumed to call none of these: %s\n"
                    % ", ".join(blind))
        for opt in cands:
            f.write("# CONFIG_%s is not set\n" % opt)
    print("\nfragment: %d option%s set to n%s" % (
        len(cands), "" if len(cands) == 1 else "s",
        " (fail closed: %d kept on for %d thing(s) not accounted for)" % (len(kept), len(unread))
        if kept and unread else
        " (fail closed: %d kept on for %d unresolved svc site(s))" % (len(kept), len(blind))
        if kept else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
