#!/usr/bin/env python3
"""audit-syscalls.py: the system calls a static ARM EABI ELF program can make.

Usage:
  audit-syscalls.py [--ktree DIR] [--all-sites] [--json] [--names] ELF

Reads `arm-linux-gnueabi-objdump -d` of ELF (ARM and Thumb-2 are told apart
by the ELF's mapping symbols; a stripped binary has none and is read as ARM,
which is right for Debian armel's BusyBox) and finds every `svc` site:

  svc #0      EABI: the number is in r7. It is looked for backwards along the
              control flow (fall-through and direct branches) from the svc:
              mov/movs/mvn #imm, movw/movt, ldr rN, [pc, #off] (the literal is
              read from the ELF), mov rN, rM and add/sub/orr/eor/lsl with an
              immediate (followed through rM). Conditional writes count as
              "may set" and the search goes on past them, up to the write
              with the opposite condition (moveq/movne), unless the flags
              on the path decide them: the conditional branches the search
              came through (taken or not) and the conditional writes it
              passed without them running give condition codes that hold
              until an instruction that may change the flags. Calls (bl) keep r7
              (callee-saved) but clobber r0-r3.
  wrappers    when r7 comes from an argument register at a function's entry
              (musl's syscall(), __syscall_cp_asm, glibc's syscall()), the
              function is a wrapper: the same search runs for that register
              at every direct call (bl/b) of it, through interworking veneers
              and wrappers of wrappers.
  svc #imm    (imm != 0) is OABI and flagged. In a stripped binary it is
              usually a literal word read as code.

Reachability (not with --all-sites, which counts every site): only svc
sites in functions reachable from the ELF entry point count, and numbers
passed to wrappers count only from reachable callers. Functions are
objdump's labelled regions; edges are direct calls and branches (bl, blx
#imm, b, tail calls, veneers) and fall-through into the next function. For
indirect calls (blx rN, bx rN, ldr pc, ...) every function whose address
(with or without the Thumb bit) reachable code forms (literal-pool word,
literal + pc, literal + GOT, movw/movt, adr) or a reachable data object
holds is reachable; a data object (sized OBJECT symbol) is reachable when
reachable code or data points into it. Words of data sections that no sized
object covers (.init_array, .fini_array, .preinit_array, the GOT, anonymous
data) are roots. A stripped binary (no symbol table) cannot be told apart
soundly: every site counts, and the report says so. Per syscall the report
gives how it is reached, directly or only through address-taken functions
(and how many), and one path from the entry.

What the ELF's code cannot account for (scripts/audit/accounted.py) is
listed as NOT ACCOUNTED FOR: dynamic linking (PT_INTERP, DT_NEEDED), a
dlopen of unknown targets, executable code objdump did not read; the report
then fails closed. Code no function symbol covers (the function
boundaries are not established) counts as reachable: each labelled region
holding some is a root, pruning leaves those regions whole, and no call
gets the "fallback" verdict.

With --kmap, a site of a syscall whose argument gates an option (KMAP's
arg_gates, scripts/audit/gates.py: clock ids, socket families, fcntl
commands) also gets that argument resolved the way the number is (r0, r1
at the svc, then at every direct call of a wrapper); "uses" lists them,
an argument that is not a known constant as null (audit/needs.py then
keeps every option the gate can need).

Every site that cannot be resolved is listed with its address and function,
never dropped. Numbers are named from the kernel tree's
arch/arm/tools/syscall.tbl (--ktree, default build/linux-6.1) and the ARM
private calls (0x0f0001..0x0f0006).

For the splice family (splice, vmsplice, tee, sendfile, sendfile64) each call
of the function holding the svc gets a verdict, "fallback" or "no fallback
proven" (scripts/audit/audit_flow.py): the svc's result, -ENOSYS, is followed
forward (r0, stack slots, errno through musl's __syscall_ret and
__errno_location) to a compare with ENOSYS, and the branch taken on ENOSYS
must lead to another way of moving the data (a file read and a write). The
report names the compare and the branch.

Output: a text report (default), JSON (--json), or the sorted names alone
(--names), which is what the recall test compares with a dynamic trace.
Exit status: 0, or 2 on a usage or tool error.
"""
import bisect
import collections
import json
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accounted  # noqa: E402
import audit_flow  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OBJDUMP = os.environ.get("OBJDUMP", "arm-linux-gnueabi-objdump")
ENOSYS = 38
SPLICE_FAMILY = ("splice", "vmsplice", "tee", "sendfile", "sendfile64")
ARM_PRIVATE = {0x0F0001: "ARM_breakpoint", 0x0F0002: "ARM_cacheflush",
               0x0F0003: "ARM_usr26", 0x0F0004: "ARM_usr32",
               0x0F0005: "ARM_set_tls", 0x0F0006: "ARM_get_tls"}
CONDS = ("eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls",
         "ge", "lt", "gt", "le", "al")
# Base mnemonics (UAL) the analysis tells apart; anything else is kept as it
# is, unconditional, and treated by its first operand.
KNOWN = set("""b bl blx bx cbz cbnz mov movs mvn mvns movw movt cpy ldr ldrb ldrh ldrsb
ldrsh ldrd ldrex ldrexd ldm ldmia ldmfd ldmdb ldmib str strb strh strd strex stm stmia
stmdb stmfd stmib push pop add adds adc adcs sub subs sbc sbcs rsb rsbs rsc orr orrs eor
eors and ands bic bics orn lsl lsls lsr lsrs asr asrs ror rors mul muls mla mls umull
smull umlal smlal cmp cmn tst teq svc swi nop clz uxtb uxth sxtb sxth rev ubfx sbfx bfi
bfc neg negs adr udiv sdiv it ite itt itee itet itte ittt""".split())


COMPLEMENT = {}
for _a, _b in (("eq", "ne"), ("cs", "cc"), ("hs", "lo"), ("mi", "pl"), ("vs", "vc"),
               ("hi", "ls"), ("ge", "lt"), ("gt", "le")):
    COMPLEMENT[_a], COMPLEMENT[_b] = _b, _a
COMPLEMENT["cs"], COMPLEMENT["lo"] = "cc", "hs"
COMPLEMENT["cc"], COMPLEMENT["hs"] = "cs", "lo"


# Bases that never change the flags; any other instruction (compares, the
# flag-setting forms such as adds, calls, svc, and what the analysis does
# not know) may.
KEEPS_FLAGS = set("""b cbz cbnz mov mvn movw movt cpy push pop add adc sub sbc rsb rsc and
orr eor bic orn lsl lsr asr ror mul mla mls umull smull umlal smlal clz uxtb uxth sxtb
sxth rev ubfx sbfx bfi bfc adr udiv sdiv nop it ite itt itee itet itte ittt""".split())
ALIAS_COND = {"hs": "cs", "lo": "cc"}


def sets_flags(ins):
    """True when ins may change the flags (N, Z, C, V)."""
    b = ins.base
    if ins.data:
        return False
    if b.startswith(("ldr", "str", "ldm", "stm")) and not b.endswith("s"):
        return False
    return b not in KEEPS_FLAGS


def cond_known(cond, facts):
    """True, False or None: does cond hold, given facts (a set of condition
    codes known to hold on the same flags)?"""
    cond = ALIAS_COND.get(cond, cond)
    if cond in facts:
        return True
    if ALIAS_COND.get(COMPLEMENT.get(cond), COMPLEMENT.get(cond)) in facts:
        return False
    return None


def split_mnemonic(mnem):
    """(base, cond or None): 'moveq' -> ('mov', 'eq'), 'bls' -> ('b', 'ls')."""
    m = mnem.split(".")[0]
    if m in KNOWN:
        return m, None
    if len(m) > 2 and m[-2:] in CONDS and m[:-2] in KNOWN:
        return m[:-2], (None if m[-2:] == "al" else m[-2:])
    return m, None


MAX_STEPS = 20000


def die(msg):
    print("audit-syscalls: " + msg, file=sys.stderr)
    sys.exit(2)


