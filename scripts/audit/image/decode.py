"""image/decode.py: ARM instructions as data, and register values found
backwards along the code.

capstone (Debian's python3-capstone) decodes the executable segments;
disasm_lite gives (address, size, mnemonic, operands) without the cost of
operand objects, and this module reads the operand text. Debian's armel
objects are ARM code (gcc --with-arch=armv5te, no --with-mode: no
__thumb__); evidence of Thumb code (a Thumb entry or symbol, a blx #imm
into the object) is reported by elfobj.py, and the audit fails closed on
it.
"""
import re
import struct

import capstone

# Register names as the static mode reads them (ip -> r12, a {r4-r7, lr} list).
import syscalls as static
reg, reglist = static.reg, static.reglist

CONDS = ("eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls",
         "ge", "lt", "gt", "le", "al")
BASES = set("""b bl blx bx mov mvn ldr ldrb ldrh ldrsb ldrsh ldrd ldrex ldm ldmda ldmdb
ldmib str strb strh strd strex stm stmda stmdb stmib push pop add adc sub sbc rsb rsc and
orr eor bic lsl lsr asr ror rrx mul mla umull smull umlal smlal cmp cmn tst teq svc clz
udf bkpt nop mrs msr mrc mcr ldc stc cdp pld swp swpb uxtb uxth sxtb sxth rev
qadd qsub smulbb smlabb""".split())
REG_RE = re.compile(r"\b(r1[0-5]|r[0-9]|sb|sl|fp|ip|sp|lr|pc)\b")
IMM_RE = re.compile(r"#(-?(?:0x[0-9a-f]+|\d+))")
MASK = 0xFFFFFFFF
TABLE_RE = re.compile(r"pc, pc, \w+, lsl #2$")
ROT_RE = re.compile(r", #(-?(?:0x[0-9a-f]+|\d+)), #(\d+)$")
ARGS = ("r0", "r1", "r2", "r3")
CALL_CLOBBERS = ("r0", "r1", "r2", "r3", "r12", "r14")
NO_WRITE = ("str", "cmp", "cmn", "tst", "teq", "push", "stm", "b", "bx", "svc", "nop",
            "pld", "mcr", "bkpt", "udf", "stc", "cdp", "msr")
_split_cache = {}


def split(mnem):
    """(base, cond, setflags): 'moveq' -> ('mov', 'eq', False), 'andseq' ->
    ('and', 'eq', True), 'bls' -> ('b', 'ls', False)."""
    r = _split_cache.get(mnem)
    if r is None:
        m = mnem.split(".")[0]
        r = (m, None, False)
        if m not in BASES:
            for cut, cond in ((m[:-2], m[-2:]), (m, None)):
                if cond is not None and cond not in CONDS:
                    continue
                if cut in BASES:
                    r = (cut, cond, False)
                    break
                if cut.endswith("s") and cut[:-1] in BASES:
                    r = (cut[:-1], cond, True)
                    break
        if r[1] == "al":
            r = (r[0], None, r[2])
        _split_cache[mnem] = r
    return r


def imm(text):
    m = IMM_RE.search(text)
    return int(m.group(1), 0) if m else None


DIGITS = tuple("0123456789")


class Insn:
    __slots__ = ("addr", "base", "cond", "s", "ops", "mnem")

    def __init__(self, addr, mnem, ops):
        self.addr = addr
        self.mnem = mnem
        self.base, self.cond, self.s = split(mnem)
        if ops.endswith(DIGITS) and ", #" in ops:
            m = ROT_RE.search(ops)
            if m:   # capstone's "#imm8, #rot": an immediate it does not fold
                v, r = int(m.group(1), 0), int(m.group(2))
                ops = ops[:m.start()] + ", #%#x" % (((v >> r) | (v << (32 - r))) & MASK if r
                                                     else v)
        self.ops = ops

    @property
    def text(self):
        return self.mnem + " " + self.ops

    def first_reg(self):
        m = REG_RE.match(self.ops)
        return reg(m.group(1)) if m else None

    def target(self):
        """Direct branch target (b, bl, blx #imm), or None."""
        if self.base in ("b", "bl", "blx") and self.ops.startswith("#"):
            return int(self.ops[1:], 0)
        return None

    def ends_flow(self):
        """True when the next instruction is not reached by falling through
        (an unconditional branch, return or jump)."""
        if self.cond is not None:
            return False
        b = self.base
        if b in ("b", "bx", "udf"):
            return True
        if b in ("pop", "ldm", "ldmda", "ldmdb", "ldmib") and "r15" in reglist(self.ops):
            return True
        return self.first_reg() == "r15" and b not in NO_WRITE and not b.startswith("str")

    def writeback(self):
        if "!" in self.ops or re.search(r"\],\s*#", self.ops) or re.search(r"\],\s*-?r", self.ops):
            m = re.search(r"\[(\w+)", self.ops)
            return reg(m.group(1)) if m else None
        return None

    def writes(self, r):
        """True when the instruction (may) write register r."""
        b = self.base
        if b in ("bl", "blx"):
            return r in ("r0", "r1", "r2", "r3", "r12", "r14")
        if b == "svc":
            return r == "r0"
        if b.startswith(("pop", "ldm")):
            m = re.match(r"(\w+)!", self.ops)
            return r in reglist(self.ops) or bool(m and reg(m.group(1)) == r)
        if b == "strex":
            return self.first_reg() == r
        if b.startswith(NO_WRITE):
            return (b.startswith("str") or b.startswith("stm") or b == "push") and \
                (self.writeback() == r or (b == "push" and r == "r13") or
                 bool(re.match(r"(\w+)!", self.ops) and reg(re.match(r"(\w+)!", self.ops).group(1)) == r))
        regs = [reg(x) for x in REG_RE.findall(self.ops)]
        if not regs:
            return False
        if b in ("ldrd", "umull", "smull", "umlal", "smlal"):
            return r in regs[:2]
        if b.startswith("ldr") and self.writeback() == r:
            return True
        if b in ("mrc", "mrs"):
            return r in regs[:1] or r == "r15"
        return regs[0] == r


