# shellcheck shell=bash
# The reproducible identity of every kernel build (the board's, and the
# series checks' for ARM and x86_64): the one place that sets it.
export KBUILD_BUILD_TIMESTAMP='2024-01-01 00:00:00 UTC'
export KBUILD_BUILD_USER=board
export KBUILD_BUILD_HOST=board
export KBUILD_BUILD_VERSION=1
