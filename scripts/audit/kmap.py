#!/usr/bin/env python3
"""audit-kmap.py: which Kconfig option builds each ARM EABI system call.

Usage:
  audit-kmap.py KTREE [--config DOTCONFIG]

Reads the kernel source tree KTREE (no build needed) and prints JSON:

  {"kernel_tree": KTREE,
   "syscalls": {NAME: {"nr", "entry", "optional", "option", "requires",
                       "file", "how", "enabled"}},
   "families": {OPTION: {"syscalls", "enabled", "user_visible", "about_syscalls"}},
   "unmapped_optional": [NAME, ...],
   "arg_gates": [ROW, ...], "gate_options": {OPTION: enabled}}

Sources and heuristics:

  table     arch/arm/tools/syscall.tbl, "common" and "eabi" rows (number,
            name, entry point); "oabi"-only rows are skipped. Rows with no
            entry point (nfsservctl, vserver) get entry null.
  optional  the entry point without "sys_" is listed as COND_SYSCALL(X) in
            kernel/sys_ni.c (the linker falls back to sys_ni_syscall, ENOSYS),
            or has a SYS_NI(X) ENOSYS stub in some .c file (the
            kernel/time/posix-stubs.c way, e.g. timer_create). Only the entry
            point counts: ARM's sys_arm_fadvise64_64 is not optional even
            though the fadvise64_64 it calls is.
  file      one `grep -rEn` over the *.c files of kernel/ fs/ mm/ ipc/ net/
            security/ block/ io_uring/ arch/arm/ lib/ init/ drivers/char/
            drivers/pci/ for SYSCALL_DEFINE0(X) / SYSCALL_DEFINEn(X, ...)
            (COMPAT_SYSCALL_DEFINE is not counted).
  option    the conditions each definition is built under, in this order;
            "option" is the first, "how" says where it came from:
            1. the object's line in the directory's Kbuild/Makefile (`\\`
               continuations joined): `obj-$(CONFIG_X) += file.o`, then any
               enclosing Makefile `ifdef CONFIG_X` / `ifeq ($(CONFIG_X),y)`,
               then for a composite `foo-$(CONFIG_X) += file.o` that X and
               the line building foo.o (or using $(foo-y)), followed the same
               way. A .c file no Makefile names is looked for as
               `#include "file.c"` in its directory (kernel/sched's
               build_utility.c) and the #if around the include counts;
            2. the enclosing positive `#ifdef CONFIG_X`, `#if defined(CONFIG_X)`,
               `#if IS_ENABLED(CONFIG_X)` in the .c file, innermost first
               (#else/#elif/#ifndef branches and `||` or `!` terms are not
               positive; every positive term of an `&&` condition counts);
            3. the lines in the parent directories' Kbuild/Makefile that
               build the directory (`obj-$(CONFIG_X) += dir/`), up to the top.
            "requires" lists all of them. When several files define X (e.g.
            posix-timers.c and posix-stubs.c), only the options every
            definition needs are kept. Non-optional syscalls get option null
            ("always built"); optional ones with no option are listed in
            "unmapped_optional", and "how" says why (a non-Kconfig guard such
            as __ARCH_WANT_SYS_CLONE3, an unconditional file, no definition).
  enabled   with --config, null without: for a mapped syscall, whether some
            definition has every "requires" option =y in DOTCONFIG (=m counts
            as not enabled); true for the other non-optional rows with an
            entry point, false for rows without one, null for unmapped ones.
            A family is enabled when CONFIG_<option>=y.
  families  the mapped optional syscalls grouped by option. "user_visible":
            some `config OPTION` block in a Kconfig* file has a prompt
            (`bool "..."`, `tristate "..."`, ... or `prompt`), even one under
            `if EXPERT`: approximate, found with one grep. "about_syscalls":
            that block (prompt and help) speaks of syscalls or system calls,
            which tells an option that only gates syscalls (EPOLL,
            CROSS_MEMORY_ATTACH) from one that does much more (PRINTK).

  arg_gates options that gate an argument, not a syscall (scripts/audit/gates.py):
            clock ids (posix-stubs.c), socket address families (sock_register
            callers), fcntl commands; "gate_options": each option any row
            names, =y in DOTCONFIG or not (null without --config).

Exit status: 0, or 2 on a usage error or a missing input file.
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gates  # noqa: E402

TABLE = "arch/arm/tools/syscall.tbl"
SYS_NI = "kernel/sys_ni.c"
SOURCE_DIRS = ("kernel", "fs", "mm", "ipc", "net", "security", "block", "io_uring",
               "arch/arm", "lib", "init", "drivers/char", "drivers/pci")
ABIS = ("common", "eabi")

GREP_RE = r"SYSCALL_DEFINE[0-6]\(|^SYS_NI\("
DEFINE_RE = re.compile(r"(?<![A-Za-z0-9_])SYSCALL_DEFINE[0-6]\(\s*(\w+)\s*[,)]")
STUB_RE = re.compile(r"^SYS_NI\(\s*(\w+)\s*\)")
COND_RE = re.compile(r"^\s*COND_SYSCALL\(\s*(\w+)\s*\)", re.M)
# A kbuild assignment "<var>-<suffix> op values", e.g. obj-$(CONFIG_X) += a.o
ASSIGN_RE = re.compile(r"^([A-Za-z0-9_.]+(?:-[A-Za-z0-9_]+)*?)-(\$\([^)]*\)|y|m|objs)"
                       r"\s*[:+?]?=\s*(.*)$")
CONFIG_REF_RE = re.compile(r"^\$\(CONFIG_(\w+)\)$")
OBJ_VARS = ("obj", "lib", "core", "drivers")
MAX_DEPTH = 4


def die(msg):
    print("audit-kmap: " + msg, file=sys.stderr)
    sys.exit(2)


def read_text(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def unique(items):
    """items without repeats, first occurrence kept."""
    return list(dict.fromkeys(items))


# --- syscall table, sys_ni.c, definitions ------------------------------------

def read_table(ktree):
    """[(nr, name, entry or None)] for the common and eabi rows."""
    rows = []
    for line in read_text(os.path.join(ktree, TABLE)).splitlines():
        cols = line.split("#", 1)[0].split()
        if len(cols) >= 3 and cols[1] in ABIS:
            rows.append((int(cols[0]), cols[2], cols[3] if len(cols) > 3 else None))
    return rows


def read_cond_syscalls(ktree):
    """The X of every COND_SYSCALL(X) line in kernel/sys_ni.c."""
    return set(COND_RE.findall(read_text(os.path.join(ktree, SYS_NI))))


def strip_sys(entry):
    return entry[4:] if entry and entry.startswith("sys_") else entry


def grep_sources(ktree):
    """One grep: ({X: [(path, line)]} for SYSCALL_DEFINE, {X: path} for SYS_NI)."""
    dirs = [d for d in SOURCE_DIRS if os.path.isdir(os.path.join(ktree, d))]
    cmd = ["grep", "-rEn", "--include=*.c", GREP_RE] + dirs
    out = subprocess.run(cmd, cwd=ktree, capture_output=True, text=True,
                         errors="replace").stdout
    defs, stubs = {}, {}
    for hit in out.splitlines():
        path, lineno, text = hit.split(":", 2)
        m = DEFINE_RE.search(text)
        if m:
            defs.setdefault(m.group(1), []).append((path, int(lineno)))
        m = STUB_RE.match(text)
        if m:
            stubs.setdefault(m.group(1), path)
    for places in defs.values():
        places.sort()
    return defs, stubs


# --- Makefiles ---------------------------------------------------------------

def logical_lines(text):
    """Makefile lines, `\\` continuations joined, comments dropped."""
    buf = ""
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        yield (buf + line).strip()
        buf = ""
    if buf:
        yield buf.strip()


def make_conditional(line):
    """For a Makefile conditional: ("push", X or None), ("else", None) or
    ("endif", None); None for any other line."""
    for pat in (r"ifdef\s+CONFIG_(\w+)$", r"ifeq\s*\(\s*\$\(CONFIG_(\w+)\)\s*,\s*y\s*\)$",
                r"ifneq\s*\(\s*\$\(CONFIG_(\w+)\)\s*,\s*\)$"):
        m = re.match(pat, line)
        if m:
            return ("push", m.group(1))
    if re.match(r"if(n?def|n?eq)\b", line):
        return ("push", None)
    if re.match(r"else\b", line):
        return ("else", None)
    if line == "endif":
        return ("endif", None)
    return None


def parse_makefile(dirpath):
    """[(var, suffix, values, ifdefs)] for the kbuild assignments of dirpath's
    Kbuild and Makefile; ifdefs are the positive Makefile conditionals
    around the line, innermost first."""
    entries = []
    for base in ("Kbuild", "Makefile"):
        path = os.path.join(dirpath, base)
        if not os.path.isfile(path):
            continue
        stack = []
        for line in logical_lines(read_text(path)):
            cond = make_conditional(line)
            if cond and cond[0] == "push":
                stack.append(cond[1])
            elif cond and stack:
                if cond[0] == "else":
                    stack[-1] = None
                else:
                    stack.pop()
            m = None if cond else ASSIGN_RE.match(line)
            if m:
                ifdefs = [o for o in reversed(stack) if o]
                entries.append((m.group(1), m.group(2), m.group(3).split(), ifdefs))
    return entries


def makefile_conds(dirpath, tokens, cache, depth=0):
    """Conditions [(option, how)] under which dirpath's Makefile builds any
    of tokens ({"splice.o"}, {"net/"}...): those of the first line naming
    them that has any. None when no line names them."""
    if depth > MAX_DEPTH:
        return []
    if dirpath not in cache:
        cache[dirpath] = parse_makefile(dirpath)
    found = None
    for var, suffix, values, ifdefs in cache[dirpath]:
        if not tokens & set(values):
            continue
        conds = line_conds(dirpath, var, suffix, ifdefs, cache, depth)
        if conds:
            return conds
        found = []
    return found


def line_conds(dirpath, var, suffix, ifdefs, cache, depth):
    """Conditions of one Makefile line (rule 1), most specific first."""
    ref = CONFIG_REF_RE.match(suffix)
    own = [(ref.group(1), "%s-$(CONFIG_%s)" % (var, ref.group(1)))] if ref else []
    wrap = [(o, "Makefile ifdef CONFIG_%s" % o) for o in ifdefs]
    if var in OBJ_VARS:
        return [(o, "Makefile " + h) for o, h in own] + wrap
    users = {var + ".o", "$(%s-y)" % var, "$(%s-objs)" % var}
    outer = makefile_conds(dirpath, users, cache, depth + 1) or []
    return (wrap + [(o, "composite " + h) for o, h in own]
            + [(o, h + " via %s.o" % var) for o, h in outer])


def parent_conds(ktree, reldir, cache):
    """Rule 3: conditions of the Makefile lines building reldir and each of
    its ancestors."""
    conds = []
    while reldir:
        up, name = os.path.split(reldir)
        for opt, how in makefile_conds(os.path.join(ktree, up), {name + "/"}, cache) or []:
            conds.append((opt, how.replace("Makefile", "parent Makefile", 1)
                          + " (%s/)" % name))
        reldir = up
    return conds


# --- #if nesting in .c files -----------------------------------------------

def cpp_options(directive, rest):
    """Positive CONFIG_ options an #if/#ifdef line requires ([] if none)."""
    if directive == "ifdef":
        return re.findall(r"^CONFIG_(\w+)\s*$", rest)
    if directive != "if" or "||" in rest:
        return []
    terms = rest.split("&&")
    return [m.group(1) for t in terms if "!" not in t
            for m in [re.search(r"CONFIG_(\w+)", t)] if m]


