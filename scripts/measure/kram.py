#!/usr/bin/env python3
"""measure/kram.py [--append] OUT BOARD:VMLINUX[:BOOTLOG] ...

The kernel's own RAM, accounted for (issue 42), per board:

- .data, .bss and .rodata by symbol (`nm -S` of VMLINUX), each symbol
  in the section whose bounds hold its address: .data from _sdata to
  _edata, .bss from __bss_start to __bss_stop, .rodata from
  __start_rodata to __end_rodata, the bounds of the boot `Memory:` line's
  rwdata, bss and rodata (mm/page_alloc.c, mem_init_print_info()). .rodata
  is RAM too on a kernel that does not execute in place, so it has its own
  table, and so has init (__init_begin to __init_end: __init code and
  __initdata/__initconst, freed at the end of boot). Bytes of a section that no sized symbol covers (string literals,
  alignment) are "not in a named symbol".
- each symbol's owner, by the first rule of RULES that matches its name
  and/or the object file that defines it. The object comes from
  `nm -S --defined-only -A` of the build's vmlinux.a (the thin archive
  Kbuild links vmlinux from) and lib/lib.a, matched by name and size.
- the largest boot-time allocations, from the console log of a boot
  (BOOTLOG): the hash tables alloc_large_system_hash() prints
  (mm/page_alloc.c), the atomic DMA pool (arch/arm/mm/dma-mapping.c,
  atomic_pool_init()), and the `Memory:` line's reserved total.

Writes OUT.md and OUT.json (key "kernel_ram"); with --append, adds the
Markdown to the end of OUT.md and the key to OUT.json (a report that
measure/kernels.sh or measure/ram.sh already wrote). Prints the Markdown.
NM names the nm to run (default ${CROSS_COMPILE}nm, CROSS_COMPILE
defaulting to arm-linux-gnueabi-).
"""
import fnmatch
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import report  # noqa: E402

# (owner, symbol regex or None, object glob or None): the first rule whose
# given parts all match names the owner; a symbol that none matches is
# "rest". Objects are paths in the build folder (kernel/printk/printk.o).
RULES = [
    ("printk ring", r"__log_buf|_printk_rb_static_(descs|infos)|printk_rb_static", None),
    ("printk, other buffers", None, "kernel/printk/*"),
    ("crypto self-test vectors", r".*(testvec|test_vec|selftest).*", None),
    ("crypto self-test vectors", None, "lib/crypto/*selftest*"),
    ("crypto self-test vectors", None, "crypto/testmgr*"),
    ("CRC tables", r"crc32c?table_(le|be)|crc.*_?table", None),
    ("CRC tables", None, "lib/crc*"),
    ("networking hashes", r".*(hash|hashinfo|_htable|_ehash).*", "net/*"),
    ("networking", None, "net/*"),
    ("network driver", None, "drivers/net/*"),
    ("serial console", None, "drivers/tty/*"),
    ("other drivers", None, "drivers/*"),
    ("crypto", None, "crypto/*"),
    ("crypto", None, "lib/crypto/*"),
    ("memory management", None, "mm/*"),
    ("scheduler", None, "kernel/sched/*"),
    ("kernel core", None, "kernel/*"),
    ("file systems", None, "fs/*"),
    ("init", None, "init/*"),
    ("arch/arm", None, "arch/*"),
    ("lib", None, "lib/*"),
]
REST = "rest"
UNNAMED = "not in a named symbol"

# section: (start marker, end marker)
SECTIONS = {
    "data": ("_sdata", "_edata"),
    "bss": ("__bss_start", "__bss_stop"),
    "rodata": ("__start_rodata", "__end_rodata"),
    "init": ("__init_begin", "__init_end"),
}

TOP_SYMBOLS = 10


