#!/bin/sh
# Replay real traces through rsdl and o1, timed and causal (issue 6):
# - conservation: every task's CPU time in each replay equals its recorded
#   CPU time (the sum of its recorded slices, which is also the sum of its
#   bursts in the behaviour model) within one tick (1 ms at HZ 1000);
# - every task with recorded work runs in the replay;
# - a 2-CPU trace replays on both CPUs;
# - determinism: the same trace and options in a second database give the
#   same rows (ids aside).
. "$TOP/tests/e2e/lib.sh"

replay_checks() {
	db=$1 trace=$2 mode=$3
	"$SCHEDLAB" --db "$db" replay --trace "$trace" --sched rsdl,o1 --mode "$mode" --debug > "$T/out" ||
		fail "replay trace $trace $mode: $(cat "$T/out")"
	for run in $(sed -n 's/^run \([0-9]*\) .*/\1/p' "$T/out"); do
		# largest |replayed - recorded| runtime over tasks, and tasks that lost work
		bad=$(sq "$db" "
			WITH rec AS (SELECT s.utid, SUM(s.dur) AS rt FROM sched_slice s JOIN run r ON r.id = s.run_id
				     WHERE r.trace_id = $trace AND r.scheduler = 'recorded' GROUP BY s.utid),
			     rep AS (SELECT utid, SUM(dur) AS rt FROM sched_slice WHERE run_id = $run GROUP BY utid)
			SELECT COUNT(*) FROM rec LEFT JOIN rep USING (utid)
			WHERE ABS(rec.rt - COALESCE(rep.rt, 0)) > 1000000")
		expect_eq "$bad" 0 "trace $trace run $run ($mode): tasks whose CPU time was not conserved"
		burst=$(sq "$db" "SELECT SUM(b.run_ns) FROM burst b JOIN thread t USING (utid) WHERE t.trace_id = $trace")
		total=$(sq "$db" "SELECT SUM(dur) FROM sched_slice WHERE run_id = $run")
		[ $((burst - total)) -le 1000000 ] && [ $((total - burst)) -le 1000000 ] ||
			fail "run $run: replayed $total ns, bursts $burst ns"
	done
}

i=0
for f in local-2cpu-hogs.ftrace.txt massive-intr-10x-1cpu.ftrace.txt panopticon-desktop.ftrace.txt lisa-juno-report.txt; do
	i=$((i + 1))
	"$SCHEDLAB" --db "$T/db" import "$TOP/traces/$f" > /dev/null || fail "import $f"
	replay_checks "$T/db" $i timed
	replay_checks "$T/db" $i causal
	echo "ok $f"
done

# the 2-CPU trace (trace 1) replays on both CPUs under both models
for sched in rsdl o1; do
	n=$(sq "$T/db" "SELECT COUNT(DISTINCT s.cpu) FROM sched_slice s JOIN run r ON r.id = s.run_id
		WHERE r.trace_id = 1 AND r.scheduler = '$sched' AND r.mode = 'timed'")
	expect_eq "$n" 2 "CPUs used by $sched on the 2-CPU trace"
done

# determinism: a second database, the same trace and options, the same rows
"$SCHEDLAB" --db "$T/db2" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null
"$SCHEDLAB" --db "$T/db2" replay --trace 1 --sched rsdl,o1 --mode timed > /dev/null
"$SCHEDLAB" --db "$T/db2" replay --trace 1 --sched rsdl,o1 --mode causal > /dev/null
rows() {
	sq "$1" "SELECT r.scheduler, r.mode, s.ts, s.dur, s.cpu, s.utid, s.end_state, s.priority
		FROM sched_slice s JOIN run r ON r.id = s.run_id WHERE r.trace_id = 1 AND r.scheduler != 'recorded'
		ORDER BY r.scheduler, r.mode, s.ts, s.cpu"
	sq "$1" "SELECT r.scheduler, r.mode, w.utid, w.ts, w.ts_run, w.waker_utid, w.cpu
		FROM wakeup w JOIN run r ON r.id = w.run_id WHERE r.trace_id = 1 AND r.scheduler != 'recorded'
		ORDER BY r.scheduler, r.mode, w.ts, w.utid, w.ts_run"
}
rows "$T/db" > "$T/a"
rows "$T/db2" > "$T/b"
[ -s "$T/a" ] || fail "no replay rows"
cmp -s "$T/a" "$T/b" || fail "replays of the same trace differ"
echo "ok determinism ($(wc -l < "$T/a") rows)"
