"""image/elfobj.py: one ELF object of the image, analysed once.

What it reads (pyelftools for headers, dynamic section, symbols, versions
and relocations; decode.py for the code):

  - the dynamic section: DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH,
    DT_INIT/DT_FINI and the init/fini/preinit arrays;
  - .dynsym with versions (.gnu.version, .gnu.version_d, .gnu.version_r):
    the definitions other objects bind to, and the version each import asks
    for;
  - relocations: R_ARM_JUMP_SLOT (the PLT's GOT slots), R_ARM_GLOB_DAT and
    R_ARM_ABS32 (addresses of symbols, bound in the global scope),
    R_ARM_RELATIVE (addresses in the object itself), R_ARM_IRELATIVE (an
    IFUNC resolver, run at load), the TLS ones (no code address), and
    R_ARM_COPY; any other type is not accounted for;
  - function starts, in a stripped object too: .dynsym (and .symtab when
    present) functions, the ARM unwind table (.ARM.exidx, PT_ARM_EXIDX: the
    first word of each entry is a prel31 offset to a function start), the
    PLT entries, the entry point, the init/fini functions, the targets of
    direct calls and of addresses the code forms. The executable segment is
    cut at these starts into regions; a region runs to the next start, so
    every byte of code lies in one, and code no boundary covers belongs to
    the region before it and counts with it;
  - per region: the regions it calls or branches to, falls into, or whose
    address it forms (pc-relative: `ldr rX, [pc, #k]` then `add rD, pc,
    rX`, `adr`; or GOT-relative: GOT + a literal), the imports it calls
    through the PLT, its svc sites with the numbers found in r7, and the
    arguments of its calls of syscall wrappers;
  - roots: regions that run when the object is loaded (entry, DT_INIT,
    init/fini/preinit arrays, IFUNC resolvers) and every code address in
    the object's data (relocations): a function pointer in data may be
    called by whoever reads it, so the audit counts it as soon as the object
    is loaded.
"""
import bisect
import struct

from elftools.elf.elffile import ELFFile
from elftools.elf.dynamic import DynamicSection, DynamicSegment

from . import decode

R_ARM = {2: "ABS32", 3: "REL32", 13: "TLS_DESC", 17: "TLS_DTPMOD32", 18: "TLS_DTPOFF32",
         19: "TLS_TPOFF32", 20: "COPY", 21: "GLOB_DAT", 22: "JUMP_SLOT", 23: "RELATIVE",
         160: "IRELATIVE", 0: "NONE"}
NO_CODE_RELOCS = ("TLS_DTPMOD32", "TLS_DTPOFF32", "TLS_TPOFF32", "COPY", "NONE")
# Functions whose svc number is an argument, called from other objects
# through the PLT: the audit records the arguments at each call of these.
# A call of any other exported wrapper is found at link time (reach.py) and
# fails closed.
WRAPPER_IMPORTS = ("syscall",)


