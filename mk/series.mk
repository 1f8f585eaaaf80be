# mk/series.mk - the kernel maintainer's checks of the CONFIG_SYSCALL_SPLICE
# series (kernel/patches). Its tests on the board are in mk/probe.mk.
# Included by the top-level Makefile; also usable alone: make -f mk/series.mk <target>
#
#   check-series     scripts/series/check.sh: apply, checkpatch, bisect, ...
#                    select stages with CHECKS="apply checkpatch bisect"
TOP ?= $(CURDIR)

.PHONY: check-series

check-series:
	$(TOP)/scripts/series/check.sh
