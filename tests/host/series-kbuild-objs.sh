#!/usr/bin/env bash
# scripts/series/kbuild-objs.mk, which tells make check-series' allmod and
# w1 stages whether a touched file is part of the configuration: Kbuild's
# reading of a directory's Makefile, later assignments overriding earlier
# ones (fs/ramfs/Makefile builds file-nommu.o only without MMU), composite
# objects expanded, and a Makefile it cannot read is an error, not "no".
. "$(dirname "$0")/../lib/common.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-kbuild-objs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/fs/ramfs" "$tmp/src/fs/bad" "$tmp/o/include/config"
printf '%s\n' CONFIG_MMU=y CONFIG_RAMFS=y CONFIG_FOO=m >"$tmp/o/include/config/auto.conf"
# fs/ramfs/Makefile of 6.1, lines 6-9, and a module built from two objects.
cat >"$tmp/src/fs/ramfs/Makefile" <<'MK'
obj-y += ramfs.o

file-mmu-y := file-nommu.o
file-mmu-$(CONFIG_MMU) := file-mmu.o
ramfs-objs += inode.o $(file-mmu-y)
obj-$(CONFIG_FOO) += foo.o
foo-y := foo-core.o foo-extra.o
obj-$(CONFIG_BAR) += bar.o
gen: FORCE
	false
MK
echo 'include $(srctree)/no/such/file.mk' >"$tmp/src/fs/bad/Makefile"
export TOP tmp
objs() { make -s -r -R -f "$TOP/scripts/series/kbuild-objs.mk" TREE="$tmp/src" O="$tmp/o" DIR="$1" 2>/dev/null; }
export -f objs
check "kbuild-objs: an override wins, composites expand, unset guards drop" \
	bash -c "[ \"\$(objs fs/ramfs)\" = 'inode.o file-mmu.o foo-core.o foo-extra.o' ]"
sed -i 's/CONFIG_MMU=y/CONFIG_MMU=n/' "$tmp/o/include/config/auto.conf"
check "kbuild-objs: without MMU the same Makefile builds file-nommu.o" \
	bash -c "objs fs/ramfs | grep -qw file-nommu.o"
check "kbuild-objs: an unreadable Makefile fails (the caller then compiles)" \
	bash -c "! objs fs/bad"
