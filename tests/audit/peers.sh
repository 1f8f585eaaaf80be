#!/usr/bin/env bash
# timeout: 900
# Peers on the board (issue 21, item 5): scripts/corpus/peers.sh boots each HTTP
# server of the corpus (peers/servers.txt) and this project's init on
# images/tiny (splice compiled out) and images/base, fetches test.bin,
# hello.txt and a range, and scripts/corpus/peers-render.py writes images/peers.md
# and .json with the audit's verdict beside each result. This test asserts:
#   - init serves every byte (sha256) on both boards;
#   - BusyBox httpd, built with musl from Debian's source, serves every byte
#     on both boards (its sendfile falls back to read/write);
#   - the control, init-nofallback (init with its ENOSYS branch ending the
#     transfer), serves on base and answers 200 with a short body on tiny;
#   - for every server, the audit's verdict agrees with what the boards did:
#     a program the audit lets lose SYSCALL_SPLICE (verdict none or
#     fallback) does on tiny what it does on base.
set -u
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
cd "$TOP" || exit 1
servers=$(awk '!/^#/ && NF { print $1 }' peers/servers.txt)
mu=0
[ "${PEERS_MULTIUSER:-0}" = 1 ] && mu=1
echo "1..$((4 + $(echo "$servers" | wc -w) + 2 + mu))"
if ! scripts/corpus/peers.sh || ! scripts/corpus/peers-render.py; then
	echo "peers: the run failed"
	exit 1
fi
json=images/peers.json
# outcome BOARD SERVER
outcome() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(next((r["outcome"] for r in d["runs"] if r["board"]==sys.argv[2] and r["server"]==sys.argv[3]), "missing"))' "$json" "$1" "$2"
}
agree() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["agreement"].get(sys.argv[2], "missing"))' "$json" "$1"
}
for b in tiny base; do
	o=$(outcome "$b" init)
	check "init serves every byte on $b ($o)" test "$o" = serves
done
t=$(outcome tiny busybox) b=$(outcome base busybox)
check "busybox httpd (musl) serves every byte on tiny ($t) and base ($b)" \
	test "$t/$b" = serves/serves
t=$(outcome tiny init-nofallback) b=$(outcome base init-nofallback)
check "init-nofallback: short body on tiny ($t), serves on base ($b)" \
	test "$t/$b" = "short body/serves"
for s in init init-nofallback $servers; do
	a=$(agree "$s")
	case $a in
	agrees | "sound, conservative"*) ok "$s: the audit's verdict agrees with the boards ($a)" ;;
	"not observable"*) ok "$s: the audit's verdict agrees with the boards # skip $a" ;;
	*) not_ok "$s: the audit's verdict agrees with the boards ($a)" ;;
	esac
done
# PEERS_MULTIUSER=1: mini-httpd, which has no sendfile fallback
# (send_via_sendfile()) and only starts where setgroups() works, on the
# MULTIUSER=y boards: 200 with a short body on tiny-mu, every byte on
# base-mu, which is what the audit's "kept" says.
if [ "$mu" = 1 ]; then
	t=$(outcome tiny-mu mini-httpd) b=$(outcome base-mu mini-httpd)
	a=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("agreement_multiuser", {}).get("mini-httpd", "missing"))' "$json")
	check "mini-httpd (MULTIUSER=y boards): short body on tiny-mu ($t), serves on base-mu ($b), the audit agrees ($a)" \
		test "$t/$b/$a" = "short body/serves/agrees"
fi
