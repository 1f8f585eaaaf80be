# The audit's corpus of third-party programs (issue 21), from Debian source
# packages, and the peers on the board.
#   make corpus      build them static for ARM with musl (build/corpus/, cached)
#   make debian-image  Debian 12 armel binary packages exactly as downloaded
#                    (lighttpd, dropbear-bin, busybox, pv, coreutils, curl
#                    and their libraries), unpacked into build/debian-image/
#   make test-audit  trace each under qemu-arm -strace and check the audit on
#                    it: recall, splice verdict, fragment; the same for the
#                    Debian binaries (tests/audit/debian.sh: traced, fail
#                    closed, sound); boot the peers and check the audit's
#                    verdicts against the boards (tests/audit)
.PHONY: corpus test-audit debian-image
corpus: | deps
	@scripts/corpus/build.sh
debian-image: | deps
	@scripts/corpus/debian-image.sh

# Audited against the kernel users start from (BASE=vexpress's config): it has
# SYSCALL_SPLICE and MULTIUSER on, so the fragment has something to get wrong.
# PEERS_MULTIUSER=1 (see peers below) adds the mini-httpd case on tiny-mu/base-mu,
# four boots. Their kernels are the block probe board's (make test-blk), which
# tests/blk/blk.fragment builds with MULTIUSER=y for this: a board of their
# own would be two more near-whole kernels (about 13 min cold on 2 cores).
# Off by default (docs/audit.md has the mini-httpd results); CI sets it.
PEERS_MULTIUSER ?= 0
PEERS_MU_IMAGES := $(if $(filter 1,$(PEERS_MULTIUSER)),images/tiny-mu/MANIFEST images/base-mu/MANIFEST)
# images/tiny-mu: build/kernel-blk-n's kernel (=n), images/base-mu:
# build/kernel-blk-y's (=y), with the tiny board's dtb and initramfs.
images/tiny-mu/MANIFEST images/base-mu/MANIFEST: probe-blk $(DTB) $(INITRAMFS) $(INITRAMFS_DEBUG) scripts/board/images.sh
	@KOUT=$(TOP)/build/kernel-blk-$(if $(filter images/tiny-mu/%,$@),n,y) \
		scripts/board/images.sh $(patsubst images/%/MANIFEST,%,$@)
test-audit: board build/peers/peer-init build/kernel-vexpress/.config $(PEERS_MU_IMAGES) | deps
	@PEERS_MULTIUSER=$(PEERS_MULTIUSER) TEST_DIRS=audit tests/run

# --- peers: the corpus's HTTP servers as the board's only program ----------
#   make peers   boot each (peers/servers.txt) on images/tiny and images/base
#                beside this project's init; table in images/peers.md, .json
.PHONY: peers
PEER_INIT := build/peers/peer-init
$(PEER_INIT): peers/peer-init.c
	@mkdir -p $(@D)
	@echo "  peer-init  $@"
	@arm-linux-gnueabi-gcc -specs=/usr/lib/arm-linux-musleabi/musl-gcc.specs \
		-std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Os -static -o $@ $<

#   make peers PEERS_MULTIUSER=1   also images/tiny-mu and images/base-mu
#                (MULTIUSER=y), where mini-httpd, which drops privileges, starts
peers: board $(PEER_INIT) build/kernel-vexpress/.config $(PEERS_MU_IMAGES)
	@scripts/corpus/build.sh $$(awk '!/^#/ && NF { print $$1 }' peers/servers.txt)
	@PEERS_MULTIUSER=$(PEERS_MULTIUSER) scripts/corpus/peers.sh
	@scripts/corpus/peers-render.py
