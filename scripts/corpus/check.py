#!/usr/bin/env python3
"""corpus/check.py: the audit against its corpus of third-party programs.

Usage:
  corpus/check.py TRUTH KTREE CONFIG TRACEDIR OUTDIR [NAME...]

TRUTH     tests/audit/corpus.txt: name, program, splice ground truth, source
KTREE     the patched kernel tree (syscall table, Kconfig)
CONFIG    the configuration audited: the board's base config (splice built
          in), so that the fragment's SYSCALL_SPLICE line is the verdict
TRACEDIR  NAME.strace from scripts/corpus/trace.sh
OUTDIR    written: kmap.json, NAME.syscalls.json, NAME.report.txt,
          NAME.fragment, and results.json (one entry per program)

For every program (all of TRUTH, or the NAMEs given) it runs the audit
(scripts/audit/kmap.py, audit/syscalls.py, audit/report.py, as
scripts/audit/audit.sh does) and prints TAP lines:
  - recall: every syscall in the trace is in the audit's static set;
  - splice verdict: a program with no fallback keeps CONFIG_SYSCALL_SPLICE
    (the fragment must not turn it off); a program that never calls the
    family has none in its static set; a program with a fallback may go
    either way (kept on is sound, only less precise: said in the line);
  - fragment: no option gating a traced syscall is turned off by it
    (SYSCALL_SPLICE excepted for a program whose source falls back);
  - two-sided (issue 39, item 3): the =y side audit/needs.py writes from the
    audit's answer against the tiny board (TINY_CONFIG in the environment,
    default build/kernel-tiny/.config) turns on every option the trace needs
    there (scripts/corpus/debian-product.py: the traced syscalls'
    requires, and the arguments qemu printed: clocks, families, fcntl
    commands, namespace bits); the splice family left out when the audit
    proved a fallback. Skipped when TINY_CONFIG is missing.
The static set is the one the fragment is made from: pruned for the
audited kernel (audit/syscalls.py --kmap), as scripts/audit/audit.sh runs it.
Precision (traced / static) is printed per program, with and without that
pruning, not asserted.
Exit status 0 when every case passed, 1 when one failed, 2 on bad input.
"""
import json
import os
import re
import subprocess
import sys

SPLICE = {"splice", "vmsplice", "tee", "sendfile", "sendfile64"}
HERE = os.path.dirname(os.path.abspath(__file__))


def die(msg):
    print("corpus-check: " + msg, file=sys.stderr)
    sys.exit(2)


def read_truth(path):
    rows = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split(None, 3)
            if len(parts) < 4 or parts[2] not in ("none", "fallback", "nofallback"):
                die("%s: bad line: %s" % (path, line.rstrip()))
            rows.append({"name": parts[0], "prog": parts[1], "truth": parts[2],
                         "source": parts[3].strip()})
    return rows


def table(ktree):
    byname, bynr = set(), {}
    with open(os.path.join(ktree, "arch/arm/tools/syscall.tbl")) as f:
        for line in f:
            f_ = line.split()
            if line.startswith("#") or len(f_) < 3 or f_[1] not in ("common", "eabi"):
                continue
            byname.add(f_[2])
            bynr[f_[0]] = f_[2]
    return byname, bynr


CALL = re.compile(r"\)[0-9]+ ([A-Za-z_][A-Za-z0-9_]*\(|Unknown syscall [0-9]+)")


def trace_names(path, byname, bynr):
    """The syscall names in a qemu-arm -strace log, as audit/trace.sh reads
    them: "PID name(args) = ret", several per line when processes share the
    log, "PID Unknown syscall NR" looked up by number."""
    seen = set()
    with open(path, errors="replace") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#"):
                continue
            if re.match(r"[0-9]+ ", line) and not re.match(
                    r"[0-9]+ ([A-Za-z_][A-Za-z0-9_]*\(|Unknown syscall [0-9]+|---)", line):
                die("%s:%d: cannot read: %s" % (path, n, line.rstrip()[:80]))
            for m in CALL.finditer(")" + line):
                tok = m.group(1)
                if tok.startswith("Unknown syscall "):
                    nr = tok.split()[-1]
                    if nr not in bynr:
                        die("%s:%d: unknown syscall %s" % (path, n, nr))
                    seen.add(bynr[nr])
                else:
                    name = tok[:-1]
                    if name not in byname:
                        die("%s:%d: no syscall %s in the table" % (path, n, name))
                    seen.add(name)
    return seen


