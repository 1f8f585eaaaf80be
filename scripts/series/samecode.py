#!/usr/bin/python3
"""samecode.py OLD NEW [PREFIX]: where two ARM vmlinux files differ.

Run by hand on check-series' build/check-series*/sizes/tiny-pristine and
tiny-y vmlinux to show what =y changes against pristine (issue 40, item
5: the link order only). PREFIX is the binutils prefix
(arm-linux-gnueabi-); needs no debug info.

Sections: size, address, differing bytes. Functions (objdump -d):
  equal      the same instructions at the same addresses
  layout     equal once every address (branch target, movw/movt pair,
             literal word) is read as symbol+offset, or for an address
             inside a string without a symbol, as that string
  operands   otherwise the same instructions, some immediates differ
  real       instructions differ
Data objects (nm symbols with a size, outside code): equal, equal once
words that are addresses are read as symbols, or different.
"""
import bisect
import collections
import re
import subprocess
import sys

old, new = sys.argv[1], sys.argv[2]
pfx = sys.argv[3] if len(sys.argv) > 3 else "arm-linux-gnueabi-"
VERBOSE = 8


def run(*args):
    return subprocess.run(args, capture_output=True, text=True,
                          check=True).stdout


class Image:
    def __init__(self, path):
        self.path = path
        self.secs = {}
        for line in run(pfx + "objdump", "-h", path).splitlines():
            f = line.split()
            if len(f) >= 7 and f[0].isdigit():
                self.secs[f[1]] = (int(f[2], 16), int(f[3], 16),
                                   int(f[5], 16))
        self.data = {}
        raw = open(path, "rb").read()
        for name, (size, vma, off) in self.secs.items():
            self.data[name] = (vma, raw[off:off + size])
        self.syms = []       # (addr, size, name, type)
        for line in run(pfx + "nm", "-n", "-S", path).splitlines():
            f = line.split()
            if len(f) == 4:
                self.syms.append((int(f[0], 16), int(f[1], 16), f[3], f[2]))
            elif len(f) == 3:
                self.syms.append((int(f[0], 16), 0, f[2], f[1]))
        self.syms = [s for s in self.syms if not s[2].startswith("$")]
        self.addrs = [s[0] for s in self.syms]
        self.lo = min(v for _, v, _ in self.secs.values() if v >= 0xc0000000)
        self.hi = max(v + s for s, v, _ in self.secs.values()
                      if v >= 0xc0000000)

    def read(self, addr, n):
        for vma, b in self.data.values():
            if vma <= addr < vma + len(b):
                return b[addr - vma:addr - vma + n]
        return b""

    def string_at(self, addr):
        b = self.read(addr, 200)
        end = b.find(b"\0")
        if end < 0:
            return None
        s = b[:end]
        if s and all(c >= 32 or c in (1, 9, 10) for c in s):
            return s.decode("latin-1")
        return None

    def name(self, addr):
        """addr as symbol+offset, or as the string it points into."""
        if not (self.lo <= addr < self.hi):
            return None
        i = bisect.bisect_right(self.addrs, addr) - 1
        j = i
        while j >= 0 and self.syms[j][0] == self.syms[i][0]:
            a, size, name, _ = self.syms[j]
            if size and addr < a + size:
                return f"{name}+{addr - a:#x}"
            j -= 1
        best = (self.syms[i][2], addr - self.syms[i][0]) if i >= 0 else None
        # no sized symbol covers it: a merged string, or an unsized label
        rodata = self.data.get(".rodata")
        if rodata and rodata[0] <= addr < rodata[0] + len(rodata[1]):
            s = self.string_at(addr)
            if s is not None:
                return repr(s)
        if best:
            return f"{best[0]}+{best[1]:#x}"
        return None

    def funcs(self):
        out = run(pfx + "objdump", "-d", "--no-show-raw-insn", self.path)
        fn = collections.OrderedDict()
        cur = None
        for line in out.splitlines():
            m = re.match(r"^([0-9a-f]+) <(.*)>:$", line)
            if m:
                cur = m.group(2)
                while cur in fn:
                    cur += "'"
                fn[cur] = (int(m.group(1), 16), [])
                continue
            m = re.match(r"^\s*([0-9a-f]+):\s+(.*)$", line)
            if m and cur:
                fn[cur][1].append((int(m.group(1), 16), m.group(2).strip()))
        return fn


