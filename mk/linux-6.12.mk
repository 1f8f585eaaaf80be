# mk/linux-6.12.mk - the board on Linux 6.12 (issue 25): Debian's
# linux-source-6.12 (6.12.118, bookworm-security) with the v3 series
# (kernel/6.12/patches), configured from kernel/6.12/configs/.
#   make board LINUX=6.12     images/tiny-6.12 (=n) and images/base-6.12 (=y)
#   make run-arm LINUX=6.12   boot images/tiny-6.12 (VARIANT=base: base-6.12)
#   make test-6.12            both boards' e2e and probe tests, and the flash board's
#                             (tests/e2e/*-6.12.sh, which make test runs too, and tests/linux-6.12)
# The 6.1 tree is still extracted: the dtb (the hardware is the same),
# gen_init_cpio and the toolchain probe come from the default kernel.
K612_SRC := build/linux-6.12
K612_PATCHED := $(K612_SRC)/.patched
K612_PATCHES := kernel/6.12/patches/series $(filter-out %/0000-cover-letter.patch,$(wildcard kernel/6.12/patches/*.patch kernel/6.12/patches/*/*.patch))
K612_DEFCONFIG := kernel/6.12/configs/vexpress_tiny_defconfig
K612_ENV = KSRC=$(TOP)/$(K612_SRC) DEFCONFIG=$(TOP)/$(K612_DEFCONFIG)
K612_MANIFESTS := images/tiny-6.12/MANIFEST images/base-6.12/MANIFEST
# The trimmed board's allowlist probe (below): its folder and initramfs.
NOSYS_DIR := build/probe/nosys
NOSYS_INITRD := $(NOSYS_DIR)/nosys.uInitrd

$(K612_PATCHED): $(K612_PATCHES) | deps
	@echo "kernel tree: extract linux-source-6.12, apply kernel/6.12/patches/series"
	@KERNEL_TARBALL=/usr/src/linux-source-6.12.tar.xz PATCH_DIR=$(TOP)/kernel/6.12/patches \
		KSRC_DEST=$(TOP)/$(K612_SRC) scripts/board/extract.sh

# A stem without "-6.12" is shorter, so these rules win over build/kernel-%.
build/kernel-%-6.12/.config: $(K612_DEFCONFIG) $(K612_PATCHED) $(TOOLCHAIN_ID)
	@echo "kernel $*-6.12: configure"
	@$(K612_ENV) scripts/board/configure.sh $*-6.12

build/kernel-%-6.12/arch/arm/boot/zImage: build/kernel-%-6.12/.config
	@echo "kernel $*-6.12: build (full log in build/logs/build-$*-6.12.log)"
	@$(K612_ENV) scripts/board/build.sh $*-6.12
# base-6.12's build folder starts as a copy of tiny-6.12's (configure.sh).
build/kernel-base-6.12/.config: | build/kernel-tiny-6.12/arch/arm/boot/zImage

# make defconfig-update LINUX=6.12: kernel/6.12/configs/vexpress_tiny_defconfig
# from 6.12's tinyconfig, the shared fragment and 6.12's own on top.
ifeq ($(LINUX),6.12)
defconfig-update: $(K612_PATCHED)
	@$(K612_ENV) DEFCONFIG_WORK=$(TOP)/build/defconfig-update-6.12 \
		EXTRA_FRAGMENTS=$(TOP)/kernel/6.12/configs/vexpress_tiny.fragment \
		scripts/board/defconfig-update.sh $(TOP)/$(K612_DEFCONFIG)
endif

# make test runs the tiny board's tests (tests/e2e/*-6.12.sh): the v3 series'
# =n on the board. The base board's and the flash board's (tests/linux-6.12)
# are two more cold kernels, about 14 minutes on 2 cores, which would take
# make test well past its 35 minutes: they are here, and .ci/run runs them
# after make test (TESTS='linux-6.12/*': not the tiny board's again).
# The flash board (mk/flash.mk) is its tiny kernel only; the trimmed board
# (below) is tiny-6.12's build folder relinked with its list, about 3 minutes.
# The XIP board (mk/xip.mk) is one more kernel (seeded from the flash
# board's folder, but XIP changes asm/memory.h, so nearly every object is
# compiled again) and one more U-Boot.
.PHONY: test-6.12
test-6.12: $(TOOLCHAIN_ID) $(K612_MANIFESTS) images/tiny-flash-6.12/MANIFEST probe-initramfs \
	images/trim-6.12/MANIFEST $(NOSYS_INITRD) images/tiny-xip-6.12/MANIFEST
	@TEST_DIRS="e2e linux-6.12" TESTS='$(or $(TESTS),*6.12*)' tests/run

