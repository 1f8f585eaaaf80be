#!/usr/bin/env bash
# The kernel's RAM accounted for (scripts/measure/kram.py), no kernel: a
# fake nm gives a small vmlinux listing (section bounds, sized symbols) and
# the objects of its vmlinux.a; a console log gives the boot allocations.
# Each symbol lands in the section whose bounds hold it, with the owner of
# the first matching rule (by name, or by the object that defines it); the
# bytes no symbol covers are counted apart; the hash tables, the DMA pool
# and the Memory: line's reserved come from the log; --append adds the
# section to an existing report.
. "$(dirname "$0")/../lib/common.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-kram.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo 1..9

k=$tmp/kernel-t
mkdir -p "$k"
: >"$k/vmlinux"
: >"$k/vmlinux.a"
# .rodata c0500000..c0510000 (64 KiB), .data c0600000..c0690000,
# .bss c0700000..c0730000.
cat >"$tmp/vmlinux.nm" <<'EOF'
c0008000 T _stext
c0500000 D __start_rodata
c0510000 R __end_rodata
c0500000 00002000 r blake2s_testvecs
c0502000 00002000 R crc32table_le
c0504000 00000100 r some_rodata
c0600000 D _sdata
c0690000 D _edata
c0600000 00058000 d _printk_rb_static_infos
c0658000 0000c000 d _printk_rb_static_descs
c0664000 00002000 d tcp_hashinfo
c0666000 00001000 d init_net
c0667000 00000800 d smsc_priv_tab
c0667800 00000010 d orphan_symbol
c0700000 B __bss_start
c0730000 B __bss_stop
c0700000 00020000 b __log_buf
c0720000 00002000 b ext_text.3
c0722000 00000400 b dentry_stuff
c0800000 00000100 b after_bss
EOF
cat >"$tmp/objs.nm" <<'EOF'
vmlinux.a:lib/crypto/blake2s-selftest.o:00000000 00002000 r blake2s_testvecs
vmlinux.a:lib/crc32.o:00000000 00002000 R crc32table_le
vmlinux.a:kernel/printk/printk.o:00000000 00058000 d _printk_rb_static_infos
vmlinux.a:kernel/printk/printk.o:00000000 0000c000 d _printk_rb_static_descs
vmlinux.a:kernel/printk/printk.o:00000000 00020000 b __log_buf
vmlinux.a:kernel/printk/printk.o:00000000 00002000 b ext_text.3
vmlinux.a:net/ipv4/tcp_ipv4.o:00000000 00002000 D tcp_hashinfo
vmlinux.a:net/core/net_namespace.o:00000000 00001000 D init_net
vmlinux.a:drivers/net/ethernet/smsc/smsc911x.o:00000000 00000800 d smsc_priv_tab
vmlinux.a:fs/dcache.o:00000000 00000400 b dentry_stuff
vmlinux.a:fs/other.o:00000000 00000400 b dentry_stuff
vmlinux.a:fs/dcache.o:00000000 00000010 d orphan_symbol
vmlinux.a:kernel/fork.o:00000000 00000010 d orphan_symbol
EOF
cat >"$tmp/nm" <<EOF
#!/bin/sh
case "\$*" in
*--defined-only*) cat "$tmp/objs.nm" ;;
*) cat "$tmp/vmlinux.nm" ;;
esac
EOF
chmod +x "$tmp/nm"
printf '%s\r\n' "Booting Linux on physical CPU 0x0" \
	"Dentry cache hash table entries: 4096 (order: 2, 16384 bytes, linear)" \
	"Memory: 26000K/32768K available (1164K kernel code, 459K rwdata, 172K rodata, 104K init, 166K bss, 2920K reserved, 0K cma-reserved)" \
	"Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)" \
	"DMA: preallocated 256 KiB pool for atomic coherent allocations" >"$tmp/boot.log"

NM=$tmp/nm "$TOP/scripts/measure/kram.py" "$tmp/r" "t:$k/vmlinux:$tmp/boot.log" >"$tmp/out" 2>"$tmp/err"
check "kram.py succeeds" test $? -eq 0
js() { python3 -c "import json, sys; r = json.load(open(sys.argv[1]))['kernel_ram']['t']; $1" "$tmp/r.json"; }
check "the printk ring is .data and .bss by its symbols: 0x58000 + 0xc000 + 0x20000" \
	js 'assert r["ram_owners"]["printk ring"] == 0x58000 + 0xc000 + 0x20000, r["ram_owners"]'
check "other owners by object: printk's ext_text, networking hashes, net, network driver" \
	js 'o = r["ram_owners"]; assert o["printk, other buffers"] == 0x2000 and o["networking hashes"] == 0x2000 and o["networking"] == 0x1000 and o["network driver"] == 0x800, o'
check "a name two objects of one owner define gets that owner; of two owners, rest" \
	js 'o = r["ram_owners"]; assert o["file systems"] == 0x400 and o["rest"] == 0x10, o'
check "the bytes no symbol covers: .data 0x90000 - named, .bss 0x30000 - named, symbols outside ignored" \
	js 's = r["sections"]; assert s["data"]["owners"]["not in a named symbol"] == 0x90000 - 0x67810 and s["bss"]["owners"]["not in a named symbol"] == 0x30000 - 0x22400 and s["bss"]["total"] == 0x30000, s'
check ".rodata apart: self-test vectors and CRC tables by name and object" \
	js 'o = r["sections"]["rodata"]["owners"]; assert o["crypto self-test vectors"] == 0x2000 and o["CRC tables"] == 0x2000 and o["rest"] == 0x100, o'
check "boot allocations from the log, largest first, and the Memory: line's reserved" \
	js 'a = r["boot_allocations"]; assert [x["bytes"] for x in a] == [262144, 262144, 16384] and a[2]["what"].startswith("Dentry cache") and r["memory_line"]["reserved_k"] == 2920, a'
check "the Markdown has the owner table with the printk ring's bytes" \
	grep -qF "| printk ring | 540,672 |" "$tmp/r.md"
echo '{"boards": {}}' >"$tmp/a.json"
echo "# a report" >"$tmp/a.md"
NM=$tmp/nm "$TOP/scripts/measure/kram.py" --append "$tmp/a" "t:$k/vmlinux:$tmp/boot.log" >/dev/null 2>&1
check "--append keeps the report and adds the section and the JSON key" python3 -c '
import json, sys
r = json.load(open(sys.argv[1] + ".json"))
assert "boards" in r and r["kernel_ram"]["t"]["ram_owners"]["printk ring"] == 0x84000
md = open(sys.argv[1] + ".md").read()
assert md.startswith("# a report") and "## The kernel" in md' "$tmp/a"
