# mk/flash.mk - the flash board (issue 25's smallest-RAM target): the 6.12
# board with init and the files it serves on the NOR flash, in a romfs the
# kernel mounts as root, instead of in an initramfs unpacked into RAM.
#   make flash-board    images/tiny-flash-6.12 (=n) and images/base-flash-6.12 (=y)
#   make run-arm LINUX=6.12 VARIANT=tiny-flash   boots it (scripts/lib/qemu.sh
#                       boots a folder with flash.img from the flash)
# The kernels are the 6.12 board's with kernel/configs/vexpress_flash.fragment
# (MTD, CFI flash, romfs); the .dtb is dts/vexpress-flash.dts.
FLASH_DTB := build/dtb/vexpress-flash.dtb
FLASH_IMG := build/flash/flash.img
FLASH_BOARDS := tiny-flash-6.12 base-flash-6.12
FLASH_MANIFESTS := $(foreach b,$(FLASH_BOARDS),images/$(b)/MANIFEST)

.PHONY: flash-board
flash-board: $(TOOLCHAIN_ID) $(FLASH_MANIFESTS)

$(foreach b,$(FLASH_BOARDS),build/kernel-$(b)/.config): kernel/configs/vexpress_flash.fragment

# Made by the Makefile's build/dtb/%.dtb rule; it includes the tiny board's.
$(FLASH_DTB): dts/vexpress-tiny.dts

$(FLASH_IMG): $(INIT) $(TESTFILES) scripts/board/flash-image.sh | deps
	@mkdir -p $(@D)
	@scripts/board/flash-image.sh $@ $(INIT) $(dir $(TESTFILES))

# The stem ("tiny") is shorter than images/%/MANIFEST's, so this rule wins.
images/%-flash-6.12/MANIFEST: build/kernel-%-flash-6.12/arch/arm/boot/zImage $(FLASH_DTB) $(FLASH_IMG) scripts/board/images.sh
	@scripts/board/images.sh $*-flash-6.12
