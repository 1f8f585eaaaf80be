# The audit's corpus of third-party programs (issue 21), from Debian source
# packages, and the peers on the board.
#   make corpus      build them static for ARM with musl (build/corpus/, cached)
#   make test-audit  trace each under qemu-arm -strace and check the audit on
#                    it: recall, splice verdict, fragment (tests/audit)
.PHONY: corpus test-audit
corpus: | deps
	@scripts/build-corpus.sh

# Audited against the kernel users start from (BASE=vexpress's config): it has
# SYSCALL_SPLICE and MULTIUSER on, so the fragment has something to get wrong.
test-audit: $(TOOLCHAIN_ID) $(PATCHED) build/kernel-vexpress/.config $(TESTFILES) | deps
	@TEST_DIRS=audit tests/run
