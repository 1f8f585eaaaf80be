"""image/splice.py: does a dynamically linked program fall back when a
splice-family call through the PLT answers ENOSYS?

The static mode's walk (scripts/audit/audit_flow.py) runs the program's
code forward from the call with the svc answering -ENOSYS. In a dynamic
program the call goes to a PLT entry, and the svc is in libc. Here the
entry is summarised by the library function's contract: glibc's
sendfile64, splice, tee and vmsplice are INLINE_SYSCALL wrappers, which on
an error store the error in errno (glibc's TLS errno, read by the program
through __errno_location()) and return -1 (sysdeps/unix/sysv/linux/
sysdep.h, INLINE_SYSCALL and __syscall_error). So at the entry the walk
sets r0 to -1 and errno to ENOSYS, marks errno as the result to follow,
and returns to the call; a call of __errno_location@plt gives errno's
address; any other PLT call is stepped over (r0-r3, r12, lr, the flags
and errno unknown after it). From there the program's own code is
followed as in the static mode, and the bar is unchanged: the result must
reach a compare with ENOSYS whose ENOSYS branch leads to a read and a
write (here: a PLT call whose library function reaches them, found by the
image's reachability) or copy_file_range.

As in the static mode, a program without a symbol table has no function
boundaries (scripts/audit/accounted.py), so the walk's findings are
reported but the verdict stays "no fallback proven". A call of the same
library function from anywhere else (another library, or libc itself) is
one more call without a verdict.
"""
import re

import audit_flow
import syscalls as static

from . import link

SPLICE = ("sendfile", "sendfile64", "splice", "tee", "vmsplice")
MOVES = set(audit_flow.READS + audit_flow.WRITES + audit_flow.BOTH)


class PltFlow(audit_flow.Flow):
    def __init__(self, prog, names, plt, summary):
        super().__init__(prog, names, static.writes, static.ends_flow)
        self.plt = plt            # {PLT entry address: imported name}
        self.summary = summary    # imported name -> syscall names it reaches

    def _target(self, ins):
        """The static mode's reading, and objdump's 'bl 8260 <sendfile64@plt>',
        which its operands keep only up to the '@'."""
        t = super()._target(ins)
        if t is None and ins.base in ("b", "bl", "blx"):
            m = re.match(r"([0-9a-f]+) <", ins.ops)
            x = self.prog.by_addr.get(int(m.group(1), 16)) if m else None
            t = None if x is None else x.index
        return t

    def is_errno_fn(self, addr):
        if self.plt.get(addr & ~1) == "__errno_location":
            return True
        return super().is_errno_fn(addr)

    def step(self, st, i, ev):
        name = self.plt.get(self.insns[i].addr)
        if name is not None and name in SPLICE and not st.armed:
            ev.append(("svc", name))
            st.set("r0", audit_flow.K(0xFFFFFFFF))
            st.errno = audit_flow.K(audit_flow.ENOSYS, True, ())
            st.armed = True
            return self.ret(st, i, ev)
        return super().step(st, i, ev)

    def call(self, st, i, t, ev):
        if t is not None:
            name = self.plt.get(self.insns[t].addr)
            if name is not None and name != "__errno_location" and \
                    not (name in SPLICE and not st.armed):
                self.clobber_call(st)
                return [(i + 1, st)]
        return super().call(st, i, t, ev)

    def leads_to(self, rec):
        got = set(super().leads_to(rec))
        if rec["go"] is None:
            return sorted(got)
        reached, funcs = set(), set()
        for start in [rec["go"]] + list(reversed(rec["stack"])):
            self._intra(start, reached, funcs)
        for f in self.closure(funcs):
            reached.update(self.fn_range(f))
        for i in reached:
            ins = self.insns[i]
            if ins.base in ("b", "bl", "blx") and not ins.data:
                t = self._target(ins)
                n = None if t is None else self.plt.get(self.insns[t].addr)
                if n:
                    got |= self.summary(n) & MOVES
        return sorted(got)


def verdicts(pr, host_path, names, nums):
    """The splice_family records (report.py's shape) of program PR: per
    splice-family syscall it can make, every way it is called, with the
    walk's verdict for the program's own PLT calls."""
    prog0 = pr.objs[0]
    plt = {a: k[0] for a, k in prog0["plt"].items()}
    byname = {v: k for k, v in names.items()}
    want = {names.get(n) for n in nums} & set(SPLICE)
    if not want:
        return []
    cache = {}

    def summary(imp):
        if imp not in cache:
            key = next((k for k in prog0["plt"].values() if k[0] == imp), (imp, None, True))
            cache[imp] = {names.get(n) for n in pr.reachable_numbers(key)}
        return cache[imp]

    prog = static.Program(host_path)
    flow = PltFlow(prog, names, plt, summary)
    bounded = prog.elf.symtab is not None
    out = []
    for fn in sorted(want):
        calls = []
        for ins in prog.insns:
            if ins.data or ins.base not in ("bl", "b") or ins.cond is not None and ins.base == "b":
                continue
            t = flow._target(ins)
            if t is None or plt.get(prog.insns[t].addr) != fn:
                continue
            v = flow.enosys(ins.index, {}, SPLICE)
            c = {"call": ins.addr, "caller": ins.func, "syscalls": [fn],
                 "verdict": v["verdict"], "why": v["why"], "compares": v["compares"]}
            if v["verdict"] == "fallback" and not bounded:
                c.update(verdict="no fallback proven",
                         why="no symbol table: function boundaries not established, so what "
                         "the ENOSYS branch reaches is not known (the walk found: %s)" % v["why"])
            calls.append(c)
        for who in pr.other_callers(fn):
            calls.append({"call": None, "caller": who, "syscalls": [fn],
                          "verdict": "no fallback proven", "compares": [],
                          "why": "called by a library, not by the program's own code: not "
                          "walked"})
        if not calls:
            calls.append({"call": None, "caller": "?", "syscalls": [fn], "compares": [],
                          "verdict": "no fallback proven",
                          "why": "reached, but no call of %s through the program's PLT" % fn})
        out.append({"syscalls": [fn], "addr": 0, "func": fn, "calls": calls,
                    "nr": byname.get(fn)})
    return out


def other_callers(pr, fn):
    """Readable names of the live code outside the program that calls the
    library function FN (through a PLT, or directly in its own object)."""
    targets = set()
    for i, o in enumerate(pr.objs):
        for d in o["exports"].get(fn, ()):
            rj = link.region_of(o, d[2] & ~1)
            if rj is not None:
                targets.add((i, rj))
    out = set()
    for (i, ri) in pr.live:
        if i == 0:
            continue
        o = pr.objs[i]
        for rj in o["edges"].get(ri, ()):
            if (i, rj) in targets and (i, rj) != (i, ri):
                out.add("%s:%s" % (o["path"].rsplit("/", 1)[-1], link.name_of(o, ri)))
        for key in o["imp_edges"].get(ri, ()):
            if key[0] == fn and pr.bind(key) in targets:
                out.add("%s:%s" % (o["path"].rsplit("/", 1)[-1], link.name_of(o, ri)))
    return sorted(out)
