"""image/main.py: `make audit IMAGE=PATH`'s command line (scripts/audit/audit-image.py).

Usage:
  audit-image.py IMAGE --out DIR [--ktree KTREE] [--kmap KMAP] [--programs 'P1 P2']
                 [--jobs N]

IMAGE       the root filesystem: a folder, a cpio, cpio.gz or tar
--out       the output folder: PROG.names per program (one syscall a line),
            syscalls.json (one report per program, as scripts/audit/report.py
            reads them), image.json (objects, dlopen, attribution, timing),
            cache/ (each object's analysis, by content)
--programs  image paths or names of the programs that are the product
            (default: every executable of the image)
--kmap      kmap.json (scripts/audit/kmap.py): a static program of the image is
            audited by the static mode (scripts/audit/syscalls.py), which
            prunes for the target kernel with it
--jobs      processes for the analysis (default: the number of CPUs)

Prints one line per program. Exit status 0; 2 on bad input.
"""
import hashlib
import json
import multiprocessing
import os
import pickle
import sys
import time

from . import dlopen as dl, elfobj, link, loader, reach, rootfs, splice

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPLICE = ("sendfile", "sendfile64", "splice", "tee", "vmsplice")
RESTARTERS = ("nanosleep", "clock_nanosleep", "clock_nanosleep_time64", "futex",
              "futex_time64", "poll")


def code_id(mods):
    """What a cache entry is keyed on beside its inputs: the code that made
    it, so a change to that code is never answered from an old cache."""
    h = hashlib.sha1()
    for m in mods:
        with open(m.__file__, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:12]


CODE_ID = code_id((elfobj, elfobj.decode, elfobj.decode.static))  # one object's analysis
VERDICT_ID = code_id((elfobj, elfobj.decode, reach, link, splice, splice.audit_flow,
                      splice.static))           # the splice verdicts of a program


def _analyse(args):
    host, image_path, cache = args
    with open(host, "rb") as f:
        h = hashlib.sha1(f.read()).hexdigest()
    cp = os.path.join(cache, "%s-%s.pickle" % (h, CODE_ID))
    try:
        with open(cp, "rb") as f:
            o = pickle.load(f)
            o["path"], o["sha1"] = image_path, h
            return image_path, o, True
    except (OSError, EOFError, pickle.UnpicklingError):
        pass
    o = elfobj.analyse(host, image_path)
    o["sha1"] = h
    tmp = cp + ".%d" % os.getpid()
    with open(tmp, "wb") as f:
        pickle.dump(o, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, cp)
    return image_path, o, False


def splice_verdicts(pr, host, names, nums, cache):
    """splice.verdicts, cached by what decides them: the program and every
    object it loads (by content), the names, and the code."""
    h = hashlib.sha1(("%s %s" % (sorted(o["sha1"] for o in pr.objs),
                                    sorted(nums))).encode())
    h.update(json.dumps(sorted(names.items())).encode())
    cp = os.path.join(cache, "splice-%s-%s.json" % (h.hexdigest(), VERDICT_ID))
    try:
        with open(cp) as f:
            return json.load(f)
    except (OSError, ValueError):
        pass
    v = splice.verdicts(pr, host, names, nums)
    with open(cp + ".tmp", "w") as f:
        json.dump(v, f)
    os.replace(cp + ".tmp", cp)
    return v


def usage():
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


