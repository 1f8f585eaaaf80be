"""audit_flow.py: where the result of one svc goes, for scripts/audit/syscalls.py.

The ENOSYS verdict of a splice-family call (issue 21): does the program fall
back when the call answers ENOSYS? A small abstract interpreter runs the ARM
and Thumb-2 code (as objdump prints it) forward from the call, under one
hypothesis: the svc of the splice-family syscall returns -ENOSYS (-38). Values
are constants (with a "tainted" mark when they derive from that result),
pointers into the stack, errno's address, or unknown. It follows:

  - registers, stack slots (push/pop, [sp, #k], pointers to the stack) and
    errno: musl's __syscall_ret() stores -r through __errno_location(), a
    later `*__errno_location()` loads it back;
  - calls: a callee gets the walk when a tainted value is in r0-r3, else it
    is stepped over (r0-r3, r12, lr, the flags and errno become unknown);
    returns go back to the call the walk came by, or, from the function the
    walk started in, to every direct call of it (3 levels at most);
  - branches: with the compared values known (the tainted ones are), the
    branch is decided, so only the ENOSYS path is walked; unknown ones are
    walked both ways.

A compare whose operand is the tainted value and that tests it for equality
with ENOSYS (cmp errno, #38; cmn r0, #38) is recorded, and so is a
flag-setting test that is zero for a few errno values, ENOSYS among them
(tainted values keep the steps that computed them from the result:
`sub r3, r3, #22; bics r3, r3, #16` is zero for 22 and 38), with the first
conditional instruction after it that reads its flags (the branch) and where
the ENOSYS path goes on. From there a plain reachability search (the rest of
that function, every function it calls, transitively, and the functions the
walk returns to) must find both a read of a file (read, pread64, readv,
preadv, preadv2, mmap2) and a write (write, writev, pwrite64, pwritev,
pwritev2, send, sendto, sendmsg), or copy_file_range: another way of moving
the data. A path ends when no tainted value is left (the result was dropped
or overwritten), at exit/exit_group, or at an indirect jump.

AUDIT_FLOW_DEBUG=1 prints every step of the walks on stderr.

Only what the walk proves counts: no compare, a compare whose ENOSYS branch
leads to no other way of moving data, or a walk that ran out of its budget
give "no fallback proven".
"""
import re
from bisect import bisect_right

M = 0xFFFFFFFF
ENOSYS = 38
READS = ("read", "pread64", "readv", "preadv", "preadv2", "mmap2")
WRITES = ("write", "writev", "pwrite64", "pwritev", "pwritev2", "send", "sendto", "sendmsg")
BOTH = ("copy_file_range",)
NORETURN = ("exit", "exit_group")
MAX_STEPS = 200000
DEBUG = bool(__import__("os").environ.get("AUDIT_FLOW_DEBUG"))
MAX_STACK = 10
MAX_ASCENT = 3
REGS = ["r%d" % k for k in range(15)]
CALLER_SAVED = ("r0", "r1", "r2", "r3", "r12", "r14")
ALIAS = {"ip": "r12", "sp": "r13", "lr": "r14", "pc": "r15", "fp": "r11",
         "sl": "r10", "sb": "r9"}
REG_TOKEN = re.compile(r"^(r[0-9]|r1[0-5]|ip|sp|lr|pc|fp|sl|sb)$")


def reg(tok):
    tok = tok.strip().rstrip("!")
    return ALIAS.get(tok, tok) if REG_TOKEN.match(tok) else None


def split_ops(ops):
    """Top-level comma-separated operands: 'r0, [r1, #4]!' -> ['r0', '[r1, #4]!']."""
    out, depth, cur = [], 0, ""
    for ch in ops:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_imm(tok):
    m = re.match(r"^#(-?(?:0x[0-9a-f]+|\d+))$", tok.strip())
    return int(m.group(1), 0) & M if m else None


def signed(v):
    return v - (1 << 32) if v & 0x80000000 else v


# ---- flags ----
def flags_sub(a, b):
    r = (a - b) & M
    return (bool(r >> 31), r == 0, a >= b, bool(((a ^ b) & (a ^ r)) >> 31))


def flags_add(a, b):
    s = a + b
    r = s & M
    return (bool(r >> 31), r == 0, s > M, bool((~(a ^ b) & (a ^ r)) >> 31 & 1))


def cond_holds(cond, f):
    """True, False, or None (not decidable) for condition cond under flags
    f = (N, Z, C, V), each True/False/None; f None: nothing known."""
    if cond is None:
        return True
    if f is None:
        return None
    n, z, c, v = f

    def NOT(x):
        return None if x is None else not x

    def AND(x, y):
        if x is False or y is False:
            return False
        return None if x is None or y is None else True

    def OR(x, y):
        if x is True or y is True:
            return True
        return None if x is None or y is None else False

    def EQ(x, y):
        return None if x is None or y is None else x == y

    table = {"eq": z, "ne": NOT(z), "cs": c, "hs": c, "cc": NOT(c), "lo": NOT(c),
             "mi": n, "pl": NOT(n), "vs": v, "vc": NOT(v),
             "hi": AND(c, NOT(z)), "ls": OR(NOT(c), z),
             "ge": EQ(n, v), "lt": NOT(EQ(n, v)),
             "gt": AND(NOT(z), EQ(n, v)), "le": OR(z, NOT(EQ(n, v)))}
    return table.get(cond)


# ---- abstract values: None (unknown), ('k', value, tainted[, steps]),
# ('e',) errno's address, ('s', offset) an address in the stack. A tainted
# constant may carry steps: how it was computed from the svc's raw result
# (-errno), as ((op, constant), ...), so that a test on it can be read back
# as the set of errno values it holds for (zero_for) ----
def K(v, t=False, steps=None):
    return ("k", v & M, t) if steps is None else ("k", v & M, t, steps)


STEP = {"add": lambda t, k: t + k, "sub": lambda t, k: t - k, "rsb": lambda t, k: k - t,
        "and": lambda t, k: t & k, "orr": lambda t, k: t | k, "eor": lambda t, k: t ^ k,
        "bic": lambda t, k: t & ~k, "mul": lambda t, k: t * k,
        "lsl": lambda t, k: t << (k & 0xFF) if (k & 0xFF) < 32 else 0,
        "lsr": lambda t, k: (t & M) >> (k & 0xFF) if (k & 0xFF) < 32 else 0,
        "asr": lambda t, k: signed(t & M) >> min(k & 0xFF, 31)}
MAX_ERRNO = 4095
_zero_cache = {}


def zero_for(steps):
    """The errno values e (1..4095) for which the steps, applied to the raw
    result -e, give 0."""
    if steps not in _zero_cache:
        out = []
        for e in range(1, MAX_ERRNO + 1):
            x = -e & M
            for op, k in steps:
                x = STEP[op](x, k) & M
            if x == 0:
                out.append(e)
        _zero_cache[steps] = tuple(out)
    return _zero_cache[steps]


def with_step(a, b, base):
    """The steps of alu(base, a, b) when one operand is a tainted constant
    with steps and the other an untainted constant; None otherwise."""
    ta = a[0] == "k" and a[2] and len(a) > 3
    tb = b[0] == "k" and b[2] and len(b) > 3
    if ta and not b[2] and base in STEP:
        return a[3] + ((base, b[1]),)
    if tb and not a[2]:
        op = {"add": "add", "and": "and", "orr": "orr", "eor": "eor", "mul": "mul",
              "sub": "rsb", "rsb": "sub"}.get(base)  # a - t = rsb(t, a); a rsb t = t - a
        return None if op is None else b[3] + ((op, a[1]),)
    return None


def tainted(v):
    return v is not None and v[0] == "k" and v[2]


def tested(k):
    """What a recorded compare k tests, in words."""
    if k.get("zero_for"):
        return "zero for %s %s, ENOSYS among them" % (
            k["tests"], " ".join(str(e) for e in k["zero_for"]))
    return "%s == ENOSYS" % k["tests"]