def nm_lines(nm, args):
    out = subprocess.run([nm] + args, check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    return out.splitlines()


def parse_vmlinux(lines):
    """nm -S lines -> (markers {name: addr}, [(addr, size, name)])."""
    marks, syms = {}, []
    for line in lines:
        w = line.split()
        if len(w) == 4:
            syms.append((int(w[0], 16), int(w[1], 16), w[3]))
        elif len(w) == 3:
            marks[w[2]] = int(w[0], 16)
    return marks, syms


def parse_objects(lines, bdir="."):
    """nm -S --defined-only -A of archives -> {(name, size): set(objects)};
    objects as paths in the build folder bdir (a thin archive names its
    members by their full path)."""
    idx = {}
    for line in lines:
        head, _, rest = line.rpartition(":")
        w = rest.split()
        if len(w) != 4 or ":" not in head:
            continue
        obj = head.split(":", 1)[1]
        if os.path.isabs(obj):
            obj = os.path.relpath(obj, bdir)
        idx.setdefault((w[3], int(w[1], 16)), set()).add(obj)
    return idx


def owner_of(name, obj):
    for owner, sym_re, obj_glob in RULES:
        if sym_re is not None and not re.fullmatch(sym_re, name):
            continue
        if obj_glob is not None and (obj is None or not fnmatch.fnmatch(obj, obj_glob)):
            continue
        return owner
    return REST


def account(marks, syms, objs):
    """{section: {"total", "owners": {owner: bytes}, "symbols": [...]}}."""
    out = {}
    for sec, (lo_m, hi_m) in SECTIONS.items():
        if lo_m not in marks or hi_m not in marks:
            continue
        lo, hi = marks[lo_m], marks[hi_m]
        owners, mine, named = {}, [], 0
        for addr, size, name in syms:
            if not lo <= addr < hi or size == 0:
                continue
            # A static name that several objects define with this size:
            # the owner when they all agree, else rest.
            cand = sorted(objs.get((name, size), ()))
            obj = " ".join(cand) or None
            found = {owner_of(name, o) for o in cand or [None]}
            owner = found.pop() if len(found) == 1 else REST
            owners[owner] = owners.get(owner, 0) + size
            named += size
            mine.append({"name": name, "size": size, "object": obj, "owner": owner,
                         "objects_matching": len(cand)})
        owners[UNNAMED] = (hi - lo) - named
        mine.sort(key=lambda s: (-s["size"], s["name"]))
        out[sec] = {"total": hi - lo, "owners": owners, "symbols": mine}
    return out


HASH_RE = re.compile(r"^(?:\[[ 0-9.]+\] )?(.+?) hash table entries: (\d+) "
                     r"\(order: -?\d+, (\d+) bytes")
POOL_RE = re.compile(r"^(?:\[[ 0-9.]+\] )?DMA: preallocated (\d+) KiB pool for atomic")
MEM_RE = re.compile(r"^(?:\[[ 0-9.]+\] )?Memory: (\d+)K/(\d+)K available.*?(\d+)K reserved")


def boot_allocations(path):
    """[(what, bytes)] from a console log, largest first; the Memory: line's
    figures as {"available_k", "total_k", "reserved_k"}."""
    allocs, mem = [], {}
    if not path or not os.path.isfile(path):
        return allocs, mem
    with open(path, errors="replace") as f:
        for line in f:
            line = line.replace("\r", "").rstrip("\n")
            m = HASH_RE.match(line)
            if m:
                allocs.append(("%s hash table (%s entries)" % (m.group(1), m.group(2)),
                               int(m.group(3))))
                continue
            m = POOL_RE.match(line)
            if m:
                allocs.append(("atomic DMA pool", int(m.group(1)) * 1024))
                continue
            m = MEM_RE.match(line)
            if m and not mem:
                mem = {"available_k": int(m.group(1)), "total_k": int(m.group(2)),
                       "reserved_k": int(m.group(3))}
    allocs.sort(key=lambda a: (-a[1], a[0]))
    return allocs, mem


def measure(nm, board, vmlinux, bootlog):
    marks, syms = parse_vmlinux(nm_lines(nm, ["-S", vmlinux]))
    bdir = os.path.dirname(os.path.abspath(vmlinux))
    archives = [os.path.join(bdir, a) for a in ("vmlinux.a", "lib/lib.a", "arch/arm/lib/lib.a")]
    archives = [a for a in archives if os.path.isfile(a)]
    objs = parse_objects(nm_lines(nm, ["-S", "--defined-only", "-A"] + archives),
                         bdir) if archives else {}
    secs = account(marks, syms, objs)
    allocs, mem = boot_allocations(bootlog)
    return {
        "vmlinux": vmlinux,
        "boot_log": bootlog,
        "sections": {s: {"total": v["total"], "owners": v["owners"],
                         "largest": v["symbols"][:TOP_SYMBOLS]} for s, v in secs.items()},
        "ram_owners": merged_owners(secs),
        "largest_ram": sorted((s for k in ("data", "bss") if k in secs
                               for s in secs[k]["symbols"]),
                              key=lambda s: (-s["size"], s["name"]))[:TOP_SYMBOLS],
        "boot_allocations": [{"what": w, "bytes": b} for w, b in allocs],
        "memory_line": mem,
    }


def merged_owners(secs):
    """.data and .bss together, by owner."""
    out = {}
    for k in ("data", "bss"):
        for owner, n in secs.get(k, {}).get("owners", {}).items():
            out[owner] = out.get(owner, 0) + n
    return out


def owner_order(boards, key):
    """Owners in RULES order, then rest and the unnamed bytes; only those
    with bytes on some board."""
    names = []
    for owner, _, _ in RULES + [(REST, None, None), (UNNAMED, None, None)]:
        if owner not in names and any(owner in key(b) for b in boards):
            names.append(owner)
    return names


def owner_table(names, figs, key, title):
    rows = []
    for owner in names:
        rows.append([owner] + [report.commas(key(figs[b]).get(owner, 0)) for b in names_of(figs)])
    rows.append(["**total** " + title] + [report.commas(sum(key(figs[b]).values()))
                                         for b in names_of(figs)])
    return rows


def names_of(figs):
    return list(figs)


def render_md(figs):
    boards = names_of(figs)
    md = ["## The kernel's RAM, accounted for", "",
          "`scripts/measure/kram.py`: `nm -S` of each vmlinux, every sized symbol in the "
          "section whose bounds hold it (the `Memory:` line's rwdata = .data, bss, rodata), "
          "its owner by the rule table in kram.py (symbol name and/or the object that "
          "defines it, from vmlinux.a). Bytes (B).", "",
          "### .data and .bss by owner (RAM on every board)", ""]
    ram = lambda f: f["ram_owners"]  # noqa: E731
    names = owner_order([figs[b] for b in boards], ram)
    md += report.md_table(["owner"] + boards, owner_table(names, figs, ram, ".data + .bss"))
    rod = lambda f: f["sections"].get("rodata", {}).get("owners", {})  # noqa: E731
    names = owner_order([figs[b] for b in boards], rod)
    md += ["", "### .rodata by owner (RAM unless the kernel executes in place)", ""]
    md += report.md_table(["owner"] + boards, owner_table(names, figs, rod, ".rodata"))
    ini = lambda f: f["sections"].get("init", {}).get("owners", {})  # noqa: E731
    names = owner_order([figs[b] for b in boards], ini)
    md += ["", "### init by owner (RAM during boot only: freed before init runs)", ""]
    md += report.md_table(["owner"] + boards, owner_table(names, figs, ini, "init"))
    md += ["", "### The largest .data and .bss symbols", ""]
    rows = []
    for i in range(TOP_SYMBOLS):
        row = [str(i + 1)]
        for b in boards:
            s = figs[b]["largest_ram"]
            row.append("%s %s (%s)" % (s[i]["name"], report.commas(s[i]["size"]),
                                       s[i]["object"] or "?") if i < len(s) else "")
        rows.append(row)
    md += report.md_table(["#"] + boards, rows, ["r"] + ["l"] * len(boards))
    md += ["", "### The largest boot-time allocations (console of the boot at -m RAM)", ""]
    whats = []
    for b in boards:
        for a in figs[b]["boot_allocations"]:
            if a["what"] not in whats:
                whats.append(a["what"])
    rows = []
    for w in whats:
        row = [w]
        for b in boards:
            v = [a["bytes"] for a in figs[b]["boot_allocations"] if a["what"] == w]
            row.append(report.commas(v[0]) if v else "-")
        rows.append(row)
    rows.append(["`Memory:` reserved (KiB): kernel image, page tables, mem_map, initrd"] +
                [report.commas(figs[b]["memory_line"].get("reserved_k", "-")) for b in boards])
    md += report.md_table(["allocation (B)"] + boards, rows)
    return md


def parse_board(arg):
    w = arg.split(":")
    if len(w) not in (2, 3) or not w[0] or not w[1]:
        raise ValueError("not BOARD:VMLINUX[:BOOTLOG]: %r" % arg)
    return w[0], w[1], w[2] if len(w) == 3 else None


def main(argv):
    append = argv[:1] == ["--append"]
    if append:
        argv = argv[1:]
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    out = argv[0]
    nm = os.environ.get("NM") or os.environ.get("CROSS_COMPILE", "arm-linux-gnueabi-") + "nm"
    figs = {}
    for arg in argv[1:]:
        try:
            board, vmlinux, log = parse_board(arg)
        except ValueError as e:
            sys.stderr.write("measure-kram: %s\n" % e)
            return 2
        if not os.path.isfile(vmlinux):
            sys.stderr.write("measure-kram: no %s\n" % vmlinux)
            return 2
        figs[board] = measure(nm, board, vmlinux, log)
    text = "\n".join(render_md(figs)) + "\n"
    if append:
        with open(out + ".md", "a") as f:
            f.write("\n" + text)
        report.update_json(out + ".json", "kernel_ram", figs)
    else:
        with open(out + ".md", "w") as f:
            f.write(text)
        report.write_json(out + ".json", {"kernel_ram": figs})
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