def normalize(img, ins):
    """Instructions with addresses read as symbols."""
    outl = []
    movw = {}
    for idx, (_, i) in enumerate(ins):
        i = re.sub(r"\s*@.*$", "", i) if not i.startswith(".word") else i
        # branch targets: "bl c0101234 <foo+0x10>" -> "bl <foo+0x10>"
        i = re.sub(r"\b[0-9a-f]{8} (<[^>]*>)", r"\1", i)
        m = re.match(r"\.word\s+0x([0-9a-f]+)", i)
        if m:
            n = img.name(int(m.group(1), 16))
            if n:
                i = f".word {n}"
        m = re.match(r"movw\s+(\w+), #(\d+)", i)
        if m:
            movw[m.group(1)] = (len(outl), int(m.group(2)))
        m = re.match(r"movt\s+(\w+), #(\d+)", i)
        if m and m.group(1) in movw:
            j, low = movw.pop(m.group(1))
            n = img.name(int(m.group(2)) << 16 | low)
            if n:
                outl[j] = f"movw {m.group(1)}, #:lower16:{n}"
                i = f"movt {m.group(1)}, #:upper16:{n}"
        outl.append(i)
    return outl


def words(img, b, base):
    out = []
    for o in range(0, len(b) - len(b) % 4, 4):
        w = int.from_bytes(b[o:o + 4], "little")
        out.append(img.name(w) or w)
    return out, b[len(b) - len(b) % 4:]


def lit(i):
    return re.sub(r"#-?\d+|0x[0-9a-f]+", "N", i)


A, B = Image(old), Image(new)

print("sections (name: size old/new, vma old/new, differing bytes)")
total = 0
for name, (size, vma, _) in A.secs.items():
    if name in (".comment", ".ARM.attributes") or name.startswith(".debug"):
        continue
    if name not in B.secs:
        print(f"  {name}: only in old")
        continue
    ba, bb = A.data[name][1], B.data[name][1]
    if name == ".bss":
        nd = 0
    else:
        nd = sum(1 for x, y in zip(ba, bb) if x != y) + abs(len(ba) - len(bb))
    total += nd
    s2, v2, _ = B.secs[name]
    if nd or (size, vma) != (s2, v2):
        print(f"  {name}: size {size}/{s2} vma {vma:#x}/{v2:#x} differing bytes {nd}")
print(f"  total differing bytes: {total}")

fo, fn = A.funcs(), B.funcs()
cls = collections.defaultdict(list)
deltas = collections.Counter()
detail = {}
for name, (addr, ins) in fo.items():
    if name not in fn:
        cls["only in old"].append(name)
        continue
    addr2, ins2 = fn[name]
    t1, t2 = [i for _, i in ins], [i for _, i in ins2]
    if t1 == t2 and addr == addr2:
        cls["equal"].append(name)
        continue
    n1, n2 = normalize(A, ins), normalize(B, ins2)
    if n1 == n2:
        cls["layout"].append(name)
        continue
    lines = [f"    {a:x}: {x}  |  {y}" for (a, _), x, y in zip(ins, n1, n2) if x != y]
    detail[name] = lines
    size = next((sz for a, sz, nm, _ in A.syms if nm == name and a == addr), 0)
    if size and len(n1) == len(n2) and \
            words(A, A.read(addr, size), addr) == words(B, B.read(addr2, size), addr2):
        cls["layout (data words)"].append(name)
        continue
    if len(n1) == len(n2) and all(lit(x) == lit(y) for x, y in zip(n1, n2)):
        cls["operands"].append(name)
        for x, y in zip(n1, n2):
            if x != y:
                vx = re.findall(r"#(-?\d+)", x)
                vy = re.findall(r"#(-?\d+)", y)
                if vx and vy:
                    deltas[int(vy[0]) - int(vx[0])] += 1
    else:
        cls["real"].append(name)
        if len(n1) != len(n2):
            detail[name].insert(0, f"    {len(n1)} -> {len(n2)} instructions")
