#!/usr/bin/env bash
# board/build.sh VARIANT: build vmlinux and zImage in build/kernel-VARIANT
# (xipImage instead for a kernel that executes in place, CONFIG_XIP_KERNEL:
# Kbuild refuses zImage there).
# While the build runs, one line a minute says how many objects were
# compiled, against the object count of the last full build when there was
# one (build/.kernel-objects-VARIANT), so a first build is not silent for minutes.
set -eu
. "$(dirname "$0")/../lib/common.sh"
. "$TOP/scripts/lib/kbuild.sh"

variant=${1:?usage: board/build.sh VARIANT (tiny, base, tiny-6.12, ...)}
out=$TOP/build/kernel-$variant
log=$LOGS/build-$variant.log
count_file=$TOP/build/.kernel-objects-$variant
[ -f "$out/.config" ] || die "$out/.config missing: run configure first"

# progress LOG TOTAL: every PROGRESS_EVERY seconds (default 60), one line.
progress() {
	local total=$2 every=${PROGRESS_EVERY:-60} start=$SECONDS n pct
	while :; do
		# shellcheck disable=SC2217 # no terminal or pipe held open by sleep
		sleep "$every" >/dev/null 2>&1 </dev/null
		n=$(grep -cE '^  (CC|AS) ' "$1" 2>/dev/null) || n=0
		if [ "$total" -gt 0 ]; then
			pct=$((n * 100 / total))
			[ "$pct" -gt 99 ] && pct=99
			printf '  %-10s %d of ~%d objects (%d%%), %dm%02ds\n' build "$n" "$total" \
				"$pct" $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60))
		else
			printf '  %-10s %d objects compiled, %dm%02ds\n' build "$n" \
				$(((SECONDS - start) / 60)) $(((SECONDS - start) % 60))
		fi
	done
}
progress "$log" "$(cat "$count_file" 2>/dev/null || echo 0)" &
progress_pid=$!
trap 'kill "$progress_pid" 2>/dev/null || true' EXIT

image=zImage
grep -qx 'CONFIG_XIP_KERNEL=y' "$out/.config" && image=xipImage
phase build "build-$variant" "${KMAKE[@]}" O="$out" "$image"
# Objects of a full build, for the next first build's progress lines.
find "$out" -name '*.o' | wc -l >"$count_file"
# Kbuild leaves zImage alone when nothing changed; mark it as up to date
# for the Makefile so the kernel's make is not entered next time.
touch "$out/arch/arm/boot/$image"