def decode(data, base, md=None):
    """Every 4-byte-aligned word of DATA (at address BASE) as an ARM
    instruction, or None where capstone finds no instruction (a data word)."""
    if md is None:
        md = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_ARM)
    out = []
    off, n = 0, len(data) & ~3
    while off < n:
        got = off
        for a, size, mnem, ops in md.disasm_lite(data[off:n], base + off):
            out.append(Insn(a, mnem, ops))
            got += size
        off = got
        if off < n:
            out.append(None)
            off += 4
    return out


COND_ALIAS = {"hs": "cs", "lo": "cc"}
COMPLEMENT = {"eq": "ne", "ne": "eq", "cs": "cc", "cc": "cs", "mi": "pl", "pl": "mi",
              "vs": "vc", "vc": "vs", "hi": "ls", "ls": "hi", "ge": "lt", "lt": "ge",
              "gt": "le", "le": "gt"}
KEEPS_FLAGS = set("""b mov mvn push pop add adc sub sbc rsb rsc and orr eor bic lsl lsr asr
ror mul mla umull smull umlal smlal clz uxtb uxth sxtb sxth rev nop pld""".split())


def sets_flags(ins):
    """True when INS may change the flags (a compare, an s-suffixed
    operation, a call, a svc, or what this module does not know)."""
    b = ins.base
    if ins.s:
        return True
    if b.startswith(("ldr", "str", "ldm", "stm")):
        return False
    return b not in KEEPS_FLAGS


class Values:
    """What a register may hold: constants, arguments of the function (r0-r3
    at the region's start), and why not known."""
    __slots__ = ("consts", "args", "unknown")

    def __init__(self):
        self.consts, self.args, self.unknown = set(), set(), []

    def merge(self, o):
        self.consts |= o.consts
        self.args |= o.args
        self.unknown += o.unknown

    def known(self):
        return not self.unknown


ALU = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "rsb": lambda a, b: b - a,
       "orr": lambda a, b: a | b, "eor": lambda a, b: a ^ b, "bic": lambda a, b: a & ~b,
       "and": lambda a, b: a & b}