cls["only in new"] = [n for n in fn if n not in fo]
moved = sum(1 for n in fo if n in fn and fo[n][0] != fn[n][0])
print(f"functions: {len(fo)} old, {len(fn)} new, {moved} at another address")
for k in ("equal", "layout", "layout (data words)", "operands", "real",
          "only in old", "only in new"):
    print(f"  {k}: {len(cls[k])}")
if deltas:
    print("  operand deltas (new - old: count):",
          ", ".join(f"{d:+}:{c}" for d, c in deltas.most_common(12)))
for k in ("layout (data words)", "operands", "real"):
    for n in cls[k]:
        print(f"  {k}: {n}")
        for line in detail[n][:VERBOSE]:
            print(line)
for k in ("only in old", "only in new"):
    for n in cls[k]:
        print(f"  {k}: {n}")

# data objects
code = {".text", ".head.text", ".init.text", ".stubs", ".vectors"}


def sec_of(img, addr):
    for name, (size, vma, _) in img.secs.items():
        if vma <= addr < vma + size and vma >= 0xc0000000:
            return name
    return None




dsym_a = {s[2]: s for s in A.syms if s[1] and sec_of(A, s[0]) not in code}
dsym_b = {s[2]: s for s in B.syms if s[1] and sec_of(B, s[0]) not in code}
dcls = collections.defaultdict(list)
for name, (a, size, _, _) in dsym_a.items():
    if name not in dsym_b:
        dcls["only in old"].append(name)
        continue
    b, size2 = dsym_b[name][0], dsym_b[name][1]
    if sec_of(A, a) == ".bss":
        continue
    ba, bb = A.read(a, size), B.read(b, size2)
    if ba == bb and a == b:
        dcls["equal"].append(name)
    elif ba == bb:
        dcls["equal bytes, moved"].append(name)
    elif size == size2 and words(A, ba, a) == words(B, bb, b):
        dcls["layout"].append(name)
    else:
        dcls["different"].append(name)
print(f"data objects (sized symbols outside code): {len(dsym_a)} old, {len(dsym_b)} new")
for k in ("equal", "equal bytes, moved", "layout", "different", "only in old"):
    print(f"  {k}: {len(dcls[k])}")
for n in dcls["different"]:
    a, size = dsym_a[n][0], dsym_a[n][1]
    print(f"  different: {n} ({sec_of(A, a)}, {size} bytes)")
for n in dcls["only in old"]:
    print(f"  only in old: {n}")
for n in [n for n in dsym_b if n not in dsym_a]:
    print(f"  only in new: {n}")


# strings in .rodata outside sized symbols: the same multiset?
def loose_strings(img):
    vma, b = img.data[".rodata"]
    covered = bytearray(len(b))
    for a, size, _, _ in img.syms:
        if size and vma <= a < vma + len(b):
            covered[a - vma:a - vma + size] = b"\1" * min(size, len(b) - (a - vma))
    strs = collections.Counter()
    cur = bytearray()
    for o, c in enumerate(b):
        if covered[o]:
            cur = bytearray()
            continue
        if c == 0:
            if cur:
                strs[bytes(cur)] += 1
            cur = bytearray()
        else:
            cur.append(c)
    return strs, len(b) - sum(covered)


sa, la = loose_strings(A)
sb, lb = loose_strings(B)
print(f".rodata outside sized symbols: {la}/{lb} bytes, {sum(sa.values())}/"
      f"{sum(sb.values())} strings; the same multiset: {sa == sb}")
if sa != sb:
    for s in (sa - sb):
        print(f"  only in old: {s[:80]!r}")
    for s in (sb - sa):
        print(f"  only in new: {s[:80]!r}")
