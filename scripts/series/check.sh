#!/usr/bin/env bash
# check-series.sh: what a kernel maintainer runs before taking the
# CONFIG_SYSCALL_SPLICE series (kernel/patches/series) on linux-source 6.1,
# or with mk/series.mk's LINUX=6.12 environment series v3.1
# (kernel/6.12/patches/series) on linux-source 6.12. The series file's
# patches in a subfolder (allowlist/, an RFC of its own on top) are left
# out unless CS_RFC=1 (scripts/series/lib.sh, cs_patches).
#
# Stages (CHECKS="..." selects, default all but allmodlink, in this order):
#   apply       every patch applies in order (patch -F0: no fuzz) to a fresh
#               extract of the Debian tarball in build/check-series/linux
#   checkpatch  scripts/checkpatch.pl --strict on each patch; a remaining
#               message passes only if its TYPE is named in that patch's
#               commit message (the justification the issue asks for)
#   bisect      the tiny board (kernel/configs/vexpress_tiny_defconfig)
#               with CONFIG_SYSCALL_SPLICE=y and =n after every patch
#               (=n only once the option exists), vmlinux each time
#   tiny        the same, only pristine and after the last patch (implied
#               by bisect; a cheap subset for CI)
#   vexpress    ARM vexpress_defconfig (+EXPERT) with =n: vmlinux + modules
#   x86         x86_64 tinyconfig pristine (before the first patch), with =y
#               and with =n: vmlinux
#   multiv7     ARM multi_v7_defconfig (+EXPERT) with =n: vmlinux and every
#               module, linked (modpost runs)
#   x86def      x86_64 defconfig with =n: vmlinux linked (objtool runs)
#   rand        RAND_N (default 3) ARM randconfigs, seeds RAND_SEED0..
#               (default 1..), with KCONFIG_ALLCONFIG forcing
#               SYSCALL_SPLICE=n and EXPERT=y: vmlinux and modules (when
#               the randconfig has CONFIG_MODULES) linked;
#               reproducible (KCONFIG_SEED), one time per build reported.
#               A seed that fails is built on the pristine tree with the
#               same .config: failing there with the same errors
#               (scripts/series/errors.sh), it is not the series' failure
#               and is reported as such; with no seed linked, SKIP
#   allmod      every .c file the series touches, make path/file.o under
#               allmodconfig (WERROR off, see w1) with =n, ARM and x86_64
#   allmodlink  ARM allmodconfig (WERROR off) with =n: vmlinux and every
#               module, linked (modpost runs). Hours on 2 cores, so not in
#               the default set: name it in CHECKS. Kept in its O= folder
#               and ccache, an interrupted run resumes where it stopped.
#   w1          the same files at W=1, patched =n against pristine: no new
#               warnings (warning text compared with line numbers removed)
#   size        bloat-o-meter figures (scripts/series/size.sh), and after a
#               bisect run each patch's own (scripts/series/per-patch.sh)
#
# Everything is built out of tree in build/check-series/<name>/ (kept
# between runs; ccache makes rebuilds of a fresh extract cheap), full logs
# in build/logs/check-series/. A run without apply, bisect, tiny and x86
# keeps the patched tree of an earlier run when its tarball and patches are
# the same (build/check-series/linux.id), so an interrupted allmodlink
# resumes without recompiling (rm -rf build/check-series/linux for a fresh
# one; a hand edit in it is kept too). Prints a summary table; exits 1 if
# any stage failed, 2 on a usage or setup error.
set -eu
# shellcheck source=scripts/series/lib.sh
. "$(dirname "$0")/lib.sh"
CS_SCRIPTS=$(realpath "$(dirname "$0")")

ALL_CHECKS="apply checkpatch bisect tiny vexpress x86 multiv7 x86def rand allmod allmodlink w1 size"
CHECKS=${CHECKS:-${ALL_CHECKS/ allmodlink/}}
for c in $CHECKS; do
	case " $ALL_CHECKS " in *" $c "*) ;; *) die "unknown check '$c' (known: $ALL_CHECKS)" ;; esac
