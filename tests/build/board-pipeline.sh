#!/usr/bin/env bash
# The pipeline's guards: a wrong patch in the series stops the build with
# the patch's name and leaves no half-patched tree; the defconfig canonical
# check rejects a defconfig that olddefconfig would change; a no-change
# rebuild does no work. The rebuild in another folder (byte-identical
# vmlinux) is a whole kernel build: tests/repro/kernel.sh, `make test-repro`.
. "$(dirname "$0")/../lib/common.sh"
work=$TOP/build/test-pipeline
rm -rf "$work"
mkdir -p "$work/patches"

# --- a patch that does not apply ---------------------------------------
cat >"$work/patches/0001-bogus.patch" <<'EOP'
--- a/Makefile
+++ b/Makefile
@@ -1,3 +1,3 @@
 # this context is not in the kernel's Makefile
-VERSION = 5
+VERSION = 7
 PATCHLEVEL = 1
EOP
echo 0001-bogus.patch >"$work/patches/series"
out=$(PATCH_DIR=$work/patches KSRC_DEST=$work/linux "$TOP/scripts/board/extract.sh" 2>&1)
rc=$?
echo "$out"
check "a patch that does not apply fails the build" test "$rc" -ne 0
check "the failure names the patch" grep -q "patch '0001-bogus.patch' does not apply" <<<"$out"
check "no half-patched tree is left behind" test ! -e "$work/linux" -a ! -e "$work/linux.new"

echo 0002-missing.patch >"$work/patches/series"
out=$(PATCH_DIR=$work/patches KSRC_DEST=$work/linux "$TOP/scripts/board/extract.sh" 2>&1)
rc=$?
echo "$out"
check "a series entry without a file fails, naming it" \
	bash -c '[ "$0" -ne 0 ] && grep -q "0002-missing.patch" <<<"$1"' "$rc" "$out"

# --- the defconfig canonical check -------------------------------------
cp "$TOP/kernel/configs/vexpress_tiny_defconfig" "$work/defconfig"
echo CONFIG_PRINTK=y >>"$work/defconfig"   # a default: savedefconfig drops it
out=$(DEFCONFIG=$work/defconfig KOUT=$work/kernel "$TOP/scripts/board/configure.sh" tiny 2>&1)
rc=$?
echo "$out"
check "a non-canonical defconfig is rejected" test "$rc" -ne 0
check "the rejection says why and how to fix it" grep -q "is not canonical.*defconfig-update" <<<"$out"
out=$(KOUT=$work/kernel "$TOP/scripts/board/configure.sh" tiny 2>&1)
rc=$?
echo "$out"
check "the committed defconfig is canonical" test "$rc" -eq 0

# --- the defconfig is what the commented fragment makes --------------------
if "$TOP/scripts/board/defconfig-update.sh" "$work/from-fragment" >"$work/dcu.log" 2>&1; then
	check "the committed defconfig is what tinyconfig + the fragment make" \
		diff -u "$TOP/kernel/configs/vexpress_tiny_defconfig" "$work/from-fragment"
else
	cat "$work/dcu.log"
	not_ok "the committed defconfig is what tinyconfig + the fragment make (fragment rejected)"
fi

# --- nothing changed, nothing done --------------------------------------
make -C "$TOP" --no-print-directory board # settle anything a colleague changed
out=$(make -C "$TOP" --no-print-directory board 2>&1)
echo "$out"
check "make board with nothing changed does no work" test -z "$out"

rm -rf "$work"
