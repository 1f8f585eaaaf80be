# mk/lint.mk - static checks of the project's own code.
# Included by the top-level Makefile.
#
#   lint      all three below; make test runs each (tests/host/lint.sh,
#             tests/host/app-lint.sh)
#   lint-sh   shellcheck -S warning on every shell script (scripts/lint.sh)
#   lint-py   pyflakes on every Python file (scripts/lint.sh)
#   app-lint  cppcheck + clang-tidy on app/ (mk/app.mk)
.PHONY: lint lint-sh lint-py

lint: lint-sh lint-py app-lint

lint-sh lint-py: | deps
	@$(TOP)/scripts/lint.sh $(@:lint-%=%)
