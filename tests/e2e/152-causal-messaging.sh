#!/bin/sh
# Causal replay of a pipe-heavy trace (issue 6): `perf bench sched messaging
# -p` recorded here with perf sched record. Every wakeup whose waker is a
# task becomes causal: the woken task wakes when its waker reaches the CPU
# time at which it woke it in the recording. The replay must finish with
# every task's recorded work done (same CPU time per task as recorded).
. "$TOP/tests/e2e/lib.sh"
DB="$T/db"
"$SCHEDLAB" --db "$DB" import "$TOP/traces/messaging-pipe-2cpu.perf.data" > /dev/null 2>&1 || fail import
# the behaviour model has task wakers (the senders and receivers)
n=$(sq "$DB" "SELECT COUNT(*) FROM burst WHERE waker_kind = 'task'")
[ "$n" -gt 100 ] || fail "only $n task-woken sleeps in the model"
"$SCHEDLAB" --db "$DB" replay --trace 1 --sched rsdl,o1 --mode causal --debug > "$T/out" || fail replay
cat "$T/out"
for run in $(sed -n 's/^run \([0-9]*\) .*/\1/p' "$T/out"); do
	expect_eq "$(sq "$DB" "SELECT mode FROM run WHERE id = $run")" causal "mode of run $run"
	bad=$(sq "$DB" "
		WITH rec AS (SELECT utid, SUM(dur) AS rt FROM sched_slice WHERE run_id = 1 GROUP BY utid),
		     rep AS (SELECT utid, SUM(dur) AS rt FROM sched_slice WHERE run_id = $run GROUP BY utid)
		SELECT COUNT(*) FROM rec LEFT JOIN rep USING (utid) WHERE rec.rt != COALESCE(rep.rt, -1)")
	expect_eq "$bad" 0 "run $run: tasks whose work was not all done"
	# wakeups in the replay name the recorded waker
	w=$(sq "$DB" "SELECT COUNT(*) FROM wakeup WHERE run_id = $run AND waker_utid IS NOT NULL")
	[ "$w" -gt 100 ] || fail "run $run: only $w wakeups by a task"
done
grep -q "causal wakeups (0 fell back" "$T/out" || fail "some causal wakeups fell back to timed"
