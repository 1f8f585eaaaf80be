#!/usr/bin/env python3
"""audit/gates.py: Kconfig options that gate a syscall's argument, not the
syscall itself.

kmap.py maps each syscall to the options that build it. Some options decide
instead what a syscall that is always there accepts: without POSIX_TIMERS,
clock_gettime answers EINVAL for any clock but CLOCK_REALTIME,
CLOCK_MONOTONIC and CLOCK_BOOTTIME (kernel/time/posix-stubs.c,
do_clock_gettime()); socket(AF_UNIX, ...) answers EAFNOSUPPORT without UNIX
(net/socket.c __sock_create(): no family registered). One table holds them,
each row read from the kernel tree where it can be:

  clock id      derived: every SYSCALL_DEFINE of kernel/time/posix-stubs.c
                taking which_clock, with the clocks its body (and the static
                functions it calls) accepts: `case CLOCK_X:` and
                `which_clock != CLOCK_X`. Any other clock needs what builds
                the full definition and not the stub (kmap's conditions of the
                other definitions, less the stub's own: POSIX_TIMERS).
                Values from include/uapi/linux/time.h.
  address family
                derived: every net/ file that calls sock_register(&ops) with
                `.family = PF_X` in ops; the family needs the options that
                build that file (kmap.py's file_conds). Values from
                include/linux/socket.h. A family no file registers answers
                EAFNOSUPPORT on any config: it needs nothing.
  namespace flags
                derived: clone's and unshare's flags are a mask; every
                `flags & CLONE_NEWX` test in include/linux/*.h and
                include/net/*.h that answers EINVAL in the #else branch of
                `#ifdef CONFIG_Y` (copy_utsname(), copy_ipcs(), copy_pid_ns(),
                copy_net_ns(), copy_time_ns(), unshare_userns() stubs) makes
                bit CLONE_NEWX need Y. Values from include/uapi/linux/sched.h.
  fcntl command the table below (FCNTL): do_fcntl() (fs/fcntl.c) calls a
                function that a header makes a stub answering an error when
                the option is off. Values from the uapi fcntl headers.

A row: {"kind", "syscalls": [table names], "arg": argument index (r0 = 0),
"names": {value: NAME}, "needs": {value: [options]} for the values listed,
"otherwise": [options] for any other known value, "mask": true when
the argument is a set of bits (each bit set asks for its options),
"if_unknown": "keep"
(every option of the row counts when the argument is not a known constant)
and "add": whether the enabling side (audit/needs.py) adds them too, or
only reports the argument it could not resolve (an unknown socket family
could be any of thirty), "source"}. Values are str() keys in JSON.
"""
import os
import re
import subprocess

# fcntl commands whose kernel function is a stub when the option is off,
# read in Linux 6.1 and 6.12: fcntl_getlk(), fcntl_setlk(), fcntl_getlk64(),
# fcntl_setlk64() (EINVAL, EACCES), fcntl_setlease() (EINVAL) and
# fcntl_getlease() (F_UNLCK, a lie) in include/linux/fs.h (6.1) or
# include/linux/filelock.h (6.12) under !CONFIG_FILE_LOCKING;
# fcntl_dirnotify() (EINVAL) in include/linux/dnotify.h under !CONFIG_DNOTIFY;
# memfd_fcntl() (EINVAL) in include/linux/memfd.h under !CONFIG_MEMFD_CREATE.
FCNTL = (
    (("F_GETLK", "F_SETLK", "F_SETLKW", "F_GETLK64", "F_SETLK64", "F_SETLKW64",
      "F_OFD_GETLK", "F_OFD_SETLK", "F_OFD_SETLKW", "F_SETLEASE", "F_GETLEASE"),
     "FILE_LOCKING", "fcntl_getlk/fcntl_setlk/fcntl_setlease/fcntl_getlease stubs"),
    (("F_NOTIFY",), "DNOTIFY", "fcntl_dirnotify() stub, include/linux/dnotify.h"),
    (("F_ADD_SEALS", "F_GET_SEALS"), "MEMFD_CREATE", "memfd_fcntl() stub, include/linux/memfd.h"),
)
FCNTL_HEADERS = ("include/uapi/asm-generic/fcntl.h", "arch/arm/include/uapi/asm/fcntl.h",
                 "include/uapi/linux/fcntl.h")
STUBS = "kernel/time/posix-stubs.c"


def read(ktree, rel):
    with open(os.path.join(ktree, rel), encoding="utf-8", errors="replace") as f:
        return f.read()