def cpp_stack(path, lineno):
    """([positive options, innermost first], innermost non-Kconfig guard or
    None) of the #if blocks enclosing line lineno of path."""
    stack = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            if n >= lineno:
                break
            m = re.match(r"\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)", line)
            if not m:
                continue
            directive, rest = m.group(1), m.group(2).split("/*")[0].strip()
            if directive in ("if", "ifdef", "ifndef"):
                stack.append((cpp_options(directive, rest), rest))
            elif directive in ("elif", "else") and stack:
                stack[-1] = ([], "not " + stack[-1][1])
            elif directive == "endif" and stack:
                stack.pop()
    opts = [o for frame, _ in reversed(stack) for o in frame]
    guard = next((text for frame, text in reversed(stack) if not frame), None)
    return opts, guard


def include_conds(ktree, relpath, cache, depth):
    """A .c file no Makefile names: conditions of a sibling .c file that
    does `#include "file.c"`, and of the #if around that include."""
    d = os.path.dirname(relpath)
    pat = re.compile(r'^\s*#\s*include\s+"%s"' % re.escape(os.path.basename(relpath)), re.M)
    for name in sorted(os.listdir(os.path.join(ktree, d))):
        if not name.endswith(".c") or name == os.path.basename(relpath):
            continue
        text = read_text(os.path.join(ktree, d, name))
        m = pat.search(text)
        if m:
            lineno = text.count("\n", 0, m.start()) + 1
            opts, _ = cpp_stack(os.path.join(ktree, d, name), lineno)
            conds = [(o, "#include'd by %s under #if CONFIG_%s" % (name, o)) for o in opts]
            inner, _ = file_conds(ktree, os.path.join(d, name), lineno, cache, depth + 1)
            return conds + inner
    return []