def run(cmd, out=None):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        die("%s failed (%d): %s" % (" ".join(cmd), r.returncode, r.stderr.strip()[-500:]))
    if out:
        with open(out, "w") as f:
            f.write(r.stdout)
    return r.stdout


def fragment_off(path):
    off = set()
    with open(path) as f:
        for line in f:
            m = re.match(r"# CONFIG_([A-Za-z0-9_]+) is not set$", line.strip())
            if m:
                off.add(m.group(1))
    return off


def check(row, ktree, kmap, kmap_path, tracedir, outdir, byname, bynr):
    name, res = row["name"], {"name": row["name"], "truth": row["truth"],
                              "source": row["source"]}
    elf = os.path.join("build/corpus", name, "bin", row["prog"])
    if not os.path.exists(elf):
        die("%s missing (scripts/corpus/build.sh %s)" % (elf, name))
    strace = os.path.join(tracedir, name + ".strace")
    if not os.path.exists(strace):
        die("%s missing (scripts/corpus/trace.sh %s)" % (strace, name))
    a = audit(name, elf, ktree, kmap_path, outdir)
    static, off, report = a["static"], a["off"], a["report"]
    traced = trace_names(strace, byname, bynr)
    hit = traced & static
    res["unpruned"] = len(a["unpruned"])
    res["precision_unpruned"] = len(traced & a["unpruned"]) / len(a["unpruned"]) if a["unpruned"] else 1.0
    res.update({
        "elf": elf, "static": len(static), "traced": len(traced), "hit": len(hit),
        "missed": sorted(traced - static),
        "recall": len(hit) / len(traced) if traced else 1.0,
        "precision": len(hit) / len(static) if static else 1.0,
        "splice_static": sorted(static & SPLICE),
        "splice_traced": sorted(traced & SPLICE),
        "fragment_splice_off": "SYSCALL_SPLICE" in off,
        "splice_report": [l.strip() for l in report.splitlines()
                          if re.search(r"\b(splice|vmsplice|tee|sendfile(64)?)\b", l)
                          and ("ENOSYS" in l or "fallback" in l)][:8],
    })
    need = {}
    for s in sorted(traced):
        opt = kmap["syscalls"].get(s, {}).get("option")
        # A program that falls back does not need the splice family, though
        # its trace (on a kernel that has it) shows the calls.
        if opt == "SYSCALL_SPLICE" and row["truth"] == "fallback":
            continue
        if opt and opt in off:
            need.setdefault(opt, []).append(s)
    res["fragment_breaks"] = need
    res["verdict"] = a["verdict"]
    res["two_sided"] = two_sided(name, a, traced, strace, outdir)
    return res


TINY = {}


def tiny_kmap(ktree, outdir):
    """(kmap path, config) for the tiny board, made once; None without it."""
    config = os.environ.get("TINY_CONFIG", "build/kernel-tiny/.config")
    if not os.path.exists(config):
        return None
    if "kmap" not in TINY:
        TINY["kmap"] = os.path.join(outdir, "kmap-tiny.json")
        run([os.path.join(HERE, "..", "audit", "kmap.py"), ktree, "--config", config],
            TINY["kmap"])
    return TINY["kmap"], config


def two_sided(name, a, traced, strace, outdir):
    """(ok, line) of the =y side's check, or None (skipped: no tiny config)."""
    t = TINY.get("args")
    if t is None:
        return None
    kmap_tiny, config = t
    frag = os.path.join(outdir, name + ".needs.fragment")
    run([os.path.join(HERE, "..", "audit", "needs.py"), kmap_tiny, config, frag,
         os.path.join(outdir, name + ".syscalls.json")], os.path.join(outdir, name + ".needs.txt"))
    names = os.path.join(outdir, name + ".trace.names")
    with open(names, "w") as f:
        for n in sorted(traced - (SPLICE if a["verdict"] == "fallback" else set())):
            f.write(n + "\n")
    r = subprocess.run([os.path.join(HERE, "debian-product.py"), kmap_tiny, config, names,
                        strace, frag], stdout=subprocess.PIPE, text=True)
    return r.returncode == 0, " ".join(ln[2:] for ln in r.stdout.splitlines())