class State:
    __slots__ = ("regs", "sp", "slots", "errno", "flags", "stack", "ascent", "armed",
                 "cmp", "escaped")

    def __init__(self):
        self.regs, self.sp, self.slots = {}, 0, {}
        self.errno, self.flags, self.stack, self.ascent = None, None, (), 0
        self.armed, self.cmp, self.escaped = False, None, False

    def copy(self):
        s = State()
        s.regs, s.sp, s.slots = dict(self.regs), self.sp, dict(self.slots)
        s.errno, s.flags, s.stack, s.ascent = self.errno, self.flags, self.stack, self.ascent
        s.armed, s.cmp, s.escaped = self.armed, self.cmp, self.escaped
        return s

    def key(self, i):
        return (i, tuple(sorted(self.regs.items())), self.sp,
                tuple(sorted(self.slots.items())), self.errno, self.flags, self.stack,
                self.ascent, self.armed, None if self.cmp is None else self.cmp["at"])

    def get(self, r, pc=None):
        if r == "r13":
            return None if self.sp is None else ("s", self.sp)
        if r == "r15":
            return None if pc is None else K(pc)
        return self.regs.get(r)

    def set(self, r, v):
        if r == "r13":
            self.sp = v[1] if v is not None and v[0] == "s" else None
            if self.sp is None:
                self.slots = {}
            return
        if r == "r15":
            return
        if v is None:
            self.regs.pop(r, None)
        else:
            self.regs[r] = v

    def alive(self):
        return (any(tainted(v) for v in self.regs.values()) or
                any(tainted(v) for v in self.slots.values()) or tainted(self.errno))


