"""accounted.py: what a single-ELF audit cannot account for (issue 39).

scripts/audit/syscalls.py reads the code of one ELF. Its answer covers the
program only when that code is all the program runs, and when the audit
read all of it. This module says where that fails, from the ELF's headers
and symbols (read with Debian's python3-pyelftools):

  dynamic   PT_INTERP or DT_NEEDED: the loader and the libraries run code
            (most of the program's syscalls: libc) that is not in this ELF
            and is not audited with it.
  dlopen    code the program may load at run time, from targets the audit
            does not know: an import of dlopen/dlmopen (or glibc's
            __libc_dlopen_mode); in a static ELF with symbols, a function of
            that name (or glibc's _dl_open) among the functions that count
            (reachable, or all with --all-sites); in a static ELF without
            symbols, glibc's loader, known by the message its _dl_open
            carries ("invalid mode for dlopen()", elf/dl-open.c). musl's
            static dlopen is a stub that always fails (src/ldso/dlopen.c,
            stub_dlopen, weak alias dlopen): it loads nothing, so a dlopen at
            the address of a symbol stub_dlopen does not count.
  code      executable bytes objdump does not disassemble: an ELF without
            section headers, or bytes of an executable PT_LOAD segment that
            no section covers and that are not zero (padding) or the ELF and
            program headers; and Thumb code in an ELF without ARM mapping
            symbols ($a/$t/$d), which objdump reads as ARM: the entry point
            with the Thumb bit, or a `blx #imm` (an ARM-to-Thumb call) in the
            ARM reading.

Each of these makes the audit fail closed (scripts/audit/report.py): no
option goes into the fragment, whatever AUDIT_ACCEPT_UNRESOLVED says (that
accepts unresolved svc sites in code the audit read; these are code it did
not read).

Function boundaries (boundaries()): reachability, pruning and the ENOSYS
fallback verdict need to know where each function starts and ends; the
svc sites and their numbers do not (--all-sites counts every svc objdump
decodes, whatever function holds it). The boundaries are established when
every instruction of the executable sections lies in a function symbol
with a size (STT_FUNC, st_size > 0), or between a symbol without a size
(assembly without .size) and the next symbol. An instruction outside all of
them (not a data word, not a zero word, not a nop) is code whose function
the audit does not know: a static function whose symbol was stripped
(`strip --discard-all`, `objcopy --strip-symbol`) sits there, and its
address may be taken, which reachability would not see. syscalls.py then
counts every labelled region holding such code as reachable, leaves those
regions unpruned, and gives no "fallback" verdict. An ELF without a symbol
table has no boundaries at all: every site counts.
"""
import bisect
import re
import sys

try:
    from elftools.elf.elffile import ELFFile
except ImportError:  # a python3 that is not Debian's (pyenv) does not look there
    sys.path.append("/usr/lib/python3/dist-packages")
    try:
        from elftools.elf.elffile import ELFFile
    except ImportError:
        print("audit: python3-pyelftools is missing (apt-get install python3-pyelftools; "
              "scripts/board/deps.sh installs it)", file=sys.stderr)
        sys.exit(2)

PT_LOAD, PT_INTERP, PF_X = "PT_LOAD", "PT_INTERP", 1
SHF_ALLOC, SHF_EXECINSTR = 0x2, 0x4
LOADERS = ("dlopen", "dlmopen", "__libc_dlopen_mode")
STATIC_LOADERS = LOADERS + ("__dlopen", "__dlmopen", "_dl_open")
GLIBC_DL_OPEN_MSG = b"invalid mode for dlopen()"
MUSL_STUB = "stub_dlopen"
REG = re.compile(r"(r[0-9]|r1[0-5]|ip|sp|lr|pc|fp|sl|sb)\b")
NOPS = ("nop", "mov r0, r0", "movs r0, r0", "andeq r0, r0, r0")