def audit(name, elf, ktree, kmap_path, outdir):
    """The project's audit of one ELF, as scripts/audit/audit.sh runs it: its
    static syscall set, the options its fragment turns off, the report, and
    the verdict on the splice family: "none" (never called), "fallback"
    (the fragment turns SYSCALL_SPLICE off: a fallback was found) or "kept"
    (called, no fallback proven: the fragment keeps it)."""
    sc = [os.path.join(HERE, "..", "audit", "syscalls.py"), "--ktree", ktree]
    sj = os.path.join(outdir, name + ".syscalls.json")
    run(sc + ["--kmap", kmap_path, "--json", elf], sj)
    frag = os.path.join(outdir, name + ".fragment")
    report = run([os.path.join(HERE, "..", "audit", "report.py"), kmap_path, sj, frag],
                 os.path.join(outdir, name + ".report.txt"))
    # The set the fragment is made from: pruned for the target kernel
    # (--kmap), as scripts/audit/audit.sh runs it; and the set without pruning.
    static = set(run(sc + ["--kmap", kmap_path, "--names", elf]).split())
    unpruned = set(run(sc + ["--names", elf]).split())
    off = fragment_off(frag)
    if not static & SPLICE:
        verdict = "none"
    elif "SYSCALL_SPLICE" in off:
        verdict = "fallback"
    else:
        verdict = "kept"
    return {"static": static, "unpruned": unpruned, "off": off, "report": report,
            "verdict": verdict}


def tap(res):
    cases = []
    n = res["name"]
    cases.append((not res["missed"], "%s: recall %.0f%% (%d traced, %d static)%s" % (
        n, 100 * res["recall"], res["traced"], res["static"],
        "; missed: " + " ".join(res["missed"]) if res["missed"] else "")))
    t, v = res["truth"], res["verdict"]
    if t == "nofallback":
        ok, why = v != "fallback", "no fallback in the source: the fragment must keep SYSCALL_SPLICE"
    elif t == "none":
        ok, why = v == "none", "never calls the family: none in the static set"
    else:
        ok = v in ("fallback", "kept")
        why = "falls back in the source" + (
            "; the audit keeps SYSCALL_SPLICE (sound, not proven)" if v == "kept" else "")
    cases.append((ok, "%s: splice verdict '%s', truth '%s' (%s)" % (n, v, t, why)))
    fb = res["fragment_breaks"]
    cases.append((not fb, "%s: fragment keeps every option the trace needs%s" % (
        n, "; turns off " + ", ".join("%s (%s)" % (o, " ".join(s)) for o, s in sorted(fb.items()))
        if fb else "")))
    ts = res.get("two_sided")
    cases.append((True, "%s: two-sided: # skip no tiny config (TINY_CONFIG)" % n) if ts is None
                 else (ts[0], "%s: two-sided: the =y side against tiny turns on every option "
                       "the trace needs (%s)" % (n, ts[1])))
    return cases


def main(argv):
    if len(argv) < 6:
        die("usage: corpus/check.py TRUTH KTREE CONFIG TRACEDIR OUTDIR [NAME...]")
    truth, ktree, config, tracedir, outdir = argv[1:6]
    names = argv[6:]
    rows = read_truth(truth)
    if names:
        rows = [r for r in rows if r["name"] in names]
        if len(rows) != len(names):
            die("unknown names in %s" % " ".join(names))
    os.makedirs(outdir, exist_ok=True)
    kmap_path = os.path.join(outdir, "kmap.json")
    run([os.path.join(HERE, "..", "audit", "kmap.py"), ktree, "--config", config], kmap_path)
    with open(kmap_path) as f:
        kmap = json.load(f)
    byname, bynr = table(ktree)
    TINY["args"] = tiny_kmap(ktree, outdir)
    results, failed = [], 0
    for row in rows:
        res = check(row, ktree, kmap, kmap_path, tracedir, outdir, byname, bynr)
        results.append(res)
        for ok, line in tap(res):
            print(("ok - " if ok else "not ok - ") + line)
            failed += not ok
        print("# %s: precision %.0f%% (%d of %d static syscalls traced), without pruning "
              "%.0f%% (of %d); splice report: %s" % (
                  res["name"], 100 * res["precision"], res["hit"], res["static"],
                  100 * res["precision_unpruned"], res["unpruned"],
                  " | ".join(res["splice_report"]) or "-"))
    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
        f.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
