#!/usr/bin/env bash
# Reproducible kernel: the tiny board's .config built again in another
# folder, without ccache, gives a byte-identical vmlinux (the fixed build
# identity is scripts/lib/kbuild-id.sh). A whole kernel build, about
# 6 minutes on 2 cores, so `make test-repro` runs it, not `make test`:
# with ccache the objects would come from the first folder's build and
# could hide a path that leaks into them.
# timeout: 2400
. "$(dirname "$0")/../lib/common.sh"
work=$TOP/build/test-repro-kernel
rm -rf "$work"
mkdir -p "$work"
USE_CCACHE=0
. "$TOP/scripts/lib/kbuild.sh"
cp "$TOP/build/kernel-tiny/.config" "$work/.config"
if nice -n 10 "${KMAKE[@]}" O="$work" olddefconfig vmlinux >"$work.log" 2>&1; then
	check "a rebuild in another folder, without ccache, gives a byte-identical vmlinux" \
		cmp "$work/vmlinux" "$TOP/build/kernel-tiny/vmlinux"
else
	tail -n 20 "$work.log"
	not_ok "a rebuild in another folder, without ccache, gives a byte-identical vmlinux (build failed, log: ${work#"$TOP"/}.log)"
fi
rm -rf "$work"
