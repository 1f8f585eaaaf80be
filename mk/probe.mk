# mk/probe.mk - the splice probe and the kernel's splice selftests, the
# tests of the CONFIG_SYSCALL_SPLICE series on the board.
# Included by the top-level Makefile; also usable alone: make -f mk/probe.mk <target>
#
#   probe-initramfs  build/probe/probe.uInitrd (+ .cpio.gz): the splice probe
#                    as /init plus the kernel's splice selftests (static ARM,
#                    musl). `make test` depends on this (tests/e2e/splice-*.sh).
#   probe-host       native probe + selftests in build/probe/host (sanity run:
#                    make probe-host-run; it never touches the network)
#   probe-blk        the block probe board (below)
TOP ?= $(CURDIR)

PROBE_BUILD := $(TOP)/build/probe
PROBE_KTAR ?= /usr/src/linux-source-6.1.tar.xz
# The selftest sources: the pipeline's extracted (and patched) tree when
# there is one, otherwise that folder and kselftest.h out of the Debian
# tarball, with the series' selftest patch applied.
PROBE_KSRC_TREE := $(TOP)/build/linux-6.1/tools/testing/selftests/splice
PROBE_KSRC_OWN := $(PROBE_BUILD)/ksrc/tools/testing/selftests/splice
PROBE_ST_SRC := $(if $(wildcard $(PROBE_KSRC_TREE)/splice_read.c),$(PROBE_KSRC_TREE),$(PROBE_KSRC_OWN))
PROBE_SRCS := $(wildcard $(TOP)/tests/probe/*.[ch]) $(TOP)/tests/probe/Makefile
ST_SRCS := $(TOP)/tests/selftests/splice_trace.c $(TOP)/tests/selftests/Makefile

.PHONY: probe-initramfs probe-arm probe-host probe-host-run selftests-arm \
	selftests-host probe-clean

probe-arm:
	$(MAKE) -C $(TOP)/tests/probe O=$(PROBE_BUILD)/arm TARGET=arm

probe-host: selftests-host
	$(MAKE) -C $(TOP)/tests/probe O=$(PROBE_BUILD)/host TARGET=host

PROBE_ST_PATCH := $(wildcard $(TOP)/kernel/patches/*-selftests-splice-*.patch)
$(PROBE_KSRC_OWN)/splice_read.c: $(PROBE_ST_PATCH)
	rm -rf $(PROBE_BUILD)/ksrc
	mkdir -p $(PROBE_BUILD)/ksrc
	tar -xJf $(PROBE_KTAR) -C $(PROBE_BUILD)/ksrc --strip-components=1 \
		--wildcards '*/tools/testing/selftests/splice' \
		'*/tools/testing/selftests/kselftest.h'
	$(if $(PROBE_ST_PATCH),patch -d $(PROBE_BUILD)/ksrc -p1 -F0 -s <$(PROBE_ST_PATCH))
	touch $@

selftests-arm: $(PROBE_ST_SRC)/splice_read.c
	$(MAKE) -C $(TOP)/tests/selftests SRC=$(PROBE_ST_SRC) O=$(PROBE_BUILD)/selftests-arm TARGET=arm

selftests-host: $(PROBE_ST_SRC)/splice_read.c
	$(MAKE) -C $(TOP)/tests/selftests SRC=$(PROBE_ST_SRC) O=$(PROBE_BUILD)/selftests-host TARGET=host

probe-host-run: probe-host
	$(PROBE_BUILD)/host/probe $(PROBE_BUILD)/selftests-host

probe-initramfs: probe-arm selftests-arm
	$(TOP)/tests/probe/initramfs-list.sh $(PROBE_BUILD)/arm/probe \
		$(PROBE_BUILD)/selftests-arm >$(PROBE_BUILD)/initramfs.list.tmp
	mv $(PROBE_BUILD)/initramfs.list.tmp $(PROBE_BUILD)/initramfs.list
	$(TOP)/scripts/board/initramfs.sh $(PROBE_BUILD)/initramfs.list $(PROBE_BUILD)/probe

probe-clean:
	rm -rf $(PROBE_BUILD)

# The block probe board (tests/blk/build.sh, tests/e2e/splice-blk.sh):
# two more kernels (tiny + block layer, SD controller, ext2; =n and =y), an
# SD image (mke2fs, e2fsprogs) and blkprobe as /init. `make test-blk` runs it;
# LINUX=6.12 builds the 6.12 kernels (build/kernel-blk-{n,y}-6.12).
.PHONY: probe-blk
probe-blk: probe-arm selftests-arm
	@EXTRA_PKGS="e2fsprogs" $(TOP)/scripts/board/deps.sh
	BLK_LINUX=$(LINUX) $(TOP)/tests/blk/build.sh
