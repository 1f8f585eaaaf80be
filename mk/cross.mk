# mk/cross.mk - the C toolchain of the board's own programs, for
# TARGET=arm (static ARM with musl, from musl-dev:armel) or TARGET=host.
# Included by app/Makefile, tests/probe/Makefile and tests/selftests/Makefile
# (the kernel and U-Boot have their own builds):
#   include $(dir $(lastword $(MAKEFILE_LIST)))<path to>/mk/cross.mk
#
# In:   TARGET (arm|host); optionally ARM_CFLAGS (default -Os) and
#       ARM_LDFLAGS (default -static), set before the include
# Out:  CC, AR, STRIP, ARCH_FLAGS, CFLAGS, LDFLAGS (each overridable from
#       the command line, as before), WARN, CSTD and
#       ALL_CFLAGS = ARCH_FLAGS CSTD WARN CFLAGS EXTRA_CFLAGS;
#       CROSS_MK, this file, for rules that rebuild when it changes
CROSS_MK := $(lastword $(MAKEFILE_LIST))

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wformat=2
CSTD := -std=c11 -D_GNU_SOURCE

ifeq ($(TARGET),arm)
CROSS ?= arm-linux-gnueabi-
MUSL_SPECS ?= /usr/lib/arm-linux-musleabi/musl-gcc.specs
ifeq ($(origin CC),default)
CC := $(CROSS)gcc
endif
AR := $(CROSS)ar
STRIP ?= $(CROSS)strip
ARM_CFLAGS ?= -Os
ARM_LDFLAGS ?= -static
CFLAGS ?= $(ARM_CFLAGS)
ARCH_FLAGS := -specs=$(MUSL_SPECS)
LDFLAGS ?= $(ARM_LDFLAGS)
else ifeq ($(TARGET),host)
CFLAGS ?= -O2 -g
ARCH_FLAGS :=
LDFLAGS ?=
STRIP ?= strip
else
$(error TARGET must be arm or host)
endif

ALL_CFLAGS := $(ARCH_FLAGS) $(CSTD) $(WARN) $(CFLAGS) $(EXTRA_CFLAGS)