def defines(ktree, rels, prefix):
    """{NAME: int} for `#define NAME value` lines of the headers rels whose
    name starts with prefix; a value may be a number, another such name, or
    `(NAME + k)`. Later headers override earlier ones (ARM's fcntl.h)."""
    raw = {}
    for rel in rels:
        if os.path.isfile(os.path.join(ktree, rel)):
            for m in re.finditer(r"^#define\s+(%s\w*)\s+([^/\n]+)" % prefix, read(ktree, rel), re.M):
                raw[m.group(1)] = m.group(2).strip()
    raw.update({k: v for rel in rels if os.path.isfile(os.path.join(ktree, rel))
                for k, v in re.findall(r"^#define\s+(F_LINUX_SPECIFIC_BASE)\s+(\d+)",
                                       read(ktree, rel), re.M)})
    out = {}

    def value(name, depth=0):
        if name in out or depth > 4:
            return out.get(name)
        text = raw.get(name, "").strip("() ")
        total = 0
        for term in (t.strip() for t in text.split("+")):
            if re.fullmatch(r"(0x[0-9a-fA-F]+|\d+)", term):
                total += int(term, 0)
            elif term in raw:
                v = value(term, depth + 1)
                if v is None:
                    return None
                total += v
            else:
                return None
        out[name] = total
        return total
    for name in raw:
        value(name)
    return out


def functions(text):
    """{name: (body, params)} of the top-level functions of a C file:
    SYSCALL_DEFINEn(name, ...) and plain definitions, found by their
    opening line and brace matching."""
    out = {}
    for m in re.finditer(r"^(?:SYSCALL_DEFINE\d\((\w+),([^)]*)\)|[a-z][\w \*]*?\b(\w+)\(([^)]*)\))\s*\n\{",
                         text, re.M):
        name, params = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        depth, i = 0, m.end() - 1
        for i in range(m.end() - 1, len(text)):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
        out[name] = (text[m.end():i], params)
    return out


def clock_rows(ktree, table, defs, conds):
    """The clock-id rows from posix-stubs.c. table: {kernel entry: [ARM
    names]}; defs: kmap's {X: [(path, line)]}; conds(path, line) -> options."""
    if not os.path.isfile(os.path.join(ktree, STUBS)):
        return []
    clocks = defines(ktree, ["include/uapi/linux/time.h"], "CLOCK_")
    fns = functions(read(ktree, STUBS))

    def accepted(name, seen=()):
        body = fns[name][0]
        got = set(re.findall(r"case\s+(CLOCK_\w+)\s*:", body))
        got |= set(re.findall(r"which_clock\s*!=\s*(CLOCK_\w+)", body))
        for callee in fns:
            if callee != name and callee not in seen and re.search(r"\b%s\(" % callee, body):
                got |= accepted(callee, seen + (name,))
        return got
    rows = []
    for name, (body, params) in sorted(fns.items()):
        if "which_clock" not in params or not re.search(r"^SYSCALL_DEFINE\d\(%s," % name,
                                                         read(ktree, STUBS), re.M):
            continue
        places = defs.get(name, [])
        stub = [p for p in places if p[0] == STUBS]
        full = [p for p in places if p[0] != STUBS]
        if not stub or not full:
            continue
        own = set(conds(*stub[0]))
        need = sorted({o for p in full for o in conds(*p)} - own)
        ok = sorted(clocks[c] for c in accepted(name) if c in clocks)
        if not need or not table.get("sys_" + name):
            continue
        rows.append({"kind": "clock id", "syscalls": sorted(table["sys_" + name]), "arg": 0,
                     "names": {str(v): c for c, v in sorted(clocks.items(), key=lambda x: x[1])},
                     "needs": {str(v): [] for v in ok}, "otherwise": need,
                     "if_unknown": "keep", "add": True,
                     "source": "%s %s() accepts only %s; other clocks need %s (%s)" % (
                         STUBS, name, " ".join(c for c in sorted(accepted(name))),
                         " ".join(need), ", ".join("%s:%d" % p for p in full))})
    return rows


def family_rows(ktree, conds):
    """The address-family row: sock_register() callers under net/."""
    fams = defines(ktree, ["include/linux/socket.h"], "AF_")
    out = subprocess.run(["grep", "-rEn", "--include=*.c", r"sock_register\(&\w+\)", "net"],
                         cwd=ktree, capture_output=True, text=True, errors="replace").stdout
    needs, names, where = {}, {}, {}
    for hit in out.splitlines():
        path, lineno, text = hit.split(":", 2)
        ops = re.search(r"sock_register\(&(\w+)\)", text).group(1)
        src = read(ktree, path)
        m = re.search(r"\b%s\s*=\s*\{(.*?)\};" % ops, src, re.S)
        f = m and re.search(r"\.family\s*=\s*[AP]F_(\w+)", m.group(1))
        if not f or "AF_" + f.group(1) not in fams:
            continue
        v = fams["AF_" + f.group(1)]
        needs[str(v)] = conds(path, int(lineno))
        names[str(v)] = "AF_" + f.group(1)
        where[str(v)] = path
    if not needs:
        return []
    return [{"kind": "address family", "syscalls": ["socket", "socketpair"], "arg": 0,
             "names": names, "needs": needs, "otherwise": [], "if_unknown": "keep",
             "add": False,
             "source": "net/socket.c __sock_create(): EAFNOSUPPORT unless the family is "
                       "registered (sock_register() in %d files of net/)" % len(needs)}]


