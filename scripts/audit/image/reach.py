"""image/reach.py: what one program can run, across the objects it loads,
and the syscalls that code makes.

The walk starts at the program's entry point and the loader's, and at the
roots of every loaded object (elfobj.py: DT_INIT, init/fini arrays, IFUNC
resolvers, code addresses in its data and the symbols its data points to).
A region leads to the regions it calls, branches or falls into, or whose
address it forms, and through the PLT (and GLOB_DAT/ABS32 addresses) to the
definition the global scope binds (link.py), in whatever object. A
reachable dlopen loads more (dlopen.py): those objects, their libraries,
their roots and every function they export (dlsym can return any) join the
walk.

Syscalls: every svc in a reachable region, its number found in r7
(decode.py); a svc whose number is an argument (glibc's syscall(): `mov r7,
r0`, sysdeps/unix/sysv/linux/arm/syscall.S) takes the constants its
reachable callers pass; glibc's setxid broadcast reads the number from
memory (elfobj.memory_numbers). The vDSO (arch/arm/vdso, not in the image)
makes a syscall when its fast path cannot answer: clock_gettime64,
clock_gettime, gettimeofday, clock_getres_time64 and clock_getres
(arch/arm/include/asm/vdso/gettimeofday.h, the *_fallback functions); they
count when glibc's functions that call the vDSO are reachable.
"""
import collections

from . import dlopen as dl
from . import link

# glibc 2.36 functions that call through the vDSO pointers (sysdeps/unix/
# sysv/linux/clock_gettime.c, gettimeofday.c, clock_getres.c, time.c) and
# the vDSO's fallback syscalls for each.
VDSO = {"clock_gettime": ("clock_gettime64", "clock_gettime"),
        "__clock_gettime64": ("clock_gettime64", "clock_gettime"),
        "gettimeofday": ("gettimeofday",), "__gettimeofday64": ("gettimeofday",),
        "time": ("clock_gettime64", "clock_gettime"),
        "clock_getres": ("clock_getres_time64", "clock_getres"),
        "__clock_getres64": ("clock_getres_time64", "clock_getres")}


GLIBC_BY_NAME = ("__libc_early_init", "pthread_mutex_lock", "pthread_mutex_unlock")


