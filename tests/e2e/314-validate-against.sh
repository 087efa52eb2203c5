#!/bin/sh
# e2e 314: validate --against (docs/validate.md "The noise floor"): two
# recordings of the same workload compared by the gating checks, with no
# replay. The bundled massive-intr recordings (traces/corpus, made beside
# other sessions; traces/corpus-quiet, on a quiet machine) are traces 1
# and 2. Every figure is worked out again here from the tables with SQL:
# switches are the run's slices, migrations a thread's slice on another CPU
# than its last, delays the wakeups that ran (ts_run - ts) at their nearest
# rank (rank = ceil(p * n / 100)), and each error (other - recorded) /
# recorded. A recording against itself has no error anywhere and passes.
. "$(dirname "$0")/lib.sh"
"$SCHEDLAB" -q --db "$T/a.db" import "$TOP/traces/corpus/massive-intr.dat" > /dev/null 2>&1 || fail "import 1"
"$SCHEDLAB" -q --db "$T/a.db" import "$TOP/traces/corpus-quiet/massive-intr.dat" > /dev/null 2>&1 || fail "import 2"
run_of() { sq "$T/a.db" "SELECT id FROM run WHERE trace_id = $1 AND scheduler = 'recorded'"; }
R1=$(run_of 1) R2=$(run_of 2)
switches() { sq "$T/a.db" "SELECT COUNT(*) FROM sched_slice WHERE run_id = $1 AND utid IN (SELECT utid FROM thread)"; }
migrations() {
	sq "$T/a.db" "WITH s AS (SELECT cpu, LAG(cpu) OVER (PARTITION BY utid ORDER BY ts) AS pc FROM sched_slice
			       WHERE run_id = $1 AND utid IN (SELECT utid FROM thread))
		      SELECT COUNT(*) FROM s WHERE pc IS NOT NULL AND pc != cpu"
}
# delay RUN NUM DEN: the wakeup delay at rank ceil(n * NUM / DEN)
delay() {
	sq "$T/a.db" "WITH d AS (SELECT ts_run - ts AS v FROM wakeup WHERE run_id = $1 AND ts_run IS NOT NULL
			      AND ts_run >= ts), n AS (SELECT COUNT(*) AS c FROM d)
		      SELECT v FROM d ORDER BY v LIMIT 1 OFFSET (SELECT (c * $2 + $3 - 1) / $3 - 1 FROM n)"
}
"$SCHEDLAB" -q --db "$T/a.db" validate --trace 1 --against 2 --format csv > "$T/ab.csv" 2> "$T/err"
expect_eq "$?" 1 "exit status of a FAIL"
col() { awk -F, -v m="$2" -v c="$3" '$5 == m { print $c }' "$1"; }
check() { # METRIC RECORDED OTHER
	expect_eq "$(col "$T/ab.csv" "$1" 6)|$(col "$T/ab.csv" "$1" 7)" "$2|$3" "$1 figures"
	e=$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.6f", (b - a) / a }')
	expect_eq "$(col "$T/ab.csv" "$1" 8)" "$e" "$1 error"
}
check switches "$(switches "$R1")" "$(switches "$R2")"
check migrations "$(migrations "$R1")" "$(migrations "$R2")"
check delay_p50_all "$(delay "$R1" 50 100)" "$(delay "$R2" 50 100)"
check delay_p95_all "$(delay "$R1" 95 100)" "$(delay "$R2" 95 100)"
check delay_p99_all "$(delay "$R1" 99 100)" "$(delay "$R2" 99 100)"
# the rows of one recording's tasks are left out; the verdict is the
# gating rows' (all of them pass, or it fails)
[ -z "$(col "$T/ab.csv" runtime_exact 5)" ] || fail "CPU time per task compared across recordings"
[ -z "$(col "$T/ab.csv" delay_p50_busiest 5)" ] || fail "the busiest tasks compared across recordings"
expect_eq "$(awk -F, '$10 == 1 && $5 != "verdict"' "$T/ab.csv" | wc -l | tr -d ' ')" 8 "gating rows"
expect_eq "$(col "$T/ab.csv" verdict 11)" 0 "verdict"
# the other way round: the errors are relative to trace 2
"$SCHEDLAB" -q --db "$T/a.db" validate --trace 2 --against 1 --format csv > "$T/ba.csv"
e=$(awk -v a="$(switches "$R2")" -v b="$(switches "$R1")" 'BEGIN { printf "%.6f", (b - a) / a }')
expect_eq "$(col "$T/ba.csv" switches 8)" "$e" "switches error, the other way"
# a recording against itself: no error, KS 0, PASS, exit 0
"$SCHEDLAB" -q --db "$T/a.db" validate --trace 2 --against 2 --format csv > "$T/bb.csv" || fail "itself: not a PASS"
expect_eq "$(awk -F, '$10 == 1 && $5 != "verdict" && $8 != "0.000000"' "$T/bb.csv" | wc -l | tr -d ' ')" 0 "itself: an error"
"$SCHEDLAB" -q --db "$T/a.db" validate --trace 2 --against 2 | grep -q "^verdict: PASS (8 of 8" || fail "itself: the table"
# nothing is stored: no replay run, no metric
expect_eq "$(sq "$T/a.db" "SELECT COUNT(*) FROM run WHERE scheduler != 'recorded'")" 0 "a run was stored"
# errors: no such trace, one line naming it, exit 2
"$SCHEDLAB" -q --db "$T/a.db" validate --trace 1 --against 9 > /dev/null 2> "$T/err"
expect_eq "$?" 2 "exit status, no such trace"
expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 1 "one line"
grep -q "no trace with id 9" "$T/err" || fail "the error: $(cat "$T/err")"
# the noise-floor table over the two bundled corpora: one line per
# workload recorded in both (11), its pairs (2 each), and the total
SCHEDLAB="$SCHEDLAB" sh "$TOP/tests/tools/noise-floor.sh" "$TOP/traces/corpus" "$TOP/traces/corpus-quiet" > "$T/nf.txt" ||
	fail "noise-floor.sh"
expect_eq "$(awk '$2 == 2' "$T/nf.txt" | wc -l | tr -d ' ')" 11 "noise-floor workloads"
expect_eq "$(grep -c "ordered pairs of recordings pass every check" "$T/nf.txt")" 1 "noise-floor total"
# the by-check line sums each column of the workload lines
expect_eq "$(awk '$2 == 2 { split($3, a, "/"); s += a[1] } END { print s + 0 }' "$T/nf.txt")" \
	"$(sed -n 's/.* switches \([0-9]*\)\/22 .*/\1/p' "$T/nf.txt")" "noise-floor switches total"
exit 0
