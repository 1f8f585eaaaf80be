#!/usr/bin/env bash
# measure/config-normalize.sh FILE: a kernel .config as "CONFIG_X=value" lines,
# sorted and unique, with "# CONFIG_X is not set" as CONFIG_X=n. Comments
# and blank lines are dropped, so two configs compare with cmp, comm or diff.
set -eu -o pipefail
[ $# -eq 1 ] || { echo "usage: $0 FILE" >&2; exit 2; }
[ -f "$1" ] || { echo "config-normalize: no $1" >&2; exit 2; }
sed -n -e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' \
	-e '/^CONFIG_[A-Za-z0-9_]*=/p' "$1" | LC_ALL=C sort -u
