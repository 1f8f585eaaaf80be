# mk/app.mk - the board's init (app/), its host tests and its fuzz target.
# Included by the top-level Makefile; also usable alone: make -f mk/app.mk <target>
#
#   app-arm        build/app/arm/init        static ARM (musl), stripped
#   app-host       build/app/host/fileserver native build of the same sources
#   app-test-host  everything tests/host/app-*.sh need (unit tests, seccomp
#                  launcher, server linked with a sendfile test double)
#   app-lint       cppcheck + clang-tidy (default checks) over app/; the one
#                  check turned off asks for C11 Annex K *_s functions, which
#                  neither musl nor glibc provide
#   fuzz           libFuzzer on the request parser, bounded (FUZZ_TIME s);
#                  tests/host/app-fuzz.sh runs it in make test
#   fuzz-build     only build the fuzz target
#   app-bench      benchmark in QEMU, reported not tested (needs images/)
TOP ?= $(CURDIR)

APP_BUILD := $(TOP)/build/app
APP_TEST := $(APP_BUILD)/test
APP_TSRC := $(TOP)/tests/host/app
APP_HOSTLIB := $(APP_BUILD)/host/libapp.a
APP_TCFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g \
	-Wall -Wextra -Werror -I$(TOP)/app -I$(APP_TSRC)
APP_TEST_BINS := $(APP_TEST)/unit $(APP_TEST)/xfer_test $(APP_TEST)/nosendfile \
	$(APP_TEST)/fileserver-wrap $(APP_TEST)/head_test $(APP_TEST)/fileserver-wrap-poll \
	$(APP_TEST)/fileserver-wrap-sysinfo $(APP_TEST)/conform_test \
	$(APP_TEST)/fileserver-wrap-fstatat

APP_FUZZ := $(APP_BUILD)/fuzz
FUZZ_TIME ?= 30
FUZZ_CC ?= clang
APP_FUZZ_SRCS := $(addprefix $(TOP)/app/,http.c httpdate.c path.c range.c log.c)

.PHONY: app-arm app-host app-test-host app-test-bins app-lint fuzz fuzz-build app-bench app-clean

app-arm:
	$(MAKE) -C $(TOP)/app O=$(APP_BUILD)/arm TARGET=arm

app-host:
	$(MAKE) -C $(TOP)/app O=$(APP_BUILD)/host TARGET=host

# The test binaries link the host library: build it first, then relink what
# changed (a second run does nothing).
app-test-host: app-host
	$(MAKE) -f $(TOP)/mk/app.mk TOP=$(TOP) app-test-bins

app-test-bins: $(APP_TEST_BINS)

$(APP_TEST):
	mkdir -p $@

$(APP_TEST)/unit: $(APP_TSRC)/app_unit.c $(APP_TSRC)/app_tap.h $(APP_HOSTLIB) | $(APP_TEST)
	$(CC) $(APP_TCFLAGS) -o $@ $< $(APP_HOSTLIB)

$(APP_TEST)/xfer_test: $(APP_TSRC)/app_xfer_test.c $(APP_TSRC)/app_tap.h $(APP_HOSTLIB) | $(APP_TEST)
	$(CC) $(APP_TCFLAGS) -Wl,--wrap=sendfile,--wrap=mmap -o $@ $< $(APP_HOSTLIB)

$(APP_TEST)/conform_test: $(APP_TSRC)/app_conform_test.c $(APP_TSRC)/app_tap.h $(APP_HOSTLIB) | $(APP_TEST)
	$(CC) $(APP_TCFLAGS) -o $@ $< $(APP_HOSTLIB)

$(APP_TEST)/head_test: $(APP_TSRC)/app_head_test.c $(APP_TSRC)/app_tap.h $(APP_HOSTLIB) | $(APP_TEST)
	$(CC) $(APP_TCFLAGS) -o $@ $< $(APP_HOSTLIB)