def main(argv):
    args = argv[1:]
    image = out = None
    ktree = os.path.join(os.path.dirname(os.path.dirname(HERE)), "build/linux-6.1")
    programs = None
    kmap_path = None
    jobs = os.cpu_count() or 1
    while args:
        a = args.pop(0)
        if a == "--out" and args:
            out = args.pop(0)
        elif a == "--ktree" and args:
            ktree = args.pop(0)
        elif a == "--programs" and args:
            programs = args.pop(0).split()
        elif a == "--kmap" and args:
            kmap_path = args.pop(0)
        elif a == "--jobs" and args:
            jobs = int(args.pop(0))
        elif a.startswith("-") or image:
            return usage()
        else:
            image = a
    if not image or not out:
        return usage()
    sys.path.insert(0, HERE)
    import syscalls as static   # the syscall table's names, as the static mode spells them
    names = static.syscall_names(ktree)
    t0 = time.time()
    os.makedirs(os.path.join(out, "cache"), exist_ok=True)
    fs = rootfs.Rootfs(image, out)
    elfs, scripts = fs.elfs()
    t_scan = time.time()
    facts = {}
    todo = [(os.path.join(fs.root, p[1:]), p, os.path.join(out, "cache")) for p in elfs]
    cached = 0
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            for p, o, hit in pool.imap_unordered(_analyse, todo, chunksize=1):
                facts[p] = o
                cached += hit
    else:
        for t in todo:
            p, o, hit = _analyse(t)
            facts[p] = o
            cached += hit
    t_an = time.time()
    for f in os.listdir(os.path.join(out, "cache")):
        if not f.endswith(("-%s.pickle" % CODE_ID, "-%s.json" % VERDICT_ID)):  # older code's
            os.unlink(os.path.join(out, "cache", f))

    def analyse(p):
        if p not in facts:
            facts[p] = _analyse((os.path.join(fs.root, p[1:]), p, os.path.join(out, "cache")))[1]
        return facts[p]
    ld = loader.Loader(fs, analyse)
    shared = {p for p, o in facts.items() if o["type"] == "ET_DYN" and not o["interp"]
              and o["exec"]}
    execs = sorted(p for p, o in facts.items()
                   if (o["interp"] or o["type"] == "ET_EXEC") and not o["soname"]
                   and os.access(os.path.join(fs.root, p[1:]), os.X_OK))
    chosen, notes = select(execs, scripts, programs, facts)
    reports, summary = [], {"image": image, "programs": {}, "scripts": scripts, "notes": notes}
    used = set()
    for p in chosen:
        o = facts[p]
        if not o["interp"]:
            # a static program: the static mode's audit, as AUDIT_ELFS= runs it
            r = static_report(static, p, os.path.join(fs.root, p[1:]), ktree, kmap_path)
            reports.append(r)
            write_names(os.path.join(out, label(p, chosen) + ".names"), r)
            summary["programs"][label(p, chosen)] = {
                "path": p, "objects": [p], "static": True,
                "syscalls": {s["name"]: {} for s in r["syscalls"]},
                "unaccounted": r["unaccounted"], "unresolved": r["unresolved"]}
            print("%s: static: %d svc sites, %d syscalls (scripts/audit/syscalls.py)%s" % (
                p, r["svc_sites"], len(r["syscalls"]), "; FAIL CLOSED: %d unresolved, %d "
                "unaccounted" % (len(r["unresolved"]), len(r["unaccounted"]))
                if r["unresolved"] or r["unaccounted"] else ""))
            continue
        pr = reach.Program(p, ld, analyse, shared).run()
        nums, unresolved, nsites, vdso = pr.syscalls(names)
        used |= set(pr.index)
        r = report(pr, nums, unresolved, nsites, vdso, names)
        sp = splice_verdicts(pr, os.path.join(fs.root, p[1:]), names, nums,
                             os.path.join(out, "cache"))
        if sp:
            r["splice_family"] = sp
        reports.append(r)
        prog = label(p, chosen)
        write_names(os.path.join(out, prog + ".names"), r)
        summary["programs"][prog] = {
            "path": p, "objects": [x["path"] for x in pr.objs], "dlopen": pr.dlopened,
            "syscalls": {s["name"]: {"through": s["through"], "path": s["path"]}
                         for s in r["syscalls"]},
            "unaccounted": r["unaccounted"], "unresolved": r["unresolved"]}
        for kind, d in sorted(pr.dlopened.items()):
            print("%s: dlopen (%s, through %s): %d objects counted as loaded: %s" % (
                p, kind, " ".join(d["via"]), len(d["objects"]), ", ".join(
                    "%s/ %d" % (k, v) for k, v in sorted(dl.summary(d["objects"]).items()))))
        print("%s: %d objects (%d by dlopen), %d svc sites reachable, %d syscalls%s" % (
            p, len(pr.objs), sum(len(v["objects"]) for v in pr.dlopened.values()),
            nsites, len(r["syscalls"]),
            "; FAIL CLOSED: " + "; ".join(u["why"] for u in r["unaccounted"][:2]) +
            ("; %d unresolved site(s)" % len(unresolved) if unresolved else "")
            if r["unaccounted"] or unresolved else ""))
    t_end = time.time()
    summary["timing"] = {"scan_s": round(t_scan - t0, 2), "analyse_s": round(t_an - t_scan, 2),
                         "link_reach_s": round(t_end - t_an, 2), "total_s": round(t_end - t0, 2),
                         "objects": len(facts), "from_cache": cached, "jobs": jobs,
                         "instructions": sum(o["insns"] for o in facts.values()),
                         "bytes": sum(os.path.getsize(os.path.join(fs.root, p[1:]))
                                      for p in elfs)}
    with open(os.path.join(out, "syscalls.json"), "w") as f:
        json.dump(reports, f, indent=1)
    with open(os.path.join(out, "image.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    tm = summary["timing"]
    print("image: %d ELF objects (%.1f MB, %d instructions; %d analysed, %d from the cache), "
          "%d programs; %.1f s (analysis %.1f s on %d jobs, linking and reachability %.1f s)" % (
              len(facts), tm["bytes"] / 1e6, tm["instructions"], len(facts) - cached, cached,
              len(reports), tm["total_s"], tm["analyse_s"], jobs, tm["link_reach_s"]))
    for n in notes:
        print("note: " + n)
    return 0


def write_names(path, r):
    """PROGRAM.names: one syscall a line, sorted, as syscalls.py --names."""
    with open(path, "w") as f:
        f.write("".join(n + "\n" for n in sorted({s["name"] for s in r["syscalls"]})))


def static_report(static, p, host, ktree, kmap_path):
    """The static mode's report of the static program P (image path),
    with its pruning for the target when KMAP_PATH is given."""
    kmap = None
    if kmap_path:
        with open(kmap_path) as f:
            kmap = json.load(f)
    r = static.audit(host, ktree, False, kmap)
    r["elf"] = p
    return r


def select(execs, scripts, programs, facts):
    notes = []
    for s, interp in sorted(scripts.items()):
        notes.append("%s: a script (#!%s): the audit cannot read what it runs; name those "
                     "programs in PROGRAMS=" % (s, interp))
    if not programs:
        return execs, notes
    out = []
    for want in programs:
        hit = [p for p in execs if p == want or os.path.basename(p) == want]
        if not hit:
            raise SystemExit("audit-image: PROGRAMS: %s is not an executable ELF of the image"
                             % want)
        out += [h for h in hit if h not in out]
    return out, []


def label(p, chosen):
    base = os.path.basename(p)
    if sum(1 for c in chosen if os.path.basename(c) == base) > 1:
        return p.strip("/").replace("/", "_")
    return base


def report(pr, nums, unresolved, nsites, vdso, names):
    """One program's report in the static mode's shape (scripts/audit/
    syscalls.py audit()), which report.py reads."""
    syscalls = []
    for n in sorted(nums):
        node, a = nums[n][0]
        syscalls.append({"nr": n, "name": names.get(n, "unknown_%d" % n),
                         "reached": "image", "indirect_hops": None,
                         "through": pr.entered_through(node),
                         "path": [{"func": f} for f in pr.path_to(node)],
                         "sites": len(nums[n])})
    have = {s["name"] for s in syscalls}
    byname = {v: k for k, v in names.items()}
    for s, why in sorted(vdso.items()):
        if s not in have and s in byname:
            syscalls.append({"nr": byname[s], "name": s, "reached": "vdso",
                             "indirect_hops": None, "through": why[0], "path": [], "sites": 0})
    # The kernel makes restart_syscall itself: a syscall that answers
    # -ERESTART_RESTARTBLOCK (a restart block: set_restart_fn() in
    # kernel/time/hrtimer.c, posix-cpu-timers.c, alarmtimer.c,
    # kernel/futex/waitwake.c, fs/select.c) and is interrupted by a signal
    # with no handler is restarted as restart_syscall (arch/arm/kernel/
    # signal.c do_signal; entry-common.S: `movlt scno, #__NR_restart_syscall`).
    made = {s["name"] for s in syscalls}
    why = sorted(made & set(RESTARTERS))
    if why and "restart_syscall" not in made and "restart_syscall" in byname:
        syscalls.append({"nr": byname["restart_syscall"], "name": "restart_syscall",
                         "reached": "kernel", "indirect_hops": None, "path": [], "sites": 0,
                         "through": "the kernel, restarting %s" % " ".join(why)})
    syscalls.sort(key=lambda s: s["nr"])
    unacc = [{"kind": "dynamic", "why": m} for m in pr.missing]
    seen = set()
    for i, o in enumerate(pr.objs):
        for kind, why in o["problems"]:
            if (o["path"], why) not in seen:
                seen.add((o["path"], why))
                unacc.append({"kind": kind, "why": "%s: %s" % (o["path"], why)})
    splice = []
    for s in syscalls:
        if s["name"] in SPLICE:
            splice.append({"syscalls": [s["name"]], "addr": 0, "func": s["through"] or "?",
                           "calls": [{"call": None, "caller": s["through"] or "?",
                                      "verdict": "no fallback proven",
                                      "why": "the image mode does not follow the program's "
                                      "code after a call through the PLT yet",
                                      "compares": []}]})
    return {"elf": pr.path, "symbols": False, "svc_sites": nsites,
            "resolved_sites": nsites - len(unresolved), "syscalls": syscalls,
            "unresolved": unresolved, "oabi": [], "svc_imm": [], "wrappers": [],
            "splice_family": splice, "pruning": None,
            "pruning_off": "image mode: no pruning for the target kernel yet",
            "unaccounted": unacc,
            "objects": [o["path"] for o in pr.objs],
            "dlopen": pr.dlopened, "unbound": sorted(pr.unbound)}
