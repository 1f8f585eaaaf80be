# mk/uboot.mk - U-Boot and the boot chain of a real board (uboot/).
# Included by the top-level Makefile.
#
#   uboot        build/u-boot/u-boot.bin: Debian's u-boot source package,
#                vexpress_ca9x4_defconfig + uboot/vexpress-tiny.fragment
#   bootscr      build/uboot/boot.scr from uboot/boot.cmd
#   boot-bench   boot time to "ready": direct, U-Boot from SD, U-Boot over
#                TFTP (tests/bench/boot-time.sh; reported, not tested)
#
# images/<variant>/ gets u-boot.bin, boot.scr and sdcard.img from
# scripts/board/images.sh; `make run-arm BOOT=sd|tftp` boots them.
UBOOT_SRC := build/u-boot-src/.extracted
UBOOT_BIN := build/u-boot/u-boot.bin
BOOTSCR := build/uboot/boot.scr

.PHONY: uboot bootscr boot-bench

uboot: $(UBOOT_BIN)
bootscr: $(BOOTSCR)

# Re-extracted when the version (uboot/debian-version) or the scripts
# change; rebuilt when the fragment or the build script changes. U-Boot's
# make is not entered otherwise.
$(UBOOT_SRC): uboot/debian-version scripts/uboot/fetch.sh scripts/uboot/extract.sh | deps
	@echo "u-boot: fetch and extract Debian's u-boot $$(cat uboot/debian-version)"
	@scripts/uboot/extract.sh

$(UBOOT_BIN): $(UBOOT_SRC) uboot/vexpress-tiny.fragment scripts/uboot/build.sh
	@echo "u-boot: build (full log in build/logs/uboot-build.log)"
	@scripts/uboot/build.sh

$(BOOTSCR): uboot/boot.cmd scripts/uboot/bootscr.sh | deps
	@mkdir -p $(@D)
	@echo "  boot.scr   $@"
	@scripts/uboot/bootscr.sh $< $@

# The images of every variant carry the boot chain.
$(MANIFESTS): $(UBOOT_BIN) $(BOOTSCR) scripts/uboot/sdcard.sh

boot-bench: board
	@tests/bench/boot-time.sh