$(APP_TEST)/fileserver-wrap-poll: $(APP_TSRC)/app_wrap_poll.c $(APP_HOSTLIB) | $(APP_TEST)
	$(CC) $(APP_TCFLAGS) -Wl,--wrap=poll,--wrap=nanosleep,--wrap=clock_nanosleep -o $@ $< \
		$(APP_BUILD)/host/obj/main.o $(APP_HOSTLIB)

# A small board's RAM as sysinfo reports it (tests/host/app-mutants.sh).
$(APP_TEST)/fileserver-wrap-sysinfo: $(APP_TSRC)/app_wrap_sysinfo.c $(APP_HOSTLIB) | $(APP_TEST)
	$(CC) $(APP_TCFLAGS) -Wl,--wrap=sysinfo -o $@ $< \
		$(APP_BUILD)/host/obj/main.o $(APP_HOSTLIB)

# A FIFO swapped in after the type check (tests/host/app-mutants.sh).
$(APP_TEST)/fileserver-wrap-fstatat: $(APP_TSRC)/app_wrap_fstatat.c $(APP_HOSTLIB) | $(APP_TEST)
	$(CC) $(APP_TCFLAGS) -Wl,--wrap=fstatat -o $@ $< \
		$(APP_BUILD)/host/obj/main.o $(APP_HOSTLIB)

$(APP_TEST)/nosendfile: $(APP_TSRC)/app_nosendfile.c | $(APP_TEST)
	$(CC) $(APP_TCFLAGS) -o $@ $<

$(APP_TEST)/fileserver-wrap: $(APP_TSRC)/app_wrap_sendfile.c $(APP_HOSTLIB) | $(APP_TEST)
	$(CC) $(APP_TCFLAGS) -Wl,--wrap=sendfile -o $@ $< \
		$(APP_BUILD)/host/obj/main.o $(APP_HOSTLIB)

app-lint:
	@EXTRA_PKGS="cppcheck clang-tidy" $(TOP)/scripts/board/deps.sh
	cppcheck --quiet --error-exitcode=1 --std=c11 -D_GNU_SOURCE \
		--enable=warning,performance,portability \
		--suppress=missingIncludeSystem $(TOP)/app/*.c
	clang-tidy --quiet --warnings-as-errors='*' \
		--checks='-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling' \
		$(TOP)/app/*.c -- \
		-std=c11 -D_GNU_SOURCE -I$(TOP)/app

$(APP_FUZZ)/fuzz_http: $(TOP)/tests/fuzz/app_fuzz_http.c $(APP_FUZZ_SRCS) $(wildcard $(TOP)/app/*.h)
	@EXTRA_PKGS="clang libclang-rt-14-dev" $(TOP)/scripts/board/deps.sh
	mkdir -p $(APP_FUZZ)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -g -O1 -I$(TOP)/app \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ $< $(APP_FUZZ_SRCS)

fuzz-build: $(APP_FUZZ)/fuzz_http

# New inputs go to build/, the seed corpus in tests/fuzz/corpus stays as is.
fuzz: $(APP_FUZZ)/fuzz_http
	mkdir -p $(APP_FUZZ)/corpus $(APP_FUZZ)/artifacts
	$(APP_FUZZ)/fuzz_http -max_total_time=$(FUZZ_TIME) -timeout=5 \
		-rss_limit_mb=1024 -max_len=9000 -print_final_stats=1 \
		-artifact_prefix=$(APP_FUZZ)/artifacts/ \
		$(APP_FUZZ)/corpus $(TOP)/tests/fuzz/corpus

app-bench: app-arm
	$(TOP)/tests/bench/app-bench.sh

app-clean:
	rm -rf $(APP_BUILD)

# Mutation pass over app/ (tests/mutate/run.py): one-spot slips from
# tests/mutate/mutants.tsv, each built in a scratch copy (build/mutate/tree)
# and run against the host app tests; not part of make test (about an
# hour). MUTANTS=id,id picks some.
.PHONY: mutate
mutate:
	$(TOP)/tests/mutate/run.py $(if $(MUTANTS),--only $(MUTANTS))