def analyse(host_path, image_path):
    """The facts of one object, as a dict of plain data (cached by main.py)."""
    with open(host_path, "rb") as f:
        raw = f.read()
    import io
    e = ELFFile(io.BytesIO(raw))
    o = {"path": image_path, "type": e.header.e_type, "entry": e.header.e_entry,
         "interp": None, "soname": None, "needed": [], "rpath": [], "runpath": [],
         "exports": {}, "problems": [], "starts": [], "edges": {}, "imp_edges": {},
         "svc": {}, "wrapper_calls": {}, "roots": [], "root_imps": [], "plt": {},
         "insns": 0, "exec": [], "flags": e.header.e_flags, "machine": e.header.e_machine}
    if e.header.e_machine != "EM_ARM":
        o["problems"].append(("code", "not an ARM object (%s)" % e.header.e_machine))
        return o
    segs, exec_segs, exidx = [], [], None
    for s in e.iter_segments():
        h = s.header
        if h.p_type == "PT_INTERP":
            o["interp"] = s.get_interp_name()
        elif h.p_type == "PT_LOAD":
            data = raw[h.p_offset:h.p_offset + h.p_filesz]
            segs.append((h.p_vaddr, data))
            if h.p_flags & 1:
                exec_segs.append((h.p_vaddr, data))
        elif h.p_type == "PT_ARM_EXIDX":
            exidx = (h.p_vaddr, raw[h.p_offset:h.p_offset + h.p_filesz])
    word = decode.word_reader(segs)
    dyn = e.get_section_by_name(".dynamic")
    if dyn is None or not isinstance(dyn, DynamicSection):
        dyn = next((s for s in e.iter_segments() if isinstance(s, DynamicSegment)), None)
    tags = {}
    if dyn is not None:
        for t in dyn.iter_tags():
            k = t.entry.d_tag
            if k == "DT_NEEDED":
                o["needed"].append(t.needed)
            elif k == "DT_SONAME":
                o["soname"] = t.soname
            elif k == "DT_RPATH":
                o["rpath"] += t.rpath.split(":")
            elif k == "DT_RUNPATH":
                o["runpath"] += t.runpath.split(":")
            else:
                tags[k] = t.entry.d_val
    for k in ("DT_FILTER", "DT_AUXILIARY"):
        if k in tags:
            o["problems"].append(("dynamic", "%s: a filter library, which the audit does not "
                                  "follow" % k))
    if len(exec_segs) != 1:
        if exec_segs:
            o["problems"].append(("code", "%d executable segments (one expected)" %
                                  len(exec_segs)))
        return o
    seg_base, seg_data = exec_segs[0]
    o["exec"] = [seg_base, seg_base + len(seg_data)]

    def in_code(a):
        return seg_base <= a < seg_base + len(seg_data)

    # --- symbols and versions
    syms = symbols(e)
    starts = set()
    thumb = []
    for name, ver, hidden, value, stype, shndx, bind, size in syms:
        if shndx == "SHN_UNDEF" or not name:
            continue
        o["exports"].setdefault(name, []).append((ver, hidden, value, stype, bind))
        if stype in ("STT_FUNC", "STT_GNU_IFUNC", "STT_LOOS") and in_code(value & ~1):
            starts.add(value & ~1)
            if value & 1:
                thumb.append("%s at %#x has the Thumb bit" % (name, value))
    symtab = e.get_section_by_name(".symtab")
    if symtab is not None:
        for s in symtab.iter_symbols():
            if s["st_info"]["type"] == "STT_FUNC" and in_code(s["st_value"] & ~1):
                starts.add(s["st_value"] & ~1)
                if s["st_value"] & 1:
                    thumb.append("%s at %#x has the Thumb bit" % (s.name, s["st_value"]))
    if in_code(o["entry"] & ~1):
        starts.add(o["entry"] & ~1)
        if o["entry"] & 1:
            thumb.append("the entry point %#x has the Thumb bit" % o["entry"])
    # --- unwind table: prel31 function starts
    if exidx is not None:
        base, data = exidx
        for k in range(0, len(data) - 7, 8):
            w = struct.unpack_from("<I", data, k)[0]
            off = w & 0x7FFFFFFF
            if off & 0x40000000:
                off -= 0x80000000
            a = (base + k + off) & 0xFFFFFFFF
            if in_code(a):
                starts.add(a)
    # --- relocations
    relocs = []  # (offset, type name, symbol key or None, symbol value, symbol type)
    if dyn is not None:
        for kind, table in dyn.get_relocation_tables().items():
            for r in table.iter_relocations():
                t = R_ARM.get(r["r_info_type"])
                si = r["r_info_sym"]
                key = sval = stype = None
                if si:
                    name, ver, hidden, sval, stype, shndx, bind, size = syms[si]
                    key = (name, ver, bind == "STB_WEAK" and shndx == "SHN_UNDEF")
                if t is None:
                    o["problems"].append(("code", "relocation type %d at %#x: not known to "
                                          "the audit" % (r["r_info_type"], r["r_offset"])))
                    continue
                relocs.append((r["r_offset"], t, key, sval, stype))
    roots, root_imps = set(), set()
    slots = {}
    for off, t, key, sval, stype in relocs:
        if t == "JUMP_SLOT":
            slots[off] = key
        elif t in ("GLOB_DAT", "ABS32", "TLS_DESC") and key is not None:
            root_imps.add(key)
        elif t == "ABS32" and key is None or t == "RELATIVE" or t == "IRELATIVE":
            w = word(off)
            if w is not None and in_code(w & ~1):
                roots.add(w & ~1)
                starts.add(w & ~1)
        elif t == "REL32":
            o["problems"].append(("code", "R_ARM_REL32 at %#x: not followed" % off))
    for k in ("DT_INIT", "DT_FINI"):
        if k in tags and in_code(tags[k]):
            roots.add(tags[k])
            starts.add(tags[k])
    for arr, sz in (("DT_INIT_ARRAY", "DT_INIT_ARRAYSZ"), ("DT_FINI_ARRAY", "DT_FINI_ARRAYSZ"),
                    ("DT_PREINIT_ARRAY", "DT_PREINIT_ARRAYSZ")):
        if arr in tags:
            for k in range(0, tags.get(sz, 0), 4):
                w = word(tags[arr] + k)
                if w and in_code(w & ~1):   # a RELATIVE relocation gives it in a PIE
                    roots.add(w & ~1)
                    starts.add(w & ~1)
    for name, defs in o["exports"].items():
        for ver, hidden, value, stype, bind in defs:
            if stype in ("STT_GNU_IFUNC", "STT_LOOS") and in_code(value & ~1):
                roots.add(value & ~1)   # an IFUNC resolver runs at relocation
    if o["entry"] and in_code(o["entry"] & ~1):
        roots.add(o["entry"] & ~1)
    # --- code: the executable sections (the segment also holds headers,
    # symbols, relocations and read-only data, which are not code)
    xsec = [(x.header.sh_addr, x.header.sh_size) for x in e.iter_sections()
            if x.header.sh_flags & 4 and x.header.sh_type == "SHT_PROGBITS"]
    if not xsec:
        o["problems"].append(("code", "no executable section headers: where the code is "
                              "in the executable segment is not known"))
        return o
    def in_text(a):
        return any(sa <= a < sa + sz for sa, sz in xsec)

    insns = [None] * (len(seg_data) >> 2)
    for sa, sz in xsec:
        if not in_code(sa) or not in_code(sa + sz - 1):
            o["problems"].append(("code", "executable section at %#x outside the executable "
                                  "segment" % sa))
            continue
        k = (sa - seg_base) >> 2
        got = decode.decode(seg_data[sa - seg_base:sa - seg_base + sz], sa)
        insns[k:k + len(got)] = got
    o["insns"] = sum(1 for i in insns if i is not None)
    eabi = (e.header.e_flags & 0xFF000000) == 0x05000000   # EF_ARM_EABI_VER5
    literal = set()
    for ins in insns:
        if ins is not None and ins.base.startswith("ldr") and "[pc" in ins.ops:
            k = decode.imm(ins.ops.split("[pc")[1]) or 0
            literal.add(ins.addr + 8 + k)
    # the PLT: add ip, pc, #a; add ip, ip, #b; ldr pc, [ip, #c]! (binutils'
    # elf32_arm_plt_entry); a 4-word form starts with add ip, pc, #a, #b
    plt = {}
    for i in range(len(insns) - 2):
        a, b, c = insns[i], insns[i + 1], insns[i + 2]
        if a is None or b is None or c is None:
            continue
        if a.base == "add" and a.ops.startswith("ip, pc, #") and b.base == "add" and \
                b.ops.startswith("ip, ip, #") and c.base == "ldr" and c.ops.startswith("pc, [ip"):
            slot = a.addr + 8 + decode.imm(a.ops) + decode.imm(b.ops) + (decode.imm(c.ops) or 0)
            if slot & 0xFFFFFFFF in slots:
                plt[a.addr] = slots[slot & 0xFFFFFFFF]
                starts.add(a.addr)
    o["plt"] = {a: k for a, k in plt.items()}
    got = tags.get("DT_PLTGOT")
    for ins in insns:
        if ins is None or ins.addr in literal:
            continue
        if ins.base in ("bl", "blx", "b"):
            t = ins.target()
            if t is not None and in_code(t) and ins.base != "b":
                starts.add(t)
            if ins.base == "blx" and t is not None and in_text(t & ~1):
                thumb.append("blx #%#x at %#x (a call into Thumb code)" % (t, ins.addr))
    starts = sorted(starts | {seg_base})
    o["starts"] = starts
    if thumb:
        o["problems"].append(("code", "Thumb code, which the audit does not decode: " +
                              "; ".join(thumb[:3])))

    def region(a):
        return bisect.bisect_right(starts, a) - 1

    start_idx = set((s - seg_base) >> 2 for s in starts)
    code = decode.Code(insns, seg_base, word, lambda i: i in start_idx)
    edges, imp_edges, svc = {}, {}, {}
    taken = {}   # region -> the regions that form its address (a pointer to it)
    lit_reg = {}
    calls = []   # (region, index, target region or import key)
    cur = -1
    nstarts = len(starts)
    ri, next_start = -1, seg_base
    for i, ins in enumerate(insns):
        a = seg_base + 4 * i
        while a >= next_start:   # the regions in address order, no search
            ri += 1
            next_start = starts[ri + 1] if ri + 1 < nstarts else 1 << 33
        if ri != cur:
            # falling into this region from the one before
            if cur >= 0:
                prev = insns[i - 1]
                if prev is not None and (seg_base + 4 * (i - 1)) not in literal and \
                        (not prev.ends_flow() or code.called(i - 1)):
                    edges.setdefault(cur, set()).add(ri)
            cur, lit_reg = ri, {}
        if ins is None or a in literal:
            continue
        b = ins.base
        cands = []
        t = ins.target()
        if t is not None:
            if t in plt:
                imp_edges.setdefault(ri, set()).add(plt[t])
                if b in ("bl", "b"):
                    calls.append((ri, i, plt[t]))
            elif in_code(t):
                rj = region(t)
                if rj != ri or b == "bl":
                    edges.setdefault(ri, set()).add(rj)
                if b in ("bl", "b") and t in start_idx_addr(starts, t):
                    calls.append((ri, i, rj))
        elif b == "svc":
            n = decode.imm(ins.ops) or 0
            if 0x900000 <= n <= 0x9FFFFF and not eabi:
                # an OABI call (arch/arm/kernel/entry-common.S: the number in
                # the immediate, 0x900000 + nr) in an object that is not EABI
                svc.setdefault(ri, []).append((a, [], [], ["OABI svc #%#x" % n]))
            elif n:
                # a word of data in .text that reads as svc #imm (libcrypto's
                # and libtomcrypt's AES tables): an EABI compiler emits svc #0
                # only (the number in r7); the static mode lists these as
                # svc_imm
                o.setdefault("svc_imm", []).append(a)
            else:
                v = code.value(i, "r7")
                svc.setdefault(ri, []).append((a, sorted(v.consts), sorted(v.args),
                                               v.unknown[:3]))
        elif b.startswith("ldr") and "[pc" in ins.ops:
            k = decode.imm(ins.ops.split("[pc")[1]) or 0
            w = word(a + 8 + k)
            rd = ins.first_reg()
            if w is not None and b == "ldr":
                lit_reg[rd] = w
                if o["type"] == "ET_EXEC":
                    cands.append(w)                   # absolute: in a PIC object an
                    # address in a literal has a RELATIVE relocation (a root)
                if got is not None:
                    cands.append((got + w) & 0xFFFFFFFF)   # GOTOFF
            else:
                lit_reg.pop(rd, None)
        elif b in ("add", "sub") and ", pc, " in ins.ops:
            parts = [p.strip() for p in ins.ops.split(",")]
            if len(parts) == 3 and parts[1] == "pc":
                if parts[2].startswith("#"):
                    v = decode.imm(parts[2])
                    cands.append(a + 8 + (v if b == "add" else -v))
                elif b == "add" and decode.reg(parts[2]) in lit_reg:
                    cands.append((a + 8 + lit_reg[decode.reg(parts[2])]) & 0xFFFFFFFF)
        else:
            rd = ins.first_reg()
            if rd in lit_reg and ins.writes(rd):
                pass  # keep the literal: an add with pc may still use a copy
        for c in cands:
            c &= ~1
            if c in plt:
                imp_edges.setdefault(ri, set()).add(plt[c])
            elif in_text(c):
                edges.setdefault(ri, set()).add(region(c))
                taken.setdefault(region(c), set()).add(ri)
    memory_numbers(o, svc, calls, insns, code, seg_base, starts)
    # wrappers: regions with a svc whose number is an argument; their calls
    # get the argument's values at the call (a fixpoint inside the object).
    wrap = {ri: set(x for s in ss for x in s[2]) for ri, ss in svc.items()
            if any(s[2] for s in ss)}
    wcalls = {}
    changed = True
    done = set()
    while changed:
        changed = False
        for ri, i, tgt in calls:
            want = None
            if isinstance(tgt, tuple):
                if tgt[0] in WRAPPER_IMPORTS:
                    want = ("r0", "r1", "r2", "r3")
            elif tgt in wrap:
                want = sorted(wrap[tgt])
            if not want or (ri, i, tgt) in done:
                continue
            done.add((ri, i, tgt))
            vals = {}
            for r in want:
                v = code.value(i, r)
                vals[r] = (sorted(v.consts), sorted(v.args), v.unknown[:3])
                if v.args and not isinstance(tgt, tuple):
                    wrap.setdefault(ri, set()).update(v.args)
                    changed = True
            wcalls.setdefault(ri, []).append((seg_base + 4 * i, tgt, vals))
    o["wrappers"] = {ri: sorted(rs) for ri, rs in wrap.items()}
    o["taken"] = {ri: sorted(taken[ri]) for ri in wrap if ri in taken}
    o["edges"] = {k: sorted(v) for k, v in edges.items()}
    o["imp_edges"] = {k: sorted(v) for k, v in imp_edges.items()}
    o["svc"] = svc
    o["wrapper_calls"] = wcalls
    o["roots"] = sorted(set(region(a) for a in roots))
    o["root_imps"] = sorted(root_imps)
    return o


