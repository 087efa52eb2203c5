#!/bin/sh
# schedlab sweep + merge + plot sweep: rr_interval 1..20 ms x {rsdl, sd}
# over two bundled traces, run through GNU parallel (one database per job),
# merged into one database that holds exactly the runs made one by one in a
# single database (compared row by row, with ids replaced by what they
# name: the trace's sha256, the thread's tid and comm, the run's model and
# params); the sensitivity chart's points are each run's p99 as analyze
# stores it; --plan and --slurm write the same 80 job lines; merge is atomic
# and refuses another schema version.
. "$(dirname "$0")/lib.sh"
command -v parallel > /dev/null || skip "GNU parallel not installed"
TR1="$TOP/traces/local-2cpu-hogs.ftrace.txt"
TR2="$TOP/traces/massive-intr-10x-1cpu.ftrace.txt"
RR=1ms..20ms:1ms NRR=20
case "$B" in *san*) RR=1ms..16ms:5ms NRR=4 ;; esac # 1, 6, 11, 16 ms under the sanitizers
NJ=$((2 * 2 * NRR))

"$SCHEDLAB" sweep --sched rsdl,sd --rr-interval $RR -o "$T/sw" --plan "$TR1" "$TR2" > "$T/plan" || fail "sweep --plan"
expect_eq "$(wc -l < "$T/plan")" $NJ "job lines"
grep -q "parallel\|ssh" "$T/plan" && fail "a job line runs more than schedlab"
"$SCHEDLAB" sweep --sched rsdl,sd --rr-interval $RR -o "$T/sw" --slurm "$T/job.sh" "$TR1" "$TR2" > /dev/null || fail "sweep --slurm"
grep -q "^#SBATCH --array=1-$NJ\$" "$T/job.sh" || fail "slurm array line"
cmp -s "$T/plan" "$T/sw/jobs" || fail "the Slurm jobs differ from the plan"
rm -rf "$T/sw"

"$SCHEDLAB" sweep --sched rsdl,sd --rr-interval $RR -o "$T/sw" --run -j 2 "$TR1" "$TR2" > "$T/out" 2> "$T/err" ||
	{ cat "$T/err"; fail "sweep --run"; }
M="$T/sw/sweep.db"
# 2 traces kept once each (every job imported its own copy), their recorded
# runs once, and the NJ replays
expect_eq "$(sq "$M" "SELECT COUNT(*) FROM trace")" 2 "traces in the merged database"
expect_eq "$(sq "$M" "SELECT group_concat(n, ' ') FROM (SELECT scheduler || ':' || COUNT(*) AS n FROM run GROUP BY scheduler ORDER BY scheduler)")" \
	"recorded:2 rsdl:$((2 * NRR)) sd:$((2 * NRR))" "runs in the merged database"

# the same runs made one by one, in one database
S="$T/seq.db"
"$SCHEDLAB" --db "$S" import "$TR1" "$TR2" > /dev/null 2>&1 || fail "import"
for t in 1 2; do
	for m in rsdl sd; do
		for rr in $(awk '{ for (i = 1; i <= NF; i++) if ($i == "--rr-interval") print $(i + 1) }' "$T/plan" | tr -d "'" | sort -u); do
			"$SCHEDLAB" --db "$S" replay --trace $t --sched $m --rr-interval $rr > /dev/null 2>&1 || fail "replay $t $m $rr"
		done
	done
