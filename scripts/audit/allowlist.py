#!/usr/bin/env python3
"""audit/allowlist.py: the system calls a product keeps, from a sound audit.

Usage:
  allowlist.py SYSCALLS.json FRAGMENT OUT

SYSCALLS.json  scripts/audit/syscalls.py --kmap ... --json ELF... (one report
               or a list)
FRAGMENT       the fragment scripts/audit/report.py wrote from it
OUT            written (left as it is when unchanged): one name of arch/arm/tools/syscall.tbl per line, the
               file CONFIG_SYSCALL_ALLOWLIST names (kernel/6.12/patches: every
               other entry of the syscall table becomes sys_ni_syscall)

A wrong list makes the product's kernel answer ENOSYS to a call it makes, so
the list is written only when the audit accounted for every svc site: none
unresolved (not even with AUDIT_ACCEPT_UNRESOLVED=1, which only tells the
fragment to assume them harmless), nothing the audit could not account for
(its "unaccounted": libraries not audited with a dynamically linked program,
dlopen, code no function covers; scripts/audit/accounted.py), and a fragment
that does not say FAIL CLOSED. Otherwise OUT is removed, and the reason is
printed: the board is then built with the whole table.
ARM's private calls (0xf0000 and up: set_tls, cacheflush) are not in the
table, and the kernel keeps them whatever the list says: they are left out.
Exit status 0 when OUT was written, 3 when it was not, 2 on bad input.
"""
import json
import os
import sys

ARM_PRIVATE_BASE = 0x0F0000


def load(path, parse=json.load):
    try:
        with open(path) as f:
            return parse(f)
    except (OSError, ValueError) as e:
        print("allowlist: cannot read %s: %s" % (path, e), file=sys.stderr)
        sys.exit(2)


def refusals(reports, fragment):
    """Why the audit's set cannot be trusted as a whole-table allowlist."""
    why = []
    for r in reports:
        n = len(r.get("unresolved") or [])
        if n:
            why.append("%s: %d svc site(s) unresolved" % (r.get("elf", "?"), n))
        for u in r.get("unaccounted") or []:
            why.append("%s: not accounted for: %s" % (r.get("elf", "?"), u.get("why", u)))
    for line in fragment.splitlines():
        if line.startswith(("# FAIL CLOSED", "# AUDIT_ACCEPT_UNRESOLVED")):
            why.append("the fragment says: " + line[2:])
    return why


def names(reports):
    """The table names of every syscall any program makes."""
    out = set()
    for r in reports:
        for s in r["syscalls"]:
            if s["nr"] < ARM_PRIVATE_BASE and not s["name"].startswith("unknown_"):
                out.add(s["name"])
    return sorted(out)


def main(argv):
    if len(argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    data = load(argv[1])
    reports = data if isinstance(data, list) else [data]
    fragment = load(argv[2], lambda f: f.read())
    out = argv[3]
    why = refusals(reports, fragment)
    if why:
        if os.path.exists(out):
            os.remove(out)
        print("allowlist: not written, the board keeps every syscall: " + "; ".join(why))
        return 3
    keep = names(reports)
    text = "# The system calls made by %s (scripts/audit/allowlist.py)\n" % ", ".join(
        os.path.basename(r["elf"]) for r in reports) + "".join(n + "\n" for n in keep)
    try:
        with open(out) as f:
            same = f.read() == text
    except OSError:
        same = False
    if not same:  # unchanged, it keeps its time: the kernel is not rebuilt
        with open(out + ".tmp", "w") as f:
            f.write(text)
        os.replace(out + ".tmp", out)
    print("allowlist: %d syscalls in %s" % (len(keep), out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
