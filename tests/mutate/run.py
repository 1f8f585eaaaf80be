#!/usr/bin/env python3
"""tests/mutate/run.py - mutation pass over app/ against the host app tests.

For each mutant of tests/mutate/mutants.tsv: copy the tree's app/, mk/,
scripts/ and tests/ to a scratch tree (build/mutate/tree; the worktree's
app/ is never touched), apply the one-spot change, build the host test
binaries there, and run the host app scripts one by one (fastest first)
until one fails. A mutant is
  killed      a script reported a failed case (its names are kept),
  survived    every script passed,
  equivalent  the stripped server binary is identical to the unmutated one
              (proved by the compiler), or the list says why it cannot
              change behaviour and no test failed,
  stillborn   it does not compile (not counted).
score = killed / (killed + survived). Results go to build/mutate/report.json
(and report.txt). Usage:

    tests/mutate/run.py [--list FILE] [--only ID,...] [--shard I/N]
                        [--scripts a,b] [--no-baseline] [--check]
    tests/mutate/run.py --merge A.json B.json ...

--check only verifies that every original text occurs exactly once.
--shard I/N runs every Nth mutant from the Ith (0-based): N runners, each
with its own MUTATE_OUT, share a list; --merge joins their reports into
MUTATE_OUT's report.json (a mutant in several keeps its last result).
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
OUT = os.environ.get("MUTATE_OUT", os.path.join(TOP, "build", "mutate"))
TREE = os.path.join(OUT, "tree")
# Fastest and most telling first; lint is not about behaviour.
SCRIPTS = ["app-unit", "app-edges", "app-enosys", "app-badinput", "app-mutants",
           "app-peer", "app-timeouts", "app-hardening", "app-serve",
           "app-fallback", "app-fuzz"]
FUZZED = {"http.c", "path.c", "range.c", "log.c"}  # app_fuzz_http.c's sources


def load(path):
    muts = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) < 4:
                sys.exit("%s:%d: want id, file, original, replacement[, note]" % (path, n))
            dec = [c.replace("<TAB>", "\t").replace("<NL>", "\n") for c in cols]
            muts.append({"id": cols[0], "file": cols[1], "orig": dec[2],
                         "repl": dec[3], "note": cols[4] if len(cols) > 4 else ""})
    return muts


def sh(cmd, log, cwd=None, env=None, timeout=None):
    with open(log, "ab") as f:
        f.write(("$ %s\n" % " ".join(cmd)).encode())
        f.flush()
        return subprocess.run(cmd, cwd=cwd, env=env, stdout=f, stderr=subprocess.STDOUT,
                              timeout=timeout).returncode


def fresh_tree():
    os.makedirs(TREE, exist_ok=True)
    # copytree keeps the sources' times: objects left by an earlier run
    # (of a mutant) would look newer than them and not be rebuilt.
    shutil.rmtree(os.path.join(TREE, "build"), ignore_errors=True)
    for d in ("app", "mk", "scripts", "tests"):
        dst = os.path.join(TREE, d)
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(os.path.join(TOP, d), dst,
                        ignore=shutil.ignore_patterns("__pycache__"))


def put_app(files):
    for name, text in files.items():
        p = os.path.join(TREE, "app", name)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)


def build(log):
    env = dict(os.environ)
    return sh(["nice", "-n", "10", "make", "-s", "-f", "mk/app.mk", "TOP=" + TREE,
               "app-test-host"], log, cwd=TREE, env=env) == 0


def binary_hash(log):
    src = os.path.join(TREE, "build", "app", "host", "fileserver")
    tmp = src + ".stripped"
    if sh(["strip", "-o", tmp, src], log) != 0:
        return None
    with open(tmp, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def run_script(name, log, fuzz):
    """(passed, failed case names, seconds)."""
    env = dict(os.environ, TESTS="host/%s.sh" % name, TMPDIR=os.path.join(OUT, "tmp"),
               FUZZ_TIME="10")
    os.makedirs(env["TMPDIR"], exist_ok=True)
    start = time.monotonic()
    r = subprocess.run([os.path.join(TREE, "tests", "run")], cwd=TREE, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = r.stdout.decode("utf-8", "replace")
    with open(log, "a", encoding="utf-8") as f:
        f.write(out)
    failed = [m.group(1) for m in re.finditer(r"^   not ok - (.*)$", out, re.M)]
    return r.returncode == 0 and not failed, failed, time.monotonic() - start


def run_suite(scripts, log, mutated_file):
    for s in scripts:
        if not os.path.exists(os.path.join(TREE, "tests", "host", s + ".sh")):
            continue
        if s == "app-fuzz" and mutated_file not in FUZZED and mutated_file is not None:
            continue
        ok, failed, secs = run_script(s, log, s == "app-fuzz")
        if not ok:
            return s, failed
    return None, []


def progress_lines(path):
    """Results from a runner's stdout ("id status [script: first case]")."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^(\S+) +(killed|survived|equivalent|stillborn) *(.*)$", line.rstrip("\n"))
            if not m:
                continue
            r = {"id": m.group(1), "status": m.group(2), "from": os.path.basename(path)}
            if r["status"] == "killed":
                by, _, case = m.group(3).partition(": ")
                r.update(by=by, failed_cases=[case] if case else [])
            out.append(r)
    return out


