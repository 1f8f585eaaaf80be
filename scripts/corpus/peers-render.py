#!/usr/bin/env python3
"""corpus/peers-render.py: the peers table (make peers), with the audit's verdict.

Reads build/peers/results.jsonl and want.json (scripts/corpus/peers.sh), audits each
server's program (init: PEERS_INIT_ELF, default build/app/arm/init.unstripped) (scripts/corpus/check.py's audit(): the project's audit
against build/kernel-vexpress/.config, SYSCALL_SPLICE=y) and writes
images/peers.json (json.dump) and images/peers.md.

Per board and server, the outcome:
  serves       test.bin, hello.txt and the range arrive whole (sha256); a
               server that ignores Range may answer it 200 with the file
  short body   it answered test.bin, but not every byte arrived
  no start     it never answered (the console says why)
Per server, whether the audit's verdict agrees with what the boards did:
  verdict none or fallback (the fragment turns SYSCALL_SPLICE off): the
    audit says compiling out splice changes nothing for this program, so
    it agrees when tiny's outcome is base's;
  verdict kept (called, no fallback proven): the audit says tiny may break;
    it agrees when tiny breaks and base serves; when both serve it is sound
    but conservative; when base does not serve either, tiny says nothing.
Exit status 0; 2 on bad input.
"""
import importlib.util
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from report import write_json  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_check():
    spec = importlib.util.spec_from_file_location(
        "corpus_check", os.path.join(TOP, "scripts", "corpus", "check.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def outcome(r, want):
    if not r["started"] or not r.get("big_status"):
        return "no start"
    big = r["big_sha"] == want["big_sha"]
    small = r["small_sha"] == want["small_sha"]
    rng = (r["range_status"] == 206 and r["range_sha"] == want["range_sha"]) or \
        (r["range_status"] == 200 and r["range_sha"] == want["big_sha"])
    if big and small and rng:
        return "serves"
    if r["big_status"] == 200 and r["big_bytes"] < want["big_bytes"]:
        return "short body"
    return "wrong answer"


def agreement(verdict, tiny, base):
    if verdict in ("none", "fallback"):
        return "agrees" if tiny == base else "DISAGREES"
    if base != "serves":
        return "not observable (base does not serve)"
    if tiny == "serves":
        return "sound, conservative (it fell back)"
    return "agrees"


def main():
    out = os.path.join(TOP, "build", "peers")
    try:
        runs = [json.loads(l) for l in open(os.path.join(out, "results.jsonl")) if l.strip()]
        want = json.load(open(os.path.join(out, "want.json")))["want"]
    except (OSError, ValueError, KeyError) as e:
        print("peers-render: %s (run scripts/corpus/peers.sh)" % e, file=sys.stderr)
        return 2
    cc = load_check()
    ktree = os.path.join(TOP, "build", "linux-6.1")
    adir = os.path.join(out, "audit")
    os.makedirs(adir, exist_ok=True)
    kmap = os.path.join(adir, "kmap.json")
    cc.run([os.path.join(TOP, "scripts", "audit", "kmap.py"), ktree, "--config",
            os.path.join(TOP, "build", "kernel-vexpress", ".config")], kmap)
    progs = {r["name"]: r for r in cc.read_truth(os.path.join(TOP, "tests", "audit", "corpus.txt"))}
    elfs = {"init": os.environ.get("PEERS_INIT_ELF", "build/app/arm/init.unstripped")}
    elfs["init-nofallback"] = "build/peers/init-nofallback/arm/init.unstripped"
    truth = {"init": "fallback", "init-nofallback": "nofallback"}
    for n, r in progs.items():
        elfs[n] = os.path.join("build", "corpus", n, "bin", r["prog"])
    verdicts = {}
    cwd = os.getcwd()
    os.chdir(TOP)
    try:
        for s in sorted({r["server"] for r in runs}):
            verdicts[s] = cc.audit(s, elfs[s], ktree, kmap, adir)["verdict"]
    finally:
        os.chdir(cwd)
    for r in runs:
        r["outcome"] = outcome(r, want)
        r["audit_verdict"] = verdicts[r["server"]]
        r["truth"] = progs[r["server"]]["truth"] if r["server"] in progs else truth[r["server"]]
        secs = r.get("big_seconds") or 0
        r["big_kib_s"] = round(r["big_bytes"] / 1024 / secs) if secs and r.get("big_bytes") else 0
    by = {(r["board"], r["server"]): r for r in runs}
    servers = []
    for r in runs:
        if r["server"] not in servers:
            servers.append(r["server"])
    agree, agree_mu = {}, {}
    for s in servers:
        t, b = by.get(("tiny", s)), by.get(("base", s))
        if t and b:
            agree[s] = agreement(verdicts[s], t["outcome"], b["outcome"])
        t, b = by.get(("tiny-mu", s)), by.get(("base-mu", s))
        if t and b:
            agree_mu[s] = agreement(verdicts[s], t["outcome"], b["outcome"])
    write_json(os.path.join(TOP, "images", "peers.json"),
               {"want": want, "runs": runs, "agreement": agree,
                "agreement_multiuser": agree_mu})
    L = ["# Peers on the board: what compiling out splice breaks, and what it does not", "",
         "Written by `make peers` (scripts/corpus/peers.sh, scripts/corpus/peers-render.py). Each HTTP",
         "server of the audit's corpus (Debian source packages, built static with musl)",
         "runs on images/tiny (splice family compiled out) and images/base (built in),",
         "started by peers/peer-init.c; `init` is this project's own, and",
         "`init-nofallback` the control: init built with its ENOSYS branch ending the",
         "transfer (app/xfer.c sendfile_error()), as a server without a fallback. Fetched from",
         "127.0.0.1: test.bin (%d bytes), hello.txt, and bytes 1000-99999 of test.bin."
         % want["big_bytes"],
         "verdict: the audit's on the splice family (none: never called; fallback: the",
         "fragment turns SYSCALL_SPLICE off; kept: called, no fallback proven); truth:",
         "read in the source (tests/audit/corpus.txt). KiB/s: one fetch of test.bin",
         "under emulation, on whatever load the host had: a rough figure, not a benchmark.",
         "Free KiB: sysinfo() on the board (\"stats\" on the console) before and after.", "",
         "| board | server | verdict | truth | outcome | test.bin: status, bytes, sha256 | "
         "hello.txt | range | KiB/s | free KiB at rest / after |",
         "|---|---|---|---|---|---|---|---|---|---|"]
    for s in servers:
        for board in ("tiny", "base", "tiny-mu", "base-mu"):
            r = by.get((board, s))
            if not r:
                continue
            if r["outcome"] == "no start":
                fetches = "- | - | - | -"
            else:
                fetches = "%d, %d, %s | %d, %s | %d, %d B, %s | %d" % (
                    r["big_status"], r["big_bytes"],
                    "ok" if r["big_sha"] == want["big_sha"] else "BAD",
                    r["small_status"], "ok" if r["small_sha"] == want["small_sha"] else "BAD",
                    r["range_status"], r["range_bytes"],
                    "ok" if r["range_sha"] in (want["range_sha"], want["big_sha"]) else "BAD",
                    r["big_kib_s"])
            note = r["outcome"]
            if r["outcome"] == "no start" and (r.get("exit") or r.get("console")):
                note += " (%s)" % "; ".join(x for x in (r.get("console"), r.get("exit")) if x)
            L.append("| %s | %s | %s | %s | %s | %s | %s / %s |" % (
                board, s, r["audit_verdict"], r["truth"], note, fetches,
                r.get("free_rest_k"), r.get("free_after_k")))
    L += ["", "Does the audit's verdict agree with what the boards did?", ""]
    for s in servers:
        if s in agree:
            L.append("- %s: verdict %s; tiny %s, base %s: **%s**" % (
                s, verdicts[s], by[("tiny", s)]["outcome"], by[("base", s)]["outcome"], agree[s]))
    if agree_mu:
        L += ["", "On tiny-mu and base-mu (`make peers PEERS_MULTIUSER=1`: the same boards with",
              "CONFIG_MULTIUSER=y, for a server that must drop privileges to start):", ""]
    for s in servers:
        if s in agree_mu:
            L.append("- %s: verdict %s; tiny-mu %s, base-mu %s: **%s**" % (
                s, verdicts[s], by[("tiny-mu", s)]["outcome"], by[("base-mu", s)]["outcome"],
                agree_mu[s]))
    with open(os.path.join(TOP, "images", "peers.md"), "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(L))
    return 0


if __name__ == "__main__":
    sys.exit(main())
