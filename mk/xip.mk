# mk/xip.mk - the XIP board (issue 42): the flash board (mk/flash.mk) whose
# kernel executes in place from the NOR flash, booted by U-Boot from the same
# flash, with no loader in front of it (docs/xip.md).
#   make xip-board    images/tiny-xip-6.12
#   make run-arm LINUX=6.12 VARIANT=tiny-xip   boots it (scripts/lib/qemu.sh:
#                     a folder with flash0.img boots with BOOT=nor)
#   make measure-xip  its smallest RAM, with and without issue 42's RAM
#                     choices (tiny-xip-17-6.12: one more kernel, not in CI)
# The first bank (flash0.img): U-Boot (uboot/vexpress-xip.fragment), the
# .dtb (dts/vexpress-xip.dts) and the xipImage (scripts/board/xip-flash.sh);
# the second (flash1.img): the flash board's romfs.
XIP_DTB := build/dtb/vexpress-xip.dtb
UBOOT_XIP_BIN := build/u-boot-xip/u-boot.bin
XIP_BOARDS := tiny-xip-6.12 tiny-xip-17-6.12
XIP_MANIFESTS := $(foreach b,$(XIP_BOARDS),images/$(b)/MANIFEST)

.PHONY: xip-board measure-xip
xip-board: $(TOOLCHAIN_ID) images/tiny-xip-6.12/MANIFEST

# Made by the Makefile's build/dtb/%.dtb rule; it includes the tiny board's.
$(XIP_DTB): dts/vexpress-tiny.dts

# Debian's source with uboot/patches-xip applied to a copy (scripts/uboot/build.sh).
$(UBOOT_XIP_BIN): $(UBOOT_SRC) uboot/vexpress-xip.fragment $(wildcard uboot/patches-xip/*.patch) scripts/uboot/build.sh
	@echo "u-boot: build the XIP board's (full log in build/logs/uboot-xip-build.log)"
	@UBOOT_OUT=$(TOP)/build/u-boot-xip UBOOT_LOG=uboot-xip UBOOT_PATCHES=$(TOP)/uboot/patches-xip \
		UBOOT_FRAGMENT=$(TOP)/uboot/vexpress-xip.fragment scripts/uboot/build.sh

# Seeded from the flash board's build folder, and the -17 one from this one
# (scripts/board/configure.sh), so those are built first.
build/kernel-tiny-xip-6.12/.config: kernel/configs/vexpress_flash.fragment kernel/configs/vexpress_xip.fragment \
	build/kernel-tiny-flash-6.12/arch/arm/boot/zImage
build/kernel-tiny-xip-17-6.12/.config: kernel/configs/vexpress_flash.fragment kernel/configs/vexpress_xip.fragment \
	kernel/configs/vexpress_kram17.fragment build/kernel-tiny-xip-6.12/arch/arm/boot/xipImage

build/kernel-%-6.12/arch/arm/boot/xipImage: build/kernel-%-6.12/.config
	@echo "kernel $*-6.12: build (full log in build/logs/build-$*-6.12.log)"
	@$(K612_ENV) scripts/board/build.sh $*-6.12

$(XIP_MANIFESTS): images/%/MANIFEST: build/kernel-%/arch/arm/boot/xipImage $(XIP_DTB) $(FLASH_IMG) \
	$(UBOOT_XIP_BIN) scripts/board/images.sh scripts/board/xip-flash.sh
	@scripts/board/images.sh $*

measure-xip: $(TOOLCHAIN_ID) $(XIP_MANIFESTS)
	@scripts/measure/xip.sh
