#!/usr/bin/env bash
# `make audit BASE=vexpress`: init audited against the stock
# vexpress_defconfig (+EXPERT, series applied). The fragment turns off only
# options that are on in the stock .config, user-visible and about syscalls,
# and that init never calls, or calls only with an ENOSYS fallback
# (CONFIG_SYSCALL_SPLICE); every line of it holds in the trimmed kernel.
set -u
. "$(dirname "$0")/../lib/common.sh"
echo "1..11"
a=$TOP/build/audit-vexpress
frag=$a/audit.fragment
stock=$TOP/build/kernel-vexpress/.config
trim=$TOP/build/kernel-vexpress-trim/.config
for f in "$frag" "$a/report.txt" "$a/kmap.json" "$a/syscalls.json" "$stock" "$trim"; do
	[ -f "$f" ] || { not_ok "stock audit: ${f#"$TOP"/} exists (make audit-board BASE=vexpress)"; exit 1; }
done

check "stock audit: the audited config is vexpress_defconfig with EXPERT=y" \
	bash -c "grep -qx CONFIG_ARCH_VEXPRESS=y '$stock' && grep -qx CONFIG_EXPERT=y '$stock' &&
		grep -qx CONFIG_CMA=y '$stock'"
check "stock audit: the option map was read from the stock config (SYSVIPC on, off in tiny)" \
	python3 -c "import json, sys; sys.exit(not json.load(open('$a/kmap.json'))['families']['SYSVIPC']['enabled'])"
n=$(grep -c '^# CONFIG_.* is not set$' "$frag")
check "stock audit: the fragment turns options off ($n)" [ "$n" -ge 2 ]
check "stock audit: CONFIG_SYSCALL_SPLICE=n, because every sendfile call checks ENOSYS" \
	bash -c "grep -qx '# CONFIG_SYSCALL_SPLICE is not set' '$frag' &&
		grep -q 'CONFIG_SYSCALL_SPLICE=n candidate (on now): every call of sendfile64 falls back on ENOSYS' '$a/report.txt'"

# Every option in the fragment: on in stock, user-visible, about syscalls,
# and none of its syscalls in init's static set unless it is the splice
# family with a fallback.
verdict=$(python3 - "$frag" "$a/kmap.json" "$a/syscalls.json" <<'EOF'
import json, re, sys
frag, kmap, sysc = sys.argv[1:]
opts = re.findall(r"^# CONFIG_(\w+) is not set$", open(frag).read(), re.M)
fams = json.load(open(kmap))["families"]
progs = json.load(open(sysc))
progs = progs if isinstance(progs, list) else [progs]
used = {s["name"] for r in progs for s in r["syscalls"]}
bad = []
for o in opts:
    f = fams.get(o)
    if not f or not (f["enabled"] and f["user_visible"] and f["about_syscalls"]):
        bad.append(o + ":not-a-candidate")
    elif set(f["syscalls"]) & used and o != "SYSCALL_SPLICE":
        bad.append(o + ":called")
print(" ".join(bad) or "clean")
EOF
)
check "stock audit: every option is on in stock, visible, about syscalls, never called ($verdict)" \
	[ "$verdict" = clean ]
check "stock audit: init's families stay on in the trimmed kernel (NET, INET, MMU)" \
	bash -c "grep -qx CONFIG_NET=y '$trim' && grep -qx CONFIG_INET=y '$trim' && grep -qx CONFIG_MMU=y '$trim'"
check "stock audit: every line of the fragment holds in the trimmed .config" \
	"$TOP/scripts/lib/config-holds.sh" "$trim" "$frag"
check "stock audit: options that do more than syscalls are left to a human (PRINTK)" \
	bash -c "! grep -q PRINTK '$frag' && grep -q 'CONFIG_PRINTK .*decide by hand' '$a/report.txt'"
check "stock audit: the trimmed kernel has splice compiled out, the stock one built in" \
	bash -c "grep -qx '# CONFIG_SYSCALL_SPLICE is not set' '$trim' && grep -qx CONFIG_SYSCALL_SPLICE=y '$stock'"
check "stock audit: KCMP (selected by DRM) is left out of the fragment, and the report says why" \
	bash -c "! grep -q KCMP '$frag' && grep -q 'CONFIG_KCMP: =n does not hold here' '$a/report.txt'"
check "stock audit: the report names the options that go with the fragment (NFS_FS, which needs MULTIUSER)" \
	bash -c "grep 'go too' '$a/report.txt' | grep -qw NFS_FS && grep -qx '# CONFIG_NFS_FS is not set' '$trim' ||
		{ grep 'go too' '$a/report.txt' | grep -qw NFS_FS && ! grep -q '^CONFIG_NFS_FS=' '$trim'; }"
