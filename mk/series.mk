# mk/series.mk - the kernel maintainer's checks of the CONFIG_SYSCALL_SPLICE
# series (kernel/patches). Its tests on the board are in mk/probe.mk.
# Included by the top-level Makefile; also usable alone: make -f mk/series.mk <target>
#
#   check-series     scripts/series/check.sh: apply, checkpatch, bisect, ...
#                    select stages with CHECKS="apply checkpatch bisect"
#                    LINUX=6.12: series v3.1 (kernel/6.12/) on linux-source-6.12,
#                    in build/check-series-6.12/ (without the allowlist/
#                    RFC the series file also lists; CS_RFC=1 adds it)
TOP ?= $(CURDIR)
LINUX ?= 6.1

# What differs on 6.12: the patches, the tarball, the board's defconfig,
# the folders, and the tiny target (6.1's saving, issue 25).
CS_ENV_6.1 :=
CS_ENV_6.12 := PATCH_DIR=$(TOP)/kernel/6.12/patches \
	KERNEL_TARBALL=/usr/src/linux-source-6.12.tar.xz KERNEL_PKG=linux-source-6.12 \
	TINY_DEFCONFIG=$(TOP)/kernel/6.12/configs/vexpress_tiny_defconfig \
	CS_DIR=$(TOP)/build/check-series-6.12 TINY_TARGET=9060

.PHONY: check-series

check-series:
	$(CS_ENV_$(LINUX)) $(TOP)/scripts/series/check.sh
