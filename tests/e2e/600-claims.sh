#!/bin/sh
# schedlab claims: every claim of the announcement and its thread has a
# verdict, the CSV parses (read back with sqlite3's CSV importer), the
# numbers behind the verdicts are the hand-derived ones (docs/claims.md,
# tests/unit/test_claims.c):
#   3a two nice-0 hogs: the expired one waits 20 levels x 6 ms = 120 ms
#      (printed 114 = 19 levels)                     -> corrected
#   3c nice 10 beside nice 0: 20 x 6 + 10 x 6 = 180 ms (printed 168)
#   4  nice 10 among -20/0/10/19: 861 + 640 = 1501 RR (printed 1826)
#   1b nice 0 vs 10: 20:10 levels = 66.6667 % (printed 19:9 = 67.8571 %)
#   9a-9c benchmarks                                  -> not checkable here
# and the run is deterministic.
. "$TOP/tests/e2e/lib.sh"

"$SCHEDLAB" claims -o "$T/out" > "$T/table" 2> "$T/err" || fail "claims: $(cat "$T/err")"
[ -s "$T/err" ] && fail "claims wrote to stderr: $(cat "$T/err")"
head -1 "$T/table" | grep -q '^id  *claim  *source  *predicted  *measured rsdl  *measured o1 .*verdict$' ||
	fail "header: $(head -1 "$T/table")"
for id in 1a 1b 2 3a 3b 3c 4 5 6 7 8 9a 9b 9c 10 11; do
	line=$(grep "^$id " "$T/table") || fail "claim $id missing from the table"
	echo "$line" | grep -Eq '(holds|holds \(with the corrected figure\)|does not hold|not checkable here)$' ||
		fail "claim $id has no verdict: $line"
done
# header + 16 claims, a blank line, then one note per verdict other than "holds"
expect_eq "$(sed -n 18p "$T/table")" "" "blank line after the table"
grep -q '^3a: .*off by one level' "$T/table" || fail "no note saying 3a is off by one level"
grep -q '^4: .*1436 RR.*1501 RR' "$T/table" || fail "no note on the four-task arithmetic"
expect_eq "$(sed -n '19,$p' "$T/table" | cut -d: -f1 | tr '\n' ' ')" "1b 3a 3c 4 9a 9b 9c 10 11 " "notes"

# the CSV, parsed by another tool
[ -f "$T/out/claims.csv" ] || fail "no claims.csv"
[ -f "$T/out/claims.md" ] || fail "no claims.md"
ls "$T/out" | grep -q tmp && fail "temporary file left in the output folder"
sqlite3 "$T/c.db" ".import --csv $T/out/claims.csv c" || fail "claims.csv does not parse as CSV"
expect_eq "$(sq "$T/c.db" "SELECT COUNT(*) FROM c")" 16 "CSV rows"
expect_eq "$(sq "$T/c.db" "SELECT COUNT(*) FROM c WHERE verdict NOT IN ('holds',
	'holds (with the corrected figure)', 'does not hold', 'not checkable here')")" 0 "CSV verdicts"
expect_eq "$(sq "$T/c.db" "SELECT group_concat(id || '=' || value_rsdl, ' ') FROM c WHERE id IN ('1b','3a','3b','3c','4')")" \
	"1b=66.6667 3a=120 3b=60 3c=180 4=1501" "measured rsdl values"
# eevdf's column: shares by sched_prio_to_weight, 1024:1024 = 50 %, 1024:110 = 90.3 %
expect_eq "$(sq "$T/c.db" "SELECT group_concat(id || '=' || value_eevdf, ' ') FROM c WHERE id IN ('1a','1b')")" \
	"1a=50 1b=90.3" "measured eevdf values"
expect_eq "$(sq "$T/c.db" "SELECT group_concat(id || '=' || published || '/' || consistent, ' ') FROM c WHERE id IN ('3a','3c','4')")" \
	"3a=114/120 3c=168/180 4=1826/1501" "published/consistent"
expect_eq "$(sq "$T/c.db" "SELECT group_concat(id, ' ') FROM c WHERE verdict = 'holds (with the corrected figure)'")" \
	"1b 3a 3c 4" "claims holding only with the corrected figure"
expect_eq "$(sq "$T/c.db" "SELECT group_concat(id, ' ') FROM c WHERE verdict = 'not checkable here'")" \
	"9a 9b 9c 10 11" "claims not checkable here"
expect_eq "$(sq "$T/c.db" "SELECT value_rsdl = '' FROM c WHERE id = '9b'")" 1 "benchmarks are not measured"
grep -q '^| 3a | ' "$T/out/claims.md" || fail "claims.md has no row for 3a"

# deterministic: the same table and files again
"$SCHEDLAB" claims -o "$T/out2" > "$T/table2" || fail "second run"
cmp -s "$T/table" "$T/table2" || fail "table differs between runs"
cmp -s "$T/out/claims.csv" "$T/out2/claims.csv" || fail "CSV differs between runs"

# --no-sd drops the SD column
"$SCHEDLAB" claims --no-sd > "$T/nosd" || fail "--no-sd"
grep -q 'measured sd' "$T/nosd" && fail "--no-sd still shows SD"
expect_eq "$(grep -c '^[0-9][0-9a-c]* ' "$T/nosd")" 16 "--no-sd rows"

# usage and errors: one line, exit 2 (usage) / 1 (output)
"$SCHEDLAB" claims -h > "$T/h" || fail "claims -h"
grep -q '^usage: schedlab claims' "$T/h" || fail "claims -h text"
"$SCHEDLAB" claims --frobnicate > /dev/null 2> "$T/err"; rc=$?
expect_eq "$rc" 2 "exit status of an unknown option"
expect_eq "$(grep -c '^schedlab: error:' "$T/err")" 1 "error line"
"$SCHEDLAB" claims -o > /dev/null 2> "$T/err"; rc=$?
expect_eq "$rc" 2 "exit status of -o without a folder"
: > "$T/afile"
"$SCHEDLAB" claims -o "$T/afile" > /dev/null 2> "$T/err"; rc=$?
expect_eq "$rc" 1 "exit status of -o FILE"
expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 1 "error lines for -o FILE"
exit 0
