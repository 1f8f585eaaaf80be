#!/usr/bin/env bash
# Unit tests of the server's parser, paths, ranges and transfer loop.
set -u
. "$(dirname "$0")/../lib.sh"
make -s -C "$TOP" -f mk/app.mk app-test-host >/dev/null || { not_ok "app: build host tests"; exit 1; }
"$TOP/build/app/test/unit" || true
"$TOP/build/app/test/xfer_test" || true
