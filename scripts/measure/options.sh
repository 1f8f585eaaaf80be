#!/usr/bin/env bash
# measure/options.sh FROM_DIR FRAGMENT WORK: what each option of FRAGMENT
# saves, from one kernel build per option.
#
# FROM_DIR is a kernel build folder with its vmlinux built (the stock
# kernel). A copy of it, WORK/chain, gets the fragment's options turned off
# one at a time, in the fragment's order, with vmlinux built after each;
# bloat-o-meter compares every build with the one before it. The figures add
# up to the whole fragment's saving exactly. Each is what that option saves
# with the options before it already off: code that two options share is
# counted for the later one (the report says so).
#
# Prints key=value lines:
#   options=A B ...            in the order measured (MEASURE_OPTIONS_ORDER
#                              gives another order of the same options)
#   option_A_deferred=1        A=n did not hold where it came (an option
#                              still on selects it: RSEQ selects MEMBARRIER),
#                              so A was tried again after all the others
#   option_A_delta=N           bloat-o-meter delta (bytes; negative = saved)
#   option_A_line=...          its add/remove line
#   option_A_text=N            vmlinux text after turning A off
#   option_A_held=1|0          A really is off after olddefconfig (0: something
#                              selects it even after its retry, and the delta
#                              is that of nothing)
#   option_A_seconds=N         the build's time
#   chain_config=PATH          the last .config, for the caller to compare
# Full logs in build/logs/$MEASURE_LOGS/option-A.log.
# Exit status: 0; 1 a build failed; 2 usage.
set -eu -o pipefail
[ $# -eq 3 ] || { echo "usage: $0 FROM_DIR FRAGMENT WORK" >&2; exit 2; }
# Absolute paths: the kernel's make runs in its source tree, where a
# relative O= would name another (empty) folder.
from=$(realpath "$1") frag=$(realpath "$2") work=$(realpath -m "$3")
here=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/lib/kbuild.sh
. "$here/../lib/kbuild.sh"
logs=$TOP/build/logs/${MEASURE_LOGS:-measure-stock}
size=${CROSS_COMPILE}size
[ -f "$from/vmlinux" ] || { echo "measure-options: no $from/vmlinux" >&2; exit 2; }
[ -f "$frag" ] || { echo "measure-options: no $frag" >&2; exit 2; }
mapfile -t opts < <(sed -n 's/^# CONFIG_\([A-Za-z0-9_]*\) is not set$/\1/p' "$frag")
[ ${#opts[@]} -gt 0 ] || { echo "measure-options: $frag turns nothing off" >&2; exit 2; }
# MEASURE_OPTIONS_ORDER: the same options in another order (cheap ones
# first, when the run may be cut short).
if [ -n "${MEASURE_OPTIONS_ORDER:-}" ]; then
	read -ra order <<<"$MEASURE_OPTIONS_ORDER"
	if [ "$(printf '%s\n' "${order[@]}" | sort)" != "$(printf '%s\n' "${opts[@]}" | sort)" ]; then
		echo "measure-options: MEASURE_OPTIONS_ORDER must name the fragment's options: ${opts[*]}" >&2
		exit 2
	fi
	opts=("${order[@]}")
fi
mkdir -p "$logs"

chain=$work/chain
rm -rf "$chain"
mkdir -p "$work"
echo "measure-options: copy ${from#"$TOP"/} (time stamps kept: the builds are incremental)" >&2
cp -a "$from" "$chain"
cp "$chain/vmlinux" "$work/prev.vmlinux"

queue=("${opts[@]}") measured=() deferred=" "
while [ ${#queue[@]} -gt 0 ]; do
	o=${queue[0]}
	queue=("${queue[@]:1}")
	log=$logs/option-$o.log
	start=$SECONDS
	echo "measure-options: $o=n, building vmlinux (log ${log#"$TOP"/})" >&2
	if ! {
		"$KSRC/scripts/config" --file "$chain/.config" --disable "$o" &&
			"${KMAKE[@]}" O="$chain" olddefconfig &&
			"${KMAKE[@]}" O="$chain" vmlinux
	} >"$log" 2>&1; then
		echo "measure-options: the build with $o=n failed; last lines of $log:" >&2
		tail -n 20 "$log" | sed 's/^/  | /' >&2
		exit 1
	fi
	held=0
	if grep -qx "# CONFIG_$o is not set" "$chain/.config" || ! grep -q "^CONFIG_$o=" "$chain/.config"; then
		held=1
	fi
	if [ $held = 0 ] && [ ${#queue[@]} -gt 0 ] && [[ $deferred != *" $o "* ]]; then
		# Something still on selects it (Kconfig put it back): try it
		# again once the others are off. Nothing changed, so prev.vmlinux
		# stays the one to compare with.
		echo "measure-options: $o=n does not hold yet (selected by an option still on); again after ${queue[*]}" >&2
		echo "option_${o}_deferred=1"
		deferred+="$o "
		queue+=("$o")
		continue
	fi
	measured+=("$o")
	echo "option_${o}_held=$held"
	"$here/bloat.sh" "$KSRC" "$work/prev.vmlinux" "$chain/vmlinux" \
		"$work/option-$o.bloat.txt" 3 2>/dev/null |
		sed -n "s/^bloat_delta=/option_${o}_delta=/p; s/^bloat_line=/option_${o}_line=/p"
	echo "option_${o}_text=$("$size" -B "$chain/vmlinux" | awk 'NR == 2 { print $1 }')"
	echo "option_${o}_seconds=$((SECONDS - start))"
	cp "$chain/vmlinux" "$work/prev.vmlinux"
done
echo "options=${measured[*]}"
echo "chain_config=$chain/.config"