class Headers:
    """What pyelftools reads of one ELF: segments, sections, the dynamic
    section's DT_NEEDED, the imports, and the symbols in code."""

    def __init__(self, path):
        with open(path, "rb") as f:
            e = ELFFile(f)
            self.entry = e.header.e_entry
            self.header_end = e.header.e_phoff + e.header.e_phnum * e.header.e_phentsize
            self.segments = [dict(type=s.header.p_type, vaddr=s.header.p_vaddr,
                                  offset=s.header.p_offset, filesz=s.header.p_filesz,
                                  flags=s.header.p_flags) for s in e.iter_segments()]
            self.interp = next((s.get_interp_name() for s in e.iter_segments()
                                if s.header.p_type == PT_INTERP), None)
            self.sections = [dict(name=s.name, addr=s.header.sh_addr, size=s.header.sh_size,
                                  flags=s.header.sh_flags, type=s.header.sh_type)
                             for s in e.iter_sections() if s.header.sh_type != "SHT_NULL"]
            self.needed, self.imports = [], set()
            dyn = e.get_section_by_name(".dynamic")
            if dyn is None:
                dyn = next((s for s in e.iter_segments() if s.header.p_type == "PT_DYNAMIC"),
                           None)
            if dyn is not None:
                self.needed = [t.needed for t in dyn.iter_tags() if t.entry.d_tag == "DT_NEEDED"]
            dynsym = e.get_section_by_name(".dynsym")
            if dynsym is not None:
                self.imports = {s.name for s in dynsym.iter_symbols()
                                if s["st_shndx"] == "SHN_UNDEF" and s.name}
            symtab = e.get_section_by_name(".symtab")
            self.has_symtab = symtab is not None
            code = {i for i, s in enumerate(e.iter_sections())
                    if s.header.sh_flags & SHF_EXECINSTR}
            self.mapping = False
            self.symbols = []  # (address, size, type, name) in code, no mapping symbols
            for s in (symtab.iter_symbols() if symtab is not None else ()):
                if s["st_shndx"] not in code:
                    continue
                if s.name[:2] in ("$a", "$t", "$d") and s.name[2:3] in ("", "."):
                    self.mapping = True
                    continue
                if s["st_info"]["type"] in ("STT_SECTION", "STT_FILE") or not s.name:
                    continue
                self.symbols.append((s["st_value"] & ~1, s["st_size"], s["st_info"]["type"],
                                     s.name))
            self.data = {}
            for s in e.iter_segments():
                if s.header.p_type == PT_LOAD and s.header.p_flags & PF_X:
                    self.data[s.header.p_vaddr] = s.data()


def dynamic(h):
    """Reasons the ELF's code is not all of the program: its loader, its
    libraries."""
    out = []
    if h.interp or h.needed:
        out.append({"kind": "dynamic", "why": "dynamically linked (%s): the loader and the "
                    "libraries run code that is not in this ELF and is not audited with "
                    "it" % "; ".join(x for x in (
                        "interpreter %s" % h.interp if h.interp else "",
                        "DT_NEEDED %s" % " ".join(h.needed) if h.needed else "") if x)})
    got = sorted(set(LOADERS) & h.imports)
    if got:
        out.append({"kind": "dlopen", "why": "imports %s: it may load code the audit does "
                    "not know" % " ".join(got)})
    return out


def loaders(h, path, funcs):
    """In a static ELF: a dynamic loader among funcs ({name: entry} of the
    functions that count), or, without symbols, glibc's."""
    if h.interp or h.needed:
        return []  # dynamic(): the loader is the libraries' business
    if not h.has_symtab or not h.symbols:
        with open(path, "rb") as f:
            if GLIBC_DL_OPEN_MSG in f.read():
                return [{"kind": "dlopen", "why": "no symbols, and it holds glibc's dynamic "
                         "loader (the message '%s' of _dl_open): a static glibc program loads "
                         "libnss_*.so (NSS) and gconv modules at run time, which the audit "
                         "does not know" % GLIBC_DL_OPEN_MSG.decode()}]
        return []
    stubs = {a for a, _, _, n in h.symbols if n == MUSL_STUB}
    got = sorted(n for n, a in funcs.items() if n in STATIC_LOADERS and a not in stubs)
    if not got:
        return []
    return [{"kind": "dlopen", "why": "%s in the code that counts: it may load code the "
             "audit does not know" % " ".join(got)}]