done
want() { case " $CHECKS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

TREE=$CS/linux
PRISTINE=$CS/pristine
SIZES=$CS/sizes
mkdir -p "$SIZES"

# ---- the summary table ----
R_NAME=() R_RES=() R_TIME=() R_DETAIL=()
FAILED=0
record() { # STAGE PASS|FAIL|SKIP SECONDS DETAIL
	R_NAME+=("$1") R_RES+=("$2") R_TIME+=("$3") R_DETAIL+=("$4")
	[ "$2" != FAIL ] || FAILED=1
	printf '%-10s %s (%ss) %s\n' "$1" "$2" "$3" "$4"
}
summary() {
	local i
	echo
	echo "check-series summary: ${#PATCHES[@]} patches from ${PATCH_DIR#"$TOP"/}/series"
	printf '  %-10s %-6s %7s  %s\n' stage result time detail
	for i in "${!R_NAME[@]}"; do
		printf '  %-10s %-6s %6ss  %s\n' "${R_NAME[$i]}" "${R_RES[$i]}" \
			"${R_TIME[$i]}" "${R_DETAIL[$i]}"
	done
	echo "  logs: ${CS_LOGS#"$TOP"/}/"
}

# step NAME LOG COMMAND...: run with output in LOG, one line when done.
step() {
	local name=$1 log=$CS_LOGS/$2.log t=$SECONDS
	shift 2
	printf '  %-34s ...  %s\n' "$name" "${log#"$TOP"/}"
	if "$@" >"$log" 2>&1; then
		printf '  %-34s ok   %4ss\n' "$name" $((SECONDS - t))
		return 0
	fi
	printf '  %-34s FAIL %4ss\n' "$name" $((SECONDS - t))
	cs_show_log "$log"
	return 1
}

# ---- checkpatch ----
# The commit message of a patch: from the first blank line to '---'.
commit_msg() {
	sed -n '/^$/,/^---$/p' "$1"
}

# checkpatch_one PATCH: 0 clean, 1 unjustified messages (printed).
checkpatch_one() {
	local p=$1 log t types
	log=$CS_LOGS/checkpatch-$(basename "$1" .patch).log
	(cd "$TREE" && ./scripts/checkpatch.pl --strict --show-types "$p") >"$log" 2>&1 && return 0
	types=$(grep -oE '^(ERROR|WARNING|CHECK):[A-Z0-9_]+' "$log" | cut -d: -f2 | sort -u)
	[ -n "$types" ] || { cs_show_log "$log"; return 1; }
	for t in $types; do
		if ! commit_msg "$p" | grep -qw "$t"; then
			echo "  $(basename "$p"): $t not justified in its message"
			grep -A3 -E "^(ERROR|WARNING|CHECK):$t:" "$log" | head -n 12 | sed 's/^/    | /'
			return 1
		fi
	done
	echo "  $(basename "$p"): justified in its message: $(echo "$types" | tr '\n' ' ')"
}

stage_checkpatch() {
	local t=$SECONDS p bad=() n=0
	for p in "${PATCHES[@]}"; do
		n=$((n + 1))
		checkpatch_one "$p" || { bad+=("$(basename "$p")"); bad[-1]=${bad[-1]%%-*}; }
	done
	if [ ${#bad[@]} -eq 0 ]; then
		record checkpatch PASS $((SECONDS - t)) "$n patches clean with --strict"
	else
		record checkpatch FAIL $((SECONDS - t)) "${#bad[@]} of $n patches: ${bad[*]} (${CS_LOGS#"$TOP"/}/checkpatch-*.log)"
	fi
}

# ---- tiny board builds (bisect / tiny) ----
TINY_BAD=()
TINY_BUILDS=0
tiny_build() { # K V: build tiny-V after patch K
	local k=$1 v=$2 o=$CS/tiny-$2
	step "tiny after patch $k/${#PATCHES[@]} =$v" "tiny-$k-$v" \
		tiny_build_cmd "$o" "$v" || { TINY_BAD+=("$k=$v"); return 1; }
	TINY_BUILDS=$((TINY_BUILDS + 1))
}
tiny_build_cmd() {
	cs_config "$TREE" arm "$1" tiny "$2" && cs_make "$TREE" arm "$1" vmlinux
}

# keep_bisect K V: keep the bisect build's vmlinux for the per-patch
# figures of the size stage (scripts/series/per-patch.sh).
keep_bisect() {
	want bisect || return 0
	mkdir -p "$SIZES/bisect"
	cp "$CS/tiny-$2/vmlinux" "$SIZES/bisect/$1-$2.vmlinux"
}

tiny_step() { # K: the builds wanted after patch K
	local k=$1 last=${#PATCHES[@]}
	if want bisect || [ "$k" -eq 0 ] || [ "$k" -eq "$last" ]; then
		if tiny_build "$k" y; then
			keep_bisect "$k" y
			[ "$k" -ne 0 ] || cp "$CS/tiny-y/vmlinux" "$SIZES/tiny-pristine.vmlinux"
			[ "$k" -ne "$last" ] || cp "$CS/tiny-y/vmlinux" "$SIZES/tiny-y.vmlinux"
		fi
		if cs_has_option "$TREE"; then
			if tiny_build "$k" n; then
				keep_bisect "$k" n
				[ "$k" -ne "$last" ] || cp "$CS/tiny-n/vmlinux" "$SIZES/tiny-n.vmlinux"
			fi
		else
			echo "  tiny after patch $k: SYSCALL_SPLICE has no prompt yet, =n is =y"
		fi
	fi
}

# ---- apply (+ the tiny builds between patches) ----
stage_walk() {
	local t=$SECONDS k=0 p build=0 tb
	want bisect || want tiny && build=1
	[ "$build" -eq 0 ] || rm -f "$SIZES"/tiny-*.vmlinux
	! want bisect || rm -rf "$SIZES/bisect"
	[ "$build" -eq 0 ] || tiny_step 0
	! want x86 || x86_pristine
	for p in "${PATCHES[@]}"; do
		k=$((k + 1))
		if ! cs_apply "$TREE" "$p" >"$CS_LOGS/apply-$k.log" 2>&1; then
			cs_show_log "$CS_LOGS/apply-$k.log"
			record apply FAIL $((SECONDS - t)) "patch $k $(basename "$p") does not apply"
			return 1
		fi
		echo "  applied $k/${#PATCHES[@]} $(basename "$p")"
		[ "$build" -eq 0 ] || tiny_step "$k"
	done
	cs_tree_id "${PATCHES[@]}" >"$TREE.id"
	want apply && record apply PASS $((SECONDS - t)) "${#PATCHES[@]} patches apply in order, no fuzz"
	[ "$build" -eq 1 ] || return 0
	tb=bisect
	want bisect || tb=tiny
	if [ ${#TINY_BAD[@]} -eq 0 ]; then
		record "$tb" PASS $((SECONDS - t)) "$TINY_BUILDS tiny builds (=y and =n) ok"
	else
		record "$tb" FAIL $((SECONDS - t)) "failed: ${TINY_BAD[*]} (patch=value)"
	fi
}

# ---- x86_64 tinyconfig pristine (before the first patch), =y and =n ----
X86_BAD=()
x86_pristine() {
	rm -f "$SIZES/x86-pristine.vmlinux"
	if step "x86_64 tinyconfig pristine" x86-pristine x86_build pristine; then
		cp "$CS/x86-pristine/vmlinux" "$SIZES/x86-pristine.vmlinux"
	else
		X86_BAD+=(pristine)
	fi
}
stage_x86() {
	local t=$SECONDS v bad=("${X86_BAD[@]}")
	rm -f "$SIZES"/x86-[yn].vmlinux
	for v in y n; do
		if step "x86_64 tinyconfig =$v" "x86-$v" x86_build "$v"; then
			cp "$CS/x86-$v/vmlinux" "$SIZES/x86-$v.vmlinux"
		else
			bad+=("=$v")
		fi
	done
	if [ ${#bad[@]} -eq 0 ]; then
		record x86 PASS $((SECONDS - t)) "x86_64 tinyconfig pristine, =y and =n link"
	else
		record x86 FAIL $((SECONDS - t)) "failed: ${bad[*]}"
	fi
}
x86_build() {
	cs_config "$TREE" x86_64 "$CS/x86-$1" tinyconfig "$1" &&
		cs_make "$TREE" x86_64 "$CS/x86-$1" vmlinux
}

# ---- linked builds of bigger configurations with =n ----
# linked_stage STAGE ARCH BASE DIR TARGETS...: configure BASE (a defconfig
# target, +EXPERT; allmodconfig with WERROR off) with =n in $CS/DIR and
# build TARGETS; logs STAGE-config and STAGE-build. With modules among the
# TARGETS, modpost runs and the record counts the .ko files.
linked_stage() {
	local stage=$1 arch=$2 base=$3 o=$CS/$4 t=$SECONDS label what n
	shift 4
	label="${arch/arm/ARM} $base"
	[ "$base" = allmodconfig ] || label="$label+EXPERT"
	what="vmlinux links"
	if step "$base $arch =n config" "$stage-config" linked_config "$arch" "$base" "$o" &&
		step "$base $arch =n $*" "$stage-build" cs_make "$TREE" "$arch" "$o" "$@"; then
		if [[ " $* " == *" modules "* ]]; then
			n=$(find "$o" -name '*.ko' | wc -l)
			what="vmlinux and $n modules link (modpost)"
			[ "$n" -gt 0 ] || what="vmlinux links (modpost; no module in the configuration)"
		fi
		record "$stage" PASS $((SECONDS - t)) "$label =n: $what"
	else
		record "$stage" FAIL $((SECONDS - t)) "see ${CS_LOGS#"$TOP"/}/$stage-*.log"
	fi
}
linked_config() { # ARCH BASE O
	if [ "$2" = allmodconfig ]; then
		allmod_config "$TREE" "$1" "$3" n
	else
		cs_config "$TREE" "$1" "$3" "$2" n
	fi
}

# rand_one SEED: an ARM randconfig with the option forced off, linked.
rand_one() {
	local seed=$1 o=$CS/rand-$1 force=$CS/rand.allconfig
	printf 'CONFIG_EXPERT=y\n# CONFIG_SYSCALL_SPLICE is not set\n' >"$force"
	mkdir -p "$o"
	KCONFIG_SEED=$seed KCONFIG_ALLCONFIG=$force cs_make "$TREE" arm "$o" randconfig &&
		grep -q '^# CONFIG_SYSCALL_SPLICE is not set' "$o/.config" &&
		"$TREE/scripts/config" --file "$o/.config" --disable WERROR &&
		cs_make "$TREE" arm "$o" olddefconfig || return
	rand_link "$TREE" "$o"
}
# rand_link TREE O: vmlinux, and the modules when there are any ("make
# modules" stops in a configuration without CONFIG_MODULES).
rand_link() {
	local targets=(vmlinux)
	if grep -q '^CONFIG_MODULES=y' "$2/.config"; then targets+=(modules); fi
	cs_make "$1" arm "$2" "${targets[@]}"
}
# rand_pristine SEED: the seed's .config on the pristine tree, where
# olddefconfig drops the option it does not have; nothing else differs.
rand_pristine() {
	local o=$CS/rand-$1-pristine
	mkdir -p "$o"
	cp "$CS/rand-$1/.config" "$o/.config"
	cs_make "$PRISTINE" arm "$o" olddefconfig && rand_link "$PRISTINE" "$o"
}
# rand_same SEED: the seed failed with =n; does the pristine tree fail
# with the same errors (scripts/series/errors.sh)? Then the randconfig is
# broken without the series too, as 0-day would find.
rand_same() {
	local seed=$1 log=$CS_LOGS/rand-$1-pristine.log ts=$SECONDS rc=0
	pristine_tree || return 1
	printf '  %-34s ...  %s\n' "the same .config, pristine" "${log#"$TOP"/}"
	if rand_pristine "$seed" >"$log" 2>&1; then
		printf '  %-34s links: only =n fails %4ss\n' "the same .config, pristine" $((SECONDS - ts))
		return 1
	fi
	printf '  %-34s fails too %4ss\n' "the same .config, pristine" $((SECONDS - ts))
	"$TOP/scripts/series/errors.sh" "$log" "$PRISTINE" "$CS_LOGS/rand-$seed.log" "$TREE" \
		>"$CS_LOGS/rand-$seed.errors" || rc=$?
	sed 's/^/    /' "$CS_LOGS/rand-$seed.errors"
	return "$rc"
}

stage_rand() {
	local t=$SECONDS n=${RAND_N:-3} s0=${RAND_SEED0:-1} i seed ts ok=() same=() bad=() times=() d
	for ((i = 0; i < n; i++)); do
		seed=$((s0 + i))
		ts=$SECONDS
		if step "ARM randconfig seed $seed =n" "rand-$seed" rand_one "$seed"; then
			ok+=("$seed")
		elif rand_same "$seed"; then
			same+=("$seed")
		else
			bad+=("$seed")
		fi
		times+=("$seed:$((SECONDS - ts))s")
	done
	d="${#ok[@]} of $n ARM randconfigs =n link"
	[ ${#same[@]} -eq 0 ] ||
		d="$d; seeds failing the same on the pristine tree: ${same[*]} (${CS_LOGS#"$TOP"/}/rand-*.errors)"
	if [ ${#bad[@]} -gt 0 ]; then
		record rand FAIL $((SECONDS - t)) "seeds failing: ${bad[*]} of ${n}; $d (seed:time ${times[*]})"
	elif [ ${#ok[@]} -eq 0 ]; then
		record rand SKIP $((SECONDS - t)) "$d: nothing linked to judge (seed:time ${times[*]})"
	else
		record rand PASS $((SECONDS - t)) "$d (seed:time ${times[*]})"
	fi
}

# pristine_tree: the tarball as it is, for w1 and rand to compare with;
# kept while its id names the same tarball.
pristine_tree() {
	cs_tree_kept "$PRISTINE" && return 0
	step "extract pristine tree" extract-pristine cs_extract "$PRISTINE" &&
		cs_tree_id >"$PRISTINE.id"
}

# ---- allmodconfig single files, and their W=1 warnings ----
# files_for ARCH TREE: touched .c files that exist in TREE and are not
# another architecture's.
files_for() {
	local f
	for f in "${TOUCHED[@]}"; do
		[ -f "$2/$f" ] || continue
		case $f in arch/"$(karch "$1")"/*) ;; arch/*) continue ;; esac
		echo "$f"
	done
}
karch() { case $1 in x86_64) echo x86 ;; *) echo "$1" ;; esac; }

allmod_config() { # TREE ARCH O V
	cs_config "$1" "$2" "$3" allmodconfig "$4" &&
		"$1/scripts/config" --file "$3/.config" --disable WERROR &&
		cs_make "$1" "$2" "$3" olddefconfig
}

# in_config TREE O FILE: is FILE's object part of this configuration? Kbuild
# compiles a single target even when the configuration leaves it out (and
# fs/splice.c must not compile with =n), so ask Kbuild's own reading of the
# directory's Makefile (kbuild-objs.mk). Fails closed: if that Makefile
# cannot be read this way, the file counts as built and is compiled.
# (Guards of parent directories are not followed; allmodconfig sets them.)
in_config() {
	local objs
	objs=$(make -s -r -R -f "$CS_SCRIPTS/kbuild-objs.mk" TREE="$(realpath "$1")" \
		O="$(realpath "$2")" DIR="$(dirname "$3")" 2>/dev/null) || return 0
	[[ " $objs " == *" $(basename "$3" .c).o "* ]]
}

# compile_files TREE ARCH O W LOGNAME FILE...: make -k the objects (removed
# first so the compiler runs and its warnings show); prints "FILE STATUS"
# with STATUS ok, error, or notbuilt (not in this configuration).
compile_files() {
	local tree=$1 arch=$2 o=$3 w=$4 log=$CS_LOGS/$5.log f objs=() skip=()
	shift 5
	for f in "$@"; do
		if in_config "$tree" "$o" "$f"; then
			rm -f "$o/${f%.c}.o"
			objs+=("${f%.c}.o")
		else
			skip+=("$f")
		fi
	done
	: >"$log"
	[ ${#objs[@]} -eq 0 ] || # no targets would mean 'all'
		cs_make "$tree" "$arch" "$o" -k ${w:+W=$w} "${objs[@]}" >"$log" 2>&1 || true
	for f in "$@"; do
		if [[ " ${skip[*]} " == *" $f "* ]]; then
			echo "$f notbuilt"
		elif [ -f "$o/${f%.c}.o" ]; then
			echo "$f ok"
		elif grep -qE "(^|/)${f%.c}\.o\] Error|${f}:[0-9]+:[0-9]+: error:" "$log"; then
			echo "$f error"
		else
			echo "$f notbuilt"
		fi
	done
}

stage_allmod() {
	local t=$SECONDS arch o files res bad=() nb=() nok=0 w=
	want w1 && w=1
	for arch in arm x86_64; do
		o=$CS/allmod-$arch-n
		mapfile -t files < <(files_for "$arch" "$TREE")
		step "allmodconfig $arch =n config" "allmod-$arch-config" allmod_config "$TREE" "$arch" "$o" n ||
			{ bad+=("$arch:config"); continue; }
		echo "  allmodconfig $arch =n: compiling ${#files[@]} touched files${w:+ at W=1}"
		res=$(compile_files "$TREE" "$arch" "$o" "$w" "allmod-$arch-n-files" "${files[@]}")
		echo "$res" >"$CS_LOGS/allmod-$arch-n-files.status"
		nok=$((nok + $(grep -c ' ok$' <<<"$res" || true)))
		mapfile -t -O "${#bad[@]}" bad < <(sed -n "s/ error$//p" <<<"$res" | sed "s/^/$arch:/")
		mapfile -t -O "${#nb[@]}" nb < <(sed -n "s/ notbuilt$//p" <<<"$res" | sed "s/^/$arch:/")
	done
	ALLMOD_DONE=1
	if [ ${#bad[@]} -eq 0 ]; then
		record allmod PASS $((SECONDS - t)) "$nok objects compiled; not in allmodconfig =n: ${nb[*]:-none}"
	else
		record allmod FAIL $((SECONDS - t)) "errors: ${bad[*]}"
	fi
}

stage_w1() {
	local t=$SECONDS arch o files new=() rc
	pristine_tree || { record w1 FAIL 0 "cannot extract the pristine tree"; return; }
	for arch in arm x86_64; do
		if [ -z "${ALLMOD_DONE:-}" ]; then
			mapfile -t files < <(files_for "$arch" "$TREE")
			step "allmodconfig $arch =n config" "allmod-$arch-config" allmod_config "$TREE" "$arch" "$CS/allmod-$arch-n" n ||
				{ new+=("$arch:config"); continue; }
			compile_files "$TREE" "$arch" "$CS/allmod-$arch-n" 1 "allmod-$arch-n-files" "${files[@]}" >/dev/null
		fi
		o=$CS/allmod-$arch-pristine
		mapfile -t files < <(files_for "$arch" "$PRISTINE")
		step "allmodconfig $arch pristine config" "allmod-$arch-pristine-config" allmod_config "$PRISTINE" "$arch" "$o" - ||
			{ new+=("$arch:pristine-config"); continue; }
		echo "  allmodconfig $arch pristine: compiling ${#files[@]} files at W=1"
		compile_files "$PRISTINE" "$arch" "$o" 1 "allmod-$arch-pristine-files" "${files[@]}" >/dev/null
		rc=0
		"$TOP/scripts/series/warnings.sh" \
			"$CS_LOGS/allmod-$arch-pristine-files.log" "$PRISTINE" \
			"$CS_LOGS/allmod-$arch-n-files.log" "$TREE" \
			>"$CS_LOGS/w1-$arch.new" || rc=$?
		sed 's/^/    /' "$CS_LOGS/w1-$arch.new"
		[ "$rc" -eq 0 ] || new+=("$arch:$(grep -c . "$CS_LOGS/w1-$arch.new")")
	done
	if [ ${#new[@]} -eq 0 ]; then
		record w1 PASS $((SECONDS - t)) "no new W=1 warnings in touched files (arm, x86_64)"
	else
		record w1 FAIL $((SECONDS - t)) "new warnings (arch:count): ${new[*]}; ${CS_LOGS#"$TOP"/}/w1-*.new"
	fi
}

stage_size() {
	local t=$SECONDS rc=0
	"$TOP/scripts/series/size.sh" "$SIZES" >"$CS_LOGS/size.txt" 2>&1 || rc=$?
	sed 's/^/  /' "$CS_LOGS/size.txt"
	# per patch, when a bisect run left its builds (not a verdict)
	if [ -f "$SIZES/bisect/0-y.vmlinux" ]; then
		"$TOP/scripts/series/per-patch.sh" "$SIZES/bisect" "${PATCHES[@]}" \
			>"$CS_LOGS/size-per-patch.txt" 2>&1 || true
		echo "  per patch (${CS_LOGS#"$TOP"/}/size-per-patch.txt):"
		sed 's/^/    /' "$CS_LOGS/size-per-patch.txt"
	fi
	case $rc in
	0) record size PASS $((SECONDS - t)) "targets met (${CS_LOGS#"$TOP"/}/size.txt)" ;;
	3) record size SKIP $((SECONDS - t)) "no builds to compare (run tiny/bisect and x86)" ;;
	*) record size FAIL $((SECONDS - t)) "a target is missed (${CS_LOGS#"$TOP"/}/size.txt)" ;;
	esac
}

# ---- main ----
main() {
	PATCHES=()
	mapfile -t PATCHES < <(cs_patches) || true
	[ ${#PATCHES[@]} -gt 0 ] || die "no patches in ${PATCH_DIR#"$TOP"/}/series"
	TOUCHED=()
	mapfile -t TOUCHED < <(cs_touched_c "${PATCHES[@]}")
	echo "check-series: ${#PATCHES[@]} patches, ${#TOUCHED[@]} .c files touched; checks: $CHECKS"

	# what the stages need besides the board's packages: x86_64 objtool
	# (libelf-dev), certificate tools of the big configurations (libssl-dev)
	local pkgs=
	for c in x86 x86def allmod allmodlink w1; do want "$c" && pkgs="libelf-dev libssl-dev"; done
	for c in multiv7 rand vexpress; do want "$c" && pkgs="${pkgs:-libssl-dev}"; done
	# 6.12's BUILTIN_MODULE_RANGES (with VMLINUX_MAP, which allmodconfig
	# and some randconfigs set) runs gawk (scripts/Makefile.vmlinux)
	if want rand || want allmodlink; then pkgs="$pkgs gawk"; fi
	# the board's packages too: linux-source-6.1 and -6.12 hold the tarballs
	EXTRA_PKGS="$pkgs" "$TOP/scripts/board/deps.sh" ||
		die "missing packages for the selected checks (see above)"
	[ -f "$TARBALL" ] || die "$TARBALL not found (Debian package $KERNEL_PKG)"

	# every check but size works on the tree; apply, bisect, tiny and x86
	# build on the way from the pristine tree to the patched one (the
	# walk). Without them, a patched tree of the same tarball and patches
	# is kept (cs_tree_kept): make then resumes where a run stopped.
	local needs_tree=0 walks=0 kept=0
	for c in $CHECKS; do
		[ "$c" = size ] || needs_tree=1
		case $c in apply | bisect | tiny | x86) walks=1 ;; esac
	done
	if [ "$needs_tree" -eq 1 ] && [ "$walks" -eq 0 ] && cs_tree_kept "$TREE" "${PATCHES[@]}"; then
		kept=1
		echo "  kept ${TREE#"$TOP"/}: the same tarball and ${#PATCHES[@]} patches (${TREE#"$TOP"/}.id)"
	elif [ "$needs_tree" -eq 1 ]; then
		step "extract ${TARBALL##*/}" extract cs_extract "$TREE" || die "extraction failed"
	fi
	if want checkpatch; then stage_checkpatch; fi
	if [ "$needs_tree" -eq 1 ] && { [ "$kept" -eq 1 ] || stage_walk; }; then
		want vexpress && linked_stage vexpress arm vexpress_defconfig vexpress-n vmlinux modules
		want x86 && stage_x86
		want multiv7 && linked_stage multiv7 arm multi_v7_defconfig multiv7-n vmlinux modules
		want x86def && linked_stage x86def x86_64 defconfig x86def-n vmlinux
		want rand && stage_rand
		want allmod && stage_allmod
		# the whole of ARM allmodconfig: the one configuration that builds
		# every module, so modpost sees every reference to a symbol =n removes
		want allmodlink && linked_stage allmodlink arm allmodconfig allmodlink-arm-n vmlinux modules
		want w1 && stage_w1
	fi
	want size && stage_size
	summary
	return "$FAILED"
}

# One line, so editing this file while it runs cannot change what runs.
main "$@"; exit $?
