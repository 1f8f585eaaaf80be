# shellcheck shell=bash
# The kernel build environment, shared by every script that runs the
# kernel's make: cross compiler, reproducible build identity, ccache.
export ARCH=arm
export CROSS_COMPILE=arm-linux-gnueabi-
export KBUILD_BUILD_TIMESTAMP='2024-01-01 00:00:00 UTC'
export KBUILD_BUILD_USER=board
export KBUILD_BUILD_HOST=board
export KBUILD_BUILD_VERSION=1
# KSRC: the kernel tree; build/linux-6.1 (the default kernel) unless set,
# e.g. KSRC=$TOP/build/linux-6.12 for the 6.12 series (kernel/6.12/).
KSRC=${KSRC:-$TOP/build/linux-6.1}
KMAKE=(make -C "$KSRC" -j"${JOBS:-$(nproc)}")
if command -v ccache >/dev/null 2>&1 && [ "${USE_CCACHE:-1}" = 1 ]; then
	KMAKE+=(CC="ccache ${CROSS_COMPILE}gcc")
fi