def memory_numbers(o, svc, calls, insns, code, seg_base, starts):
    """Sites whose number r7 loads from memory: glibc's setxid broadcast
    (nptl/nptl_setxid.c: __nptl_setxid copies the caller's struct
    xid_command, whose first member syscall_no the caller sets to
    __NR_<name> (sysdeps/nptl/setxid.h, INLINE_SETXID_SYSCALL), into the
    global __xidcmd, makes the syscall itself and signals every thread, whose
    handler __nptl_setxid_sighandler makes it again from __xidcmd). The
    numbers are the constants that the direct callers of such a site's
    function store on their stack; a site with no such caller in the object
    (the handler, installed through a pointer) gets the numbers of the
    others. When no site has a caller, they stay unresolved."""
    mem = [(ri, k) for ri, ss in svc.items() for k, s in enumerate(ss)
           if not s[1] and not s[2] and s[3] and all("from 'ldr r7, [" in u for u in s[3])]
    if not mem:
        return
    regions = {ri for ri, _ in mem}
    callers = {ri for ri, i, t in calls if t in regions and not isinstance(t, tuple)}
    nums = set()
    end = len(insns)
    for c in callers:
        a0 = starts[c]
        a1 = starts[c + 1] if c + 1 < len(starts) else seg_base + 4 * end
        for i in range((a0 - seg_base) >> 2, (a1 - seg_base) >> 2):
            ins = insns[i]
            if ins is None:
                continue
            if ins.base == "str" and ("[sp" in ins.ops or "[fp" in ins.ops):
                regs = [ins.first_reg()]
            elif ins.base.startswith("stm") and ins.ops.startswith(("sp", "fp")):
                regs = decode.reglist(ins.ops)
            else:
                continue
            for r in regs:
                v = code.value(i, r)
                nums |= {n for n in v.consts if 0 < n < 0x1000}
    if not nums:
        return
    for ri, k in mem:
        a, _, _, why = svc[ri][k]
        svc[ri][k] = (a, sorted(nums), [], [])
        o.setdefault("memory_sites", []).append(
            (a, sorted(nums), "r7 read from memory (%s): the constants the callers of %s store "
             "on their stack (glibc's setxid broadcast)" % (
                 why[0], ", ".join("%#x" % starts[x] for x in sorted(regions)))))


