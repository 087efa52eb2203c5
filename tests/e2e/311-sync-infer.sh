#!/bin/sh
# replay --sync (docs/replay.md "Sync wakeups"): the count of wakeups the
# rule marks sync on real traces, worked out again in SQL from the stored
# behaviour (the burst view) and compared with the replay's count, stored
# as the run's metric replay_sync_inferred (printed in its summary as
# "N sync of M inferred"). The rule: a wakeup of t by task w at w's CPU
# time P is sync when w's burst holding P (the first whose cumulative end is
# >= P; past any Y burst) ends in S, D or X at B with B - P <= the window,
# and w woke (a burst of another task with waker w) or forked (a task with
# parent w, flag FORKED = 2) nobody at a point in (P, B], and w and t are
# not threads of one process (thread.tgid: a futex's wakeup, never sync);
# --sync exit instead wants the end X, t in the thread group of w's parent,
# w not in t's group.
# Also: params state sync, sync_window_ns and wake_cpu; --sync none marks
# nothing.
. "$TOP/tests/e2e/lib.sh"

# rule DB TRACE WINDOW MODE -> the count
rule() {
	sq "$1" "
	CREATE TEMP TABLE b AS SELECT utid, seq, end_state, waker_kind, waker_utid, waker_progress_ns,
		SUM(run_ns) OVER (PARTITION BY utid ORDER BY seq) AS cum
		FROM burst WHERE utid IN (SELECT utid FROM thread WHERE trace_id = $2);
	CREATE INDEX temp.b_u ON b(utid, seq);
	CREATE TEMP TABLE acts AS
		SELECT waker_utid AS wby, waker_progress_ns AS at FROM b
			WHERE waker_kind = 'task' AND waker_utid IS NOT NULL AND waker_utid != utid
		UNION ALL SELECT m.parent_utid, m.parent_progress_ns FROM task_model m JOIN thread t USING (utid)
			WHERE t.trace_id = $2 AND (m.flags & 2) != 0 AND m.parent_utid IS NOT NULL
			AND m.parent_utid != m.utid;
	CREATE INDEX temp.acts_i ON acts(wby, at);
	CREATE TEMP TABLE e AS
		SELECT w.utid AS t, w.waker_utid AS w, w.waker_progress_ns AS p, x.end_state AS endst, x.cum AS blk
		FROM b w JOIN b x ON x.utid = w.waker_utid AND x.seq = (
			SELECT MIN(y.seq) FROM b y WHERE y.utid = w.waker_utid AND y.end_state != 'Y' AND y.seq >= (
				SELECT MIN(z.seq) FROM b z WHERE z.utid = w.waker_utid AND z.cum >= w.waker_progress_ns))
		WHERE w.waker_kind = 'task' AND w.waker_utid IS NOT NULL AND w.waker_utid != w.utid;
	SELECT COUNT(*) FROM e JOIN thread tt ON tt.utid = e.t JOIN thread tw ON tw.utid = e.w
		LEFT JOIN task_model mw ON mw.utid = e.w LEFT JOIN thread tp ON tp.utid = mw.parent_utid
		WHERE endst IN ('S', 'D', 'X') AND blk - p <= $3
		AND NOT EXISTS (SELECT 1 FROM acts a WHERE a.wby = e.w AND a.at > e.p AND a.at <= e.blk)
		AND (('$4' = 'block' AND NOT (tw.tgid > 0 AND tw.tgid = tt.tgid))
			OR ('$4' = 'exit' AND endst = 'X' AND tp.utid IS NOT NULL
			AND (tp.utid = tt.utid OR (tp.tgid > 0 AND tp.tgid = tt.tgid))
			AND NOT (tw.tgid > 0 AND tw.tgid = tt.tgid)))"
}

i=0
for f in rec-build-mix.dat ed-desktop-2cpu.dat perf-sched-missed-2cpu.perf.data perf-record-zstd-2cpu.perf.data; do
	i=$((i + 1))
	"$SCHEDLAB" --db "$T/db" import "$TOP/traces/$f" > /dev/null 2>&1 || fail "import $f"
	line="$f:"
	for v in "block 50us 50000" "exit 50us 50000" "block 4us 4000"; do
		set -- $v
		"$SCHEDLAB" --db "$T/db" replay --trace $i --sched o1 --sync $1 --sync-window $2 > "$T/out" 2>&1 ||
			fail "replay $f --sync $1: $(cat "$T/out")"
		got=$(sq "$T/db" "SELECT CAST(value AS INTEGER) FROM metric WHERE utid IS NULL AND
			name = 'replay_sync_inferred' AND run_id = (SELECT MAX(id) FROM run)")
		grep -q " sync of $got inferred" "$T/out" || fail "$f --sync $1: the summary does not say $got"
		want=$(rule "$T/db" $i $3 $1)
		[ "$want" -gt 0 ] || fail "$f --sync $1 --sync-window $2: the rule marks no wakeup"
		expect_eq "$got" "$want" "$f --sync $1 --sync-window $2: wakeups inferred sync"
		line="$line $1/$2 $got"
	done
	echo "ok $line"
done
run=$(sq "$T/db" "SELECT MAX(id) FROM run")
p=$(sq "$T/db" "SELECT params FROM run WHERE id = $run")
echo "$p" | grep -q '"sync":"block","sync_window_ns":4000,"wake_cpu":"running"' || fail "params: $p"
"$SCHEDLAB" --db "$T/db" replay --trace 1 --sched o1 --sync none --wake-cpu waker > "$T/out" 2>&1 || fail "replay --sync none"
grep -q inferred "$T/out" && fail "--sync none: $(cat "$T/out")"
p=$(sq "$T/db" "SELECT params FROM run WHERE id = $((run + 1))")
echo "$p" | grep -q '"sync":"none","sync_window_ns":50000,"wake_cpu":"waker"' || fail "params: $p"
"$SCHEDLAB" --db "$T/db" replay --trace 1 --sched o1 --sync sometimes > "$T/out" 2>&1 && fail "--sync sometimes accepted"
grep -q "sync" "$T/out" || fail "--sync sometimes: $(cat "$T/out")"
exit 0
