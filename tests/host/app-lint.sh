#!/usr/bin/env bash
# The init program stays clean under cppcheck and clang-tidy (make app-lint,
# which installs both when missing).
. "$(dirname "$0")/../lib/common.sh"
check "app: cppcheck and clang-tidy report nothing" make -s -C "$TOP" --no-print-directory app-lint