def start_idx_addr(starts, t):
    i = bisect.bisect_left(starts, t)
    return (t,) if i < len(starts) and starts[i] == t else ()


def symbols(e):
    """[(name, version, hidden, value, type, shndx, bind, size)] of .dynsym,
    indexed as the relocations index it. version: the name a definition has
    (.gnu.version_d) or an import asks for (.gnu.version_r), or None."""
    ds = e.get_section_by_name(".dynsym")
    if ds is None:
        return []
    vs = e.get_section_by_name(".gnu.version")
    names = {}
    vd = e.get_section_by_name(".gnu.version_d")
    if vd is not None:
        for v, auxs in vd.iter_versions():
            aux = next(iter(auxs), None)
            if aux is not None and not v["vd_flags"] & 1:   # VER_FLG_BASE: the soname
                names[v["vd_ndx"]] = aux.name
    vn = e.get_section_by_name(".gnu.version_r")
    if vn is not None:
        for v, auxs in vn.iter_versions():
            for aux in auxs:
                names[aux["vna_other"]] = aux.name
    out = []
    for i, s in enumerate(ds.iter_symbols()):
        ver, hidden = None, False
        if vs is not None:
            ndx = vs.get_symbol(i)["ndx"]
            if isinstance(ndx, int):
                hidden = bool(ndx & 0x8000)
                ver = names.get(ndx & 0x7FFF)
        t = s["st_info"]["type"]
        out.append((s.name, ver, hidden, s["st_value"], t, s["st_shndx"],
                    s["st_info"]["bind"], s["st_size"]))
    return out
