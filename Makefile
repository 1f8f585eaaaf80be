# The board, from Debian packages to a booted vexpress-a9 in QEMU:
#
#   deps -> extract -> patch -> configure -> build -> images -> boot -> measure
#
#   make board        build everything for both kernels (images/tiny, images/base)
#   make run-arm      boot the board in QEMU (VARIANT=tiny|base RAM= PORT= DEBUG_SHELL=1
#                     BOOT=direct|sd|tftp: QEMU's loader, or U-Boot from SD / over TFTP)
#   make measure-ram  what compiling out splice saves: sizes and RAM, side by side
#   make test         host tests and QEMU end-to-end tests: "N passed, N failed"
#   make test-blk     the block probe board (copy_file_range on ext2, =y and =n); CI runs it
#   make test-repro   the tiny kernel and U-Boot rebuilt elsewhere are byte-identical (long)
#   make lint         shellcheck, pyflakes and the C lint (make test runs them)
#   make audit        the syscalls init can make, and the Kconfig options it never needs
#                     (LINUX=6.12: against the 6.12 board, and the syscall allowlist
#                     of the trimmed board, make trim-board; mk/linux-6.12.mk)
#   make boot-bench   boot time to "ready": direct, U-Boot from SD, U-Boot over TFTP
#
# The audit on the kernel users start from (not part of make test):
#   make audit BASE=vexpress          audit init against vexpress_defconfig + EXPERT
#   make audit-board BASE=vexpress    images/vexpress (stock) and images/vexpress-trim
#   make measure-audit BASE=vexpress  both measured, and what each option saves
#   make test-stock                   both boards boot and serve; the report holds
#
# The audit on programs nobody here wrote (Debian source packages, mk/corpus.mk):
#   make test-audit   build, trace (qemu-arm -strace) and audit each; CI runs it
#
# Variants, all from kernel/configs/vexpress_tiny_defconfig:
#   tiny  the board as shipped (splice family compiled out once the series is in)
#   base  the same with CONFIG_SYSCALL_SPLICE=y
#   audit with AUDIT=1: tiny plus the =n fragment `make audit` wrote for init
#
# The same board on Linux 6.12, the v3 series (kernel/6.12/, mk/linux-6.12.mk):
#   make board LINUX=6.12     images/tiny-6.12 and images/base-6.12
#   make run-arm LINUX=6.12   boot images/$(VARIANT)-6.12
#   make test-6.12            their e2e and probe tests, and the flash board's
#                             (tests/linux-6.12, tests/e2e/*-6.12.sh); CI runs it
#                             (make test runs the tiny board's already)
#   make flash-board          images/tiny-flash-6.12 and base-flash-6.12: init and the
#                             served files on the NOR flash, in a romfs mounted as
#                             root (mk/flash.mk); run-arm LINUX=6.12 VARIANT=tiny-flash
#   make check-series LINUX=6.12   the maintainer's checks of the v3 series
#   make measure-kernels      6.1 and 6.12 in one table, with dead-code elimination
#                             and SLUB_TINY beside splice=n (images/measure-kernels.md)
TOP := $(CURDIR)
LINUX ?= 6.1
ifeq ($(LINUX),6.1)
LSUFFIX :=
else ifeq ($(LINUX),6.12)
LSUFFIX := -6.12
else
$(error LINUX=$(LINUX): use 6.1 (default) or 6.12)
endif
ifeq ($(LINUX)$(AUDIT),6.121)
$(error AUDIT=1 builds the 6.1 board's audit variant: leave LINUX=6.12 out)
endif
VARIANTS := tiny$(LSUFFIX) base$(LSUFFIX) $(if $(filter 1,$(AUDIT)),audit)
VARIANT ?= tiny
AUDIT_FRAGMENT := build/audit/audit.fragment

KSRC := build/linux-6.1
PATCHED := $(KSRC)/.patched
# The cover letter is not applied: editing it must not rebuild the kernels.
PATCHES := kernel/patches/series $(filter-out %/0000-cover-letter.patch,$(wildcard kernel/patches/*.patch))
DEFCONFIG := kernel/configs/vexpress_tiny_defconfig
ZIMAGE = build/kernel-$(1)/arch/arm/boot/zImage
INIT := build/app/arm/init
DTB := build/dtb/vexpress-tiny.dtb
INITRAMFS := build/initramfs/initramfs.cpio.gz
INITRAMFS_DEBUG := build/initramfs/initramfs-debug.cpio.gz
TESTFILES := build/rootfs/srv/test.bin
BUSYBOX := build/busybox/bin/busybox
MANIFESTS := $(foreach v,$(VARIANTS),images/$(v)/MANIFEST)
TOOLCHAIN_ID := build/toolchain.id

.PHONY: all board deps extract patch configure build images run-arm measure-ram test audit \
	defconfig-update clean distclean help FORCE
.DELETE_ON_ERROR:
.SECONDARY:

all: board
# build/toolchain.id first: make must see it before any kernel .config (a
# missing prerequisite does not trigger a rebuild under .SECONDARY).
board: $(TOOLCHAIN_ID) $(MANIFESTS)

# --- deps: Debian packages (installed as root, else the apt-get line) ------
deps:
	@scripts/board/deps.sh

# --- extract + patch: build/linux-6.1, re-made when the series changes -------
extract patch: $(PATCHED)
$(PATCHED): $(PATCHES) | deps
	@echo "kernel tree: extract linux-source-6.1, apply kernel/patches/series"
	@scripts/board/extract.sh

# --- configure: build/kernel-<variant>/.config, made again for every variant
# when the cross toolchain changes (its Kconfig probes are in the .config) ----
configure: $(TOOLCHAIN_ID) $(foreach v,$(VARIANTS),build/kernel-$(v)/.config)
$(TOOLCHAIN_ID): FORCE | $(PATCHED)
	@scripts/board/toolchain-id.sh $@
build/kernel-%/.config: $(DEFCONFIG) $(PATCHED) $(TOOLCHAIN_ID)
	@echo "kernel $*: configure"
	@scripts/board/configure.sh $*
build/kernel-audit/.config: $(AUDIT_FRAGMENT)
# base's build folder starts as a copy of tiny's (scripts/board/configure.sh):
# build tiny first.
build/kernel-base/.config: | build/kernel-tiny/arch/arm/boot/zImage

# --- build: zImage per variant (the kernel's make is entered only when
# the tree or the config changed) ---------------------------------------------
build: $(TOOLCHAIN_ID) $(foreach v,$(VARIANTS),$(call ZIMAGE,$(v)))
build/kernel-%/arch/arm/boot/zImage: build/kernel-%/.config
	@echo "kernel $*: build (full log in build/logs/build-$*.log)"
	@scripts/board/build.sh $*

# --- images: uImage, dtb, initramfs, uInitrd, manifest -----------------------
images: $(MANIFESTS)
images/%/MANIFEST: build/kernel-%/arch/arm/boot/zImage $(DTB) $(INITRAMFS) $(INITRAMFS_DEBUG) scripts/board/images.sh
	@scripts/board/images.sh $*

# Every board's .dtb (vexpress-tiny, and mk/flash.mk's vexpress-flash).
build/dtb/%.dtb: dts/%.dts $(PATCHED) scripts/board/dtb.sh
	@mkdir -p $(@D)
	@echo "  dtb        $@"
	@scripts/board/dtb.sh $< $@

$(TESTFILES): scripts/board/testfiles.sh
	@echo "  testfiles  build/rootfs/srv"
	@scripts/board/testfiles.sh build/rootfs/srv

# The init program: app/Makefile decides whether anything needs rebuilding;
# the initramfs is re-packed only when the binary really changed.
$(INIT): FORCE
	@$(MAKE) --no-print-directory -s app-arm

$(BUSYBOX): scripts/board/busybox.sh | deps
	@scripts/board/busybox.sh

build/initramfs/%.list: $(INIT) $(TESTFILES) scripts/board/initramfs-list.sh
	@mkdir -p $(@D)
	@scripts/board/initramfs-list.sh $(if $(findstring debug,$*),debug,board) \
		$(TOP)/$(INIT) $(TOP)/build/rootfs/srv > $@

$(INITRAMFS): build/initramfs/board.list $(PATCHED) scripts/board/initramfs.sh
	@echo "  initramfs  $@"
	@scripts/board/initramfs.sh $< build/initramfs/initramfs

$(INITRAMFS_DEBUG): build/initramfs/debug.list $(BUSYBOX) scripts/board/debug-inittab $(PATCHED) scripts/board/initramfs.sh
	@echo "  initramfs  $@ (debug: BusyBox shell)"
	@scripts/board/initramfs.sh $< build/initramfs/initramfs-debug

# --- audit: static syscall audit of init -> Kconfig fragment -----------------
# BASE=tiny (default): against the board's tiny config; BASE=vexpress:
# against the kernel's vexpress_defconfig + EXPERT (variants vexpress and
# vexpress-trim, the latter with the fragment).
BASE ?= tiny
STOCK_FRAGMENT := build/audit-vexpress/audit.fragment
# IMAGE=PATH: the whole root filesystem instead (a folder, cpio, cpio.gz or
# tar), linked as its own loader links it; PROGRAMS='prog...' names the
# product's programs (default: every executable). build/audit-image/ (BASE=
# vexpress: build/audit-image-vexpress/): report, fragment, PROGRAM.names.
ifneq ($(IMAGE),)
# LINUX=6.12: against the 6.12 tree and tiny-6.12's config, with the
# allowlist a trimmed board takes (build/audit-image-6.12/syscall.allow).
AUDIT_IMAGE_CONFIG := $(if $(filter 6.12,$(LINUX)),build/kernel-$(BASE)-6.12/.config build/linux-6.12/.patched,build/kernel-$(BASE)/.config)
audit: $(PATCHED) $(AUDIT_IMAGE_CONFIG)
	@AUDIT_IMAGE='$(IMAGE)' AUDIT_PROGRAMS='$(PROGRAMS)' AUDIT_BASE=$(BASE) AUDIT_LINUX=$(LINUX) scripts/audit/audit.sh
	@cat build/audit-image$(if $(filter vexpress,$(BASE)),-vexpress)$(if $(filter 6.12,$(LINUX)),-6.12)/report.txt
else ifeq ($(BASE)$(LINUX),tiny6.12)
audit: build/audit-6.12/syscalls.json
	@cat build/audit-6.12/report.txt
else ifeq ($(BASE),vexpress)
audit: $(STOCK_FRAGMENT)
	@cat build/audit-vexpress/report.txt
else ifeq ($(BASE),tiny)
audit: $(AUDIT_FRAGMENT)
	@cat build/audit/report.txt
else
audit:
	$(error BASE=$(BASE): use tiny (default) or vexpress)
endif
$(AUDIT_FRAGMENT): $(INIT) $(PATCHED) build/kernel-tiny/.config $(wildcard scripts/audit/*)
	@scripts/audit/audit.sh
$(STOCK_FRAGMENT): $(INIT) $(PATCHED) build/kernel-vexpress/.config $(wildcard scripts/audit/*)
	@AUDIT_BASE=vexpress scripts/audit/audit.sh
# AUDIT_ELFS=prog... audits other static ARM programs instead of init:
# always run again then.
$(AUDIT_FRAGMENT) $(STOCK_FRAGMENT): $(if $(AUDIT_ELFS),FORCE)
# The trimmed stock kernel starts from a copy of the stock build folder, so
# only what the fragment changes is compiled again.
build/kernel-vexpress-trim/.config: $(STOCK_FRAGMENT) build/kernel-vexpress/arch/arm/boot/zImage

STOCK_MANIFESTS := images/vexpress/MANIFEST images/vexpress-trim/MANIFEST
.PHONY: audit-board measure-audit test-stock
ifeq ($(BASE),vexpress)
audit-board: $(TOOLCHAIN_ID) $(STOCK_MANIFESTS)
measure-audit: audit-board
	@scripts/measure/stock.sh
else
audit-board measure-audit:
	$(error $@ needs BASE=vexpress (the tiny board's audit variant: make board AUDIT=1))
endif
test-stock: $(TOOLCHAIN_ID) $(STOCK_MANIFESTS)
	@TEST_DIRS=stock tests/run

# --- boot ----------------------------------------------------------------------
run-arm: images/$(VARIANT)$(LSUFFIX)/MANIFEST
	@VARIANT=$(VARIANT)$(LSUFFIX) scripts/board/run-arm.sh

# --- measure: splice built in against compiled out, side by side ----------------
measure-ram: board
	@AUDIT=$(AUDIT) scripts/measure/ram.sh

# --- test ----------------------------------------------------------------------
# Every prerequisite of make test, in the order they are made: the board,
# the host test programs (mk/app.mk) and the probe initramfs (mk/probe.mk).
# The 6.12 tiny board (mk/linux-6.12.mk), whose e2e and probe tests are in
# tests/e2e/ (*-6.12.sh): splice compiled out on the kernel where series v3
# lives, is one more cold kernel, about 6 minutes of both cores. tests/run
# builds it in the background at nice 19 while the 6.1 tests run (QEMU's
# TCG is one thread: most of them leave a core idle) and runs its tests
# last (TEST_BG, TEST_AFTER; its log: build/logs/tests/background.log).
# The 6.12 base and flash boards (two more kernels) are make test-6.12's.
TEST_612_BG := $(MAKE) --no-print-directory images/tiny-6.12/MANIFEST
test: board app-test-host probe-initramfs
	@TEST_BG='$(TEST_612_BG)' TEST_AFTER='e2e/*-6.12.sh' tests/run
# The block probe board: two more kernels (=y and =n, with BLOCK, MMC, ext2,
# io_uring), about 13 minutes from an empty ccache on 2 cores, so a target of
# its own, as check-series is; .ci/run runs it after make test.
# LINUX=6.12: the same on 6.12 with series v3 (check-series' block-device
# proof for v3); not in CI, whose 90 minutes the 6.1 targets nearly fill.
.PHONY: test-blk
test-blk: board probe-initramfs probe-blk
	@BLK_BOARD=1 BLK_LINUX=$(LINUX) TESTS='e2e/splice-blk.sh' tests/run
# tests/blk/build.sh needs the patched tree and the tiny board's dtb: make
# them first under make -j too.
probe-blk: $(TOOLCHAIN_ID) images/tiny$(LSUFFIX)/MANIFEST
# Reproducible builds: the tiny kernel and U-Boot built again in other
# folders without ccache are byte-identical (tests/repro). Two whole builds,
# about 11 minutes on 2 cores: a long check of its own, as check-series is,
# not part of make test.
.PHONY: test-repro
test-repro: board
	@TEST_DIRS=repro tests/run

# --- maintenance -------------------------------------------------------------
# Regenerate the committed defconfig from tinyconfig + the commented fragment
# (LINUX=6.12: mk/linux-6.12.mk's rule, kernel/6.12/configs/).
ifneq ($(LINUX),6.12)
defconfig-update: $(PATCHED)
	@scripts/board/defconfig-update.sh
endif

clean:
	rm -rf build/kernel-* build/initramfs build/app build/dtb build/rootfs build/audit build/u-boot build/uboot images

distclean:
	rm -rf build images

help:
	@sed -n '1,/^TOP :=/p' Makefile | sed '$$d'

FORCE:

# Targets of the parts: app (mk/app.mk), the probe (mk/probe.mk), kernel
# series checks (mk/series.mk), ...
# mk/cross.mk is the C toolchain the programs' own Makefiles include.
include $(sort $(filter-out mk/cross.mk,$(wildcard mk/*.mk)))