class Flow:
    """The walks over one program (a Program of audit-syscalls.py)."""

    def __init__(self, prog, names, writes, ends_flow):
        self.prog, self.names = prog, names
        self._writes, self._ends = writes, ends_flow
        self.insns = prog.insns
        self.num = {n: nr for nr, n in names.items()}
        self._fn_range = {}
        self._closure = {}

    # ---- helpers over the program ----
    def fname(self, i):
        return self.insns[i].func

    def entry_index(self, addr):
        ins = self.prog.by_addr.get(addr & ~1)
        return None if ins is None else ins.index

    def fn_range(self, entry):
        if entry not in self._fn_range:
            import bisect
            fa = self.prog.func_addrs
            k = bisect.bisect_right(fa, entry)
            end = fa[k] if k < len(fa) else 1 << 32
            idx = [i.index for i in self.insns if entry <= i.addr < end]
            self._fn_range[entry] = range(idx[0], idx[-1] + 1) if idx else range(0)
        return self._fn_range[entry]

    def is_entry(self, addr):
        return self.prog.symbols and (addr & ~1) in self.prog.funcs

    def is_errno_fn(self, addr):
        """errno's address comes from __errno_location() (also through an
        interworking veneer: bx pc / b, or a plain b)."""
        ins = self.prog.by_addr.get(addr & ~1)
        for _ in range(4):
            if ins is None:
                return False
            if self.prog.funcs.get(ins.addr, "").lstrip("_") == "errno_location":
                return True
            if ins.base == "bx" and reg(ins.ops.split()[0]) == "r15":
                ins = self.prog.by_addr.get(((ins.addr + 4) & ~3) if ins.thumb else ins.addr + 8)
            elif ins.base == "nop":
                ins = self.insns[ins.index + 1]
            elif ins.base == "b" and ins.cond is None:
                t = self._target(ins)
                ins = None if t is None else self.insns[t]
            else:
                return False
        return False

    def byte(self, addr):
        w = self.prog.elf.word(addr & ~3)
        return None if w is None else (w >> (8 * (addr & 3))) & 0xFF

    # ---- the abstract step ----
    def operand(self, st, tok, pc):
        k = parse_imm(tok)
        if k is not None:
            return K(k)
        r = reg(tok)
        return None if r is None else st.get(r, pc)

    def mem(self, st, tok, pc, ins):
        """(base value, offset, writeback reg, post-index) of '[rn, #k]...'."""
        m = re.match(r"^\[(\w+)(?:,\s*#(-?(?:0x[0-9a-f]+|\d+)))?\](!?)$", tok)
        if m:
            r = reg(m.group(1))
            base = K((pc & ~3) if ins.thumb else pc) if r == "r15" else st.get(r, pc)
            return base, int(m.group(2) or "0", 0), (r if m.group(3) else None), 0
        m = re.match(r"^\[(\w+)\]$", tok)
        if m:
            return st.get(reg(m.group(1)), pc), 0, None, 0
        return None

    def load(self, st, base, off, size=4):
        if base is None:
            return None
        if base[0] == "s":
            v = st.slots.get(base[1] + off)
            if size != 4:
                return K(v[1] & ((1 << (8 * size)) - 1)) if v and v[0] == "k" else None
            return v
        if base[0] == "e" and off == 0 and size == 4:
            return st.errno
        if base[0] == "k" and not base[2] and size == 4:
            w = self.prog.elf.word((base[1] + off) & M)
            # only the literal pool of code is known not to change
            return K(w) if w is not None and self._in_code(base[1] + off) else None
        return None

    def _in_code(self, addr):
        return any(s["addr"] <= addr < s["addr"] + s["size"] and s["flags"] & 4
                   for s in self.prog.elf.sections)

    def store(self, st, base, off, v, size=4):
        if base is None:
            return
        if base[0] == "s":
            st.slots[base[1] + off] = v if size == 4 else None
            if size != 4:
                st.slots.pop(base[1] + off, None)
        elif base[0] == "e" and off == 0:
            st.errno = v if size == 4 else None

    def alu(self, base, a, b):
        if a is None or b is None:
            return None
        t = (a[0] == "k" and a[2]) or (b[0] == "k" and b[2])
        if a[0] == "s" and b[0] == "k" and base in ("add", "sub"):
            return ("s", a[1] + signed(b[1]) * (1 if base == "add" else -1))
        if b[0] == "s" and a[0] == "k" and base == "add":
            return ("s", b[1] + signed(a[1]))
        if a[0] != "k" or b[0] != "k":
            return None
        x, y = a[1], b[1]
        steps = with_step(a, b, base) if t else None
        fn = {"add": lambda: x + y, "adc": None, "sub": lambda: x - y,
              "rsb": lambda: y - x, "and": lambda: x & y, "orr": lambda: x | y,
              "eor": lambda: x ^ y, "bic": lambda: x & ~y, "mul": lambda: x * y,
              "lsl": lambda: x << (y & 0xFF) if (y & 0xFF) < 32 else 0,
              "lsr": lambda: x >> (y & 0xFF) if (y & 0xFF) < 32 else 0,
              "asr": lambda: (signed(x) >> min(y & 0xFF, 31))}.get(base)
        return K(fn(), t, steps) if fn else None

    def step(self, st, i, ev):
        """Successor (index, state) pairs of insn i run in st; ev collects
        events: ('cmp', record), ('svc', nr), ('end', why)."""
        ins = self.insns[i]
        pc = ins.addr + (4 if ins.thumb else 8)
        b, ops = ins.base, ins.ops.split("@")[0].strip()
        toks = split_ops(ops)
        nxt = i + 1
        if ins.data:
            ev.append(("end", "data at %#x" % ins.addr))
            return []
        if b == "it" or b.startswith("it") and b in ("ite", "itt", "itee", "itet", "itte", "ittt"):
            return [(nxt, st)]
        held = cond_holds(ins.cond, st.flags) if b not in ("cbz", "cbnz") else True
        if held is False:
            if st.cmp is not None and ins.cond is not None:
                self._branch(st, ins, False, nxt)
            return [(nxt, st)]
        if held is None:  # run it, and not
            skip = st.copy()
            return self.step_exec(st.copy(), i, ins, pc, b, toks, ev, True) + [(nxt, skip)]
        return self.step_exec(st, i, ins, pc, b, toks, ev, False)

    def _branch(self, st, ins, taken, where):
        """The first conditional instruction after a recorded compare: note
        which way ENOSYS goes."""
        rec = st.cmp
        if rec.get("branch") is None:
            rec["branch"] = "%s %s at %#x %s" % (ins.mnem, ins.ops.split("@")[0].strip(),
                                                ins.addr, "taken" if taken else "not taken")
            rec["go"] = where

    def step_exec(self, st, i, ins, pc, b, toks, ev, forked):
        nxt = i + 1
        if ins.cond is not None and st.cmp is not None and st.cmp.get("branch") is None \
                and b not in ("b",):
            self._branch(st, ins, True, nxt)
        # ---- control flow ----
        if b in ("b", "cbz", "cbnz"):
            t = self._target(ins)
            if t is None:
                ev.append(("end", "branch without a target at %#x" % ins.addr))
                return []
            if b in ("cbz", "cbnz"):
                v = st.get(reg(toks[0]))
                if v is None or v[0] != "k":
                    return [(t, st.copy()), (nxt, st)]
                go = (v[1] == 0) == (b == "cbz")
                return [(t if go else nxt, st)]
            if ins.cond is not None and st.cmp is not None and st.cmp.get("branch") is None:
                self._branch(st, ins, True, t)
            return [(t, st)]
        if b in ("bl", "blx") and (not toks or reg(toks[0]) is None):
            t = self._target(ins)
            return self.call(st, i, t, ev)
        if b == "blx":  # through a register: not followed
            self.clobber_call(st)
            return [(nxt, st)]
        if b == "bx":
            r = reg(toks[0]) if toks else None
            if r == "r15":
                t = self.prog.by_addr.get(((ins.addr + 4) & ~3) if ins.thumb else ins.addr + 8)
                return [(t.index, st)] if t else []
            if r == "r14":
                return self.ret(st, i, ev)
            ev.append(("end", "indirect jump 'bx %s' at %#x in %s" % (toks[0], ins.addr, ins.func)))
            return []
        if b in ("tbb", "tbh"):
            return self.table(st, ins, toks, ev)
        if b == "svc" or b == "swi":
            return self.svc(st, i, ins, ev)
        # ---- stack ----
        if b == "push" or (b in ("stmdb", "stmfd") and toks and toks[0] == "sp!"):
            regs = self.reglist(ins.ops)
            if st.sp is None:
                return [(nxt, st)]
            vals = [st.get(r, pc) for r in regs]
            st.sp -= 4 * len(regs)
            for k, v in enumerate(vals):
                st.slots[st.sp + 4 * k] = v
            return [(nxt, st)]
        if b == "pop" or (b in ("ldm", "ldmia", "ldmfd") and toks and toks[0] == "sp!"):
            regs = self.reglist(ins.ops)
            if st.sp is None:
                for r in regs:
                    st.set(r, None)
            else:
                base = st.sp
                for k, r in enumerate(regs):
                    if r != "r15":
                        st.set(r, st.slots.get(base + 4 * k))
                st.sp = base + 4 * len(regs)
                st.slots = {o: v for o, v in st.slots.items() if o >= st.sp}
            if "r15" in regs:
                return self.ret(st, i, ev)
            return [(nxt, st)]
        if b.startswith("ldm") or b.startswith("stm"):
            regs = self.reglist(ins.ops)
            base = st.get(reg(toks[0]), pc)
            down = b.endswith("db") or b.endswith("fd") and b.startswith("stm")
            start = -4 * len(regs) if down else 0
            for k, r in enumerate(regs):
                if b.startswith("ldm"):
                    st.set(r, self.load(st, base, start + 4 * k))
                else:
                    self.store(st, base, start + 4 * k, st.get(r, pc))
            if toks[0].endswith("!"):
                st.set(reg(toks[0]), self.alu("add", base, K(4 * len(regs) * (-1 if down else 1))))
            if "r15" in regs and b.startswith("ldm"):
                ev.append(("end", "indirect jump '%s %s' at %#x" % (ins.mnem, ins.ops, ins.addr)))
                return []
            return [(nxt, st)]
        # ---- loads and stores ----
        if b.startswith("ldr") or b.startswith("str"):
            return self.ldst(st, i, ins, pc, b, toks, ev)
        # ---- compares ----
        if b in ("cmp", "cmn", "tst", "teq"):
            a, c = self.operand(st, toks[0], pc), self.operand(st, toks[1], pc) if len(toks) > 1 else None
            if len(toks) > 2:
                c = None
            self.compare(st, ins, b, a, c)
            return [(nxt, st)]
        # ---- moves and arithmetic ----
        dst = reg(toks[0]) if toks else None
        flagset = b.endswith("s") and b not in ("mls",) and len(b) > 2
        core = b[:-1] if flagset else b
        if core in ("mov", "mvn", "cpy") and len(toks) == 2:
            v = self.operand(st, toks[1], pc)
            if core == "mvn":
                v = K(~v[1], v[2]) if v and v[0] == "k" else None
            self.write(st, dst, v, i, ev)
            if flagset:
                st.flags = self.nz(v)
            return self.after_write(st, i, dst, ev)
        if b == "movw":
            self.write(st, dst, K(parse_imm(toks[1]) or 0), i, ev)
            return [(nxt, st)]
        if b == "movt":
            v, k = st.get(dst), parse_imm(toks[1])
            self.write(st, dst, K((v[1] & 0xFFFF) | (k << 16), v[2]) if v and v[0] == "k" and k is not None else None, i, ev)
            return [(nxt, st)]
        if core in ("neg",) and len(toks) == 2:
            v = self.operand(st, toks[1], pc)
            r = self.alu("rsb", v, K(0))
            self.write(st, dst, r, i, ev)
            if flagset:
                st.flags = flags_sub(0, v[1]) if v and v[0] == "k" else None
                st.cmp = None
            return [(nxt, st)]
        if core in ("add", "sub", "rsb", "and", "orr", "eor", "bic", "mul", "lsl", "lsr", "asr") \
                and 2 <= len(toks) <= 3 and dst is not None:
            if len(toks) == 2:
                a, c = st.get(dst, pc), self.operand(st, toks[1], pc)
            else:
                a, c = self.operand(st, toks[1], pc), self.operand(st, toks[2], pc)
            if reg(toks[-1]) == "r15" or (len(toks) == 3 and reg(toks[1]) == "r15" and core == "add"):
                r = None
            else:
                r = self.alu(core, a, c)
            if flagset:
                if core in ("add", "sub", "rsb") and a and c and a[0] == "k" and c[0] == "k":
                    x, y = (a[1], c[1]) if core != "rsb" else (c[1], a[1])
                    st.flags = flags_add(x, y) if core == "add" else flags_sub(x, y)
                    self.note_cmp(st, ins, "cmn" if core == "add" else "cmp", (a, c) if core != "rsb" else (c, a))
                else:
                    st.flags = self.nz(r)
                    st.cmp = None
                    self.note_zero(st, ins, r)
            if r is not None and r[0] == "s" and dst != "r13":
                st.escaped = True  # a pointer into the stack: calls may write there
            self.write(st, dst, r, i, ev)
            return self.after_write(st, i, dst, ev)
        # ---- anything else: what it writes becomes unknown ----
        for r in REGS + ["r15"]:
            if self.prog_writes(ins, r):
                if r == "r15":
                    ev.append(("end", "indirect jump '%s %s' at %#x" % (ins.mnem, ins.ops, ins.addr)))
                    return self.jump_table(st, ins, toks, ev)
                st.set(r, None)
        if flagset or b in ("adcs", "sbcs"):
            st.flags, st.cmp = None, None
        return [(nxt, st)]

    def after_write(self, st, i, dst, ev):
        if dst == "r15":
            ins = self.insns[i]
            if reg(split_ops(ins.ops.split("@")[0])[1]) == "r14":
                return self.ret(st, i, ev)
            ev.append(("end", "indirect jump at %#x" % ins.addr))
            return []
        return [(i + 1, st)]

    def prog_writes(self, ins, r):
        return self._writes(ins, r)

    def nz(self, v):
        if v is None or v[0] != "k":
            return None
        return (bool(v[1] >> 31), v[1] == 0, None, None)

    def write(self, st, dst, v, i, ev):
        if dst is not None:
            st.set(dst, v)

    def compare(self, st, ins, b, a, c):
        st.cmp = None
        if a is None or c is None or a[0] != "k" or c[0] != "k":
            st.flags = None
            return
        if b == "cmp":
            st.flags = flags_sub(a[1], c[1])
        elif b == "cmn":
            st.flags = flags_add(a[1], c[1])
        elif b == "tst":
            st.flags = self.nz(K(a[1] & c[1]))
        else:
            st.flags = self.nz(K(a[1] ^ c[1]))
        if b in ("cmp", "cmn"):
            self.note_cmp(st, ins, b, (a, c))
        if st.cmp is None:
            self.note_zero(st, ins, self.alu(
                {"cmp": "sub", "cmn": "add", "tst": "and", "teq": "eor"}[b], a, c))

    def note_zero(self, st, ins, r):
        """Record a test that is not a compare with ENOSYS but sets Z for a
        few errno values, ENOSYS among them, from the tainted value's steps:
        lighttpd's `errno != EINVAL && errno != ENOSYS` is `sub r3, r3, #22;
        bics r3, r3, #16` (zero for 22 and 38). Under the walk's hypothesis
        (ENOSYS) Z is set, so the branch taken when it is zero is the
        ENOSYS path; it is taken for the other values too."""
        if r is None or r[0] != "k" or not r[2] or len(r) < 4 or r[1] != 0:
            return
        z = zero_for(r[3])
        if ENOSYS not in z or len(z) > 8:
            return
        st.cmp = {"at": ins.addr, "func": ins.func,
                  "insn": "%s %s" % (ins.mnem, ins.ops.split("@")[0].strip()),
                  "tests": "errno" if r[3][:1] == (("rsb", 0),) else "the result",
                  "zero_for": list(z), "branch": None, "go": None, "stack": st.stack}
        self.compares.setdefault(ins.addr, st.cmp)

    def note_cmp(self, st, ins, b, pair):
        """Record a compare that tests the tainted value for equality with
        ENOSYS (errno 38, or -38 in r0)."""
        a, c = pair
        if not (tainted(a) or tainted(c)):
            st.cmp = None
            return
        t = a if tainted(a) else c
        if signed(t[1]) not in (ENOSYS, -ENOSYS):
            st.cmp = None
            return
        z = (a[1] - c[1]) & M == 0 if b == "cmp" else (a[1] + c[1]) & M == 0
        if not z:
            st.cmp = None
            return
        st.cmp = {"at": ins.addr, "func": ins.func,
                  "insn": "%s %s" % (ins.mnem, ins.ops.split("@")[0].strip()),
                  "tests": "errno" if signed(t[1]) == ENOSYS else "the result (-ENOSYS)",
                  "branch": None, "go": None, "stack": st.stack}
        self.compares.setdefault(ins.addr, st.cmp)

    def reglist(self, ops):
        m = re.search(r"\{([^}]*)\}", ops)
        out = []
        for part in (m.group(1).split(",") if m else []):
            part = part.strip()
            if "-" in part:
                x, y = [int(reg(p)[1:]) for p in part.split("-")]
                out += ["r%d" % k for k in range(x, y + 1)]
            elif part:
                out.append(reg(part))
        return out

    def _target(self, ins):
        m = re.search(r"(?:^|,\s*)(?:0x)?([0-9a-f]+)(?: <[^>]*>)?$", ins.ops)
        if not m or reg(m.group(1)):
            return None
        t = self.prog.by_addr.get(int(m.group(1), 16) & ~1)
        return None if t is None else t.index

    def ldst(self, st, i, ins, pc, b, toks, ev):
        nxt = i + 1
        size = 1 if b[3:4] in ("b",) or b[3:5] == "sb" else 2 if b[3:4] == "h" or b[3:5] == "sh" else 4
        if b in ("ldrd", "strd"):
            size = 8
        rest = toks[1:]
        if size == 8:
            rest = toks[2:]
        if not rest:
            for r in toks:
                st.set(reg(r), None) if b.startswith("ldr") else None
            return [(nxt, st)]
        post = None
        memtok = rest[0]
        if len(rest) == 2 and parse_imm(rest[1]) is not None:
            post = signed(parse_imm(rest[1]))
        # register offsets ([r0, r1], [pc, r3, lsl #2]): unknown address
        m = re.match(r"^\[(\w+)(?:,\s*(\w+))?.*\]", memtok)
        if post is None and len(rest) > 1 or m and m.group(2) and reg(m.group(2)):
            if b.startswith("ldr"):
                for r in toks[:2 if size == 8 else 1]:
                    st.set(reg(r), None)
                if reg(toks[0]) == "r15":
                    return self.jump_table(st, ins, toks, ev)
            return [(nxt, st)]
        parsed = self.mem(st, memtok, pc, ins)
        if parsed is None:
            if b.startswith("ldr"):
                st.set(reg(toks[0]), None)
            return [(nxt, st)]
        base, off, wb, _ = parsed
        eff = 0 if post is not None else off
        dsts = [reg(t) for t in toks[:2 if size == 8 else 1]]
        if b.startswith("ldr"):
            if size == 8:
                vals = [self.load(st, base, eff), self.load(st, base, eff + 4)]
            else:
                vals = [self.load(st, base, eff, size)]
            if b in ("ldrsb", "ldrsh"):
                vals = [None]
        else:
            vals = [st.get(r, pc) for r in dsts]
            if size == 8:
                self.store(st, base, eff, vals[0])
                self.store(st, base, eff + 4, vals[1])
            else:
                self.store(st, base, eff, vals[0], size)
            if base is None and any(tainted(v) for v in vals):
                pass  # the value went to memory the walk does not follow
            if base is not None and base[0] == "s":
                pass
        rn = re.match(r"^\[(\w+)", memtok)
        rn = reg(rn.group(1)) if rn else None
        if wb or post is not None:
            st.set(rn, self.alu("add", base, K(post if post is not None else off)))
        if b.startswith("ldr"):
            for r, v in zip(dsts, vals):
                if r == "r15":
                    if st.sp is not None and rn == "r13" and post is not None:
                        return self.ret(st, i, ev)
                    ev.append(("end", "indirect jump at %#x" % ins.addr))
                    return []
                st.set(r, v)
        return [(nxt, st)]

    def jump_table(self, st, ins, toks, ev):
        """ldr pc, [pc, rN, lsl #2] / add pc, pc, rN, lsl #2 with rN known."""
        m = re.search(r"(?:pc|r15),\s*(\w+),\s*lsl #2", ins.ops)
        if not m:
            ev.append(("end", "indirect jump '%s %s' at %#x" % (ins.mnem, ins.ops, ins.addr)))
            return []
        v = st.get(reg(m.group(1)))
        if v is None or v[0] != "k":
            ev.append(("end", "jump table at %#x with an unknown index" % ins.addr))
            return []
        at = ins.addr + 8 + 4 * v[1]
        t = self.prog.elf.word(at) if ins.base.startswith("ldr") else at
        x = None if t is None else self.prog.by_addr.get(t & ~1)
        return [(x.index, st)] if x else []

    def table(self, st, ins, toks, ev):
        m = re.search(r"\[pc,\s*(\w+)", ins.ops)
        v = st.get(reg(m.group(1))) if m else None
        if v is None or v[0] != "k":
            ev.append(("end", "%s at %#x with an unknown index" % (ins.base, ins.addr)))
            return []
        base = ins.addr + 4
        if ins.base == "tbb":
            e = self.byte(base + v[1])
        else:
            lo, hi = self.byte(base + 2 * v[1]), self.byte(base + 2 * v[1] + 1)
            e = None if lo is None or hi is None else lo | hi << 8
        x = None if e is None else self.prog.by_addr.get(base + 2 * e)
        return [(x.index, st)] if x else []

    # ---- calls, returns, svc ----
    def clobber_call(self, st):
        for r in CALLER_SAVED:
            st.set(r, None)
        st.flags, st.cmp, st.errno = None, None, None
        if st.escaped:
            st.slots = {}

    def call(self, st, i, t, ev):
        if t is None:
            self.clobber_call(st)
            return [(i + 1, st)]
        addr = self.insns[t].addr
        if self.is_errno_fn(addr):
            for r in CALLER_SAVED:
                st.set(r, None)
            st.set("r0", ("e",))
            st.flags, st.cmp = None, None
            return [(i + 1, st)]
        args = [st.get(r) for r in ("r0", "r1", "r2", "r3")]
        if (any(tainted(v) for v in args) or self.descend_always(st, t)) \
                and len(st.stack) < MAX_STACK:
            st.stack = st.stack + (i + 1,)
            st.flags, st.cmp = None, None
            return [(t, st)]
        self.clobber_call(st)
        return [(i + 1, st)]

    def descend_always(self, st, t):
        """Before the svc ran (the walk is still on its way into the
        syscall's function), every call is followed."""
        return not st.armed

    def ret(self, st, i, ev):
        for r in ("r2", "r3", "r12", "r14"):
            st.set(r, None)
        st.flags, st.cmp = None, None
        if st.stack:
            back = st.stack[-1]
            st.stack = st.stack[:-1]
            return [(back, st)]
        if st.ascent >= MAX_ASCENT:
            ev.append(("end", "returned %d levels up from %s" % (st.ascent, self.fname(i))))
            return []
        entry = self.prog.func_entry(self.insns[i])
        calls = self.prog.call_sites(entry)
        if not calls:
            ev.append(("end", "%s returns to an indirect caller" % self.fname(i)))
            return []
        out = []
        for c in calls:
            s = st.copy()
            for r in REGS[4:12]:
                s.set(r, None)
            s.slots, s.ascent = {}, st.ascent + 1
            out.append((c + 1, s))
        return out

    def svc(self, st, i, ins, ev):
        v = st.get("r7")
        nr = v[1] if v and v[0] == "k" else None
        name = self.names.get(nr) if nr is not None else None
        ev.append(("svc", name or nr))
        if name in NORETURN:
            ev.append(("end", "%s at %#x" % (name, ins.addr)))
            return []
        if name in self.splice or (nr is None and not st.armed):
            st.set("r0", K(-ENOSYS, True, ()))
            st.armed = True
        else:
            st.set("r0", None)
        return [(i + 1, st)]

    # ---- the walk ----
    def enosys(self, call, init, splice):
        """Walk from the call (insn index) of a splice-family function, its
        svc answering -ENOSYS. init: {reg: value} at the call. Returns the
        record of the verdict."""
        self.splice = set(splice)
        self.compares = {}
        st = State()
        for r, v in init.items():
            st.set(r, v)
        st.stack = (call + 1,)
        t = self._target(self.insns[call])
        work = [(t, st)] if t is not None else []
        seen, steps, ends, complete = set(), 0, set(), True
        while work:
            i, st = work.pop()
            if i is None or i >= len(self.insns):
                continue
            if st.armed and not st.alive():
                continue
            k = st.key(i)
            if k in seen:
                continue
            seen.add(k)
            steps += 1
            if steps > MAX_STEPS:
                complete = False
                break
            ev = []
            if DEBUG:
                ins = self.insns[i]
                print("  walk %#x %-20s %-8s %-30s r0=%s r3=%s r7=%s errno=%s sp=%s stack=%s" % (
                    ins.addr, ins.func[:20], ins.mnem, ins.ops[:30], st.regs.get("r0"),
                    st.regs.get("r3"), st.regs.get("r7"), st.errno, st.sp,
                    [hex(self.insns[x].addr) for x in st.stack]), file=__import__("sys").stderr)
            work += self.step(st, i, ev)
            ends.update(e[1] for e in ev if e[0] == "end")
        out = []
        for rec in sorted(self.compares.values(), key=lambda r: r["at"]):
            got = self.leads_to(rec)
            out.append({"at": "%#x in %s" % (rec["at"], rec["func"]), "insn": rec["insn"],
                        "tests": rec["tests"], "zero_for": rec.get("zero_for"),
                        "branch": rec["branch"] or "no conditional instruction read its flags",
                        "enosys_path": None if rec["go"] is None else "%#x in %s" % (
                            self.insns[rec["go"]].addr, self.insns[rec["go"]].func),
                        "leads_to": got})
        ok = complete and bool(out) and all(self.moves(c["leads_to"]) for c in out)
        why = ("walk stopped after %d steps" % MAX_STEPS if not complete else
               "the result never reaches a compare with ENOSYS" if not out else
               "the ENOSYS branch leads to no other way of moving the data"
               if not ok else "the ENOSYS branch leads to %s" % ", ".join(
                   sorted({n for c in out for n in c["leads_to"]})))
        return {"verdict": "fallback" if ok else "no fallback proven", "why": why,
                "compares": out, "steps": steps, "complete": complete}

    @staticmethod
    def moves(names):
        s = set(names)
        return bool(s & set(BOTH)) or (bool(s & set(READS)) and bool(s & set(WRITES)))

    def leads_to(self, rec):
        """The data-moving syscalls the ENOSYS path reaches (plain
        reachability: the rest of the function, everything it calls, and the
        functions on the walk's stack after their calls)."""
        if rec["go"] is None:
            return []
        reached = set()
        todo = [rec["go"]] + list(reversed(rec["stack"]))
        funcs = set()
        for start in todo:
            self._intra(start, reached, funcs)
        for f in self.closure(funcs):
            reached.update(self.fn_range(f))
        want = set(READS + WRITES + BOTH)
        got = set()
        for n, idx in self.prog.origin_insns.items():
            name = self.names.get(n)
            if name in want and idx & reached:
                got.add(name)
        return sorted(got)

    def _intra(self, start, reached, funcs):
        work = [start]
        entry = self.prog.func_entry(self.insns[start])
        rng = self.fn_range(entry)
        while work:
            i = work.pop()
            if i in reached or i not in rng:
                continue
            reached.add(i)
            ins = self.insns[i]
            if ins.data:
                continue
            t = self._target(ins) if ins.base in ("b", "bl", "blx", "cbz", "cbnz") else None
            if t is not None:
                if ins.base in ("bl", "blx") or self.is_entry(self.insns[t].addr) and \
                        self.insns[t].func != ins.func:
                    funcs.add(self.prog.func_entry(self.insns[t]))
                else:
                    work.append(t)
            if ins.base == "svc" and self.svc_ends(i):
                continue
            if not self._ends(ins):
                work.append(i + 1)

    def svc_ends(self, i):
        nrs = self.prog.site_numbers.get(self.insns[i].addr, ())
        return bool(nrs) and all(self.names.get(n) in NORETURN for n in nrs)

    def closure(self, funcs):
        out, work = set(), list(funcs)
        while work:
            f = work.pop()
            if f is None or f in out:
                continue
            out.add(f)
            for i in self.fn_range(f):
                ins = self.insns[i]
                if ins.data:
                    continue
                t = self._target(ins) if ins.base in ("b", "bl", "blx", "cbz", "cbnz") else None
                if t is not None:
                    e = self.prog.func_entry(self.insns[t])
                    if e != f:
                        work.append(e)
        return out


