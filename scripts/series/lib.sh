# shellcheck shell=bash
# check-series-lib.sh: what the check-series scripts share. Source it.
#   - where things live (build/check-series/, logs in build/logs/check-series/)
#   - the patch list of kernel/patches/series
#   - fresh extraction of the Debian kernel tarball
#   - kernel make for ARM (ccache arm-linux-gnueabi-gcc) and x86_64 (ccache gcc)
#   - setting CONFIG_SYSCALL_SPLICE in an O= folder and checking it took
# shellcheck source=scripts/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=scripts/lib/kbuild-id.sh
. "$TOP/scripts/lib/kbuild-id.sh"
DIE_PREFIX="check-series: error" DIE_STATUS=2
CS=${CS_DIR:-$TOP/build/check-series}
CS_LOGS=$TOP/build/logs/${CS##*/}   # check-series or check-series-6.12
PATCH_DIR=${PATCH_DIR:-$TOP/kernel/patches}
TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
KERNEL_PKG=${KERNEL_PKG:-linux-source-6.1}
TINY_DEFCONFIG=${TINY_DEFCONFIG:-$TOP/kernel/configs/vexpress_tiny_defconfig}
JOBS=${JOBS:-2}
[ "$JOBS" -le 2 ] || JOBS=2   # shared 2-core machine: never more
mkdir -p "$CS" "$CS_LOGS"

# Print the log's tail and path after a failed step.
cs_show_log() {
	echo "    --- last lines of ${1#"$TOP"/}:"
	show_log "$1" "${2:-20}" "    "
}

# The patches, in series order, as absolute paths (cover letters and any
# file without a diff are left out). Fails if a named file is missing.
# A patch in a subfolder (kernel/6.12/patches/allowlist/) belongs to an RFC
# of its own on top of the series, with its own cover letter: left out of
# the series' checks, unless CS_RFC=1.
cs_patches() {
	local series=$PATCH_DIR/series p
	[ -f "$series" ] || { echo "no $series" >&2; return 1; }
	while read -r p _; do
		case $p in '' | '#'*) continue ;; esac
		case $p in */*) [ "${CS_RFC:-0}" = 1 ] || continue ;; esac
		[ -f "$PATCH_DIR/$p" ] || { echo "series names missing patch $p" >&2; return 1; }
		grep -q '^diff --git ' "$PATCH_DIR/$p" || continue
		echo "$PATCH_DIR/$p"
	done <"$series"
}

# The .c files the series touches (relative paths, sorted, deletions out).
cs_touched_c() {
	sed -n 's#^+++ b/\(.*\.c\)$#\1#p' "$@" | sort -u
}

# cs_extract DEST: a fresh pristine tree (mtime = now, so objects in kept
# O= folders are rebuilt; ccache keeps that cheap).
cs_extract() {
	local dest=$1
	rm -rf "$dest" "$dest.new" "$dest.id"
	mkdir -p "$dest.new"
	tar -x --touch --strip-components=1 -C "$dest.new" -f "$TARBALL" || return 1
	mv "$dest.new" "$dest"
}

# cs_tree_id PATCH...: what a tree with every patch applied is made of,
# one sha256 a line: the tarball, then each patch in series order.
cs_tree_id() {
	sha256sum "$TARBALL" "$@" | cut -d' ' -f1
}
# cs_tree_kept TREE PATCH...: TREE exists and TREE.id, written when the
# walk applied the last patch, names this tarball and these patches.
# A tree that is kept keeps its mtimes, so make resumes in the kept O=
# folders instead of recompiling every object (from ccache at best).
cs_tree_kept() {
	local tree=$1
	shift
	[ -d "$tree" ] && [ -f "$tree.id" ] &&
		cs_tree_id "$@" | cmp -s - "$tree.id"
}

# cs_apply TREE PATCH: apply strictly (no fuzz); fails without touching
# the tree when the patch does not apply.
cs_apply() {
	patch -d "$1" -p1 -F0 -N -s --dry-run <"$2" &&
		patch -d "$1" -p1 -F0 -N -s --no-backup-if-mismatch <"$2"
}

# cs_make TREE ARCH O ARGS...: the kernel's make with the fixed identity.
cs_make() {
	local tree=$1 arch=$2 o=$3
	shift 3
	case $arch in
	arm) make -C "$tree" O="$o" -j"$JOBS" ARCH=arm \
		CROSS_COMPILE=arm-linux-gnueabi- CC="ccache arm-linux-gnueabi-gcc" "$@" ;;
	x86_64) make -C "$tree" O="$o" -j"$JOBS" ARCH=x86_64 CC="ccache gcc" "$@" ;;
	*) echo "unknown arch $arch" >&2; return 1 ;;
	esac
}

# Can this tree's option be set to n yet? The option exists without a prompt
# (def_bool y) from the first patch on and gets its prompt with the patch
# that compiles fs/splice.c out; before that =n is =y.
cs_has_option() {
	awk '/^config SYSCALL_SPLICE$/ { o = 1; next }
	     o && /^(config|menuconfig|endmenu|menu|if|endif|source) / { o = 0 }
	     o && /^[ \t]+bool "/ { found = 1 }
	     END { exit !found }' "$1/init/Kconfig"
}

# cs_set_splice TREE ARCH O y|n: set the option, olddefconfig, and check the
# result really says so (it is 'if EXPERT': an =n that Kconfig silently
# drops would make a whole stage meaningless).
cs_set_splice() {
	local tree=$1 arch=$2 o=$3 v=$4 want
	if [ "$v" = y ]; then
		"$tree/scripts/config" --file "$o/.config" --enable SYSCALL_SPLICE
		want='^CONFIG_SYSCALL_SPLICE=y$'
	else
		"$tree/scripts/config" --file "$o/.config" --disable SYSCALL_SPLICE
		want='^# CONFIG_SYSCALL_SPLICE is not set$'
	fi
	cs_make "$tree" "$arch" "$o" olddefconfig || return 1
	grep -q "$want" "$o/.config" || {
		echo "CONFIG_SYSCALL_SPLICE=$v did not stick in $o/.config" >&2
		return 1
	}
}

# cs_config TREE ARCH O BASE [y|n|-]: BASE is a *config target
# (tinyconfig, vexpress_defconfig, allmodconfig) or "tiny" for the board's
# defconfig; '-' leaves the option alone (pristine trees).
cs_config() {
	local tree=$1 arch=$2 o=$3 base=$4 v=${5:--}
	mkdir -p "$o"
	if [ "$base" = tiny ]; then
		cp "$TINY_DEFCONFIG" "$o/.config"
		cs_make "$tree" "$arch" "$o" olddefconfig || return 1
	else
		cs_make "$tree" "$arch" "$o" "$base" || return 1
	fi
	# The option is 'if EXPERT'; vexpress_defconfig does not have it.
	if ! grep -q '^CONFIG_EXPERT=y' "$o/.config"; then
		"$tree/scripts/config" --file "$o/.config" --enable EXPERT
		cs_make "$tree" "$arch" "$o" olddefconfig || return 1
	fi
	[ "$v" = - ] && return 0
	cs_has_option "$tree" || return 0
	cs_set_splice "$tree" "$arch" "$o" "$v"
}

# cs_bloat_tree: a tree holding scripts/bloat-o-meter (the same script in
# every tree): BLOAT_TREE if set, else the check's tree, else the board's.
cs_bloat_tree() {
	local t
	for t in ${BLOAT_TREE:-} "$CS/linux" "$TOP/build/linux-6.1"; do
		[ -x "$t/scripts/bloat-o-meter" ] && { echo "$t"; return 0; }
	done
	echo "no scripts/bloat-o-meter found" >&2
	return 1
}
# cs_bloat TREE OLD NEW [CROSS-PREFIX] [noalias]: bloat-o-meter output; its
# net total is the number in the last parentheses of the "add/remove:" line.
# bloat-o-meter cannot parse nameless symbols (ARM assembly leaves some):
# it gets an nm that drops them, $CS/tools/<prefix>nm. With "noalias" that
# nm also drops weak aliases of another symbol's address
# (scripts/series/nm-noalias.sh), in $CS/tools/noalias/.
cs_bloat() {
	local dir=$CS/tools${5:+/$5} nm
	mkdir -p "$dir"
	nm=$dir/${4:-}nm
	if [ "${5:-}" = noalias ]; then
		printf '#!/bin/sh\nexec %s %snm "$@"\n' "$TOP/scripts/series/nm-noalias.sh" "${4:-}" >"$nm"
	else
		printf '#!/bin/sh\n%snm "$@" | awk %s\n' "${4:-}" "'NF == 3'" >"$nm"
	fi
	chmod +x "$nm"
	"$1/scripts/bloat-o-meter" -p "$dir/${4:-}" "$2" "$3"
}
cs_bloat_total() {
	sed -n 's/^add\/remove:.*(\(-\{0,1\}[0-9]*\))$/\1/p' "$1" | tail -n 1
}
