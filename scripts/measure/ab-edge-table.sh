#!/usr/bin/env bash
# measure/ab-edge-table.sh [-b] [DIR]: the edge boots of scripts/measure/ab.sh
# (DIR, default build/measure-ab: ab-edge[-WORDS]-SIDE-KIBK-ROUND.env and the
# consoles they name) as one markdown table: per RAM size, kernel words and
# side, how many boots served 64 clients and how each other boot died.
# With -b, one line per boot instead. A boot's death, from its console:
#   silent         no kernel output at all (boot.sh's first-line limit): the
#                  kernel died before its console was registered (with
#                  earlycon=pl011,0x10009000 such a boot shows its death)
#   unpack-oom:COMM  kernel panic after an OOM invoked by COMM (the unpack's
#                  kworker, or swapper: PID 1 running the initcalls) while
#                  the initramfs was being unpacked ("Unpacking
#                  initramfs..." printed, "Freeing initrd memory" not yet)
#   oom-panic:COMM kernel panic after an OOM invoked by COMM, any other time
#   panic:TEXT     another kernel panic ("not syncing: TEXT")
#   init-died      /init printed its banner but never "ready"
#   load:REASON    ready, then the 64 clients did not all get test.bin
#   other:REASON   anything else (boot.sh's reason)
set -u
per_boot=0
[ "${1:-}" = -b ] && { per_boot=1; shift; }
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$top/build/measure-ab}
[ -d "$dir" ] || { echo "ab-edge-table: no $dir" >&2; exit 2; }

# death ENV: how the boot of ENV ended (ready when it served).
death() {
	local env=$1 log comm
	grep -q '^served=1' "$env" && { echo ready; return; }
	log=$top/$(sed -n 's/^log=//p' "$env")
	[ -f "$log" ] || { echo other:no_console_log; return; }
	if grep -aq '^fileserver: ready' "$log"; then
		echo "load:$(sed -n 's/^reason=//p' "$env" | tr ' ' _)"
	elif grep -aq 'Kernel panic' "$log"; then
		comm=$(grep -ao '^[^ ]* invoked oom-killer' "$log" | head -n 1 | cut -d' ' -f1)
		if [ -n "$comm" ] && grep -aq '^Unpacking initramfs' "$log" &&
			! grep -aq '^Freeing initrd memory' "$log"; then
			echo "unpack-oom:${comm%%/*}"
		elif [ -n "$comm" ]; then
			echo "oom-panic:$comm"
		else
			echo "panic:$(grep -ao 'not syncing: .*' "$log" | head -n 1 | cut -c 14- | tr -d '\r' | tr ' ' _)"
		fi
	elif grep -aq '^fileserver:' "$log"; then
		echo init-died
	elif ! grep -aq '^Booting Linux' "$log"; then
		echo silent
	else
		echo "other:$(sed -n 's/^reason=//p' "$env" | tr ' ' _)"
	fi
}

# One line per boot: RAM words side round death
boots() {
	local env n words side kib round
	for env in "$dir"/ab-edge*.env; do
		grep -q '^served=' "$env" 2>/dev/null || continue # not ended yet
		n=$(basename "$env" .env)
		[[ $n =~ ^ab-edge(-[a-z0-9]+)?-([ab])-([0-9]+)K-([0-9]+)$ ]] || continue
		words=${BASH_REMATCH[1]#-} side=${BASH_REMATCH[2]} kib=${BASH_REMATCH[3]} round=${BASH_REMATCH[4]}
		echo "$kib ${words:--} $side $round $(death "$env")"
	done | sort -k1,1n -k2,2 -k3,3 -k4,4n
}

if [ "$per_boot" = 1 ]; then
	boots
	exit
fi
echo "| RAM (KiB) | kernel words | side | boots | served 64 | failed | how the failures died |"
echo "|---:|---|---|---:|---:|---:|---|"
boots | awk '
	{ k = $1 " " $2 " " $3
	  if (!(k in n)) order[++m] = k
	  n[k]++
	  if ($5 == "ready") ok[k]++
	  else { d[k, $5]++; if (!((k, $5) in seen)) { seen[k, $5] = 1; kinds[k] = kinds[k] " " $5 } } }
	END {
		for (i = 1; i <= m; i++) {
			k = order[i]; split(k, f, " ")
			s = ""; c = split(kinds[k], w, " ")
			for (j = 1; j <= c; j++) s = s (s == "" ? "" : ", ") d[k, w[j]] " " w[j]
			printf "| %s | %s | %s | %d | %d | %d | %s |\n", f[1], f[2], f[3], n[k], ok[k] + 0, n[k] - ok[k], s
		}
	}'