class Code:
    """The decoded words of one executable segment, with the branch sources
    of each address (direct branches only), for the backward search."""

    def __init__(self, insns, base, word, region_start):
        self.insns = insns          # index i: address base + 4*i
        self.base = base
        self.word = word            # word(addr) -> int or None
        self.region_start = region_start  # index -> True when a region starts there
        self.preds = {}
        for i, ins in enumerate(insns):
            if ins is None:
                continue
            if ins.base == "b":
                t = ins.target()
                if t is not None:
                    self.preds.setdefault(t, []).append(i)
            elif ins.base == "add" and TABLE_RE.match(ins.ops):
                # gcc's jump table: `add<c> pc, pc, rX, lsl #2` then one `b`
                # per case (ARM switch tables in PIC code): every entry is
                # reached from the add
                k = i + 2
                while k < len(insns) and insns[k] is not None and insns[k].base == "b" \
                        and insns[k].cond is None and k - i < 4096:
                    self.preds.setdefault(base + 4 * k, []).append(i)
                    k += 1

    def called(self, k):
        """True when instruction K jumps with a return address: `mov lr, pc`
        just before it (a call of the kernel's user helpers at 0xffff0fc0,
        __kuser_cmpxchg, in glibc's ARMv5 atomics)."""
        p = self.insns[k - 1] if k > 0 else None
        return p is not None and p.base == "mov" and p.ops == "lr, pc" and p.cond is None

    def index(self, addr):
        return (addr - self.base) >> 2

    def value(self, idx, r, budget=None):
        """Values of register r just before instruction idx, searched
        backwards along the code: falling through, and direct branches into
        it; at the start of a region, r0-r3 are the function's arguments."""
        if budget is None:
            budget = [64]
        out = Values()
        seen = set()
        work = [(idx, r, None)]
        while work:
            item = work.pop()
            if item in seen:
                continue
            seen.add(item)
            budget[0] -= 1
            if budget[0] < 0:
                out.unknown.append("search too long")
                return out
            self._back(item[0], item[1], out, work, budget, item[2])
        return out

    def _back(self, i, r, out, work, budget, known):
        """KNOWN: a condition code that holds at i (from the conditional
        branch the path came through, while no instruction between sets the
        flags): a write under it runs, one under its complement does not."""
        while True:
            addr = self.base + 4 * i
            for src in self.preds.get(addr, ()):
                # a branch writes no register; taken, its condition held
                work.append((src, r, COND_ALIAS.get(self.insns[src].cond,
                                                    self.insns[src].cond)))
            if self.region_start(i):
                if r in ARGS:
                    out.args.add(r)
                else:
                    out.unknown.append("%s at the start of the function at %#x" % (r, addr))
                return
            k = i - 1
            ins = self.insns[k] if k >= 0 else None
            if ins is None:
                if not self.preds.get(addr):
                    out.unknown.append("%s: code before %#x is not an instruction" % (r, addr))
                return
            if ins.ends_flow() and self.called(k):
                known = None
                if r in CALL_CLOBBERS:
                    out.unknown.append("%s: the result of the call at %#x" % (r, ins.addr))
                    return
                i = k
                continue
            if ins.ends_flow():
                if not self.preds.get(addr):
                    out.unknown.append("%s: %#x is reached only by a jump the audit does not "
                                       "follow" % (r, addr))
                return
            if ins.base == "b" and ins.cond is not None:
                known = COMPLEMENT.get(COND_ALIAS.get(ins.cond, ins.cond))  # fell through
                i = k
                continue
            cond = COND_ALIAS.get(ins.cond, ins.cond)
            if cond is not None and ins.writes("r15"):
                # a conditional return or jump (musl's `popne {r4, r7, pc}`):
                # falling through from it, it did not run
                if not sets_flags(ins):
                    known = COMPLEMENT.get(cond)
                i = k
                continue
            if ins.writes(r) and not (known and cond == COMPLEMENT.get(known)):
                self._eval(k, ins, r, out, work, budget)
                if cond is None or cond == known:
                    return
                # before it, the value matters only where its condition
                # failed: `movne r7, #145; ...; moveq r7, #3` is decided
                known = COMPLEMENT.get(cond)
            if sets_flags(ins):
                known = None
            i = k

    def _eval(self, k, ins, r, out, work, budget):
        b, ops = ins.base, ins.ops
        parts = [p.strip() for p in ops.split(",")]
        if b in ("mov", "mvn") and len(parts) == 2 and parts[1].startswith("#"):
            v = imm(parts[1])
            out.consts.add((~v if b == "mvn" else v) & MASK)
            return
        if b == "mov" and len(parts) == 2 and REG_RE.fullmatch(parts[1]):
            src = reg(parts[1])
            if src == "r15":
                out.consts.add((ins.addr + 8) & MASK)
                return
            work.append((k, src, None))
            return
        if b == "ldr" and re.fullmatch(r"\w+, \[pc(, #-?(0x[0-9a-f]+|\d+))?\]", ops):
            w = self.word(ins.addr + 8 + (imm(ops) or 0))
            if w is not None:
                out.consts.add(w)
                return
        if b in ALU and len(parts) == 3 and parts[2].startswith("#") and \
                REG_RE.fullmatch(parts[1]):
            sub = self.value(k, reg(parts[1]), budget)
            v = imm(parts[2])
            if sub.known() and not sub.args:
                for c in sub.consts:
                    out.consts.add(ALU[b](c, v) & MASK)
                return
            out.unknown += sub.unknown or ["%s from an argument through '%s' at %#x" % (
                r, ins.text, ins.addr)]
            return
        out.unknown.append("%s from '%s' at %#x" % (r, ins.text, ins.addr))


def word_reader(segments):
    """word(addr): the 32-bit word at ADDR in the file's PT_LOAD segments."""
    def word(addr):
        for vaddr, data in segments:
            o = addr - vaddr
            if 0 <= o <= len(data) - 4:
                return struct.unpack_from("<I", data, o)[0]
        return None
    return word
