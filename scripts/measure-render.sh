#!/usr/bin/env bash
# measure-render.sh DATA OUT_PREFIX: measure-ram's report, written by
# measure-render.py (this name stays until scripts/ is laid out by stage).
exec "$(dirname "$0")/measure-render.py" "$@"
