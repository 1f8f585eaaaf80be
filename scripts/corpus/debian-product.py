#!/usr/bin/env python3
"""corpus/debian-product.py: does the two-sided fragment give a traced
program every option it needs on the tiny board?

Usage:
  corpus/debian-product.py KMAP_TINY TINY_CONFIG NAMES STRACE FRAGMENT [RESULT]

KMAP_TINY    audit/kmap.py's map for the tiny board's tree and config
TINY_CONFIG  the tiny board's .config
NAMES        PROG.trace.names; STRACE: PROG.strace (the raw log)
FRAGMENT     the product fragment for the program (audit/needs.py's
             CONFIG_X=y side, with the =n side or not)
RESULT       optional: the .config olddefconfig wrote from TINY_CONFIG plus
             the fragment (for several programs' fragments merged)

What the trace needs, worked out here and not with audit/gates.py, so that
the check does not share the audit's reading:
  - every option a traced syscall requires (KMAP's "requires");
  - from the arguments the trace printed: a clock other than
    CLOCK_REALTIME, CLOCK_MONOTONIC and CLOCK_BOOTTIME needs POSIX_TIMERS
    (Linux 6.1 and 6.12, kernel/time/posix-stubs.c: do_clock_gettime()
    and the clock_getres/clock_nanosleep switches answer EINVAL for the
    rest); PF_UNIX (and socketpair(1, ...)) needs UNIX, PF_INET INET,
    PF_INET6 IPV6, PF_PACKET PACKET (net/socket.c __sock_create()); an
    fcntl lock or lease command FILE_LOCKING (include/linux/fs.h stubs); a
    CLONE_NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET or NEWTIME bit of clone
    or unshare UTS_NS, IPC_NS, USER_NS, PID_NS, NET_NS, TIME_NS (the
    copy_utsname()-style stubs).
Each of these that TINY_CONFIG has off must be `CONFIG_X=y` in FRAGMENT
(and =y in RESULT). Prints them; exit 1 when one is missing, 2 on bad input.
"""
import json
import os
import re
import sys

STUB_CLOCKS = {"CLOCK_REALTIME", "CLOCK_MONOTONIC", "CLOCK_BOOTTIME"}
FAMILIES = {"PF_UNIX": "UNIX", "PF_LOCAL": "UNIX", "PF_INET": "INET", "PF_INET6": "IPV6",
            "PF_PACKET": "PACKET", "1": "UNIX", "2": "INET", "10": "IPV6", "17": "PACKET"}
NAMESPACES = {"CLONE_NEWUTS": "UTS_NS", "CLONE_NEWIPC": "IPC_NS", "CLONE_NEWUSER": "USER_NS",
              "CLONE_NEWPID": "PID_NS", "CLONE_NEWNET": "NET_NS", "CLONE_NEWTIME": "TIME_NS"}
LOCKS = re.compile(r"F_(OFD_)?(GET|SET)LKW?(64)?$|F_(SET|GET)LEASE$")


def on_in(path):
    with open(path) as f:
        return set(re.findall(r"^CONFIG_(\w+)=y$", f.read(), re.M))


def trace_args(text):
    """{option: [why]} from the arguments in a raw qemu-arm -strace log."""
    out = {}
    for m in re.finditer(r"(?<!\w)(clock_\w+)\((CLOCK_\w+|-?\d+)[,)]", text):
        if m.group(2) not in STUB_CLOCKS:
            out.setdefault("POSIX_TIMERS", set()).add("%s(%s)" % m.groups())
    for m in re.finditer(r"(?<!\w)(socket|socketpair)\((PF_\w+|\d+)[,)]", text):
        if m.group(2) in FAMILIES:
            out.setdefault(FAMILIES[m.group(2)], set()).add("%s(%s)" % m.groups())
    for m in re.finditer(r"(?<!\w)(clone|unshare)\(([A-Z_0-9|x]+)[,)]", text):
        for flag in m.group(2).split("|"):
            if flag in NAMESPACES:
                out.setdefault(NAMESPACES[flag], set()).add("%s(%s)" % (m.group(1), flag))
    for m in re.finditer(r"(?<!\w)(fcntl64|fcntl)\(\d+,(F_\w+)[,)]", text):
        if LOCKS.match(m.group(2)):
            out.setdefault("FILE_LOCKING", set()).add("%s(%s)" % m.groups())
    return out


def main(argv):
    if len(argv) not in (6, 7):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    kmap_p, tiny_p, names_p, strace_p, frag_p = argv[1:6]
    with open(kmap_p) as f:
        kmap = json.load(f)
    with open(names_p) as f:
        names = sorted({ln.strip() for ln in f if ln.strip()})
    with open(strace_p, errors="replace") as f:
        need = trace_args(f.read())
    for n in names:
        for opt in kmap["syscalls"].get(n, {}).get("requires", []):
            need.setdefault(opt, set()).add(n)
    tiny = on_in(tiny_p)
    frag = on_in(frag_p)
    result = on_in(argv[6]) if len(argv) == 7 else None
    prog = re.sub(r"(\.trace)?\.names$", "", os.path.basename(names_p))
    off = {o: w for o, w in need.items() if o not in tiny}
    print("# %s: needs on tiny: %s" % (prog, " ".join(
        "%s (%s)" % (o, " ".join(sorted(w))) for o, w in sorted(off.items())) or "nothing"))
    bad = 0
    for o in sorted(off):
        if o not in frag:
            print("# %s: the fragment does not turn on %s" % (prog, o))
            bad = 1
        elif result is not None and o not in result:
            print("# %s: CONFIG_%s=y does not hold with olddefconfig" % (prog, o))
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
