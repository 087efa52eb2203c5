#!/bin/sh
# Issue 25 item 8: every command's man page documents the options its -h
# lists and no option -h does not know, the values of each choice option,
# and states each default -h prints.
# Options are read from -h's option lines ("  -o, --output X", "  --top N"),
# a short form counting for the long one; the man page's text is read with
# its troff escapes (\- \fB ...) taken out. --db is the global option.
. "$TOP/tests/e2e/lib.sh"
man="$TOP/docs/man"
[ -f "$man/schedlab.1" ] || fail "no schedlab(1) overview page"
n=0
for page in "$man"/schedlab-*.1; do
	c=${page##*/schedlab-}; c=${c%.1}
	"$SCHEDLAB" "$c" -h > "$T/h" 2>&1 || fail "$c -h"
	sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\(em/-/g' "$page" > "$T/m"
	# each option of -h: its long name (and short one) in the page
	grep -E '^  +-' "$T/h" | sed 's/^ *//' | while read -r first rest; do
		long=$(printf '%s %s\n' "$first" "$rest" | grep -o -- '--[a-z][a-z0-9-]*' | head -1)
		short=$(printf '%s\n' "$first" | grep -o -- '^-[a-zA-Z]' | head -1)
		[ -n "$long$short" ] || continue
		if ! { [ -n "$long" ] && grep -q -- "$long" "$T/m"; } && ! { [ -n "$short" ] && grep -q -- "$short\\b" "$T/m"; }; then
			echo "FAIL: $c: $first ($long) is in -h, not in $page"; exit 1
		fi
	done || exit 1
	# each --option of the page known to -h
	for o in $(grep -o -- '--[a-z][a-z0-9-]*' "$T/m" | sort -u); do
		[ "$o" = --db ] && continue
		grep -q -- "$o\\b" "$T/h" || fail "$c: $o is in $page, not in -h"
	done
	# each value of a choice option ("  --mode auto|timed|causal": its
	# table's names, common/choice.h) is named in the page
	grep -E '^  +(-[a-zA-Z], )?--[a-z-]+ [a-z]+(\|[a-z]+)+$' "$T/h" | while read -r opt vals; do
		[ "${opt%,}" != "$opt" ] && { opt=$vals; vals=${vals#* }; opt=${opt%% *}; }
		for v in $(echo "$vals" | tr '|' ' '); do
			grep -qw -- "$v" "$T/m" || { echo "FAIL: $c: $opt value '$v' of -h not in $page"; exit 1; }
		done
	done || exit 1
	# each default -h prints ("(default V" up to ; or )) is stated in the page
	grep -o '(default [^;) ]*[;)]' "$T/h" | sed 's/^(default //; s/[;)]$//' | sort -u | while read -r v; do
		grep -qF -- "$v" "$T/m" || { echo "FAIL: $c: default '$v' of -h not in $page"; exit 1; }
	done || exit 1
	n=$((n + 1))
done
[ "$n" -ge 13 ] || fail "only $n man pages"
exit 0
