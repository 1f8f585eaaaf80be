#!/usr/bin/env bash
# corpus/build.sh [NAME...]: the audit's corpus of third-party programs,
# each built static for ARM with musl (as app/Makefile builds init) from
# Debian's source package (scripts/lib/fetch-source.sh), in build/corpus/NAME/:
#   NAME/src       the unpacked source package (never committed)
#   NAME/work      the copy it is built in
#   NAME/bin/PROG  the program, unstripped (the audit reads its symbols)
#   NAME/stamp     source version + hash of the compiler and of the
#                  program's build function: when they match and the
#                  program is there, nothing is done (cached)
# NAME is one of the PROGRAMS below (default: all). One line per program;
# full logs in build/logs/corpus-NAME.log.
set -eu
. "$(dirname "$0")/../lib/common.sh"
PROGRAMS=(busybox mini-httpd civetweb pv lua5.4 jimtcl)
CROSS=arm-linux-gnueabi-
SPECS=/usr/lib/arm-linux-musleabi/musl-gcc.specs
CC="${CROSS}gcc -specs=$SPECS"
export KBUILD_BUILD_TIMESTAMP='1970-01-01' KBUILD_BUILD_USER=board KBUILD_BUILD_HOST=board
export SOURCE_DATE_EPOCH=0
[ -r "$SPECS" ] || die "$SPECS missing (Debian package musl-dev:armel)"

# busybox: only the applets the corpus runs (the httpd with sendfile and
# ranges, a shell, some file tools), from allnoconfig.
build_busybox() {
	local w=$1
	local BB_APPLETS="STATIC LFS HTTPD FEATURE_HTTPD_RANGES FEATURE_USE_SENDFILE ASH
		ASH_ECHO SH_IS_ASH SHELL_ASH CAT CP ECHO LS MKDIR RM SHA256SUM WC SORT GREP
		SED HEAD TAIL DATE SLEEP TAR FEATURE_TAR_CREATE GZIP GUNZIP"
	make -C "$w" -s allnoconfig
	local o
	for o in $BB_APPLETS; do
		sed -i "s/^# CONFIG_$o is not set\$/CONFIG_$o=y/" "$w/.config"
	done
	yes '' | make -C "$w" oldconfig >/dev/null
	for o in $BB_APPLETS; do
		grep -qx "CONFIG_$o=y" "$w/.config" || die "busybox: CONFIG_$o did not hold"
	done
	make -C "$w" -j2 CROSS_COMPILE=$CROSS CC="$CC" busybox_unstripped
	cp "$w/busybox_unstripped" "$2/busybox"
}

# mini-httpd: its Makefile links OpenSSL; the three objects are built here
# without it (USE_SSL off), as the Makefile would, mime tables included.
build_mini_httpd() {
	local w=$1
	make -C "$w" mime_encodings.h mime_types.h
	# Debian's musl has neither <crypt.h> nor crypt(): only basic auth
	# (.htpasswd, which the corpus never uses) calls it; this one never
	# matches a password.
	echo '#include <unistd.h>' >"$w/crypt.h"
	printf '%s\n' 'char *crypt(const char *k, const char *s);' \
		'char *crypt(const char *k, const char *s) { (void)k; (void)s; return (char *)"!"; }' >"$w/nocrypt.c"
	(cd "$w" && $CC -Os -static -I. -o mini_httpd mini_httpd.c match.c tdate_parse.c nocrypt.c)
	cp "$w/mini_httpd" "$2/mini_httpd"
}

# civetweb: the standalone server (src/main.c), no TLS, no CGI or scripting.
build_civetweb() {
	local w=$1
	(cd "$w" && $CC -Os -static -Iinclude -DNO_SSL -DNO_CGI \
		-DUSE_IPV6=0 -o civetweb src/civetweb.c src/main.c -lpthread)
	cp "$w/civetweb" "$2/civetweb"
}

build_pv() {
	local w=$1
	(cd "$w" && ./configure --host=arm-linux-gnueabi CC="$CC" CFLAGS=-Os LDFLAGS=-static \
		--disable-nls && make -j2 LD=${CROSS}ld)
	cp "$w/pv" "$2/pv"
}

# lua5.4: the interpreter lua.c with the library, as src/Makefile's posix
# target (Debian's build makes a shared library with libtool instead).
build_lua5_4() {
	local w=$1
	# Debian's luaconf.h reads the multiarch triplet from a generated header.
	echo '#define DEB_HOST_MULTIARCH "arm-linux-musleabi"' >"$w/src/lua5.4-deb-multiarch.h"
	local srcs=() c
	for c in "$w"/src/*.c; do
		[ "${c##*/}" = luac.c ] || srcs+=("$c")
	done
	(cd "$w/src" && $CC -std=gnu99 -Os -static -DLUA_USE_POSIX -o lua "${srcs[@]}" -lm)
	cp "$w/src/lua" "$2/lua"
}

# jimtcl: autosetup builds a host jimsh0 to configure itself.
build_jimtcl() {
	local w=$1
	(cd "$w" && CC_FOR_BUILD=gcc ./configure --host=arm-linux-gnueabi CC="$CC" \
		CFLAGS=-Os LDFLAGS=-static --disable-docs --without-ext=readline,sqlite3,ssl \
		--disable-shared && make -j2 jimsh)
	cp "$w/jimsh" "$2/jimsh"
}

one() {
	local name=$1 d=$TOP/build/corpus/$1 log=$LOGS/corpus-$1.log
	scripts_dir=$(dirname "$0")
	"$scripts_dir/../lib/fetch-source.sh" "$name" "$d" >>"$LOGS/corpus-fetch.log" 2>&1 ||
		{ tail -n 20 "$LOGS/corpus-fetch.log" >&2; die "$name: apt-get source failed (log: build/logs/corpus-fetch.log)"; }
	local fn=build_${name//[.-]/_} want
	want="$(cat "$d/version") $( (declare -f "$fn"; echo "$CC"; ${CROSS}gcc --version | head -n 1) | sha256sum | cut -c1-16)"
	if [ "$(cat "$d/stamp" 2>/dev/null)" = "$want" ] && [ -n "$(ls "$d/bin" 2>/dev/null)" ]; then
		return 0
	fi
	local start=$SECONDS
	printf '  %-10s %s (build/logs/corpus-%s.log)\n' "$name" "$(cat "$d/version")" "$name"
	rm -rf "${d:?}/work" "${d:?}/bin" "${d:?}/stamp"
	cp -a "$d/src" "$d/work"
	mkdir -p "$d/bin"
	if ! ("$fn" "$d/work" "$d/bin") >"$log" 2>&1; then
		echo "error: corpus $name failed; last lines of ${log#"$TOP"/}:" >&2
		tail -n 30 "$log" | sed 's/^/  | /' >&2
		exit 1
	fi
	echo "$want" >"$d/stamp"
	printf '  %-10s built in %ss: %s\n' "$name" $((SECONDS - start)) "$(cd "$d/bin" && ls)"
}

for n in "${@:-${PROGRAMS[@]}}"; do
	case " ${PROGRAMS[*]} " in *" $n "*) ;; *) die "no corpus program $n (${PROGRAMS[*]})" ;; esac
	one "$n"
done