# ---- the ELF: PT_LOAD segments, to read literal-pool words ----
class Elf:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        d = self.data
        if d[:4] != b"\x7fELF" or d[4] != 1 or d[5] != 1:
            die(path + ": not a 32-bit little-endian ELF")
        (self.machine,) = struct.unpack_from("<H", d, 18)
        if self.machine != 40:
            die(path + ": not an ARM ELF")
        (self.flags,) = struct.unpack_from("<I", d, 36)
        phoff, = struct.unpack_from("<I", d, 28)
        phentsize, phnum = struct.unpack_from("<HH", d, 42)
        self.loads = []
        for i in range(phnum):
            p_type, off, vaddr, _, filesz = struct.unpack_from(
                "<IIIII", d, phoff + i * phentsize)
            if p_type == 1:
                self.loads.append((vaddr, off, filesz))
        self.eabi = (self.flags >> 24) != 0
        (self.entry,) = struct.unpack_from("<I", d, 24)
        self.sections = self._sections()
        self.symtab = self._symtab()

    def _sections(self):
        """[{name, type, flags, addr, offset, size, link}] of the section headers."""
        d = self.data
        (shoff,) = struct.unpack_from("<I", d, 32)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 46)
        if not shoff or shstrndx >= shnum:
            return []
        keys = ("name", "type", "flags", "addr", "offset", "size", "link")
        secs = [dict(zip(keys, struct.unpack_from("<7I", d, shoff + i * shentsize)))
                for i in range(shnum)]
        for sec in secs:
            sec["name"] = self._cstr(secs[shstrndx]["offset"] + sec["name"])
        return secs

    def _cstr(self, off):
        end = self.data.find(b"\0", off)
        return self.data[off:end].decode("latin-1")

    def _symtab(self):
        """[(name, value, size, type)] of .symtab (type 1 OBJECT, 2 FUNC), or
        None when the ELF has no symbol table (stripped)."""
        for sec in self.sections:
            if sec["type"] != 2:  # SHT_SYMTAB
                continue
            strtab = self.sections[sec["link"]]["offset"]
            out = []
            for k in range(sec["offset"], sec["offset"] + sec["size"] - 15, 16):
                n, value, size, info = struct.unpack_from("<IIIB", self.data, k)
                out.append((self._cstr(strtab + n), value, size, info & 0xF))
            return out
        return None

    def words(self, start, end):
        """The aligned 32-bit words of [start, end) present in the file:
        [(addr, word)]."""
        out = []
        a = (start + 3) & ~3
        while a + 4 <= end:
            w = self.word(a)
            if w is not None:
                out.append((a, w))
            a += 4
        return out

    def word(self, addr):
        for vaddr, off, size in self.loads:
            if vaddr <= addr and addr + 4 <= vaddr + size:
                return struct.unpack_from("<I", self.data, off + addr - vaddr)[0]
        return None


# ---- the disassembly ----
class Insn:
    __slots__ = ("addr", "mnem", "base", "cond", "ops", "comment", "func",
                 "thumb", "data", "index")

    def __init__(self, addr, mnem, ops, comment, func, thumb):
        self.addr, self.mnem, self.ops, self.comment = addr, mnem, ops, comment
        self.func, self.thumb = func, thumb
        self.data = mnem.startswith(".")
        self.base, self.cond = split_mnemonic(mnem)


LINE_RE = re.compile(r"^\s*([0-9a-f]+):\t(?:[0-9a-f]{2,8}(?: [0-9a-f]{4})?\s*\t)?([^\t]+?)(?:\t(.*))?$")
FUNC_RE = re.compile(r"^([0-9a-f]+) <(.+)>:$")