# --- putting it together -------------------------------------------------------

def file_conds(ktree, relpath, lineno, cache, depth=0):
    """(conditions [(option, how)] in rule order, note) for a definition at
    relpath:lineno; note says why there are none."""
    if depth > MAX_DEPTH:
        return [], None
    obj = os.path.splitext(os.path.basename(relpath))[0] + ".o"
    made = makefile_conds(os.path.join(ktree, os.path.dirname(relpath)), {obj}, cache)
    conds = made if made is not None else include_conds(ktree, relpath, cache, depth)
    opts, guard = cpp_stack(os.path.join(ktree, relpath), lineno)
    conds = conds + [(o, "#if CONFIG_%s in the .c file" % o) for o in opts]
    conds += parent_conds(ktree, os.path.dirname(relpath), cache)
    note = ("guarded by #if %s" % guard) if guard else "built unconditionally"
    return conds, note


def map_optional(ktree, places, cache):
    """{option, requires, file, how, alternatives} for an optional syscall
    defined at places; alternatives is [requires] of each definition."""
    if not places:
        return {"option": None, "requires": [], "file": None,
                "how": "no SYSCALL_DEFINE found", "alternatives": []}
    found = [(path,) + file_conds(ktree, path, lineno, cache) for path, lineno in places]
    alternatives = [unique(o for o, _ in conds) for _, conds, _ in found]
    common = [o for o in alternatives[0] if all(o in alt for alt in alternatives)]
    for path, conds, _ in found:
        for opt, how in conds:
            if opt in common:
                if len(found) > 1:
                    how += " (common to %d definitions)" % len(found)
                return {"option": opt, "requires": common, "file": path, "how": how,
                        "alternatives": alternatives}
    why = found[0][2] if len(found) == 1 else "none common to %d definitions" % len(found)
    return {"option": None, "requires": [], "file": found[0][0],
            "how": "no option found: " + why, "alternatives": alternatives}