class Program:
    def __init__(self, path, loader, analyse, shared):
        self.path = path
        self.loader = loader
        self.analyse = analyse
        self.shared = shared
        self.problems = []
        self.missing = []
        closure = loader.closure(path, self.missing)
        self.objs = []
        self.index = {}
        self.add(closure)
        self.scope = link.Scope(list(enumerate(self.objs)))
        self.parent = {}
        self.live = set()
        self.work = collections.deque()   # breadth first: the paths shown are short
        self.dlopened = {}
        self.unbound = set()

    def add(self, order):
        new = []
        for p, o in order:
            if p in self.index:
                continue
            self.index[p] = len(self.objs)
            self.objs.append(o)
            new.append((self.index[p], o))
        return new

    def push(self, node, via):
        if node not in self.live:
            self.live.add(node)
            self.parent[node] = via
            self.work.append(node)

    def bind(self, key):
        got = self.scope.lookup(key)
        if got is None:
            if not key[2]:
                self.unbound.add("%s%s" % (key[0], "@" + key[1] if key[1] else ""))
            return None
        j, addr, stype = got
        rj = link.region_of(self.objs[j], addr)
        return None if rj is None else (j, rj)

    def roots(self, new, why, exports=False):
        for i, o in new:
            for ri in o["roots"]:
                self.push((i, ri), (None, "%s: %s runs it at load (entry, init, IFUNC or a "
                                    "pointer in its data)" % (why, o["path"])))
            for key in o["root_imps"]:
                n = self.bind(key)
                if n:
                    self.push(n, (None, "%s: %s holds the address of %s" % (why, o["path"],
                                                                            key[0])))
            if exports:
                for name, defs in o["exports"].items():
                    for d in defs:
                        if d[3] in ("STT_FUNC", "STT_GNU_IFUNC", "STT_LOOS"):
                            rj = link.region_of(o, d[2] & ~1)
                            if rj is not None:
                                self.push((i, rj), (None, "dlopen: dlsym may return %s of %s"
                                                    % (name, o["path"])))

    def by_name_roots(self):
        """Functions glibc's loader finds in libc by name (_dl_lookup_direct),
        not through a relocation, and calls: __libc_early_init
        (elf/dl-call-libc-early-init.c, _dl_call_libc_early_init), and
        pthread_mutex_lock/unlock, its own locks once libc is loaded
        (sysdeps/nptl/dl-mutex.c, __rtld_mutex_init)."""
        interp = self.objs[0]["interp"] or ""
        if "ld-linux" not in interp:
            return
        for i, o in enumerate(self.objs):
            if o["soname"] != "libc.so.6":
                continue
            for name in GLIBC_BY_NAME:
                for d in o["exports"].get(name, ()):
                    rj = link.region_of(o, d[2] & ~1)
                    if rj is not None:
                        self.push((i, rj), (None, "glibc's loader calls %s by name" % name))

    def walk(self):
        while self.work:
            i, ri = self.work.popleft()
            o = self.objs[i]
            for rj in o["edges"].get(ri, ()):
                self.push((i, rj), ((i, ri), None))
            for key in o["imp_edges"].get(ri, ()):
                n = self.bind(key)
                if n:
                    self.push(n, ((i, ri), key[0]))

    def reachable_numbers(self, key):
        """The svc numbers reachable from the definition KEY binds to (a
        summary of an imported function), with the wrappers' constants."""
        start = self.bind(key)
        if start is None:
            return set()
        seen, work, nums = {start}, [start], set()
        while work:
            i, ri = work.pop()
            o = self.objs[i]
            for a, consts, args, unknown in o["svc"].get(ri, ()):
                nums.update(consts)
            nxt = [(i, rj) for rj in o["edges"].get(ri, ())]
            nxt += [n for n in (self.bind(k) for k in o["imp_edges"].get(ri, ())) if n]
            for n in nxt:
                if n not in seen:
                    seen.add(n)
                    work.append(n)
        return nums

    def other_callers(self, fn):
        from . import splice
        return splice.other_callers(self, fn)

    def exported_live(self, names):
        """{name: object path} of the functions NAMES that are reachable."""
        out = {}
        for i, o in enumerate(self.objs):
            for n in names:
                for d in o["exports"].get(n, ()):
                    rj = link.region_of(o, d[2] & ~1)
                    if rj is not None and (i, rj) in self.live and \
                            o["starts"][rj] == d[2] & ~1:
                        out[n] = o["path"]
        return out

    def run(self):
        self.roots(list(enumerate(self.objs)), "loaded")
        self.by_name_roots()
        self.walk()
        kinds = set()
        while True:
            live = self.exported_live(dl.PUBLIC + dl.GLIBC_INTERNAL)
            want = set()
            if any(n in live for n in dl.PUBLIC):
                want.add("public")
            if any(n in live for n in dl.GLIBC_INTERNAL):
                want.add("glibc")
            if want <= kinds:
                break
            for kind in sorted(want - kinds):
                kinds.add(kind)
                tg = dl.targets(kind, self.shared, set(self.index))
                self.dlopened[kind] = {"via": sorted(n for n in live if
                                                     (n in dl.PUBLIC) == (kind == "public")),
                                       "objects": tg}
                for t in tg:
                    miss = []
                    order = self.loader.closure(t, miss)
                    self.missing += ["dlopen %s: %s" % (t, m) for m in miss]
                    new = self.add(order)
                    self.scope.extend(new)
                    self.roots(new, "dlopen (%s)" % kind, exports=True)
            self.walk()
        return self

    def path_to(self, node):
        """The chain of functions from a root to NODE, as readable names,
        with the library function the program entered through."""
        out = []
        seen = set()
        while node is not None and node not in seen:
            seen.add(node)
            i, ri = node
            via = self.parent.get(node)
            o = self.objs[i]
            out.append("%s:%s" % (o["path"].rsplit("/", 1)[-1], link.name_of(o, ri)))
            if via is None:
                break
            prev, how = via
            if prev is None:
                out.append("(%s)" % how)
                break
            node = prev
        return list(reversed(out))

    def entered_through(self, node):
        """The first library function on the path from the program to NODE:
        what the program calls that leads there."""
        chain = []
        seen = set()
        while node is not None and node not in seen:
            seen.add(node)
            chain.append(node)
            via = self.parent.get(node)
            if not via or via[0] is None:
                break
            node = via[0]
        chain.reverse()
        prog = 0
        for a, b in zip(chain, chain[1:]):
            if a[0] == prog and b[0] != prog:
                return "%s (%s)" % (link.name_of(self.objs[b[0]], b[1]),
                                    self.objs[b[0]]["path"].rsplit("/", 1)[-1])
        if chain and chain[0][0] != prog:
            return "%s, at load" % self.objs[chain[0][0]]["path"].rsplit("/", 1)[-1]
        return None

    def syscalls(self, names):
        """{nr: [site]} and the unresolved sites. A site: (object path,
        address, function, path from a root)."""
        nums, unresolved, sites = {}, [], 0
        wrappers = {(i, ri): regs for i, o in enumerate(self.objs)
                    for ri, regs in o["wrappers"].items()}
        for node in sorted(self.live):
            i, ri = node
            o = self.objs[i]
            for a, consts, args, unknown in o["svc"].get(ri, ()):
                sites += 1
                if unknown:
                    unresolved.append({"addr": a, "func": "%s:%s" % (
                        o["path"], link.name_of(o, ri)), "unresolved": unknown})
                for n in consts:
                    nums.setdefault(n, []).append((node, a))
            for a, tgt, vals in o["wrapper_calls"].get(ri, ()):
                t = self.bind(tgt) if isinstance(tgt, (tuple, list)) else (i, tgt)
                if t is None or t not in wrappers:
                    continue
                for r in wrappers[t]:
                    v = vals.get(r)
                    if v is None or v[2] or v[1]:
                        unresolved.append({"addr": a, "func": "%s:%s" % (
                            o["path"], link.name_of(o, ri)), "unresolved": [
                                "call of the syscall wrapper %s: number in %s: %s" % (
                                    link.name_of(self.objs[t[0]], t[1]), r,
                                    "; ".join((v[2] if v else []) or
                                              ["from an argument (not followed)"]))]})
                        continue
                    for n in v[0]:
                        nums.setdefault(n, []).append((node, a))
        # a wrapper reached through a pointer, or through the PLT by a call
        # whose arguments were not read
        for w in wrappers:
            if w not in self.live:
                continue
            i, ri = w
            o = self.objs[i]
            if ri in o["roots"]:
                unresolved.append({"addr": o["starts"][ri], "func": "%s:%s" % (
                    o["path"], link.name_of(o, ri)), "unresolved": [
                        "syscall wrapper whose address is in data: its callers are not known"]})
            formers = [f for f in o.get("taken", {}).get(ri, ()) if (i, f) in self.live]
            if formers:
                unresolved.append({"addr": o["starts"][ri], "func": "%s:%s" % (
                    o["path"], link.name_of(o, ri)), "unresolved": [
                        "syscall wrapper whose address the code at %s forms: its callers "
                        "through that pointer are not known" % ", ".join(
                            "%#x" % o["starts"][f] for f in formers[:3])]})
        for i, o in enumerate(self.objs):
            for ri, keys in o["imp_edges"].items():
                if (i, ri) not in self.live:
                    continue
                for key in keys:
                    t = self.bind(key)
                    if t in wrappers and key[0] not in ("syscall",):
                        unresolved.append({"addr": o["starts"][ri], "func": "%s:%s" % (
                            o["path"], link.name_of(o, ri)), "unresolved": [
                                "calls the syscall wrapper %s through the PLT: its arguments "
                                "are not read" % key[0]]})
        vdso = self.exported_live(tuple(VDSO))
        extra = {}
        for fn, p in vdso.items():
            for s in VDSO[fn]:
                extra.setdefault(s, []).append("%s (%s) through the vDSO" % (
                    fn, p.rsplit("/", 1)[-1]))
        return nums, unresolved, sites, extra
