#!/usr/bin/env python3
"""measure/audit-render.py AUDIT_ENV OUT_PREFIX: add the audit fragment's
saving (scripts/measure/audit.sh's key=value lines) to measure-ram's report:
a section printed on the terminal and appended to OUT_PREFIX.md, and an
"audit" object in OUT_PREFIX.json (keys: options, zimage_tiny, zimage_audit,
text_tiny, text_audit, bloat_delta, bloat_line, largest_removed, served,
mem_available_k, app_free_k)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from report import load_env, main, num, update_json  # noqa: E402


def render(env, out):
    d = load_env(env)
    removed = [d[k].rsplit(" ", 1) for k in sorted(d) if k.startswith("removed_")]
    a = {
        "options": d.get("options", "").split(),
        "zimage_tiny": num(d.get("tiny_zimage")), "zimage_audit": num(d.get("audit_zimage")),
        "text_tiny": num(d.get("tiny_vmlinux_text")),
        "text_audit": num(d.get("audit_vmlinux_text")),
        "bloat_delta": num(d.get("bloat_delta")), "bloat_line": d.get("bloat_line"),
        "largest_removed": [{"name": n, "bytes": num(b)} for n, b in removed],
        "served": d.get("served") == "1",
        "mem_available_k": num(d.get("mem_available_k")),
        "app_free_k": num(d.get("app_free_k")),
    }
    z = (a["zimage_tiny"] or 0) - (a["zimage_audit"] or 0)
    lines = [
        "audit fragment on top of tiny (make audit: %s=n)" % ", ".join(a["options"]),
        "  bloat-o-meter tiny -> audit: %s" % a["bloat_line"],
        "  zImage: %s -> %s B (%+d)" % (a["zimage_tiny"], a["zimage_audit"], -z),
        "  vmlinux text: %s -> %s B" % (a["text_tiny"], a["text_audit"]),
        "  boots and serves test.bin at the same -m: %s; Memory: available %s KiB, "
        "free after boot %s KiB" % ("yes" if a["served"] else "NO", a["mem_available_k"],
                                     a["app_free_k"]),
    ]
    print("\n".join(lines))
    with open(out + ".md", "a") as f:
        f.write("\n## The audit fragment on top of tiny\n\n`make audit` found that init never "
                "calls the syscalls of %s; `make board AUDIT=1` builds tiny with %s.\n\n" % (
                    ", ".join("CONFIG_" + o for o in a["options"]),
                    ", ".join("CONFIG_%s=n" % o for o in a["options"])))
        f.write("| figure | tiny | audit | saving |\n|---|---:|---:|---:|\n")
        f.write("| zImage (B) | %s | %s | %+d |\n" % (a["zimage_tiny"], a["zimage_audit"], z))
        f.write("| vmlinux text (B) | %s | %s | %+d |\n" % (
            a["text_tiny"], a["text_audit"], (a["text_tiny"] or 0) - (a["text_audit"] or 0)))
        f.write("\nbloat-o-meter (tiny -> audit): `%s`. The audit board %s test.bin at the "
                "same -m.\n" % (a["bloat_line"], "serves" if a["served"] else "does NOT serve"))
    update_json(out + ".json", "audit", a)
    return 0 if a["served"] else 1


if __name__ == "__main__":
    main(render, __doc__, 2)
