#!/bin/sh
# validate --first-seed S: the replays' seeds are S to S+N-1 instead of 0 to
# N-1, and the seed-S replay is the one stored (docs/validate.md, "The pass
# count's own spread"). On a bundled recording (corpus-quiet/frame60-hogs,
# with its ledger), worked out from single-seed runs, not from the code:
# - --first-seed 0 prints the same table as no option;
# - --first-seed 2 --seeds 3 says "--seed 2 to 4" and stores a run whose
#   params have "seed":2;
# - each replay figure with --first-seed 2 --seeds 3 is the median of the
#   three one-seed validations --seeds 1 --first-seed 2, 3 and 4 (their
#   switches, migrations and span rows: the middle of three values).
. "$TOP/tests/e2e/lib.sh"
"$SCHEDLAB" replay -h | grep -q eevdf || skip "no eevdf model"
cp "$TOP/traces/corpus-quiet/frame60-hogs.dat" "$TOP/traces/corpus-quiet/frame60-hogs.dat.ledger" "$T/" || fail copy
"$SCHEDLAB" -q --db "$T/db" import "$T/frame60-hogs.dat" > /dev/null 2>&1 || fail import
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 3 > "$T/a" 2>&1
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 3 --first-seed 0 > "$T/b" 2>&1
# the stored run's id differs (each validate stores one); the rest is the same
sed 's/run [0-9]* is seed/run N is seed/; s/replay run [0-9]*/replay run N/' "$T/a" > "$T/a2"
sed 's/run [0-9]* is seed/run N is seed/; s/replay run [0-9]*/replay run N/' "$T/b" > "$T/b2"
cmp -s "$T/a2" "$T/b2" || fail "--first-seed 0 differs from the default: $(diff "$T/a2" "$T/b2" | head -5)"
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 3 --first-seed 2 --format csv > "$T/c" 2> "$T/err"
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 3 --first-seed 2 > "$T/t" 2> "$T/err"
grep -q '^replays: 3, --seed 2 to 4 ' "$T/t" || fail "the replays line: $(grep '^replays' "$T/t")"
expect_eq "$(sq "$T/db" "SELECT json_extract(params, '\$.seed') FROM run ORDER BY id DESC LIMIT 1")" 2 "the stored run's seed"
for s in 2 3 4; do
	"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 1 --first-seed $s --format csv > "$T/one$s" 2> "$T/err"
done
for m in switches migrations span; do
	want=$(for s in 2 3 4; do awk -F, -v m=$m '$5 == m { print $7 }' "$T/one$s"; done | sort -g | sed -n 2p)
	got=$(awk -F, -v m=$m '$5 == m { print $7 }' "$T/c")
	expect_eq "$got" "$want" "$m: the median of seeds 2, 3 and 4"
done
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --first-seed -1 > /dev/null 2> "$T/err"
expect_eq "$?" 2 "a negative --first-seed is a usage error"
# a trace file where the imported trace's id goes (a user's first try):
# one line saying to import it first, or how to validate a folder; exit 2
"$SCHEDLAB" -q --db "$T/db" validate "$T/frame60-hogs.dat" > /dev/null 2> "$T/err"
expect_eq "$?" 2 "a file operand is a usage error"
expect_eq "$(wc -l < "$T/err")" 1 "one line"
grep -q "validate takes an imported trace (--trace ID): 'schedlab import $T/frame60-hogs.dat' first; for a folder of recordings, 'make validate CORPUS=DIR'" "$T/err" ||
	fail "the file operand's error: $(cat "$T/err")"
echo "ok first-seed: $(grep '^replays' "$T/t")"
