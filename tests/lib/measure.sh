# shellcheck shell=bash
# Shared by the measure-* tests.
# measure_json_keys FILE: 0 when FILE parses as JSON and holds every key of
# images/measure-ram.json's schema (measure-ram/1), with the right types.
measure_json_keys() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
top = {"schema": str, "date": str, "kernel_version": str, "series_applied": bool,
       "config_sha256": dict, "ram_mib": (int, float), "serves": int, "figures": dict,
       "bloat_o_meter": dict, "min_ram": dict, "meminfo": type(None), "meminfo_note": str,
       "targets": dict, "warnings": list}
bad = [k for k, t in top.items() if k not in d or not isinstance(d[k], t)]
figures = ["vmlinux_text", "vmlinux_data", "vmlinux_bss", "image", "zimage", "uimage",
           "initramfs", "mem_available_k", "code_k", "rwdata_k", "rodata_k", "init_k",
           "bss_k", "reserved_k", "app_total_k", "app_free_k", "app_after_free_k", "min_ram_k"]
fkeys = ["label", "unit", "better", "base", "tiny", "base_runs", "tiny_runs", "stable",
         "saving", "saving_min", "saving_max", "saving_pct", "note"]
for f in figures:
    if f not in d.get("figures", {}):
        bad.append("figures." + f)
        continue
    bad += ["figures.%s.%s" % (f, k) for k in fkeys if k not in d["figures"][f]]
for k in ["line", "total_line", "add", "remove", "grow", "shrink", "up", "down", "delta",
          "before", "after", "chg_pct", "largest_removed"]:
    if k not in d.get("bloat_o_meter", {}):
        bad.append("bloat_o_meter." + k)
for v in ["base", "tiny"]:
    for k in ["kib", "mib", "clients", "status", "step_kib", "unstable", "probes"]:
        if k not in d.get("min_ram", {}).get(v, {}):
            bad.append("min_ram.%s.%s" % (v, k))
    if v not in d.get("config_sha256", {}):
        bad.append("config_sha256." + v)
for t in ["bloat_removed_bytes", "free_ram_after_boot_kib", "tiny_min_ram_kib"]:
    for k in ["label", "target", "value", "met"]:
        if k not in d.get("targets", {}).get(t, {}):
            bad.append("targets.%s.%s" % (t, k))
if bad:
    print("measure_json_keys: missing or wrong type: " + ", ".join(bad))
    sys.exit(1)
PY
}