def namespace_rows(ktree):
    """The namespace-flags row: stubs that refuse a CLONE_NEW bit."""
    bits = defines(ktree, ["include/uapi/linux/sched.h"], "CLONE_NEW")
    dirs = [d for d in ("include/linux", "include/net") if os.path.isdir(os.path.join(ktree, d))]
    out = subprocess.run(["grep", "-rEn", "--include=*.h", r"flags & CLONE_NEW\w+"] + dirs,
                         cwd=ktree, capture_output=True, text=True, errors="replace").stdout
    needs, names, where = {}, {}, []
    for hit in out.splitlines():
        path, lineno, text = hit.split(":", 2)
        flag = re.search(r"flags & (CLONE_NEW\w+)", text).group(1)
        lines = read(ktree, path).splitlines()
        after = "\n".join(lines[int(lineno) - 1:int(lineno) + 2])
        opt = else_of(lines[:int(lineno) - 1])
        if flag not in bits or not opt or "-EINVAL" not in after:
            continue
        needs.setdefault(str(bits[flag]), [])
        if opt not in needs[str(bits[flag])]:
            needs[str(bits[flag])].append(opt)
        names[str(bits[flag])] = flag
        where.append("%s:%s" % (path, lineno))
    if not needs:
        return []
    return [{"kind": "namespace flags", "syscalls": ["clone", "unshare"], "arg": 0, "mask": True,
             "names": names, "needs": needs, "otherwise": [], "if_unknown": "keep", "add": False,
             "source": "EINVAL for a CLONE_NEW bit in the #else stubs at " + ", ".join(where)}]


def else_of(lines):
    """CONFIG_Y when the line after lines is in the #else branch of
    `#ifdef CONFIG_Y` / `#if defined(CONFIG_Y)` / `#if IS_ENABLED(CONFIG_Y)`
    (the innermost conditional), else None."""
    stack = []
    for line in lines:
        m = re.match(r"\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)", line)
        if not m:
            continue
        d, rest = m.group(1), m.group(2).split("/*")[0].strip()
        if d in ("if", "ifdef", "ifndef"):
            opt = re.fullmatch(r"(?:defined\s*\(\s*|IS_ENABLED\s*\(\s*)?CONFIG_(\w+)\s*\)?", rest)
            stack.append([opt.group(1) if opt and d != "ifndef" else None, False])
        elif d in ("elif", "else") and stack:
            stack[-1][1] = d == "else"
        elif d == "endif" and stack:
            stack.pop()
    return stack[-1][0] if stack and stack[-1][1] else None


def fcntl_rows(ktree):
    vals = defines(ktree, FCNTL_HEADERS, "F_")
    needs, names = {}, {}
    for cmds, opt, _ in FCNTL:
        for c in cmds:
            if c in vals:
                needs.setdefault(str(vals[c]), []).append(opt)
                names[str(vals[c])] = c
    return [{"kind": "fcntl command", "syscalls": ["fcntl", "fcntl64"], "arg": 1,
             "names": names, "needs": needs, "otherwise": [], "if_unknown": "keep",
             "add": False,
             "source": "fs/fcntl.c do_fcntl(): " + "; ".join(
                 "%s: %s" % (opt, why) for _, opt, why in FCNTL)}]


def arg_gates(ktree, table, defs, conds):
    """Every row, the table order: clocks, families, namespace flags,
    fcntl commands."""
    return (clock_rows(ktree, table, defs, conds) + family_rows(ktree, conds) +
            namespace_rows(ktree) + fcntl_rows(ktree))


def row_options(row):
    """Every option a row can need."""
    return sorted({o for v in row["needs"].values() for o in v} | set(row["otherwise"]))


def needed(row, values):
    """(options, note) a use of the row's syscall needs: values is the list
    of constants the argument may hold, or None when it is not known (then
    every option of the row, if_unknown "keep")."""
    if values is None:
        return row_options(row), "%s not resolved" % row["kind"]
    opts = set()
    for v in values:
        if row.get("mask"):
            opts |= {o for b, os_ in row["needs"].items() if v & int(b) for o in os_}
        else:
            opts |= set(row["needs"].get(str(v), row["otherwise"]))
    if row.get("mask"):
        shown = " ".join("|".join([row["names"][b] for b in sorted(row["names"], key=int)
                                   if v & int(b)] or ["%#x" % v]) for v in sorted(values))
    else:
        shown = " ".join(row["names"].get(str(v), str(v)) for v in sorted(values))
    return sorted(opts), "%s %s" % (row["kind"], shown)
