#!/bin/sh
# The README's tour works as written: a fresh clone of this checkout's HEAD,
# `make demo` in it, then every command of the README's "A short tour" block,
# line by line, from the clone's top folder; each must exit 0. The lines are
# taken from the README itself, so the test follows the README as it changes.
# The recording line needs root and tracefs (it is skipped, and said so,
# otherwise). Only the plain build: the clone's `make demo` builds its own
# binary, which the sanitizer pass has nothing to add to.
. "$(dirname "$0")/lib.sh"
case "$B" in *san*) skip "the tour builds its own plain binary" ;; esac
command -v git >/dev/null || skip "git not installed"
git -C "$TOP" rev-parse HEAD >/dev/null 2>&1 || skip "not a git checkout"
git clone -q "$TOP" "$T/c" || fail "git clone"
cd "$T/c" || fail "cd clone"
make -j2 demo > "$T/demo.log" 2>&1 || { tail -5 "$T/demo.log"; fail "make demo on a fresh clone"; }
[ -s out/schedlab.db ] || fail "make demo wrote no out/schedlab.db"
awk '/^## A short tour/ { t = 1 } t && /^```sh/ { b = 1; next } b && /^```/ { exit } b' README.md > "$T/tour"
[ "$(wc -l < "$T/tour")" -ge 8 ] || fail "README tour block not found (or under 8 lines)"
n=0
while IFS= read -r line; do
	case "$line" in ''|'#'*) continue ;; esac
	case "$line" in
	*' record '*)
		if [ "$(id -u)" != 0 ]; then echo "skip (not root): $line"; continue; fi
		tracefs_setup ;;
	esac
	n=$((n + 1))
	rc=0
	sh -c "$line" > "$T/out" 2>&1 || rc=$?
	# validate's exit status is its verdict (1: FAIL, the table printed;
	# docs/validate.md): only an error (2) fails the tour
	case "$line" in *' validate '*) [ "$rc" -le 1 ] && grep -q '^verdict: ' "$T/out" && rc=0 ;; esac
	[ "$rc" = 0 ] || { tail -5 "$T/out"; fail "README tour line $n failed: $line"; }
done < "$T/tour"
echo "README tour: $n commands ran on a fresh clone after make demo"