def read_config(path):
    """The options that are =y in a .config."""
    try:
        text = read_text(path)
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    return set(re.findall(r"^CONFIG_(\w+)=y$", text, re.M))


def syscall_record(ktree, nr, entry, optional, defs, cache, yes):
    """The JSON record of one table row; yes is the =y set or None."""
    rec = {"nr": nr, "entry": entry, "optional": optional, "option": None,
           "requires": [], "file": None, "how": "always built", "enabled": None}
    if entry is None:
        rec["how"] = "no entry point (sys_ni_syscall)"
    alternatives = []
    if optional:
        found = map_optional(ktree, defs.get(strip_sys(entry), []), cache)
        alternatives = found.pop("alternatives")
        rec.update(found)
    if yes is not None:
        if rec["option"]:
            rec["enabled"] = any(all(o in yes for o in alt) for alt in alternatives)
        elif not optional:
            rec["enabled"] = entry is not None
    return rec


def audit(ktree, config):
    rows = read_table(ktree)
    defs, stubs = grep_sources(ktree)
    cond = read_cond_syscalls(ktree) | set(stubs)
    yes = read_config(config) if config else None
    cache = {}
    syscalls = {name: syscall_record(ktree, nr, entry, strip_sys(entry) in cond,
                                     defs, cache, yes)
                for nr, name, entry in rows}
    unmapped = sorted(n for n, r in syscalls.items() if r["optional"] and not r["option"])
    table = {}
    for _, name, entry in rows:
        table.setdefault(entry, []).append(name)
    rows = gates.arg_gates(ktree, table, defs, lambda path, lineno: unique(
        o for o, _ in file_conds(ktree, path, lineno, cache)[0]))
    opts = sorted({o for r in rows for o in gates.row_options(r)})
    return {"kernel_tree": ktree, "syscalls": syscalls,
            "families": families(ktree, syscalls, yes), "unmapped_optional": unmapped,
            "arg_gates": rows,
            "gate_options": {o: None if yes is None else o in yes for o in opts}}