# ---- precision from the target kernel: dead ENOSYS fallbacks ----
def kernel_may_enosys(ktree, name, entry):
    """False when every SYSCALL_DEFINE of the syscall's entry point in the
    tree has no ENOSYS in its body (the text up to the closing brace in
    column 0), True otherwise (also when no definition is found). Only the
    body is read: a callee that answers ENOSYS is not looked for, which the
    report says."""
    import subprocess
    if not entry or not entry.startswith("sys_"):
        return True
    fn = entry[4:]
    pat = r"SYSCALL_DEFINE[0-6]\(%s[,)]" % re.escape(fn)
    out = subprocess.run(["grep", "-rEn", "--include=*.c", pat, "kernel", "fs", "mm", "ipc",
                          "net", "arch/arm"], cwd=ktree, capture_output=True, text=True,
                         errors="replace").stdout
    hits = [h.split(":", 2)[:2] for h in out.splitlines()]
    if not hits:
        return True
    for path, lineno in hits:
        with open("%s/%s" % (ktree, path), errors="replace") as f:
            lines = f.read().splitlines()[int(lineno) - 1:]
        body = []
        for line in lines:
            body.append(line)
            if line.startswith("}"):
                break
        if "ENOSYS" in "\n".join(body):
            return True
    return False


class Prune:
    """Instructions that cannot run on the target kernel.

    1. An ENOSYS fallback: in the function holding a svc whose number is
       known, a forward data-flow pass (merging at joins) follows the svc's
       result, r0, through register moves and `subs rd, rs, #0`; a branch
       whose flags come from `cmn r, #38` (or a cmneq chained after another
       compare: Z then still implies r == -38) on that result has its
       ENOSYS edge (eq) dead when the syscall is on in the target config and
       its kernel definition never answers ENOSYS (present()). The same
       holds for conditional instructions: `xxeq` does not run there.
    2. A svc whose only number is exit or exit_group does not return: the
       instruction after it is not reached from it.
    3. Constant arguments: a function whose address is never formed (no
       word of code or data holds it, with or without the Thumb bit) and
       that nothing falls into is entered only by the direct calls and
       branches this pass sees. When every live one of them passes the same
       constant in r0-r3 (const_at: backwards through immediates, register
       moves, literal-pool words and small arithmetic, through the callers'
       own callers under the same condition; memory is not followed), the
       function's pass starts with it. Compares and flag-setting
       arithmetic on constants decide their conditional branches and
       instructions; the edge not taken is dead (musl's accept4 called with
       flags SOCK_NONBLOCK|SOCK_CLOEXEC never reaches its `flg == 0` call of
       accept; __clock_nanosleep called by nanosleep() with CLOCK_REALTIME
       and no flags never makes clock_nanosleep). Code that only dead code
       calls then leaves reachability, and the seeds are computed again
       (three rounds at most).
    Then every function's instructions are walked from its entry (and from
    any label or branch target another function uses, which start with
    nothing known) over the live edges; what is not reached is dead. The
    cut edges are taken from the fixpoint's final states only, and a
    function whose pass does not reach its fixpoint within its budget
    keeps all its code. A result that passes through a call (musl's
    __syscall_ret and errno, as in getrlimit) is not followed, and that
    fallback stays."""

    def __init__(self, prog, names, present, ends_flow, writes):
        self.prog, self.names, self.present = prog, names, present
        self.insns = prog.insns
        self._ends, self._writes = ends_flow, writes
        self.dead_edges = {}  # insn index -> set of successor indices cut, and why
        self.why = {}
        self.dead = set()
        self.seeds = {}  # function entry -> {register: ('k', constant)} at its entry
        self._taken = None

    # ---- constant arguments ----
    def address_taken(self):
        """Program.address_taken(): the functions whose address is formed."""
        if self._taken is None:
            self._taken = self.prog.address_taken()
            self._words = self.prog.taken_words
        return self._taken

    def no_way_in(self, i):
        """True when insn i (no predecessor, not a label) cannot run: no
        word holds its address and its function has no computed jump (a
        jump table's targets have no predecessor either), as the halfword
        after a Thumb `bx pc` in an interworking veneer."""
        self.address_taken()
        if self.insns[i].addr in self._words:
            return False
        e = self.prog.func_entry(self.insns[i])
        cache = self.__dict__.setdefault("_cj_cache", {})
        if e not in cache:
            rng = self._range(e)
            cache[e] = not any("any" in self._succ(k, rng) for k in rng)
        return cache[e]

    def seedable(self, entry):
        """True when the function at entry is entered only by the direct
        calls and branches in prog.callers: symbols are known, its address
        is never formed, and the instruction before it cannot fall into it."""
        if not self.prog.symbols or self.prog.reach is None or entry in self.address_taken():
            return False
        ins = self.prog.by_addr.get(entry)
        if ins is None:
            return False
        if ins.index > 0:
            prev = self.insns[ins.index - 1]
            if not prev.data and not self._ends(prev):
                return False
        return any(self.prog.alive(c) for c in self.prog.callers.get(entry, []))

    def const_at(self, i, r, depth=0, seen=frozenset()):
        """The one constant register r holds on entry to insn i on every
        live path, or None: backwards through immediates, register moves,
        literal-pool words and small arithmetic (Program._value_of); at a
        function's entry through every live direct call when seedable().
        Stack slots and other memory, calls and svc results are unknown."""
        vals, work, visited = set(), [(i, r)], set()
        while work:
            i, r = work.pop()
            if (i, r) in visited:
                continue
            visited.add((i, r))
            if len(visited) > 4000 or r not in REGS:
                return None
            ins = self.insns[i]
            raw = self.prog.preds.get(i, [])
            if self.prog.symbols and ins.addr in self.prog.funcs:
                e = ins.addr
                if r not in ("r0", "r1", "r2", "r3") or depth >= 6 or (e, r) in seen \
                        or not self.seedable(e):
                    return None
                for c in self.prog.callers.get(e, []):
                    if not self.prog.alive(c):
                        continue
                    v = self.const_at(c, r, depth + 1, seen | {(e, r)})
                    if v is None:
                        return None
                    vals.add(v)
            elif not raw:
                if self.no_way_in(i):
                    continue
                return None  # reached some other way (a computed jump)
            for j in raw:
                if not self.prog.alive(j):
                    continue
                p = self.insns[j]
                if p.base.startswith("v") and r in [reg(t) for t in split_ops(p.ops.split("@")[0])]:
                    return None  # a VFP move to a core register
                if not self._writes(p, r) or (p.cond is not None and self._writes(p, "r15")):
                    work.append((j, r))
                    continue
                if p.cond is not None:
                    return None
                res = self.prog._value_of(p, r)
                if isinstance(res, int):
                    vals.add(res & M)
                elif isinstance(res, tuple) and not res[0].startswith("sp+") and res[0] in REGS:
                    if res[1] is None:
                        work.append((j, res[0]))
                    else:
                        if depth >= 6:
                            return None
                        v = self.const_at(j, res[0], depth + 1, seen)
                        if v is None:
                            return None
                        vals.add(res[1](v) & M)
                else:
                    return None
            if len(vals) > 1:
                return None
        return vals.pop() if len(vals) == 1 else None

    def compute_seeds(self):
        """{entry: {reg: ('k', v)}} for every seedable live function."""
        out = {}
        for e in self.prog.func_addrs:
            ins = self.prog.by_addr.get(e)
            if ins is None or not self.prog.alive(ins.index) or not self.seedable(e):
                continue
            got = {}
            for r in ("r0", "r1", "r2", "r3"):
                v = self.const_at(ins.index, r)
                if v is not None:
                    got[r] = ("k", v)
            if got:
                out[e] = got
        return out

    def noreturn(self):
        """Entries of the functions that never return: no return
        instruction (bx lr, pop/ldm {.., pc}, ldr pc / mov pc), no indirect
        jump, no tail branch to a function that may return (a least fixed
        point: a cycle of tail calls with no return never returns)."""
        if hasattr(self, "_noreturn"):
            return self._noreturn
        fa = self.prog.func_addrs
        tails, may = {}, set()
        self._noreturn = set()
        for e in fa:
            tails[e] = set()
            rng = self._range(e)
            seen, work = set(), [rng[0]] if len(rng) else []
            while work:  # what runs from the entry (a trap word ends a path)
                i = work.pop()
                if i not in seen:
                    seen.add(i)
                    work += [j for j in self._succ(i, rng) if j != "any"]
            if any(j == "any" for i in seen for j in self._succ(i, rng)):
                may.add(e)
                continue
            for i in sorted(seen):
                ins = self.insns[i]
                if ins.data:
                    continue
                toks = split_ops(ins.ops.split("@")[0])
                first = reg(toks[0]) if toks else None
                if ins.base in ("bx", "mov") and first in ("r14", "r15") or \
                        (ins.base == "bx") or \
                        (ins.base in ("pop", "ldm", "ldmia", "ldmfd") and "pc" in ins.ops) or \
                        (ins.base.startswith("ldr") and first == "r15") or \
                        (first == "r15" and ins.base not in ("b", "bl", "blx", "cmp", "cmn",
                                                             "str", "push", "tst")):
                    may.add(e)
                    break
                if ins.base == "b":
                    m = re.search(r"(?:^|,\s*)(?:0x)?([0-9a-f]+)(?: <[^>]*>)?$", ins.ops)
                    t = self.prog.by_addr.get(int(m.group(1), 16) & ~1) if m and not reg(m.group(1)) else None
                    if t is not None:
                        te = self.prog.func_entry(t)
                        if te != e:
                            tails[e].add(te)
                if ins.base == "blx" and first and first != "r15":
                    pass  # an indirect call returns here; it says nothing of e
            else:
                # the last instruction may fall into the next function
                r = self._range(e)
                if len(r) and r[-1] in seen and not self._ends(self.insns[r[-1]]) \
                        and not self._noret_svc(r[-1]):
                    k = bisect_right(fa, e)
                    if k < len(fa):
                        tails[e].add(fa[k])
        changed = True
        while changed:
            changed = False
            for e in fa:
                if e not in may and tails[e] & may:
                    may.add(e)
                    changed = True
        self._noreturn = set(fa) - may
        return self._noreturn

    def _computes_return(self, ins, depth=0):
        """True when the direct call ins may return anywhere but the next
        instruction: in its target (or a function the target branches to)
        a path reaches `bx lr` / `mov pc, lr` with lr written since the
        entry by anything but a call or a restore from the stack (pop,
        ldm, ldr), as libgcc's switch helpers do (__gnu_thumb1_case_uqi:
        add lr, lr, r1; bx lr: a table follows the call)."""
        m = re.search(r"(?:^|,\s*)(?:0x)?([0-9a-f]+)(?: <[^>]*>)?$", ins.ops)
        x = self.prog.by_addr.get(int(m.group(1), 16) & ~1) if m and not reg(m.group(1)) else None
        if x is None:
            return False  # not a direct call
        if depth > 3:
            return True
        e = self.prog.func_entry(x)
        cache = self.__dict__.setdefault("_cr_cache", {})
        if e in cache:
            return cache[e]
        cache[e] = False
        rng = self._range(e)
        # forward: may lr no longer hold the return address here?
        dirty, work = {}, [(rng[0], False)] if len(rng) else []
        out = False
        while work and not out:
            i, d = work.pop()
            if dirty.get(i) is True or (i in dirty and not d):
                continue
            dirty[i] = d or dirty.get(i, False)
            q = self.insns[i]
            if q.data:
                continue
            toks = split_ops(q.ops.split("@")[0])
            first = reg(toks[0]) if toks else None
            ret = (q.base == "bx" and first == "r14") or \
                (q.base in ("mov", "movs") and first == "r15" and len(toks) == 2 and reg(toks[1]) == "r14")
            if ret and d:
                out = True
                break
            if q.base == "b" and q.cond is None and self._computes_return(q, depth + 1):
                out = True
                break
            if self._writes(q, "r14") and q.base not in ("bl", "blx"):
                d = not (q.base in ("pop", "ldr") or q.base.startswith("ldm"))
            for j in self._succ_local(i, rng):
                work.append((j, d))
        cache[e] = out
        return out

    def _succ_local(self, i, rng):
        """Successors of insn i inside rng: fall-through and direct branches."""
        ins = self.insns[i]
        out = []
        if ins.base in ("b", "cbz", "cbnz"):
            m = re.search(r"(?:^|,\s*)(?:0x)?([0-9a-f]+)(?: <[^>]*>)?$", ins.ops)
            x = self.prog.by_addr.get(int(m.group(1), 16) & ~1) if m and not reg(m.group(1)) else None
            if x is not None and x.index in rng:
                out.append(x.index)
        if not self._ends(ins) and i + 1 in rng:
            out.append(i + 1)
        return out

    def _noret_svc(self, i):
        nrs = self.prog.site_numbers.get(self.insns[i].addr, ())
        return self.insns[i].base == "svc" and bool(nrs) and all(
            self.names.get(n) in ("exit", "exit_group") for n in nrs)

    def run(self, sites):
        self.noreturn()
        numbers = {s["addr"]: s.get("numbers", []) for s in sites}
        funcs = set()
        for s in sites:
            funcs.add(self.prog.func_entry(self.prog.by_addr[s["addr"]]))
        self.address_taken()
        saved = self.prog.dead
        try:
            for _ in range(3):
                before = len(self.dead)
                self.prog.dead = set(self.dead)  # what earlier rounds proved dead
                self.seeds = self.compute_seeds()
                for entry in sorted((funcs | set(self.seeds)) - {None}):
                    self._function(entry, numbers)
                if len(self.dead) == before:
                    break
        finally:
            self.prog.dead = saved
        return self.dead

    def _range(self, entry):
        import bisect
        fa = self.prog.func_addrs
        k = bisect.bisect_right(fa, entry)
        end = fa[k] if k < len(fa) else 1 << 32
        lo = self.prog.by_addr[entry].index if entry in self.prog.by_addr else None
        if lo is None:
            return range(0)
        hi = lo
        while hi + 1 < len(self.insns) and self.insns[hi + 1].addr < end:
            hi += 1
        return range(lo, hi + 1)

    def _succ(self, i, rng):
        ins = self.insns[i]
        out = []
        if ins.data:
            return out
        t = None
        if ins.base in ("b", "cbz", "cbnz"):
            m = re.search(r"(?:^|,\s*)(?:0x)?([0-9a-f]+)(?: <[^>]*>)?$", ins.ops)
            x = self.prog.by_addr.get(int(m.group(1), 16) & ~1) if m and not reg(m.group(1)) else None
            t = x.index if x else None
        if t is not None and t in rng:
            out.append(t)
        if ins.base == "bx" and reg(ins.ops.split()[0]) == "r15":
            x = self.prog.by_addr.get(((ins.addr + 4) & ~3) if ins.thumb else ins.addr + 8)
            if x is not None and x.index in rng:
                out.append(x.index)
        calls_noreturn = False
        if ins.base in ("bl", "blx") and ins.cond is None:
            m = re.search(r"(?:^|,\s*)(?:0x)?([0-9a-f]+)(?: <[^>]*>)?$", ins.ops)
            x = self.prog.by_addr.get(int(m.group(1), 16) & ~1) if m and not reg(m.group(1)) else None
            calls_noreturn = x is not None and self.prog.func_entry(x) in self._noreturn
        if ins.base in ("bl", "blx") and self._computes_return(ins):
            out.append("any")  # libgcc's __gnu_thumb1_case_*: a switch table after the call
        if not self._ends(ins) and i + 1 in rng and not calls_noreturn:
            out.append(i + 1)
        if ins.base in ("tbb", "tbh") or (reg((split_ops(ins.ops) or [""])[0]) == "r15"
                                           and ins.base not in ("bx", "pop", "ldm")):
            out.append("any")  # a jump table: every instruction may follow
        return out

    def _function(self, entry, numbers):
        rng = self._range(entry)
        if not len(rng):
            return
        lo, hi = self.insns[rng.start].addr, self.insns[rng.stop - 1].addr
        if any(a <= hi and b >= lo for a, b in getattr(self.prog, "uncovered", ())):
            return  # code no function symbol covers: its entries are not known
        # liveness roots: the entry, and every instruction other code
        # enters (labels, targets of other functions' branches)
        roots = {rng[0]}
        for i in rng:
            if self.insns[i].addr in self.prog.funcs or self.insns[i].addr in self._foreign(rng):
                roots.add(i)
        # forward data flow: state = (regs {r: ('raw', nr) | ('k', v)}, flags);
        # the entry starts with its constant arguments, other roots with
        # nothing known
        states = {i: ({}, None) for i in roots}
        states[rng[0]] = (dict(self.seeds.get(self.insns[rng[0]].addr, {})), None)
        work = sorted(roots)
        guard = 0
        while work and guard < 50000:
            guard += 1
            i = work.pop()
            regs, flags = states[i]
            ins = self.insns[i]
            outs = self._transfer(i, ins, dict(regs), flags, numbers, {})
            for j, st in outs:
                if j == "any":
                    continue
                if j not in rng:
                    continue
                old = states.get(j)
                new = st if old is None else self._meet(old, st)
                if old != new:
                    states[j] = new
                    work.append(j)
        if work:
            return  # no fixpoint within the budget: nothing is cut here
        cut = {}
        for i, (regs, flags) in states.items():  # the cuts of the final states
            self._transfer(i, self.insns[i], dict(regs), flags, numbers, cut)
        live, work = set(), list(roots)
        jump_table = False
        while work:
            i = work.pop()
            if i in live:
                continue
            live.add(i)
            for j in self._succ(i, rng):
                if j == "any":
                    jump_table = True
                    continue
                if j in cut.get(i, ()):
                    continue
                work.append(j)
        if jump_table:
            return  # a computed jump inside: every instruction may run
        for i in rng:
            if i not in live and not self.insns[i].data:
                self.dead.add(i)
        for i, js in cut.items():
            for j in js:
                if j not in live:
                    self.why.setdefault(j, []).append(self.reason.get((i, j), "?"))

    _foreign_cache = {}

    def _foreign(self, rng):
        """Addresses in rng that code outside rng branches or calls to."""
        key = (rng.start, rng.stop)
        if key not in self._foreign_cache:
            lo, hi = self.insns[rng.start].addr, self.insns[rng.stop - 1].addr
            out = set()
            for tgt, callers in self.prog.callers.items():
                if lo <= tgt <= hi:
                    out.add(tgt)
            for i, ps in self.prog.preds.items():
                if i in rng:
                    for p in ps:
                        if p not in rng:
                            out.add(self.insns[i].addr)
            self._foreign_cache[key] = out
        return self._foreign_cache[key]

    reason = {}

    @staticmethod
    def _meet(a, b):
        ra, fa = a
        rb, fb = b
        regs = {r: v for r, v in ra.items() if rb.get(r) == v}
        return (regs, fa if fa == fb else None)

    def _cut(self, cut, i, j, why):
        cut.setdefault(i, set()).add(j)
        self.reason[(i, j)] = why

    FOLD = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "rsb": lambda x, y: y - x,
            "orr": lambda x, y: x | y, "and": lambda x, y: x & y, "eor": lambda x, y: x ^ y,
            "bic": lambda x, y: x & ~y, "mov": lambda x, y: y, "mvn": lambda x, y: ~y,
            "lsl": lambda x, y: x << y if y < 32 else 0,
            "lsr": lambda x, y: x >> y if y < 32 else 0,
            "asr": lambda x, y: signed(x) >> min(y, 31)}

    def _fold(self, ins, b, toks, regs, flags, cond):
        """The state after ins when it computes on constants only (a move,
        arithmetic, a compare): (regs, flags) with the result and, when it
        sets them, the flags; None when an operand is not a constant (the
        caller's general rules apply)."""
        core = b
        setf = b in ("cmp", "cmn", "tst", "teq")
        if b.endswith("s") and b[:-1] in self.FOLD:
            core, setf = b[:-1], True
        if core not in self.FOLD and not setf:
            return None
        if not toks or any(reg(t) in ("r13", "r15") for t in toks):
            return None

        def val(tok):
            k = parse_imm(tok)
            if k is not None:
                return k
            v = regs.get(reg(tok)) if reg(tok) else None
            return v[1] if v and v[0] == "k" else None

        if setf and core == b:  # cmp, cmn, tst, teq rn, op2
            if len(toks) != 2:
                return None
            x, y = val(toks[0]), val(toks[1])
            dst = None
            core = {"cmp": "sub", "cmn": "add", "tst": "and", "teq": "eor"}[b]
        else:
            dst = reg(toks[0])
            if dst is None:
                return None
            if core in ("mov", "mvn"):
                if len(toks) != 2:
                    return None
                x, y = 0, val(toks[1])
            elif len(toks) == 2:  # Thumb two-operand form: adds r3, #1
                x, y = val(toks[0]), val(toks[1])
            elif len(toks) == 3:
                x, y = val(toks[1]), val(toks[2])
            else:
                return None
        if x is None or y is None:
            return None
        r = self.FOLD[core](x, y) & M
        if dst is not None:
            if cond is None or regs.get(dst) == ("k", r):
                regs[dst] = ("k", r)
            else:
                regs.pop(dst, None)
        if not setf:
            return regs, flags
        if cond is not None:
            return regs, None
        if core in ("add", "sub", "rsb"):
            a, c = (x, y) if core != "rsb" else (y, x)
            f = flags_add(a, c) if core == "add" else flags_sub(a, c)
        else:  # logical: C from the shifter, V unchanged: not known here
            f = (bool(r >> 31), r == 0, None, None)
        how = "'%s %s' at %#x on constants" % (ins.mnem, ins.ops.split("@")[0].strip(), ins.addr)
        seeds = self.seeds.get(self.prog.func_entry(ins))
        if seeds:
            how += "; %s at the entry of %s from every call" % (", ".join(
                "%s=%#x" % (k, v[1]) for k, v in sorted(seeds.items())), ins.func)
        return regs, ("nzcv", f, how)

    def _transfer(self, i, ins, regs, flags, numbers, cut):
        b, ops = ins.base, ins.ops.split("@")[0].strip()
        toks = split_ops(ops)
        succ = [j for j in self._succ(i, range(0, len(self.insns)))]
        nxt = i + 1
        cond = ins.cond
        # a condition decided by flags computed from constants
        if cond is not None and flags is not None and flags[0] == "nzcv":
            held = cond_holds(cond, flags[1])
            if held is not None:
                why = "'%s %s' at %#x %s: its flags come from constants (%s)" % (
                    ins.mnem, ops, ins.addr, "always taken" if held else "never taken",
                    flags[2])
                t = [j for j in succ if j != nxt and j != "any"]
                if b == "b" and held:
                    if t:
                        self._cut(cut, i, nxt, why)
                        return [(j, (regs, flags)) for j in t]
                elif b == "b":
                    if t:
                        self._cut(cut, i, t[0], why)
                    return [(nxt, (regs, flags))]
                elif not held:
                    return [(nxt, (regs, flags))]  # does not run
                else:
                    cond = None  # runs, as if unconditional
        if b in ("cbz", "cbnz") and toks:
            v = regs.get(reg(toks[0]))
            t = [j for j in succ if j != nxt and j != "any"]
            if v and v[0] == "k" and t:
                taken = (v[1] == 0) == (b == "cbz")
                why = "'%s %s' at %#x %s: %s is the constant %d" % (
                    ins.mnem, ops, ins.addr, "always taken" if taken else "never taken",
                    toks[0], v[1])
                self._cut(cut, i, nxt if taken else t[0], why)
                return [(t[0] if taken else nxt, (regs, flags))]
        # the ENOSYS edge of a flag test on a present syscall's result
        enosys = flags is not None and flags[0] == "enosys" and self.present(flags[1])
        if cond is not None and enosys:
            why = "%s answered ENOSYS (it is on in the target config)" % self.names.get(
                flags[1], flags[1])
            if b in ("b",):
                t = [j for j in succ if j != nxt]
                if cond == "eq" and t:
                    self._cut(cut, i, t[0], why)
                    return [(nxt, (regs, flags))]
                if cond == "ne":
                    self._cut(cut, i, nxt, why)
                    return [(j, (regs, flags)) for j in t]
            elif cond == "eq":
                return [(nxt, (regs, flags))]  # does not run
        folded = self._fold(ins, b, toks, regs, flags, cond)
        if folded is not None:
            return [(j, folded) for j in succ if j != "any"]
        if b in ("svc", "swi"):
            nrs = numbers.get(ins.addr, [])
            if nrs and all(self.names.get(n) in ("exit", "exit_group") for n in nrs):
                self._cut(cut, i, nxt, "%s does not return" % self.names.get(nrs[0]))
                return []
            v = regs.get("r7")
            regs = {r: x for r, x in regs.items() if r != "r0"}
            if v and v[0] == "k":
                regs["r0"] = ("raw", v[1])
            return [(j, (regs, None)) for j in succ if j != "any"]
        dst = reg(toks[0]) if toks else None
        if b in ("cmp", "cmn") and len(toks) == 2:
            v, k = regs.get(reg(toks[0])), parse_imm(toks[1])
            new = None
            if v and v[0] == "raw" and k == ENOSYS and b == "cmn" and cond in (None, "eq"):
                new = ("enosys", v[1])
            return [(j, (regs, new)) for j in succ if j != "any"]
        if b in ("mov", "movs", "subs", "sub", "adds", "add") and dst is not None:
            src = None
            if b in ("mov", "movs") and len(toks) == 2:
                k = parse_imm(toks[1])
                if k is not None:
                    src = ("k", k)
                elif reg(toks[1]):
                    src = regs.get(reg(toks[1]))
            elif b in ("subs", "sub", "adds", "add") and len(toks) == 3 and parse_imm(toks[2]) == 0:
                src = regs.get(reg(toks[1]))
            if cond is not None:
                src = src if regs.get(dst) == src else None
            regs.pop(dst, None)
            if src is not None:
                regs[dst] = src
            nf = flags if not b.endswith("s") else None
            return [(j, (regs, nf)) for j in succ if j != "any"]
        if b in ("movw",) and dst is not None:
            regs[dst] = ("k", parse_imm(toks[1]) or 0)
            return [(j, (regs, flags)) for j in succ if j != "any"]
        if b == "ldr" and dst is not None and "[pc" in ops.replace("r15", "pc"):
            m = re.search(r"\(?(?:0x)?([0-9a-f]+)\b", ins.comment)
            w = self.prog.elf.word(int(m.group(1), 16)) if m else None
            regs.pop(dst, None)
            if w is not None and cond is None:
                regs[dst] = ("k", w)
            return [(j, (regs, flags)) for j in succ if j != "any"]
        if b in ("bl", "blx"):
            for r in ("r0", "r1", "r2", "r3", "r12", "r14"):
                regs.pop(r, None)
            return [(j, (regs, None)) for j in succ if j != "any"]
        # anything else: what it writes is unknown
        for r in list(regs):
            if self._writes(ins, r):
                regs.pop(r)
        nf = flags
        if b.endswith("s") or b in ("cmp", "cmn", "tst", "teq", "msr", "vmrs") or \
                b.startswith(("cmp", "cmn")):
            nf = None
        if cond is not None and b not in ("b",):
            nf = None if nf != flags else flags
        return [(j, (regs, nf)) for j in succ if j != "any"]
