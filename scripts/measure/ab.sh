#!/usr/bin/env bash
# measure/ab.sh A.uInitrd B.uInitrd STEP...: two initramfs (two versions of
# the init program) booted side by side, at the same time and so under the
# same host load, on the same kernel images (images/VARIANT/uImage, or
# MEASURE_AB_IMAGES/VARIANT/uImage), through scripts/measure/boot.sh.
# Builds nothing. Steps:
#   edge:KIB:ROUNDS[:WORDS]     tiny at -m KIB KiB, 64 clients at once
#   serve:VARIANT:ROUNDS[:WORDS] -m 32M, 3 fetches one after the other, then
#                               16 at once (measure-ram's serving rows)
# WORDS are added to the kernel command line (srv_fallback=mmap,
# initramfs_async=0, ...). Rounds are interleaved across the steps (round 1
# of every step, then round 2, ...) so that a change in the host's load
# hits every step alike. With FREE_PORTS=LOW-HIGH, A's QEMU takes its port
# from the lower half and B's from the upper half. One line per boot on stdout: served, reason, the
# boot's Memory: available and reserved KiB, the banner's free RAM, free
# RAM after the fetches, the lowest free RAM under load, how many of the
# clients got the right bytes, and every peak RSS the stats lines printed.
# Key=value files: build/measure-ab/NAME.env; consoles:
# build/logs/qemu/ab-*.log.
# Make an initramfs from app/ at another commit with
#   scripts/measure/ab-initrd.sh COMMIT NAME     (-> build/ab/NAME.uInitrd)
# or from any init with:
#   scripts/board/initramfs-list.sh board INIT build/rootfs/srv >L
#   scripts/board/initramfs.sh L PREFIX          (-> PREFIX.uInitrd)
set -u
[ $# -ge 3 ] || { echo "usage: $0 A.uInitrd B.uInitrd STEP..." >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
declare -A initrd=([a]=$1 [b]=$2)
shift 2
images=${MEASURE_AB_IMAGES:-$top/images}
res=$top/build/measure-ab
mkdir -p "$res"
for f in "${initrd[@]}"; do [ -f "$f" ] || { echo "measure-ab: no $f" >&2; exit 2; }; done

# ports SIDE: the half of FREE_PORTS that SIDE's QEMU takes its port from.
ports() {
	local lo hi mid
	[[ ${FREE_PORTS:-} =~ ^([0-9]+)-([0-9]+)$ ]] || { echo "${FREE_PORTS:-}"; return; }
	lo=${BASH_REMATCH[1]} hi=${BASH_REMATCH[2]} mid=$(((BASH_REMATCH[1] + BASH_REMATCH[2]) / 2))
	if [ "$1" = a ]; then echo "$lo-$mid"; else echo "$((mid + 1))-$hi"; fi
}

# boot SIDE VARIANT RAM NAME SERVES CLIENTS WORDS
boot() {
	FREE_PORTS=$(ports "$1") KERNEL=$images/$2/uImage DTB=$images/$2/vexpress-tiny.dtb INITRD=${initrd[$1]} \
		MEASURE_CLIENTS=$6 MEASURE_BOOTARGS=$7 \
		"$top/scripts/measure/boot.sh" "$2" "$3" "$4" "$5" >"$res/$4.env" 2>"$res/$4.err"
}

# line NAME: the figures of one boot on one line.
line() {
	local env=$res/$1.env log rss
	log=$top/$(sed -n 's/^log=//p' "$env")
	rss=$(grep -ao 'peak RSS [0-9]* KiB' "$log" 2>/dev/null | awk '{ print $3 }' | paste -sd, -)
	echo "$1: $(grep -E '^(served|reason|mem_available_k|reserved_k|app_free_k|app_after_free_k|load_good|load_low_free_k)=' "$env" |
		tr '\n' ' ')peak_rss_k=${rss:-none}"
}

most=0
for step in "$@"; do
	IFS=: read -r kind what rounds words <<<"$step"
	[[ $kind =~ ^(edge|serve)$ && $rounds =~ ^[0-9]+$ ]] || { echo "measure-ab: bad step '$step'" >&2; exit 2; }
	[ "$rounds" -gt "$most" ] && most=$rounds
done

rc=0
for r in $(seq "$most"); do
	for step in "$@"; do
		IFS=: read -r kind what rounds words <<<"$step"
		[ "$r" -le "$rounds" ] || continue
		tag=${words:+-${words//[^a-z0-9]/}}
		declare -A name=()
		for side in a b; do
			case $kind in
			edge)
				name[$side]=ab-edge$tag-$side-${what}K-$r
				boot "$side" tiny "${what}K" "${name[$side]}" 0 64 "${words:-}" &
				;;
			serve)
				name[$side]=ab-serve-$what$tag-$side-$r
				boot "$side" "$what" 32 "${name[$side]}" 3 16 "${words:-}" &
				;;
			*) echo "measure-ab: bad step '$step'" >&2; exit 2 ;;
			esac
		done
		wait
		for side in a b; do
			line "${name[$side]}"
			grep -q '^served=1' "$res/${name[$side]}.env" || rc=1
		done
	done
done
exit $rc
