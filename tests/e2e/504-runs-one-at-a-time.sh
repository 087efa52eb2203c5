#!/bin/sh
# report, plot and compare read runs a run at a time (analyze/pass.c,
# docs/schema.md): a run's slices are loaded and sorted by merging each
# CPU's runs of rows in order, its wakeups are streamed unsorted and the
# timeline keeps only the first 16384 from its window's start, reading them
# again when the window reaches past those. The reference is SQL on the
# tables, not the loader:
# 1. a recorded run whose slices are written out of order on a CPU (placed
#    missed switches) is exported (the loader's order) in the order of
#    ORDER BY ts, cpu, dur, utid, priority, end_state;
# 2. a workload run of tens of thousands of wakeups, drawn whole from 1 ms
#    (--from without --to: to the run's last slice end), marks every wakeup
#    in that window once, on a CPU of the run, in the order of ts, utid,
#    ts_run (NULL last), waker (NULL first), cpu;
# 3. its preemption marks are the slices ending runnable in the window.
. "$(dirname "$0")/lib.sh"
DB=$T/a.db

# 1. rec-build-mix: its recorded run has slices out of order on a CPU
"$SCHEDLAB" -q --db "$DB" import "$TOP/traces/rec-build-mix.dat" > /dev/null || fail "import"
ooo=$(sq "$DB" "WITH r AS (SELECT ts, LAG(ts) OVER (PARTITION BY cpu ORDER BY rowid) AS pts
	FROM sched_slice WHERE run_id = 1) SELECT SUM(ts < pts) FROM r")
[ "$ooo" -gt 0 ] || fail "the recorded run has no slice out of order on its CPU: nothing tested"
"$SCHEDLAB" -q --db "$DB" export --run 1 -o "$T/x.json" > /dev/null || fail "export"
grep '"cat":"sched","ph":"X"' "$T/x.json" |
	sed 's/.*"ts":\([0-9.]*\),"dur":\([0-9.]*\),.*"cpu":\([-0-9]*\),.*"utid":\([0-9]*\)}}.*/\1 \2 \3 \4/' \
	> "$T/got"
T0=$(sq "$DB" "SELECT first_ts FROM trace WHERE id = 1")
sq "$DB" "SELECT printf('%d.%03d %d.%03d %d %d', (ts - $T0) / 1000, (ts - $T0) % 1000, dur / 1000,
	dur % 1000, cpu, utid) FROM sched_slice WHERE run_id = 1
	ORDER BY ts, cpu, dur, utid, priority, end_state" > "$T/want"
expect_eq "$(wc -l < "$T/got")" "$(wc -l < "$T/want")" "exported slices"
cmp -s "$T/got" "$T/want" || fail "slices not in ts, cpu, dur, utid order ($ooo out of order as written)"

# 2. a workload run: 100 s of examples/desktop.txt on 2 CPUs
"$SCHEDLAB" -q --db "$DB" replay --workload "$TOP/examples/desktop.txt" --sched rsdl --cpus 2 \
	--duration 100s > /dev/null || fail "replay workload"
R=$(sq "$DB" "SELECT MAX(id) FROM run")
T0=$(sq "$DB" "SELECT t.first_ts FROM trace t JOIN run r ON r.trace_id = t.id WHERE r.id = $R")
END=$(sq "$DB" "SELECT MAX(ts + dur) - $T0 FROM sched_slice WHERE run_id = $R")
n=$(sq "$DB" "SELECT COUNT(*) FROM wakeup WHERE run_id = $R AND ts - $T0 >= 1000000")
[ "$n" -gt 16384 ] || fail "$n wakeups in the window: too few to read them again"
"$SCHEDLAB" -q --db "$DB" plot timeline --run "$R" --from 1ms -o "$T/tl.png" --keep > /dev/null ||
	fail "plot timeline"
expect_eq "$(grep "^window	$R	" "$T/tl.png.timeline.dat")" "$(printf 'window\t%s\t1000000\t%s' "$R" "$END")" \
	"window drawn"
grep "^mark	$R	wake	" "$T/tl.png.timeline.dat" | cut -f4-6 > "$T/got"
sq "$DB" "SELECT ts - $T0, cpu, utid FROM wakeup WHERE run_id = $R AND ts >= $T0
	AND ts - $T0 BETWEEN 1000000 AND $END AND cpu BETWEEN 0 AND 1
	ORDER BY ts, utid, COALESCE(ts_run, 9223372036854775807), COALESCE(waker_utid, -1), cpu" |
	tr '|' '\t' > "$T/want"
expect_eq "$(wc -l < "$T/got")" "$(wc -l < "$T/want")" "wakeup marks"
cmp -s "$T/got" "$T/want" || fail "wakeup marks differ from the wakeups in the window"

# 3. preemption marks: slices ending runnable in the window
grep "^mark	$R	preempt	" "$T/tl.png.timeline.dat" | cut -f4-6 > "$T/got"
sq "$DB" "SELECT ts + dur - $T0, cpu, utid FROM sched_slice WHERE run_id = $R AND end_state = 'R'
	AND ts + dur - $T0 BETWEEN 1000000 AND $END AND cpu BETWEEN 0 AND 1
	ORDER BY ts, cpu, dur, utid, priority, end_state" | tr '|' '\t' > "$T/want"
expect_eq "$(wc -l < "$T/got")" "$(wc -l < "$T/want")" "preemption marks"
cmp -s "$T/got" "$T/want" || fail "preemption marks differ from the slices ending runnable"
exit 0