def write_report(results, scripts, seconds, started):
    count = {k: sum(r["status"] == k for r in results)
             for k in ("killed", "survived", "equivalent", "stillborn")}
    denom = count["killed"] + count["survived"]
    report = {"started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
              "seconds": seconds,
              "scripts": scripts, "counts": count,
              "score": round(count["killed"] / denom, 4) if denom else None,
              "survivors": [r["id"] for r in results if r["status"] == "survived"],
              "mutants": results}
    with open(os.path.join(OUT, "report.json"), "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1)
    summary = ("mutation score: %d killed / %d behaviour-changing = %s; %d equivalent, "
               "%d stillborn; survivors: %s"
               % (count["killed"], denom,
                  "%.1f%%" % (100.0 * count["killed"] / denom) if denom else "n/a",
                  count["equivalent"], count["stillborn"],
                  ", ".join(report["survivors"]) or "none"))
    with open(os.path.join(OUT, "report.txt"), "w", encoding="utf-8") as f:
        for r in results:
            f.write("%-24s %-10s %s\n" % (r["id"], r["status"], r.get("by", r.get("why", ""))))
        f.write(summary + "\n")
    print(summary)
    print("report: %s" % os.path.join(OUT, "report.json"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", default=os.path.join(HERE, "mutants.tsv"))
    ap.add_argument("--only", default="")
    ap.add_argument("--scripts", default=",".join(SCRIPTS))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--shard", default="")
    ap.add_argument("--merge", nargs="+")
    a = ap.parse_args()
    if a.merge:
        results, scripts, secs = {}, [], 0
        for path in a.merge:
            if path.endswith(".out"):  # the progress lines of a runner stopped early
                for m in progress_lines(path):
                    results[m["id"]] = m
                continue
            with open(path, encoding="utf-8") as f:
                r = json.load(f)
            scripts, secs = r["scripts"], secs + r["seconds"]
            for m in r["mutants"]:
                results[m["id"]] = m
        order = [m["id"] for m in load(a.list)]
        os.makedirs(OUT, exist_ok=True)
        write_report(sorted(results.values(), key=lambda m: order.index(m["id"])
                            if m["id"] in order else len(order)), scripts, secs, time.time())
        return 0
    muts = load(a.list)
    pristine = {}
    for m in muts:
        if m["file"] not in pristine:
            with open(os.path.join(TOP, "app", m["file"]), encoding="utf-8") as f:
                pristine[m["file"]] = f.read()
    bad = [m["id"] for m in muts if pristine[m["file"]].count(m["orig"]) != 1]
    if bad:
        sys.exit("original text not found exactly once: %s" % ", ".join(bad))
    ids = [m["id"] for m in muts]
    if len(set(ids)) != len(ids):
        sys.exit("duplicate ids")
    if a.check:
        print("%d mutants, every original text found once" % len(muts))
        return 0
    if a.only:
        want = set(a.only.split(","))
        muts = [m for m in muts if m["id"] in want]
    if a.shard:
        i, n = (int(x) for x in a.shard.split("/"))
        muts = muts[i::n]
    scripts = a.scripts.split(",")
    os.makedirs(os.path.join(OUT, "logs"), exist_ok=True)
    fresh_tree()
    base_log = os.path.join(OUT, "logs", "baseline.log")
    open(base_log, "w").close()
    if not build(base_log):
        sys.exit("baseline does not build: %s" % base_log)
    base_hash = binary_hash(base_log)
    started = time.time()
    if not a.no_baseline:
        t0 = time.monotonic()
        s, failed = run_suite(scripts, base_log, None)
        if s:
            sys.exit("baseline fails in %s: %s (log %s)" % (s, failed, base_log))
        print("baseline: every script passes (%.0f s)" % (time.monotonic() - t0), flush=True)
    results = []
    for m in muts:
        log = os.path.join(OUT, "logs", m["id"] + ".log")
        open(log, "w").close()
        t0 = time.monotonic()
        put_app(pristine)
        put_app({m["file"]: pristine[m["file"]].replace(m["orig"], m["repl"], 1)})
        res = {"id": m["id"], "file": m["file"], "note": m["note"],
               "original": m["orig"], "replacement": m["repl"]}
        if not build(log):
            res.update(status="stillborn")
        else:
            same = binary_hash(log) == base_hash
            s, failed = run_suite(scripts, log, m["file"])
            if s:
                res.update(status="killed", by=s, failed_cases=failed)
            elif same:
                res.update(status="equivalent", why="same stripped binary as the unmutated code")
            elif m["note"].startswith("equivalent:"):
                res.update(status="equivalent", why=m["note"])
            else:
                res.update(status="survived")
            res["same_binary"] = same
        res["seconds"] = round(time.monotonic() - t0, 1)
        results.append(res)
        print("%-24s %-10s %s" % (m["id"], res["status"],
                                  res.get("by", "") + (": " + res["failed_cases"][0]
                                                       if res.get("failed_cases") else "")),
              flush=True)
    put_app(pristine)
    write_report(results, scripts, round(time.time() - started), started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
