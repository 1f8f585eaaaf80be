# shellcheck shell=bash
# The kernel build environment, shared by every script that runs the
# kernel's make: cross compiler, reproducible build identity, ccache.
export ARCH=arm
export CROSS_COMPILE=arm-linux-gnueabi-
# shellcheck source=scripts/lib/kbuild-id.sh
. "$TOP/scripts/lib/kbuild-id.sh"
# KSRC: the kernel tree; build/linux-6.1 (the default kernel) unless set,
# e.g. KSRC=$TOP/build/linux-6.12 for the 6.12 series (kernel/6.12/).
KSRC=${KSRC:-$TOP/build/linux-6.1}
KMAKE=(make -C "$KSRC" -j"${JOBS:-$(nproc)}")
if command -v ccache >/dev/null 2>&1 && [ "${USE_CCACHE:-1}" = 1 ]; then
	KMAKE+=(CC="ccache ${CROSS_COMPILE}gcc")
fi