def families(ktree, syscalls, yes):
    """The mapped optional syscalls grouped by option."""
    groups = {}
    for name, rec in syscalls.items():
        if rec["option"]:
            groups.setdefault(rec["option"], []).append(name)
    entries = kconfig_entries(ktree, set(groups))
    return {opt: {"syscalls": sorted(names),
                  "enabled": None if yes is None else opt in yes,
                  "user_visible": entries[opt]["user_visible"],
                  "about_syscalls": entries[opt]["about_syscalls"]}
            for opt, names in sorted(groups.items())}


def kconfig_entries(ktree, options):
    """{option: {"user_visible": some `config` block of it has a prompt,
    "about_syscalls": its prompt or help speaks of syscalls}}; one grep finds
    the `config` lines, then those files are read."""
    found = {o: {"user_visible": False, "about_syscalls": False} for o in options}
    if not options:
        return found
    pat = r"^\s*(menu)?config\s+(%s)\s*$" % "|".join(sorted(options))
    out = subprocess.run(["grep", "-rEn", "--include=Kconfig*", pat, "."], cwd=ktree,
                         capture_output=True, text=True, errors="replace").stdout
    for hit in out.splitlines():
        path, lineno, text = hit.split(":", 2)
        lines = read_text(os.path.join(ktree, path)).splitlines()
        block = config_block(lines[int(lineno):])
        entry = found[text.split()[1]]
        entry["user_visible"] |= has_prompt(block)
        entry["about_syscalls"] |= bool(re.search(r"syscall|system call", "\n".join(block), re.I))
    return found


def config_block(lines):
    """The lines after a `config` line, up to the next unindented one."""
    block = []
    for line in lines:
        if line.strip() and not line[0].isspace():
            break
        block.append(line)
    return block


def has_prompt(block):
    """Whether a `config` block holds a prompt."""
    return any(re.match(r'\s+((bool|tristate|string|int|hex)\s+"|prompt\b)', line)
               for line in block)


def main():
    ap = argparse.ArgumentParser(description="Map ARM EABI syscalls to Kconfig options.")
    ap.add_argument("ktree", metavar="KTREE", help="kernel source tree")
    ap.add_argument("--config", metavar="DOTCONFIG", help=".config to evaluate")
    args = ap.parse_args()
    ktree = os.path.abspath(args.ktree)
    for f in (TABLE, SYS_NI):
        if not os.path.isfile(os.path.join(ktree, f)):
            die("%s: no %s" % (ktree, f))
    json.dump(audit(ktree, args.config), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