# Both kernels in one table, with mainline's own tinification beside the
# series (scripts/measure/kernels.sh): three more 6.12 kernels, the -nodce
# ones without LD_DEAD_CODE_DATA_ELIMINATION (the 6.12 board has it),
# tiny-slub with SLUB_TINY=n; and the flash board (mk/flash.mk).
MEASURE_KERNEL_BOARDS := base tiny base-6.12 tiny-6.12 base-nodce-6.12 tiny-nodce-6.12 tiny-slub-6.12 tiny-flash-6.12 trim-6.12 \
	trim-flash-6.12
.PHONY: measure-kernels
measure-kernels: $(TOOLCHAIN_ID) $(foreach b,$(MEASURE_KERNEL_BOARDS),images/$(b)/MANIFEST)
	@MEASURE_KERNELS="$(MEASURE_KERNEL_BOARDS)" scripts/measure/kernels.sh

# The board trimmed to what init calls (issue 41): tiny-6.12 with
# CONFIG_SYSCALL_ALLOWLIST (kernel/6.12/patches, the last patch) naming the
# syscalls the audit finds in init against the 6.12 tree and tiny-6.12's
# config; every other entry of the table answers ENOSYS, and dead-code
# elimination drops what only they used. No allowlist when the audit fails
# closed: the board is then tiny-6.12's kernel, and configure says why.
#   make audit LINUX=6.12   build/audit-6.12/: report, fragment, syscall.allow
#   make trim-board         images/trim-6.12 (make run-arm LINUX=6.12 VARIANT=trim)
# The debug shell (DEBUG_SHELL=1) runs BusyBox, which the list does not
# cover: scripts/lib/qemu.sh boots it on tiny-6.12's kernel.
AUDIT612 := build/audit-6.12/syscalls.json
$(AUDIT612): $(INIT) $(K612_PATCHED) build/kernel-tiny-6.12/.config $(wildcard scripts/audit/*)
	@AUDIT_LINUX=6.12 scripts/audit/audit.sh
# Seeded from tiny-6.12's build folder (scripts/board/configure.sh): only
# the syscall table and the link are made again.
build/kernel-trim-6.12/.config: $(AUDIT612) build/kernel-tiny-6.12/arch/arm/boot/zImage
# The flash board (mk/flash.mk) with the same list: images/trim-flash-6.12,
# seeded from tiny-flash-6.12's folder (for its smallest RAM, docs/trim.md).
build/kernel-trim-flash-6.12/.config: $(AUDIT612) build/kernel-tiny-flash-6.12/arch/arm/boot/zImage \
	kernel/configs/vexpress_flash.fragment
.PHONY: trim-board
trim-board: $(TOOLCHAIN_ID) images/trim-6.12/MANIFEST images/trim-flash-6.12/MANIFEST

# The allowlist probe (tests/probe/nosys.c) as /init: every table entry the
# trimmed kernel's list leaves out must answer ENOSYS (tests/linux-6.12/trim.sh).
$(NOSYS_DIR)/nosys-table.h: build/kernel-trim-6.12/arch/arm/boot/zImage tests/probe/nosys-table.sh
	@mkdir -p $(@D)
	@if [ ! -f build/kernel-trim-6.12/syscall.allow ]; then \
		echo "nosys: build/kernel-trim-6.12 has no allowlist (build/audit-6.12/report.txt says why)" >&2; exit 1; fi
	@tests/probe/nosys-table.sh $(K612_SRC)/arch/arm/tools/syscall.tbl build/kernel-trim-6.12/syscall.allow >$@.tmp
	@mv $@.tmp $@
$(NOSYS_DIR)/nosys: tests/probe/nosys.c $(NOSYS_DIR)/nosys-table.h
	@$(MAKE) --no-print-directory -s -C tests/probe O=$(TOP)/$(NOSYS_DIR) TARGET=arm \
		NOSYS_TABLE=$(TOP)/$(NOSYS_DIR) $(TOP)/$@
$(NOSYS_INITRD): $(NOSYS_DIR)/nosys scripts/board/initramfs.sh | $(PATCHED)
	@printf '%s\n' 'dir /dev 0755 0 0' 'nod /dev/console 0600 0 0 c 5 1' \
		'file /init $(TOP)/$(NOSYS_DIR)/nosys 0755 0 0' >$(NOSYS_DIR)/initramfs.list
	@scripts/board/initramfs.sh $(NOSYS_DIR)/initramfs.list $(NOSYS_DIR)/nosys
.PHONY: nosys-initramfs
nosys-initramfs: $(NOSYS_INITRD)
