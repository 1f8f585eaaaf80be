# boot.cmd: the source of boot.scr (mkimage -T script, scripts/mk-bootscr.sh).
# U-Boot's distro boot runs it from the SD card's boot partition
# (devtype mmc) or after DHCP over TFTP (devtype dhcp). It loads the three
# images to the addresses the preboot of uboot/vexpress-tiny.fragment sets,
# keeps the device tree's kernel command line (bootargs empty), and boots
# with bootm, which checks the CRC of each image before it starts it.
setenv bootargs
if test "${devtype}" = "dhcp"; then
	setenv bs_get 'tftpboot ${bs_addr} ${bs_file}'
else
	setenv bs_get 'load ${devtype} ${devnum}:${distro_bootpart} ${bs_addr} ${bs_file}'
fi
setenv bs_ok 1
# The loop variable is a shell variable; bs_file (for bs_get) is in the
# environment, which ${...} reads first, so the two need different names.
for f in uImage uInitrd vexpress-tiny.dtb; do
	if test "${bs_ok}" = "1"; then
		setenv bs_file ${f}
		if test "${bs_file}" = "uImage"; then setenv bs_addr ${kernel_addr_r}; fi
		if test "${bs_file}" = "uInitrd"; then setenv bs_addr ${ramdisk_addr_r}; fi
		if test "${bs_file}" = "vexpress-tiny.dtb"; then setenv bs_addr ${fdt_addr_r}; fi
		echo "boot.scr: loading ${bs_file} from ${devtype} to ${bs_addr}"
		if run bs_get; then
			true
		else
			echo "boot.scr: error: cannot load ${bs_file} from ${devtype}"
			setenv bs_ok 0
		fi
	fi
done
if test "${bs_ok}" = "1"; then
	bootm ${kernel_addr_r} ${ramdisk_addr_r} ${fdt_addr_r}
	echo "boot.scr: error: bootm refused the images (see above)"
fi
