#!/usr/bin/env bash
# lint.sh sh|py: lint the project's own shell scripts (shellcheck at
# warning level) or Python files (pyflakes). The files are the checkout's
# (git ls-files; without git, every file outside build/ and images/):
# *.sh and *.py, and files whose first line names bash/sh or python.
# Prints what the linter finds; exits 0 when it finds nothing, 1 otherwise.
# (The C of app/ has its own lint: make app-lint.)
set -eu
. "$(dirname "$0")/lib/common.sh"
kind=${1:?usage: lint.sh sh|py}

files() {
	if git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$TOP" ls-files
	else
		(cd "$TOP" && find . -path ./build -prune -o -path ./images -prune -o -type f -print | sed 's|^\./||')
	fi
}

# is KIND FILE: FILE is a KIND (sh or py) file, by its name or its #! line.
is() {
	local first
	case $1:$2 in sh:*.sh | py:*.py) return 0 ;; esac
	[ -f "$2" ] || return 1
	IFS= read -r first <"$2" 2>/dev/null || return 1
	case $1:$first in
	sh:'#!'*[/\ ]bash* | sh:'#!'*/sh | sh:'#!'*/sh\ *) return 0 ;;
	py:'#!'*python*) return 0 ;;
	esac
	return 1
}

cd "$TOP"
list=()
while IFS= read -r f; do
	is "$kind" "$f" && list+=("$f")
done < <(files)
[ ${#list[@]} -gt 0 ] || die "lint.sh: no $kind files found"

case $kind in
sh) shellcheck -S warning "${list[@]}" ;;
py) pyflakes3 "${list[@]}" ;;
*) die "lint.sh: $kind: use sh or py" ;;
esac
echo "  lint       ${#list[@]} $kind files clean"
