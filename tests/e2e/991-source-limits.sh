#!/bin/sh
# The tree's own limits (issue 26), checked so that they hold: no C source
# or header over 1000 lines, and no two e2e scripts sharing a number (the
# order of the run and the names in docs go by it).
. "$(dirname "$0")/lib.sh"
cd "$TOP" || fail "no $TOP"
big=$(for f in common/*.[ch] collector/*.[ch] replay/*.[ch] analyze/*.[ch] plots/*.[ch] \
	cmd/*.[ch] schedlab.c tests/unit/*.[ch]; do
	[ -f "$f" ] || continue
	n=$(wc -l < "$f")
	[ "$n" -gt 1000 ] && echo "$f ($n lines)"
done)
[ -z "$big" ] || fail "over 1000 lines: $(echo $big)"
dup=$(ls tests/e2e | sed -n 's/^\([0-9][0-9]*\)-.*\.sh$/\1/p' | sort | uniq -d)
[ -z "$dup" ] || fail "e2e numbers used twice: $(echo $dup)"
echo "source files within 1000 lines; e2e numbers unique"