def disassembled(h, insns):
    """Executable bytes objdump does not read, or reads wrongly."""
    out = []
    if not h.sections:
        return [{"kind": "code", "why": "no section headers: objdump disassembles sections, "
                 "so the code of the executable segments was not read"}]
    for base, data in h.data.items():
        end = base + len(data)
        covered = sorted((s["addr"], s["addr"] + s["size"]) for s in h.sections
                         if s["flags"] & SHF_ALLOC and s["type"] != "SHT_NOBITS"
                         and s["addr"] < end and s["addr"] + s["size"] > base)
        seg = next(s for s in h.segments if s["type"] == PT_LOAD and s["vaddr"] == base)
        if seg["offset"] == 0:  # the ELF and program headers, mapped with it
            covered.insert(0, (base, base + h.header_end))
        at, bad = base, []
        for lo, hi in covered + [(end, end)]:
            if lo > at and any(data[at - base:lo - base]):
                bad.append("%#x-%#x" % (at, lo))
            at = max(at, hi)
        if not any(s["flags"] & SHF_EXECINSTR for s in h.sections
                   if base <= s["addr"] < end):
            bad.append("%#x-%#x (no executable section in it)" % (base, end))
        if bad:
            out.append({"kind": "code", "why": "executable segment at %#x: bytes no section "
                        "covers, not read by objdump: %s" % (base, ", ".join(bad[:5]))})
    if not h.mapping:
        thumb = ["the entry point %#x has the Thumb bit" % h.entry] if h.entry & 1 else []
        code = [(s["addr"], s["addr"] + s["size"]) for s in h.sections
                if s["flags"] & SHF_EXECINSTR]
        for i in insns:
            m = re.match(r"(?:0x)?([0-9a-f]+)\b", i.ops)
            if i.base == "blx" and not i.data and m and not REG.match(i.ops):
                t = int(m.group(1), 16)
                if any(lo <= t < hi for lo, hi in code):  # else a data word read as code
                    thumb.append("'blx %#x' at %#x" % (t, i.addr))
        if thumb:
            out.append({"kind": "code", "why": "no ARM mapping symbols, so objdump read every "
                        "instruction as ARM, and there is Thumb code: %s" % ", ".join(thumb[:3])})
    return out


def boundaries(h, insns):
    """(established, why, [(start, end)] of the instructions no function
    covers)."""
    if not h.has_symtab or not h.symbols:
        return False, "no symbol table (stripped)", []
    starts = sorted({a for a, _, _, _ in h.symbols})
    spans = []
    for a, size, typ, _ in h.symbols:
        if size:
            spans.append((a, a + size))
        else:  # up to the next symbol
            k = next((s for s in starts if s > a), 1 << 32)
            spans.append((a, k))
    merged = []
    for lo, hi in sorted(spans):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    los = [lo for lo, _ in merged]
    gaps, last = [], None
    for ins in insns:
        k = bisect.bisect_right(los, ins.addr) - 1
        if k >= 0 and ins.addr < merged[k][1]:
            continue
        if ins.data or ins.mnem.startswith(".") or ins.base == "nop" or \
                ("%s %s" % (ins.mnem, ins.ops)).strip() in NOPS:
            continue
        if last is not None and last == ins.index - 1:
            gaps[-1][1] = ins.addr
        else:
            gaps.append([ins.addr, ins.addr])
        last = ins.index
    if gaps:
        return False, "%d range(s) of instructions no function symbol covers (%s)" % (
            len(gaps), ", ".join("%#x-%#x" % (a, b) for a, b in gaps[:5])), gaps
    return True, "every instruction is in a function symbol", []
