#!/usr/bin/env bash
# make lint's shell and Python parts: shellcheck at warning level and
# pyflakes find nothing in the project's own files (scripts/lint.sh). The
# C part, make app-lint, is tests/host/app-lint.sh.
. "$(dirname "$0")/../lib/common.sh"
echo "1..2"
check "lint: shellcheck -S warning finds nothing in any shell script" \
	make -s -C "$TOP" --no-print-directory lint-sh
check "lint: pyflakes finds nothing in any Python file" \
	make -s -C "$TOP" --no-print-directory lint-py