done
canon() {
	sqlite3 -batch -noheader "$1" "
	SELECT 'run', tr.sha256, r.scheduler, r.params, r.cpus, r.mode FROM run r JOIN trace tr ON tr.id = r.trace_id
		ORDER BY tr.sha256, r.scheduler, r.params;
	SELECT 'thread', tr.sha256, th.tid, th.comm, th.nice, th.first_ts FROM thread th JOIN trace tr ON tr.id = th.trace_id
		ORDER BY tr.sha256, th.utid;
	SELECT 'model', tr.sha256, th.tid, th.comm, m.start_ns, m.phases FROM task_model m JOIN thread th USING (utid)
		JOIN trace tr ON tr.id = th.trace_id ORDER BY tr.sha256, th.utid;
	SELECT 'slice', tr.sha256, r.scheduler, r.params, s.ts, s.dur, s.cpu, th.tid, th.comm, s.end_state, s.priority
		FROM sched_slice s JOIN run r ON r.id = s.run_id JOIN trace tr ON tr.id = r.trace_id JOIN thread th ON th.utid = s.utid
		ORDER BY tr.sha256, r.scheduler, r.params, s.rowid;
	SELECT 'wakeup', tr.sha256, r.scheduler, r.params, w.ts, w.ts_run, w.cpu, th.tid, wk.tid
		FROM wakeup w JOIN run r ON r.id = w.run_id JOIN trace tr ON tr.id = r.trace_id JOIN thread th ON th.utid = w.utid
		LEFT JOIN thread wk ON wk.utid = w.waker_utid ORDER BY tr.sha256, r.scheduler, r.params, w.rowid;
	SELECT 'stair', tr.sha256, r.scheduler, r.params, x.ts, x.level, x.array, th.tid FROM staircase x JOIN run r ON r.id = x.run_id
		JOIN trace tr ON tr.id = r.trace_id JOIN thread th ON th.utid = x.utid ORDER BY tr.sha256, r.scheduler, r.params, x.rowid;
	SELECT 'stat', tr.sha256, r.scheduler, r.params, th.tid, t.runtime_ns, t.switches, t.wakeups, t.max_delay_ns
		FROM task_stat t JOIN run r ON r.id = t.run_id JOIN trace tr ON tr.id = r.trace_id JOIN thread th ON th.utid = t.utid
		ORDER BY tr.sha256, r.scheduler, r.params, th.utid;"
}
canon "$M" > "$T/merged.txt"
canon "$S" > "$T/seq.txt"
[ "$(grep -c '^slice' "$T/seq.txt")" -gt 1000 ] || fail "too few slices to compare"
cmp -s "$T/merged.txt" "$T/seq.txt" || { diff "$T/seq.txt" "$T/merged.txt" | head -5; fail "merged database differs from the runs made one by one"; }
# every run's rows lie in its run_rows range (SQL users and charts read runs by it)
expect_eq "$(sq "$M" "SELECT COUNT(*) FROM sched_slice s JOIN run_rows rr ON rr.run_id = s.run_id AND rr.tbl = 'sched_slice'
	WHERE s.rowid NOT BETWEEN rr.first_rowid AND rr.last_rowid")" 0 "slices outside their run's rowid range"

# the sensitivity chart: per model, one point per rr_interval (ms), y = the
# run's p99 delay as analyze stores it (ms)
"$SCHEDLAB" --db "$M" analyze > /dev/null || fail "analyze"
"$SCHEDLAB" --db "$M" plot sweep --trace 1 --param rr_interval_ns --metric p99 -o "$T/sweep.png" --keep > /dev/null || fail "plot sweep"
[ "$(head -c 4 "$T/sweep.png" | od -An -tx1 | tr -d ' \n')" = 89504e47 ] || fail "not a PNG"
grep -v '^#' "$T/sweep.png.points.dat" | grep . | while IFS="$(printf '\t')" read x run y; do
	want=$(sq "$M" "SELECT printf('%.9g', json_extract(params, '\$.rr_interval_ns') / 1e6) || ' ' ||
		(SELECT printf('%.9g', value / 1e6) FROM metric WHERE run_id = $run AND utid IS NULL AND name = 'delay_p99_ns')
		FROM run WHERE id = $run")
	expect_eq "$x $y" "$want" "sweep point of run $run"
done || exit 1
expect_eq "$(grep -c '^# model' "$T/sweep.png.points.dat")" 2 "lines (models) in the chart"
expect_eq "$(grep -v '^#' "$T/sweep.png.points.dat" | grep -c .)" $((2 * NRR)) "points in the chart"

# merge is atomic: a bad input leaves the output as it was, and no temporary file
before=$(sqlite3 "$M" .dump | cksum)
printf 'not a database\n' > "$T/bad.db"
"$SCHEDLAB" merge "$M" "$T/sw/job-0001.db" "$T/bad.db" 2> "$T/err"; expect_eq $? 1 "merge with a bad input"
grep -q "bad.db" "$T/err" || fail "message: $(cat "$T/err")"
expect_eq "$(sqlite3 "$M" .dump | cksum)" "$before" "output after a failed merge"
[ ! -e "$M.merge-tmp" ] || fail "temporary file left"
# another schema version is refused, with what to do about it
cp "$TOP/tests/fixtures/schema-v2.db" "$T/v2.db"
"$SCHEDLAB" merge "$T/new.db" "$T/v2.db" 2> "$T/err"; expect_eq $? 1 "merge of a version 2 database"
grep -q "schema version 2, this schedlab writes version" "$T/err" || fail "message: $(cat "$T/err")"
[ ! -e "$T/new.db" ] || fail "a failed merge created its output"
echo "sweep: $NJ jobs through GNU parallel, merged = one by one"
