#!/usr/bin/env bash
# build-kernel.sh VARIANT: build vmlinux and zImage in build/kernel-VARIANT.
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/kbuild-env.sh"

variant=${1:?usage: build-kernel.sh tiny|base}
out=$TOP/build/kernel-$variant
[ -f "$out/.config" ] || die "$out/.config missing: run configure first"
phase build "build-$variant" "${KMAKE[@]}" O="$out" zImage
# Kbuild leaves zImage alone when nothing changed; mark it as up to date
# for the Makefile so the kernel's make is not entered next time.
touch "$out/arch/arm/boot/zImage"
