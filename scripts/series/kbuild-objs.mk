# kbuild-objs.mk: print the objects one kernel directory builds under a
# configuration, the way Kbuild reads them (scripts/Makefile.lib's
# real-search: obj-y, obj-m and lib-y, each composite object expanded one
# level through its -objs/-y/-m lists). Subdirectories are not followed.
#   make -s -f kbuild-objs.mk TREE=<source> O=<build dir> DIR=<relative dir>
# Later assignments override earlier ones, as in Kbuild; a Makefile this
# cannot read makes make fail, and the caller then compiles the file anyway.
include $(O)/include/config/auto.conf
srctree := $(TREE)
objtree := $(O)
src := $(DIR)
obj := $(DIR)
include $(or $(wildcard $(TREE)/$(DIR)/Kbuild),$(TREE)/$(DIR)/Makefile)

kbo-parts = $(strip $(foreach s,$2,$($(1:.o=$s))))
kbo-real = $(foreach m,$1,$(or $(call kbo-parts,$m,-objs -y -m),$m))

.DEFAULT_GOAL := kbuild-objs
.PHONY: kbuild-objs
kbuild-objs:
	@echo $(filter %.o,$(call kbo-real,$(obj-y) $(obj-m) $(lib-y)))
