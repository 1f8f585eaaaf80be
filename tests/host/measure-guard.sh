#!/usr/bin/env bash
# measure-ram's .config guard (scripts/measure/config.sh), on synthetic
# config files in a temp folder: only CONFIG_SYSCALL_SPLICE may differ
# (tiny: not set, base: =y). And measure-ram itself refuses such a pair
# before it boots anything, leaving no report behind.
. "$(dirname "$0")/../lib/common.sh"
guard=$TOP/scripts/measure/config.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/measure-guard.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

common() {
	cat <<'EOF'
#
# Automatically generated file; DO NOT EDIT.
# Linux/arm 6.1.192 Kernel Configuration
#
CONFIG_CC_VERSION_TEXT="arm-linux-gnueabi-gcc (Debian 12.2.0-14) 12.2.0"
CONFIG_MMU=y
CONFIG_CMDLINE="console=ttyAMA0 a=b"
# CONFIG_PROC_FS is not set
CONFIG_LOG_BUF_SHIFT=12
EOF
}
common >"$tmp/plain"
{ common; echo "# CONFIG_SYSCALL_SPLICE is not set"; } >"$tmp/tiny"
{ common; echo "CONFIG_SYSCALL_SPLICE=y"; } >"$tmp/base"
# Comments and blank lines only: still the same configuration.
{ echo "# a comment"; echo; common | sed '/^#$/d'; echo "CONFIG_SYSCALL_SPLICE=y"; echo; } >"$tmp/base-comments"
# base with one more symbol changed, one only on one side, a changed string.
sed 's/^# CONFIG_PROC_FS is not set/CONFIG_PROC_FS=y/' "$tmp/base" >"$tmp/base-procfs"
{ cat "$tmp/base"; echo "CONFIG_EXTRA=y"; } >"$tmp/base-extra"
sed 's/a=b/a=c/' "$tmp/base" >"$tmp/base-cmdline"
# base configured after libc6-dev-armel-cross came: Kconfig's link probes flip.
{ cat "$tmp/base"; echo "CONFIG_CC_CAN_LINK=y"; echo "CONFIG_CC_CAN_LINK_STATIC=y"; } >"$tmp/base-canlink"

run() { "$guard" "$@" >"$tmp/out" 2>"$tmp/err"; }

check "guard: identical configs pass, series_applied=false" \
	bash -c "'$guard' '$tmp/plain' '$tmp/plain' | grep -qx series_applied=false"
check "guard: splice only (tiny not set, base =y) passes, series_applied=true" \
	bash -c "'$guard' '$tmp/tiny' '$tmp/base' | grep -qx series_applied=true"
check "guard: comments and blank lines are ignored" \
	bash -c "'$guard' '$tmp/tiny' '$tmp/base-comments' | grep -qx series_applied=true"
check "guard: prints both config sha256" \
	bash -c "'$guard' '$tmp/tiny' '$tmp/base' | grep -Ec '^config_sha256_(tiny|base)=[0-9a-f]{64}\$' | grep -qx 2"

run "$tmp/tiny" "$tmp/base-procfs"
rc=$?
check "guard: rejects a pair that also differs in CONFIG_PROC_FS (exit 1, got $rc)" [ "$rc" = 1 ]
check "guard: names the other symbol" grep -q 'CONFIG_PROC_FS n y' "$tmp/err"
check "guard: prints no series_applied when it rejects" bash -c "! grep -q series_applied '$tmp/out'"
run "$tmp/tiny" "$tmp/base-extra"
rc=$?
check "guard: rejects a symbol set on one side only (exit $rc)" [ "$rc" = 1 ]
check "guard: names it as absent on tiny" grep -q 'CONFIG_EXTRA - y' "$tmp/err"
run "$tmp/tiny" "$tmp/base-cmdline"
check "guard: rejects a string value that differs after an '='" [ $? = 1 ]
run "$tmp/tiny" "$tmp/base-canlink"
rc=$?
check "guard: rejects configs made with different toolchains (exit $rc)" [ "$rc" = 1 ]
check "guard: says the toolchain changed and to run make board" \
	bash -c "grep -q 'only toolchain probes differ' '$tmp/err' && grep -q \"run 'make board'\" '$tmp/err'"
check "guard: no toolchain hint when a real option differs" \
	bash -c "'$guard' '$tmp/tiny' '$tmp/base-procfs' 2>&1 | grep -vq 'only toolchain probes differ'"
run "$tmp/base" "$tmp/tiny"
rc=$?
check "guard: rejects splice the wrong way round (tiny =y, base not set)" [ "$rc" = 1 ]
run "$tmp/tiny" "$tmp/missing"
check "guard: a missing file is a usage error (exit 2)" [ $? = 2 ]

# The entry point: the guard runs first, no boot, no report.
out=$tmp/report/measure-ram
MEASURE_TINY_CONFIG=$tmp/tiny MEASURE_BASE_CONFIG=$tmp/base-procfs MEASURE_OUT=$out \
	MEASURE_WORK=$tmp/work MEASURE_LOGS=measure-test-guard \
	"$TOP/scripts/measure/ram.sh" >"$tmp/mr.out" 2>&1
rc=$?
cat "$tmp/mr.out"
check "measure-ram: refuses configs that differ in another symbol (exit $rc)" [ "$rc" -ne 0 ]
check "measure-ram: says why (the guard's message)" grep -q 'differ in more than CONFIG_SYSCALL_SPLICE' "$tmp/mr.out"
check "measure-ram: writes no report after refusing" \
	bash -c "! ls '$out'.md '$out'.json '$out'.svg 2>/dev/null | grep -q ."
check "measure-ram: booted nothing (stopped at the config phase)" \
	bash -c "! grep -q '^  boot ' '$tmp/mr.out'"