def disassemble(path):
    try:
        out = subprocess.run([OBJDUMP, "-d", path], check=True, capture_output=True,
                             text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die("%s -d %s: %s" % (OBJDUMP, path, e))
    insns, funcs, func = [], {}, "?"
    for line in out.splitlines():
        m = FUNC_RE.match(line)
        if m:
            func = m.group(2)
            funcs[int(m.group(1), 16)] = func
            continue
        m = LINE_RE.match(line)
        if not m:
            continue
        text = m.group(2).strip()
        ops = (m.group(3) or "").strip()
        comment = ""
        if "@" in ops:
            ops, comment = [s.strip() for s in ops.split("@", 1)]
        parts = text.split(None, 1)
        mnem = parts[0]
        if len(parts) > 1:
            ops = (parts[1] + " " + ops).strip()
        raw = line.split("\t")[1].strip() if "\t" in line else ""
        thumb = len(raw.replace(" ", "")) == 4 or (" " in raw and len(raw) == 9)
        ins = Insn(int(m.group(1), 16), mnem, ops, comment, func, thumb)
        # A zero word (alignment padding, 'andeq r0, r0, r0') is data.
        ins.data = ins.data or raw == "00000000"
        insns.append(ins)
    for i, ins in enumerate(insns):
        ins.index = i
    return insns, funcs


REG_RE = re.compile(r"\b(r[0-9]|r1[0-5]|ip|sp|lr|pc|fp|sl|sb)\b")
ALIAS = {"ip": "r12", "sp": "r13", "lr": "r14", "pc": "r15", "fp": "r11",
         "sl": "r10", "sb": "r9"}


def reg(name):
    return ALIAS.get(name, name)


def target_of(ins):
    """Direct branch target of a b/bl/cbz/cbnz, or None."""
    if ins.base in ("b", "bl", "blx", "cbz", "cbnz"):
        m = re.search(r"(?:^|,\s*)(?:0x)?([0-9a-f]+)(?: <[^>]*>)?$", ins.ops)
        if m and not REG_RE.fullmatch(m.group(1)):
            return int(m.group(1), 16)
    return None


def reglist(ops):
    m = re.search(r"\{([^}]*)\}", ops)
    if not m:
        return []
    out = []
    for part in m.group(1).split(","):
        part = part.strip()
        if "-" in part:
            a, b = [int(reg(x.strip())[1:]) for x in part.split("-")]
            out += ["r%d" % k for k in range(a, b + 1)]
        elif part:
            out.append(reg(part))
    return out


def ends_flow(ins):
    """True when the next instruction is not reached by falling through."""
    if ins.data:
        return True
    if ins.cond is not None:
        return False
    b = ins.base
    if b == "b":
        return True
    if b == "bx":
        return True
    if b in ("pop", "ldm", "ldmia", "ldmfd") and "r15" in reglist(ins.ops):
        return True
    dst = first_reg(ins)
    if dst == "r15" and b in ("mov", "ldr", "add", "sub"):
        return True
    return False


def first_reg(ins):
    m = REG_RE.match(ins.ops)
    return reg(m.group(1)) if m else None


NO_WRITE = ("str", "cmp", "cmn", "tst", "teq", "push", "stm", "b", "bl", "bx", "blx",
            "cbz", "cbnz", "svc", "swi", "nop", "it", "pld", "dmb", "dsb", "isb",
            "mcr", "bkpt", "udf", "vst", "vpush", "vcmp", "vcmpe", "wfi", "wfe",
            "sev", "yield", "setend", "cps", "tbb", "tbh")


def writeback_reg(ins):
    """The base register a load/store writes back ([rN, #k]! or [rN], #k)."""
    if "!" in ins.ops or re.search(r"\],\s*#", ins.ops):
        m = re.search(r"\[(\w+)", ins.ops)
        return reg(m.group(1)) if m else None
    return None


def writes(ins, r):
    """True when ins (may) write register r."""
    b = ins.base
    if ins.data:
        return False
    if b in ("bl", "blx"):
        return r in ("r0", "r1", "r2", "r3", "r12", "r14")
    if b == "svc" or b == "swi":
        return r == "r0"
    if b.startswith(("pop", "ldm")):
        regs = reglist(ins.ops)
        m = re.match(r"(\w+)!", ins.ops)
        if m and reg(m.group(1)) == r:
            return True
        return r in regs
    if b.startswith("strex"):  # strex rd, rt, [rn]: rd gets the status
        m = REG_RE.match(ins.ops)
        return bool(m) and reg(m.group(1)) == r
    if any(b.startswith(p) for p in NO_WRITE):
        return b.startswith("str") and writeback_reg(ins) == r
    regs = [reg(x) for x in REG_RE.findall(ins.ops)]
    if not regs:
        return False
    if b in ("ldrd", "umull", "smull", "umlal", "smlal", "ldrexd", "strexd"):
        return r in regs[:2]
    if b.startswith("ldr") and writeback_reg(ins) == r:
        return True
    if b.startswith("v"):
        return False
    return regs[0] == r


IMM_RE = re.compile(r"#(-?(?:0x[0-9a-f]+|\d+))")


def imm(text):
    m = IMM_RE.search(text)
    return int(m.group(1), 0) if m else None


def stack_step(p, k):
    """Going back over p, where is the stack slot at sp+k (sp after p)?
    A register name (p stored it: follow that register on entry to p),
    'sp+K' (the slot relative to sp before p), or None (lost track)."""
    b, ops = p.base, p.ops
    if b == "push" or (b in ("stmdb", "stmfd") and ops.startswith("sp!")):
        regs = reglist(ops)
        return regs[k // 4] if k < 4 * len(regs) else "sp+%d" % (k - 4 * len(regs))
    if b == "pop" or (b in ("ldm", "ldmia", "ldmfd") and ops.startswith("sp!")):
        return "sp+%d" % (k + 4 * len(reglist(ops)))
    m = re.match(r"(\w+), \[sp(?:, #(-?\d+))?\](!?)$", ops)
    if b == "str" and m:
        off = int(m.group(2) or 0)
        if m.group(3):  # pre-indexed with writeback: sp moves by off
            return reg(m.group(1)) if k == 0 else "sp+%d" % (k + off)
        return reg(m.group(1)) if off == k else "sp+%d" % k
    m = re.match(r"sp, sp, #(\d+)$", ops)
    if m and b in ("sub", "add"):
        k2 = k - int(m.group(1)) if b == "sub" else k + int(m.group(1))
        return "sp+%d" % k2 if k2 >= 0 else None
    m = re.match(r"(\w+), \[sp\], #(\d+)$", ops)  # ldr rX, [sp], #4 (pop one)
    if b == "ldr" and m:
        return "sp+%d" % (k + int(m.group(2)))
    if writes(p, "r13") or b in ("strd", "stm", "stmia"):
        return None
    return "sp+%d" % k


class Program:
    def __init__(self, path):
        self.path = path
        self.elf = Elf(path)
        self.insns, self.funcs = disassemble(path)
        self.func_addrs = sorted(self.funcs)
        self.by_addr = {i.addr: i for i in self.insns}
        self.preds = {}
        self.callers = {}
        self._combining = set()
        self.symbols = bool(any(not n.startswith(".") for n in self.funcs.values()))
        self.live = None  # entries of the reachable functions; None: all count
        self.origin_insns = {}  # number -> insn indices that set it (any site)
        self.site_numbers = {}  # svc address -> its numbers
        self.memory_notes = []  # how numbers came through memory, in order
        self.reach = None
        self.dead = set()  # insn indices that cannot run on the target (--kmap)
        self._taken = None
        self._build_cfg()

    def address_taken(self):
        """Every function entry some aligned word of an allocated section
        (code or data) holds, with or without the Thumb bit, or that code
        forms (Reach._constants: pc- and GOT-relative, movw/movt, adr). The
        first call must come before any code is marked dead."""
        if self._taken is None:
            out = set()
            for sec in self.elf.sections:
                if sec["flags"] & SHF_ALLOC and sec["addr"] and sec["type"] != 8:  # not NOBITS
                    out |= {w & ~1 for _, w in self.elf.words(sec["addr"], sec["addr"] + sec["size"])}
            if self.symbols and self.elf.symtab is not None:
                reach = self.reach or Reach(self)
                for e in self.func_addrs:
                    out |= {v & ~1 for v in reach._constants(reach._indices(e))}
            self.taken_words = out
            self._taken = out & set(self.func_addrs)
        return self._taken

    def alive(self, i):
        """True when insn index i counts: reachability off, or its function
        is reachable."""
        if i in self.dead:
            return False
        return self.live is None or self.func_entry(self.insns[i]) in self.live

    def _build_cfg(self):
        for i, ins in enumerate(self.insns):
            nxt = self.insns[i + 1] if i + 1 < len(self.insns) else None
            if nxt and not ends_flow(ins) and not nxt.data and not (
                    self.symbols and nxt.addr in self.funcs):
                self.preds.setdefault(nxt.index, []).append(i)
            t = target_of(ins)
            if ins.base == "bx" and first_reg(ins) == "r15":
                t = ((ins.addr + 4) & ~3) if ins.thumb else ins.addr + 8
                nx = self.by_addr.get(t)
                if nx:
                    self.preds.setdefault(nx.index, []).append(i)
                continue
            if t is None:
                continue
            # Calls, and branches to another function's entry (tail calls,
            # interworking veneers): callers, not control flow.
            if ins.base in ("bl", "blx") or (self.symbols and t in self.funcs
                                             and self.funcs[t] != ins.func):
                self.callers.setdefault(t, []).append(i)
                continue
            tgt = self.by_addr.get(t)
            if tgt is not None:
                self.preds.setdefault(tgt.index, []).append(i)

    # ---- backward value search ----
    def values(self, i, r, depth=0, seen_wrappers=None):
        """Possible values of register r on entry to insn i.
        Returns ({int: set of the insn indices that set it}, list of unresolved
        reasons, set of wrapper entries). With reachability on (self.live),
        code in unreachable functions is not searched."""
        vals, why, wrappers = {}, [], set()
        seen_wrappers = seen_wrappers or set()
        # A work item: value of r on entry to insn i, with the conditions of
        # the conditional writes to r passed on the way (moveq after movne:
        # the two together always write, so the search stops there), and
        # the facts: condition codes known to hold on the flags on entry to
        # i along this path (from the conditional branches it took or fell
        # through, and the conditional writes it passed without them
        # running; forgotten at anything that may change the flags). A
        # conditional write whose condition the facts decide runs, or not,
        # for sure: `mov r7, #240; svc; cmn r0, #38; addne r7, sp, #36; bne
        # 1f; svc` keeps 240 for the second svc (musl's
        # __pthread_cond_timedwait). Undecided, it may run: both values.
        work, seen, steps = [(i, r, frozenset(), frozenset())], set(), 0
        while work:
            i, r, conds, facts = work.pop()
            if (i, r, conds, facts) in seen:
                continue
            seen.add((i, r, conds, facts))
            steps += 1
            if steps > MAX_STEPS:
                why.append("search too long")
                break
            preds = self.preds.get(i, [])
            if not preds and self.after_bx_pc(i):
                continue  # never runs: bx pc went on in ARM state
            if not preds:
                self._at_entry(i, r, depth, seen_wrappers, vals, why, wrappers)
                continue
            if self.symbols and self.insns[i].addr in self.funcs:
                # a function's entry that its own code also branches back
                # to: the callers' values count too
                self._at_entry(i, r, depth, seen_wrappers, vals, why, wrappers)
            for j in filter(self.alive, preds):
                p = self.insns[j]
                if r.startswith("sp+"):  # a stack slot, not a register
                    step = stack_step(p, int(r[3:]))
                    if step is None:
                        why.append("stack slot %s lost at '%s %s' (%#x in %s)" % (
                            r, p.mnem, p.ops, p.addr, p.func))
                    else:
                        work.append((j, step, frozenset(), frozenset()))
                    continue
                entry = self._facts_before(j, i, facts)
                if entry is None:
                    continue  # the facts contradict each other: no such path
                runs = None if p.cond is None else cond_known(p.cond, entry)
                # A conditional return (popne {..., pc}) that falls through
                # did not execute: it wrote nothing.
                if not writes(p, r) or (p.cond is not None and writes(p, "r15")) or \
                        runs is False:
                    work.append((j, r, conds, entry))
                    continue
                res = self._value_of(p, r)
                if isinstance(res, tuple) and res[1] is None:  # follow another register
                    work.append((j, res[0], frozenset(), entry))
                elif isinstance(res, tuple):  # movt / add: resolve, then combine
                    if len(self._combining) >= 8 or (j, res[0]) in self._combining:
                        # a loop (add r7, r7, #1 ...) or a long chain
                        why.append("%s computed in a loop or long chain at %#x" % (
                            r, p.addr))
                        continue
                    self._combining.add((j, res[0]))
                    try:
                        sub = self.values(j, res[0], depth, seen_wrappers)
                    finally:
                        self._combining.discard((j, res[0]))
                    for v, origin in sub[0].items():
                        vals.setdefault(res[1](v), set()).update(origin)
                    why += sub[1]
                    wrappers |= sub[2]
                elif res is None:
                    mem = self._from_memory(j, p, r, depth, seen_wrappers)
                    if mem is None:
                        why.append("%s set by '%s %s' at %#x in %s" % (
                            r, p.mnem, p.ops, p.addr, p.func))
                    else:
                        for v, origin in mem[0].items():
                            vals.setdefault(v, set()).update(origin)
                        why += mem[1]
                        wrappers |= mem[2]
                else:
                    vals.setdefault(res, set()).add(j)
                if runs is None and p.cond is not None and COMPLEMENT.get(p.cond) not in conds:
                    # the path on which p did not run: its condition was false
                    c = ALIAS_COND.get(COMPLEMENT[p.cond], COMPLEMENT[p.cond])
                    work.append((j, r, conds | {p.cond}, entry | {c}))
        return vals, why, wrappers

    def _facts_before(self, j, i, facts):
        """The condition codes known to hold on the flags on entry to insn
        j, a predecessor of i, given facts on entry to i: facts carry over
        j when it leaves the flags alone; a conditional branch j adds its
        condition when i is its target and not the next instruction, the
        opposite when i is only the next one; a conditional instruction
        that writes pc and falls through to i did not run. None when the
        facts contradict each other."""
        p = self.insns[j]
        out = set() if sets_flags(p) else set(facts)
        if p.cond is not None:
            c = ALIAS_COND.get(p.cond, p.cond)
            t = target_of(p) if p.base == "b" else None
            ti = self.by_addr[t].index if t is not None and t in self.by_addr else None
            if p.base == "b" and ti == i and j + 1 != i:
                out.add(c)
            elif j + 1 == i and ((p.base == "b" and ti is not None and ti != i) or
                                 (p.base != "b" and writes(p, "r15"))):
                out.add(ALIAS_COND.get(COMPLEMENT[p.cond], COMPLEMENT[p.cond]))
        if any(ALIAS_COND.get(COMPLEMENT[c], COMPLEMENT[c]) in out for c in out):
            return None
        return frozenset(out)

    # ---- numbers that pass through memory ----
    def _from_memory(self, j, p, r, depth, seen_wrappers):
        """r loaded by p (ldm rB, {..} / ldr r, [rB, #k]) from an object
        whose address is an argument of p's function: the word at that
        offset of each object passed in. The object must be in the caller's
        stack (a struct filled before the call); the callers are the direct
        calls, or, for a function whose address is only passed to another
        function X that calls it with its other argument (musl's
        __synccall(do_setxid, &ctx)), the calls of X. None when the load is
        not of that form (the site stays unresolved)."""
        ops = p.ops.split("@")[0].strip()
        m = re.match(r"(\w+), \{", ops)
        if p.base in ("ldm", "ldmia", "ldmfd") and m:
            base, regs = reg(m.group(1)), reglist(ops)
            k = 4 * regs.index(r) if r in regs else None
        else:
            m = re.match(r"(\w+), \[(\w+)(?:, #(\d+))?\]$", ops)
            if p.base != "ldr" or not m:
                return None
            base, k = reg(m.group(2)), int(m.group(3) or 0)
        if k is None or base in ("r13", "r15") or depth > 4:
            return None
        arg = self.arg_origin(j, base)
        entry = self.func_entry(p)
        if arg is None or entry is None:
            return None
        sources = [(c, arg, "called") for c in self.call_sites(entry)]
        if not sources:
            sources = self.callback_sources(entry, arg)
        if not sources:
            return None
        vals, why, wrappers = {}, [], set()
        for c, preg, how in sources:
            off = self.stack_address(c, preg)
            if off is None:
                why.append("%s loaded at %#x in %s from *%s, and the object passed at %#x "
                           "is not in the caller's stack" % (r, p.addr, p.func, base,
                                                           self.insns[c].addr))
                continue
            sub = self.values(c, "sp+%d" % (off + k), depth + 1, seen_wrappers)
            for v, origin in sub[0].items():
                vals.setdefault(v, set()).update(origin)
            why += sub[1]
            wrappers |= sub[2]
            self.memory_notes.append(
                "%s loaded at %#x = word %d of the object in %s's stack at the call at "
                "%#x (%s): %s" % (r, p.addr, k // 4, self.insns[c].func, self.insns[c].addr,
                                  how, " ".join(str(v) for v in sorted(sub[0])) or "?"))
        return vals, why, wrappers

    def arg_origin(self, i, r):
        """The argument register (r0-r3 at its function's entry) whose value
        r holds on entry to insn i, through register moves only; None when
        the paths disagree or anything else writes it."""
        out = self.arg_origins(i, r)
        return next(iter(out)) if out and len(out) == 1 and None not in out else None

    def arg_origins(self, i, r):
        """The set of what r may hold on entry to insn i: argument registers
        (r0-r3 at the function's entry, through register moves), and None
        for anything else."""
        seen, work, out = set(), [(i, r)], set()
        while work:
            i, r = work.pop()
            if (i, r) in seen:
                continue
            seen.add((i, r))
            if len(seen) > 4000:
                return {None}
            preds = self.preds.get(i, [])
            if not preds:
                ins = self.insns[i]
                ok = r in ("r0", "r1", "r2", "r3") and ins.addr == self.func_entry(ins)
                out.add(r if ok else None)
                continue
            for j in preds:
                q = self.insns[j]
                if not writes(q, r) or (q.cond is not None and writes(q, "r15")):
                    work.append((j, r))
                    continue
                res = self._value_of(q, r) if q.cond is None else None
                if not (isinstance(res, tuple) and res[1] is None and
                        not res[0].startswith("sp+")):
                    out.add(None)
                    if q.cond is not None:
                        work.append((j, r))
                    continue
                work.append((j, res[0]))
        return out

    def stack_address(self, c, r):
        """The offset from sp (at insn c) that r holds at c when it was set
        by mov r, sp / add r, sp, #k on the one straight path before c; None
        otherwise."""
        i = c
        for _ in range(64):
            preds = self.preds.get(i, [])
            if len(preds) != 1:
                return None
            j = preds[0]
            q = self.insns[j]
            if writes(q, r):
                ops = q.ops.split("@")[0].strip()
                if q.cond is not None:
                    return None
                if q.base in ("mov", "movs") and re.fullmatch(r"\w+, sp", ops):
                    return 0
                m = re.fullmatch(r"\w+, sp, #(\d+)", ops)
                if q.base == "add" and m:
                    return int(m.group(1))
                res = self._value_of(q, r)
                if isinstance(res, tuple) and res[1] is None and not res[0].startswith("sp+"):
                    r = res[0]
                else:
                    return None
            elif writes(q, "r13"):
                return None
            i = j
        return None

    def callback_sources(self, entry, arg):
        """For a function with no direct caller: [(call, register, how)]
        when its address is formed only in code, each time passed as an
        argument a to a direct call of a function X that calls its argument
        a (blx) with X's argument b in `arg`; the object is then what the
        call passes as b. None when any of this does not hold."""
        reach = getattr(self, "reach", None)
        if reach is None:  # --all-sites: the same tables, no walk
            if not self.symbols or self.elf.symtab is None:
                return None
            if getattr(self, "_tables", None) is None:
                self._tables = Reach(self, walk=False)
            reach = self._tables
        want = {entry, entry | 1}
        for sec in reach.data:
            for _, w in self.elf.words(sec["addr"], sec["addr"] + sec["size"]):
                if w in want:
                    return None  # a pointer in data: who calls it is not known
        out = []
        for g in sorted(self.live or self.func_addrs):
            idx = reach._indices(g)
            if not reach._constants(idx) & want:
                continue
            found = False
            for c in idx:
                ins = self.insns[c]
                if ins.base not in ("bl", "blx") or target_of(ins) is None:
                    continue
                for a in ("r0", "r1", "r2", "r3"):
                    if not set(self.values(c, a)[0]) & want:
                        continue
                    b = self.calls_arg_with(target_of(ins) & ~1, a, arg)
                    if b is None:
                        return None
                    out.append((c, b, "%s passed to %s with the object" % (
                        self.funcs.get(entry, "?"), self.funcs.get(target_of(ins) & ~1, "?"))))
                    found = True
            if not found:
                return None
        return out or None

    def calls_arg_with(self, x, a, r, seen=None):
        """The argument register b of function x such that wherever x may
        call its argument a through a register (blx), it passes its argument
        b in r (on every path); None otherwise. Follows veneers and tail
        calls to x's body."""
        seen = seen or set()
        ins = self.by_addr.get(x)
        if ins is None or x in seen:
            return None
        seen.add(x)
        k = ins.index
        if ins.base == "bx" and first_reg(ins) == "r15":
            nx = self.by_addr.get(((ins.addr + 4) & ~3) if ins.thumb else ins.addr + 8)
            k = nx.index if nx else k
        if self.insns[k].base == "b" and target_of(self.insns[k]) is not None:
            return self.calls_arg_with(target_of(self.insns[k]) & ~1, a, r, seen)
        end = self.func_entry(ins)
        found = set()
        for i in range(k, len(self.insns)):
            q = self.insns[i]
            if self.func_entry(q) != end:
                break
            if q.base == "blx" and first_reg(q) and not q.data:
                if a in self.arg_origins(i, first_reg(q)):
                    b = self.arg_origin(i, r)
                    if b is None:
                        return None
                    found.add(b)
        return found.pop() if len(found) == 1 else None

    def after_bx_pc(self, i):
        """True for the halfword after a Thumb `bx pc` at a word-aligned
        address (an interworking veneer, `bx pc; b.n .-4; b target`): bx pc
        goes on at the next word, in ARM state, so it never runs."""
        if i == 0 or (self.symbols and self.insns[i].addr in self.funcs):
            return False
        p = self.insns[i - 1]
        return p.thumb and p.base == "bx" and first_reg(p) == "r15" and p.cond is None \
            and p.addr % 4 == 0 and self.insns[i].addr == p.addr + 2

    def _at_entry(self, i, r, depth, seen_wrappers, vals, why, wrappers):
        ins = self.insns[i]
        if r not in ("r0", "r1", "r2", "r3"):
            why.append("%s comes from the caller of %s (%#x)" % (r, ins.func, ins.addr))
            return
        calls = self.callers.get(ins.addr, [])
        if not calls:
            why.append("%s is an argument of %s (%#x), which has no direct caller" % (
                r, ins.func, ins.addr))
            return
        calls = [c for c in calls if self.alive(c)]
        if not calls:
            why.append("%s is an argument of %s (%#x), whose direct callers are all "
                       "unreachable" % (r, ins.func, ins.addr))
            return
        if self.symbols and ins.addr in self.funcs and ins.addr in self.address_taken():
            why.append("%s is an argument of %s (%#x), whose address is taken: its indirect "
                       "callers are not known" % (r, ins.func, ins.addr))
        if (ins.addr, r) in seen_wrappers or depth > 6:
            return
        wrappers.add((ins.addr, ins.func, r))
        for c in calls:
            sub = self.values(c, r, depth + 1, seen_wrappers | {(ins.addr, r)})
            for v, origin in sub[0].items():
                vals.setdefault(v, set()).update(origin)
            why += sub[1]
            wrappers |= sub[2]

    def _value_of(self, p, r):
        """The value p writes to r: an int, None (unknown), or a tuple
        (register to follow, combine function or None)."""
        b, ops = p.base, p.ops
        regs = [reg(x) for x in REG_RE.findall(ops.split("@")[0])]
        k = imm(ops)
        if b in ("mov", "movs") and len(regs) == 1 and k is not None:
            return k & 0xFFFFFFFF
        if b in ("mvn", "mvns") and len(regs) == 1 and k is not None:
            return ~k & 0xFFFFFFFF
        if b == "movw" and k is not None:
            return k & 0xFFFF
        if b == "movt" and k is not None:
            return (r, lambda v, k=k: (v & 0xFFFF) | (k << 16))
        if b in ("mov", "movs", "cpy") and len(regs) == 2 and k is None:
            return (regs[1], None)
        m = re.match(r"\w+, \[sp(?:, #(\d+))?\]$", ops)
        if b == "ldr" and m:  # a stack slot: followed back to its store
            return ("sp+%d" % int(m.group(1) or 0), None)
        if b.startswith("ldr") and b in ("ldr",) and "[pc" in ops.replace("r15", "pc"):
            m = re.search(r"\(?(?:0x)?([0-9a-f]+)\b", p.comment)
            if m:
                w = self.elf.word(int(m.group(1), 16))
                return w
            return None
        if b == "add" and k is None and "r15" in regs[1:] and len(regs) in (2, 3):
            # add rd, pc, rm / add rd, pc (Thumb): a pc-relative address
            pcv = p.addr + (4 if p.thumb else 8)
            rest = [x for x in regs[1:] if x != "r15"] if len(regs) == 3 else [regs[0]]
            if len(rest) == 1:
                return (rest[0], lambda v, pcv=pcv: (v + pcv) & 0xFFFFFFFF)
        ops_fn = {"add": lambda a, c: a + c, "adds": lambda a, c: a + c,
                  "sub": lambda a, c: a - c, "subs": lambda a, c: a - c,
                  "orr": lambda a, c: a | c, "orrs": lambda a, c: a | c,
                  "eor": lambda a, c: a ^ c, "eors": lambda a, c: a ^ c,
                  "lsl": lambda a, c: a << c, "lsls": lambda a, c: a << c}
        if b in ops_fn and k is not None and regs and regs[-1] != "r15":
            src = regs[1] if len(regs) >= 2 else regs[0]
            fn = ops_fn[b]
            return (src, lambda v, k=k, fn=fn: fn(v, k) & 0xFFFFFFFF)
        return None

    # ---- svc sites ----
    def sites(self):
        """The svc sites that count (all, or those in reachable functions),
        and the unreachable ones left out: (sites, [{addr, func}])."""
        out, dropped = [], []
        for ins in self.insns:
            if ins.base not in ("svc", "swi") or ins.data:
                continue
            if not self.alive(ins.index):
                dropped.append({"addr": ins.addr, "func": ins.func,
                                "dead": ins.index in self.dead})
                continue
            n = imm("#" + ins.ops.split()[0]) if ins.ops else 0
            site = {"addr": ins.addr, "func": ins.func,
                    "mode": "thumb" if ins.thumb else "arm"}
            if n:
                # OABI numbers are 0x900000 + nr; other immediates in a
                # binary without mapping symbols are literal words read as code.
                site["oabi" if 0x900000 <= n <= 0x9FFFFF else "svc_imm"] = n
                out.append(site)
                continue
            n0 = len(self.memory_notes)
            vals, why, wrappers = self.values(ins.index, "r7")
            site["numbers"] = sorted(vals)
            if len(self.memory_notes) > n0:
                site["through_memory"] = sorted(set(self.memory_notes[n0:]))
            self.site_numbers[ins.addr] = set(vals)
            for n, orig in vals.items():
                self.origin_insns.setdefault(n, set()).update(orig)
            site["origins"] = {n: sorted({self.func_entry(self.insns[o]) for o in orig})
                               for n, orig in vals.items()}
            site["unresolved"] = sorted(set(why))
            site["wrappers"] = sorted("%s@%#x(%s)" % (f, a, r) for a, f, r in wrappers)
            site["wrapper_args"] = sorted([a, r] for a, f, r in wrappers)
            out.append(site)
        return out, dropped

    # ---- the ENOSYS check after a splice-family call ----
    def func_entry(self, ins):
        if not self.symbols:  # the first instruction nothing falls into
            k = ins.index
            while k > 0 and ins.index - k < 4000 and k in self.preds and \
                    (k - 1) in self.preds[k]:
                k -= 1
            return self.insns[k].addr
        k = bisect.bisect_right(self.func_addrs, ins.addr)
        return self.func_addrs[k - 1] if k else None

    def call_sites(self, entry, seen=None):
        """Direct calls of the function at entry, through veneers/tail calls."""
        seen = seen or set()
        out = []
        for c in filter(self.alive, self.callers.get(entry, [])):
            ins = self.insns[c]
            if ins.base == "b":  # veneer or tail call: its callers call us
                e = self.func_entry(ins)
                if e is not None and e not in seen:
                    out += self.call_sites(e, seen | {e})
            else:
                out.append(c)
        return out

    def numbered_calls(self, site, wanted):
        """The calls of the function holding the svc site that make one of
        the wanted numbers: [(insn index, numbers)]. For a wrapper (the
        number is an argument) the number is resolved at each call, and
        through wrappers of wrappers."""
        args = {a: r for a, r in site.get("wrapper_args", [])}
        entry = self.func_entry(self.by_addr[site["addr"]])
        out, todo, seen = [], [(entry, None)], set()
        while todo:
            e, r = todo.pop()
            if e is None or (e, r) in seen or len(seen) > 16:
                continue
            seen.add((e, r))
            r = r or args.get(e)
            for c in self.call_sites(e):
                if r is None:  # not a wrapper: every call makes the site's numbers
                    out.append((c, wanted))
                    continue
                vals, _, inner = self.values(c, r)
                if set(vals) & wanted:
                    out.append((c, set(vals) & wanted))
                for a, _, r2 in inner:  # the caller passes on its own argument
                    todo.append((a, r2))
        return out

# ---- reachability from the entry point ----
SHF_ALLOC, SHF_EXECINSTR = 0x2, 0x4
STT_OBJECT = 1
PC_OPERAND = re.compile(r"(?:^|,\s*)(?:pc|r15)(?:,|$)")


class Reach:
    """Which functions (objdump's labelled regions) can run, from e_entry.

    Edges: direct calls and branches to another function (bl, blx #imm, b,
    tail calls, veneers), fall-through into the next function, and, for
    indirect calls, address-taken functions: a function whose address (with
    or without the Thumb bit) is a constant of reachable code (literal-pool
    word, pc-relative or GOT-relative sum, movw/movt, adr) or a word of a
    reachable data object (a sized OBJECT symbol that reachable code or data
    points into). Roots: the entry, and every word of the data sections that
    no sized object covers (.init_array, .fini_array, .preinit_array, the
    GOT, anonymous data): who reads those cannot be told, so they count.
    Nodes are function entries (int) or data objects (start, end, name)."""

    def __init__(self, prog, walk=True):
        """walk False: only the tables (sections, objects, the GOT) that
        _constants() and _indices() need, no reachability."""
        self.prog, self.elf = prog, prog.elf
        secs = [s for s in self.elf.sections if s["flags"] & SHF_ALLOC and s["addr"]]
        self.code = [s for s in secs if s["flags"] & SHF_EXECINSTR]
        self.data = [s for s in secs if not s["flags"] & SHF_EXECINSTR]
        self.objects = sorted((v, v + size, n) for n, v, size, t in self.elf.symtab
                              if t == STT_OBJECT and size and self._section(v, self.data))
        self.starts = set(prog.func_addrs)
        got = [v for n, v, _, _ in self.elf.symtab if n == "_GLOBAL_OFFSET_TABLE_"]
        self.got = got[0] if got else None
        self.addrs = [i.addr for i in prog.insns]
        if not walk:
            return
        entry = self.function_of(self.elf.entry & ~1)
        if entry is None:
            die("%s: entry point %#x is not in code" % (prog.path, self.elf.entry))
        self.parent, self.hops = {}, {}
        self._walk([(entry, None, "entry point", 0)] + self._roots() + self._uncovered())
        self.live = {n for n in self.parent if isinstance(n, int)}
        self.direct = {n for n in self.live if self.hops[n] == 0}

    @staticmethod
    def _section(addr, secs):
        for s in secs:
            if s["addr"] <= addr < s["addr"] + s["size"]:
                return s
        return None

    def function_of(self, addr):
        """Entry of the function (labelled region) holding addr in code, or None."""
        if self._section(addr, self.code) is None:
            return None
        k = bisect.bisect_right(self.prog.func_addrs, addr)
        return self.prog.func_addrs[k - 1] if k else None

    def object_of(self, addr):
        k = bisect.bisect_right(self.objects, (addr, 0xFFFFFFFF))
        if k and self.objects[k - 1][0] <= addr < self.objects[k - 1][1]:
            return self.objects[k - 1]
        return None

    def _walk(self, seeds):
        """0-1 breadth-first search: hops[node] is the fewest indirect calls
        (through an address-taken function) on a path to node; seeds are
        (node, parent, how, hops)."""
        queue = collections.deque()
        for node, parent, how, hops in seeds:
            if hops < self.hops.get(node, hops + 1):
                self.parent[node], self.hops[node] = (parent, how), hops
                queue.append(node)
        done = set()
        while queue:
            node = queue.popleft()
            if node in done:
                continue
            done.add(node)
            for nxt, how, w in self._edges(node):
                hops = self.hops[node] + w
                if hops < self.hops.get(nxt, hops + 1):
                    self.parent[nxt], self.hops[nxt] = (node, how), hops
                    if w:
                        queue.append(nxt)
                    else:
                        queue.appendleft(nxt)

    def _edges(self, node):
        """[(next node, how, 1 when it is an indirect call else 0)]."""
        if not isinstance(node, int):  # a data object: the words it holds
            return self._pointees(self.elf.words(node[0], node[1]), "a word of " + node[2])
        idx = self._indices(node)
        return [(f, how, 0) for f, how in self._direct(idx, node)] + self._pointees(
            ((None, v) for v in self._constants(idx)),
            "address taken in " + self.prog.funcs[node])

    def _indices(self, entry):
        """Insn indices of the function at entry (up to the next label)."""
        fa = self.prog.func_addrs
        k = bisect.bisect_right(fa, entry)
        end = fa[k] if k < len(fa) else 1 << 32
        return range(bisect.bisect_left(self.addrs, entry), bisect.bisect_left(self.addrs, end))

    def _direct(self, idx, node):
        out = []
        insns = self.prog.insns
        for i in idx:
            ins = insns[i]
            if i in self.prog.dead:
                continue
            t = None if ins.data else target_of(ins)
            f = None if t is None else self.function_of(t & ~1)
            if f is not None and f != node:
                out.append((f, "called" if ins.base in ("bl", "blx") else "branched to"))
        if idx and not ends_flow(insns[idx[-1]]) and idx[-1] + 1 < len(insns) and \
                idx[-1] not in self.prog.dead:
            f = self.function_of(insns[idx[-1] + 1].addr)
            if f is not None and f != node:
                out.append((f, "fallen into"))
        return out

    def _constants(self, idx):
        """Every address the code at idx may form: literal words, literal +
        pc (PIC), literal + GOT (GOT-relative), movw/movt pairs, adr."""
        lits, pcs, out, movw, movt, loaded = [], [], set(), {}, {}, {}
        for i in idx:
            ins = self.prog.insns[i]
            pc = ins.addr + (4 if ins.thumb else 8)
            if i in self.prog.dead:
                continue
            if ins.mnem == ".word":
                lits += [int(w, 16) for w in re.findall(r"0x([0-9a-f]+)", ins.ops)]
            elif ins.data:
                continue
            elif ins.base.startswith("ldr") and re.search(r"\[(?:pc|r15), #-?\d+\]", ins.ops):
                m = re.search(r"\(?(?:0x)?([0-9a-f]+)\b", ins.comment)
                w = self.elf.word(int(m.group(1), 16)) if m else None
                lits += [] if w is None else [w]
                loaded.setdefault(first_reg(ins), set()).add(w)
            elif ins.base == "adr" or (ins.base in ("add", "sub") and
                                       re.match(r"\w+, (?:pc|r15), #", ins.ops)):
                k = imm(ins.ops) or 0
                base = (pc & ~3) if ins.thumb else pc
                out.add(base - k if ins.base == "sub" else base + k)
            elif ins.base == "movw":
                movw.setdefault(first_reg(ins), []).append(imm(ins.ops) or 0)
            elif ins.base == "movt":
                movt.setdefault(first_reg(ins), []).append(imm(ins.ops) or 0)
            elif PC_OPERAND.search(ins.ops.split("@")[0]):
                # add rN, pc / add rN, pc, rM / ldr rN, [pc, rM]: a literal
                # loaded into rM (any one: no flow order assumed) + pc
                regs = [reg(x) for x in REG_RE.findall(ins.ops.split("@")[0])]
                pcs += [(pc, r) for r in regs if r != "r15"]
        for p, r in pcs:
            out.update((w + p) & 0xFFFFFFFF for w in loaded.get(r, ()) if w is not None)
        for w in lits:
            out.add(w)
            if self.got is not None:
                out.add((w + self.got) & 0xFFFFFFFF)
        for r, his in movt.items():
            out.update((h << 16) | lo for h in his for lo in movw.get(r, [0]))
        return out

    def _pointees(self, words, how):
        """Edges to the functions (an indirect call: 1) and data objects (0)
        the words point at."""
        out = []
        for _, v in words:
            if (v & ~1) in self.starts and self.function_of(v & ~1) == v & ~1:
                out.append((v & ~1, how, 1))
                continue
            obj = self.object_of(v)
            if obj is not None:
                out.append((obj, how, 0))
        return out

    def _uncovered(self):
        """Seeds from code no function symbol covers (accounted.boundaries():
        prog.uncovered): what calls it, or where its entries are, is not
        known, so every labelled region holding some of it counts."""
        out, fa = [], self.prog.func_addrs
        for a, b in getattr(self.prog, "uncovered", ()):
            k = max(bisect.bisect_right(fa, a) - 1, 0)
            while k < len(fa) and fa[k] <= b:
                out.append((fa[k], None, "code no function symbol covers (%#x-%#x)" % (a, b), 1))
                k += 1
        return out

    def _roots(self):
        """Seeds from the words no sized object covers, in every data section:
        [(node, None, how, hops)]."""
        out = []
        for s in self.data:
            start, end = s["addr"], s["addr"] + s["size"]
            covered = [(a, b) for a, b, _ in self.objects if a < end and b > start]
            for a, w in self.elf.words(start, end):
                if not any(x <= a < y for x, y in covered):
                    out += [(n, None, how, w) for n, how, w in self._pointees(
                        [(a, w)], "a word at %#x in %s" % (a, s["name"]))]
        return out

    def name(self, node):
        return self.prog.funcs[node] if isinstance(node, int) else node[2]

    def path(self, node):
        """[(name, how)] from a root to node."""
        out = []
        while node is not None:
            parent, how = self.parent[node]
            out.append((self.name(node), how))
            node = parent
        return out[::-1]


def syscall_names(ktree):
    tbl = os.path.join(ktree, "arch/arm/tools/syscall.tbl")
    names = dict(ARM_PRIVATE)
    try:
        with open(tbl) as f:
            for line in f:
                f_ = line.split()
                if len(f_) >= 3 and not line.startswith("#") and f_[1] in ("common", "eabi"):
                    names[int(f_[0])] = f_[2]
    except OSError as e:
        die("cannot read %s: %s" % (tbl, e))
    return names


def reachability(prog, all_sites, bounds=(True, "")):
    """Turn reachability on in prog where it can be told soundly: (Reach or
    None, a sentence saying which svc sites count and why). bounds:
    accounted.boundaries()'s (established, why)."""
    if all_sites:
        return None, "all sites: every svc site counts (--all-sites)"
    if prog.elf.symtab is None or not prog.symbols:
        return None, ("all sites: stripped (no symbol table), so reachability "
                      "cannot be told soundly; every svc site counts")
    reach = Reach(prog)
    prog.live = reach.live
    prog.reach = reach
    return reach, ("reachable: svc sites in functions reachable from the entry "
                   "point %#x (direct calls and branches; for indirect calls, "
                   "every function whose address reachable code or data holds)%s"
                   % (prog.elf.entry, "" if bounds[0] else
                      "; function boundaries not established (%s): the functions holding "
                      "that code count as reachable" % bounds[1]))


def syscall_paths(reach, prog, sites):
    """For each number: how it is reached, 'direct' (calls and branches from
    the entry alone) or 'indirect' (only through an address-taken function
    or a data root; indirect_hops: the fewest indirect calls on the way), and
    one example path [{func, via}] to the svc."""
    best = {}
    for s in sites:
        entry = prog.func_entry(prog.by_addr[s["addr"]])
        for n, origins in s.get("origins", {}).items():
            for g in origins:
                if g not in reach.parent:  # a constant in code outside labels
                    g = entry
                rank = max(reach.hops[g], reach.hops[entry])
                path = reach.path(g)
                if g != entry:
                    path.append((s["func"], "svc, number passed by " + reach.name(g)))
                key = (rank, len(path))
                if n not in best or key < best[n][0]:
                    best[n] = (key, path)
    return {n: {"reached": "direct" if key[0] == 0 else "indirect",
                "indirect_hops": key[0], "path": [{"func": f, "via": how} for f, how in path]}
            for n, (key, path) in best.items()}


def splice_checks(prog, sites, names):
    """Per call of a splice-family syscall's function: does the program fall
    back on ENOSYS? (scripts/audit/audit_flow.py: the result is followed forward,
    the svc answering -ENOSYS.)"""
    splice_nrs = {n for n, name in names.items() if name in SPLICE_FAMILY}
    flow = audit_flow.Flow(prog, names, writes, ends_flow)
    splice = []
    for s in sites:
        hit = sorted(set(s.get("numbers", [])) & splice_nrs)
        if not hit:
            continue
        checks = []
        for c, nrs in prog.numbered_calls(s, set(hit)):
            init = {}
            for r in ("r0", "r1", "r2", "r3"):
                vals = prog.values(c, r)[0]
                if len(vals) == 1:
                    init[r] = audit_flow.K(next(iter(vals)))
            v = flow.enosys(c, init, SPLICE_FAMILY)
            ok = v["verdict"] == "fallback"
            checks.append({"call": prog.insns[c].addr, "caller": prog.insns[c].func,
                           "syscalls": [names[n] for n in sorted(nrs)],
                           "verdict": v["verdict"], "why": v["why"],
                           "compares": v["compares"], "walk_steps": v["steps"],
                           "enosys_check": v["compares"][0]["at"] if ok else None})
        splice.append({"addr": s["addr"], "func": s["func"],
                       "syscalls": [names[n] for n in hit], "calls": checks})
    return splice


def present_fn(kmap, ktree, names):
    """present(nr): the syscall is on in the target config (KMAP) and its
    kernel definition never answers ENOSYS (audit_flow.kernel_may_enosys)."""
    cache = {}

    def present(nr):
        if nr not in cache:
            rec = kmap["syscalls"].get(names.get(nr, ""), {})
            cache[nr] = bool(rec.get("enabled") is True and not audit_flow.kernel_may_enosys(
                ktree, names.get(nr), rec.get("entry")))
        return cache[nr]
    return present


def prune(prog, names, kmap, ktree, all_sites, sites, bounds):
    """With the target's KMAP: the instructions that cannot run there (dead
    ENOSYS fallbacks, code after exit_group), then reachability and the
    sites again without them. Returns (reach, mode, sites, dropped, record)."""
    p = audit_flow.Prune(prog, names, present_fn(kmap, ktree, names), ends_flow, writes)
    before = sorted({n for s in sites for n in s.get("numbers", [])})
    prog.dead = p.run(sites)
    prog.live, prog.reach = None, None
    prog.memory_notes = []
    reach, mode = reachability(prog, all_sites, bounds)
    sites, dropped = prog.sites()
    after = {n for s in sites for n in s.get("numbers", [])}
    why = {}
    for i in sorted(p.why):
        why.setdefault(prog.insns[i].func, set()).update(p.why[i])
    dead_sites = [d for d in dropped if d.get("dead")]
    record = {"pruned": [names.get(n, str(n)) for n in before if n not in after],
              "dead_instructions": len(prog.dead),
              "dead_svc_sites": ["%#x in %s" % (d["addr"], d["func"]) for d in dead_sites],
              "why": {f: sorted(w) for f, w in sorted(why.items())},
              "unpruned": [names.get(n, str(n)) for n in before]}
    return reach, mode, sites, dropped, record


def gated_uses(prog, sites, names, rows):
    """The svc sites of a syscall whose argument gates an option (KMAP's
    arg_gates, scripts/audit/gates.py), with that argument resolved as the
    number is: the values r0 (r1...) may hold at the svc, searched backwards
    through the function and, from an argument register at its entry, at
    every direct call of it (a libc wrapper's caller). [{"syscall", "at",
    "args": {"0": [values] or None}}]: the constants found, with a None
    among them when some path did not end on a constant (musl's socket()
    gets AF_UNIX from openlog and a variable from the program), or None
    when no path did. None without KMAP (no gate table):
    every argument then counts as unknown (audit/needs.py)."""
    if rows is None:
        return None
    wanted = {}
    for row in rows:
        for name in row["syscalls"]:
            wanted.setdefault(name, set()).add(row["arg"])
    out = []
    for s in sites:
        hit = sorted({names.get(n) for n in s.get("numbers", [])} & set(wanted))
        if not hit:
            continue
        i = prog.by_addr[s["addr"]].index
        args = {}
        for k in sorted(set().union(*(wanted[n] for n in hit))):
            vals, why, _ = prog.values(i, "r%d" % k)
            args[str(k)] = None if not vals else sorted(vals) + ([None] if why else [])
        s["args"] = args
        for name in hit:
            out.append({"syscall": name, "at": "%#x in %s" % (s["addr"], s["func"]),
                        "args": args})
    return out


def audit(path, ktree, all_sites=False, kmap=None):
    prog = Program(path)
    names = syscall_names(ktree)
    heads = accounted.Headers(path)
    bounds = accounted.boundaries(heads, prog.insns)
    prog.uncovered = bounds[2]
    reach, mode = reachability(prog, all_sites, bounds)
    sites, dropped = prog.sites()
    pruned = None
    if kmap is not None and prog.symbols and prog.elf.symtab is not None:
        reach, mode, sites, dropped, pruned = prune(prog, names, kmap, ktree, all_sites, sites,
                                                    bounds)
    counted = {n: a for a, _, _, n in heads.symbols if reach is None or a in reach.live}
    unaccounted = (accounted.dynamic(heads) + accounted.disassembled(heads, prog.insns) +
                   accounted.loaders(heads, path, counted))
    nums = sorted({n for s in sites for n in s.get("numbers", [])})
    how = syscall_paths(reach, prog, sites) if reach else {}
    syscalls = []
    for n in nums:
        sc = {"nr": n, "name": names.get(n, "unknown_%d" % n)}
        sc.update(how.get(n, {"reached": "unfiltered", "indirect_hops": None, "path": []}))
        syscalls.append(sc)
    splice = splice_checks(prog, sites, names)
    if not bounds[0]:
        for c in (c for s in splice for c in s["calls"] if c["verdict"] == "fallback"):
            c.update(verdict="no fallback proven", enosys_check=None,
                     why="function boundaries not established (%s): what the ENOSYS "
                     "branch reaches is not known (the walk found: %s)" % (bounds[1], c["why"]))
    uses = gated_uses(prog, sites, names, (kmap or {}).get("arg_gates"))
    for s in sites:
        s.pop("origins", None)
    return {
        "elf": path, "symbols": prog.symbols,
        "svc_sites": len(sites),
        "sites": sites,
        "resolved_sites": sum(1 for s in sites if s.get("numbers") and not s.get("unresolved")),
        "syscalls": syscalls,
        "unresolved": [s for s in sites if s.get("unresolved")],
        "oabi": [s for s in sites if "oabi" in s],
        "svc_imm": [s for s in sites if "svc_imm" in s],
        "wrappers": sorted({w for s in sites for w in s.get("wrappers", [])}),
        "splice_family": splice,
        "uses": uses,
        "pruning": pruned,
        "pruning_off": None if kmap is None or pruned is not None else
        "no symbol table: no function boundaries, nothing pruned",
        "unaccounted": unaccounted,
        "boundaries": {"established": bounds[0], "why": bounds[1],
                       "uncovered": [[a, b] for a, b in bounds[2]]},
        "reachability": {
            "mode": "reachable" if reach else "all-sites", "why": mode,
            "svc_sites_all": len(sites) + len(dropped),
            "unreachable_sites": dropped,
            "functions": len(prog.func_addrs),
            "reachable_functions": len(reach.live) if reach else None,
            "direct_functions": len(reach.direct) if reach else None},
    }


def text_report(r):
    print("%s: %d svc sites, %d fully resolved, %d syscalls%s" % (
        r["elf"], r["svc_sites"], r["resolved_sites"], len(r["syscalls"]),
        "" if r["symbols"] else " (stripped: no symbols, read as ARM code)"))
    print("  syscalls: " + " ".join(s["name"] for s in r["syscalls"]))
    for u in r["unaccounted"]:
        print("  NOT ACCOUNTED FOR (%s): %s" % (u["kind"], u["why"]))
    if r["unaccounted"]:
        print("  so this set is not all the program can call: make audit fails closed")
    reach_report(r)
    if r.get("pruning_off"):
        print("  pruning off: " + r["pruning_off"])
    pr = r.get("pruning")
    if pr:
        print("  pruned for the target kernel (--kmap): %d syscalls of %d: %s; %d dead "
              "instructions, dead svc sites: %s" % (
                  len(pr["pruned"]), len(pr["unpruned"]), " ".join(pr["pruned"]) or "none",
                  pr["dead_instructions"], ", ".join(pr["dead_svc_sites"]) or "none"))
        for f, w in pr["why"].items():
            print("    dead in %s: %s" % (f, "; ".join(w)))
    if r["wrappers"]:
        print("  syscall wrappers (number resolved at their call sites): " +
              ", ".join(r["wrappers"]))
    for s in r["sites"]:
        for note in s.get("through_memory", []):
            print("  svc at %#x in %s: number through memory: %s" % (s["addr"], s["func"], note))
    for s in r["unresolved"]:
        print("  UNRESOLVED svc at %#x in %s: %s" % (s["addr"], s["func"],
                                                    "; ".join(s["unresolved"][:3])))
    for s in r["oabi"]:
        print("  OABI svc #%#x at %#x in %s" % (s["oabi"], s["addr"], s["func"]))
    if r["svc_imm"]:
        print("  %d svc #imm outside the OABI range (literal words read as code "
              "in a binary without mapping symbols): %s" % (
                  len(r["svc_imm"]), " ".join("%#x" % s["addr"] for s in r["svc_imm"])))
    for s in r["splice_family"]:
        for c in s["calls"] or [{"call": None}]:
            if c["call"] is None:
                print("  splice family: %s at %#x: no direct caller found: no fallback proven" % (
                    "/".join(s["syscalls"]), s["addr"]))
                continue
            print("  splice family: %s via %s, called at %#x in %s: %s (%s)" % (
                "/".join(c["syscalls"]), s["func"], c["call"], c["caller"],
                c["verdict"].upper(), c["why"]))
            for k in c["compares"]:
                print("    compare %s at %s (%s); branch: %s; ENOSYS path at %s "
                      "reaches: %s" % (k["insn"], k["at"], audit_flow.tested(k), k["branch"],
                                       k["enosys_path"], " ".join(k["leads_to"]) or "none"))


def reach_report(r):
    """Which sites count, and per syscall how it is reached (one path)."""
    x = r["reachability"]
    print("  %s" % x["why"])
    if x["mode"] != "reachable":
        return
    print("  functions: %d, reachable %d (%d by direct calls from the entry); svc "
          "sites: %d, %d in unreachable functions not counted" % (
              x["functions"], x["reachable_functions"], x["direct_functions"],
              x["svc_sites_all"], len(x["unreachable_sites"])))
    dead = x["unreachable_sites"]
    if dead:
        print("  not counted: " + ", ".join("%#x in %s" % (s["addr"], s["func"])
                                            for s in dead[:10]) +
              (" and %d more" % (len(dead) - 10) if len(dead) > 10 else ""))
    print("  per syscall: direct (calls and branches from the entry) or indirect(N: "
          "N calls through address-taken functions at least), and one path:")
    for kind in ("direct", "indirect"):
        for s in sorted(r["syscalls"], key=lambda s: s["indirect_hops"]):
            if s["reached"] == kind:
                print("    %-22s %-11s %s" % (s["name"], kind + (
                    "(%d)" % s["indirect_hops"] if s["indirect_hops"] else ""), " > ".join(
                    p["func"] + ("" if p["via"] == "called" else " (%s)" % p["via"])
                    for p in s["path"])))


USAGE = ("usage: audit-syscalls.py [--ktree DIR] [--kmap KMAP.json] [--all-sites] "
         "[--json|--names] ELF...")


def main(argv):
    args = argv[1:]
    ktree = os.path.join(TOP, "build/linux-6.1")
    mode = "text"
    all_sites = False
    kmap_path = None
    files = []
    while args:
        a = args.pop(0)
        if a == "--ktree" and args:
            ktree = args.pop(0)
        elif a == "--kmap" and args:
            kmap_path = args.pop(0)
        elif a in ("--json", "--names"):
            mode = a[2:]
        elif a == "--all-sites":
            all_sites = True
        elif a.startswith("-"):
            die("unknown option %s (%s)" % (a, USAGE))
        else:
            files.append(a)
    if not files:
        die(USAGE)
    kmap = None
    if kmap_path:
        try:
            with open(kmap_path) as f:
                kmap = json.load(f)
        except (OSError, ValueError) as e:
            die("cannot read %s: %s" % (kmap_path, e))
    reports = [audit(f, ktree, all_sites, kmap) for f in files]
    if mode == "json":
        json.dump(reports if len(reports) > 1 else reports[0], sys.stdout, indent=1)
        print()
    elif mode == "names":
        for r in reports:
            for u in r["unaccounted"]:
                print("audit-syscalls: %s: not accounted for (%s): %s" % (
                    r["elf"], u["kind"], u["why"]), file=sys.stderr)
        for n in sorted({s["name"] for r in reports for s in r["syscalls"]}):
            print(n)
    else:
        for r in reports:
            text_report(r)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
