#!/bin/sh
# Issue 25 item 3: wakeups of traces that record sched_waking and no
# sched_wakeup (systing, Perfetto's Android configs). The kernel fires
# sched_waking only for a task whose __state is a sleeping one
# (ttwu_state_match in try_to_wake_up, kernel/sched/core.c, v6.6), and only
# the task itself sets that state, while it runs. So:
# (1) two sched_wakings of a task with no switch-in between: it ran and
#     slept unseen; the first wakeup's run is lost (a row with no ts_run),
#     the delay is the second's. Hand-made trace, task a on CPU 0:
#       1000.002000 waking -> 1000.002050 runs: delay 50 us
#       1000.004000 waking, 1000.005000 waking again -> 1000.005100 runs:
#       a row with no run, then a delay of 100 us (not 1100 us)
#     3 wakeups, 2 delays, the longest 100 us.
# (2) the systing trace: ringbuf_stack_e (tid 1180476) has 26 sched_wakings
#     in the file (the reader's events, tests/tools/perfdump) and switches
#     out with __state 0 or TASK_WAKING (no sleeping state), so it showed 0
#     wakeups. Each waking while it is not on a CPU is a wakeup: 26 minus
#     those between its switch-in and the next switch of that CPU (awk over
#     the same events; one, at 703770.884478386 on CPU 12 while it ran on
#     CPU 19) = 25. Its first, at 703770.901214893, ran at .901231535:
#     16642 ns.
. "$TOP/tests/e2e/lib.sh"
cat > "$T/w.txt" <<'TR'
# tracer: nop
#
          <idle>-0     [000] d..3  1000.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=100 next_prio=120
               a-100   [000] d..3  1000.001000: sched_switch: prev_comm=a prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
               b-200   [001] d..3  1000.002000: sched_waking: comm=a pid=100 prio=120 target_cpu=000
          <idle>-0     [000] d..3  1000.002050: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=100 next_prio=120
               a-100   [000] d..3  1000.003000: sched_switch: prev_comm=a prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
               b-200   [001] d..3  1000.004000: sched_waking: comm=a pid=100 prio=120 target_cpu=000
               b-200   [001] d..3  1000.005000: sched_waking: comm=a pid=100 prio=120 target_cpu=000
          <idle>-0     [000] d..3  1000.005100: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=100 next_prio=120
               a-100   [000] d..3  1000.006000: sched_switch: prev_comm=a prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
TR
"$SCHEDLAB" --db "$T/db" import "$T/w.txt" > /dev/null || fail "import"
expect_eq "$(sq "$T/db" "SELECT group_concat(COALESCE(w.ts_run - w.ts, 'none'), ' ') FROM (SELECT * FROM wakeup
	WHERE run_id = 1 ORDER BY ts) w")" "50000 none 100000" "a's wakeups (delays, ns)"
"$SCHEDLAB" --db "$T/db" analyze --format json > "$T/j" || fail "analyze"
J() { sq "$T/db" "SELECT json_extract(readfile('$T/j'), '\$[0].$1')"; }
expect_eq "$(J wakeups)" 3 "wakeups"
expect_eq "$(J delay_max_ns)" 100000 "longest delay"
F="$SHARED/traces/systing-perfetto-22cpu/trace.pb"
[ -f "$F" ] || skip "no $F"
"$B/tools/perfdump" -r perfetto "$F" > "$T/e" || fail "perfdump"
want=$(awk -v P=1180476 '
	{ cpu = $2; sub(/cpu=/, "", cpu); pid = ""; pid2 = ""
	  for (i = 4; i <= NF; i++) { if ($i ~ /^pid=/) pid = substr($i, 5); if ($i ~ /^pid2=/) pid2 = substr($i, 6) } }
	$3 == "switch" { if (pid == P) on = 0; if (pid2 == P) { on = 1 } }
	$3 == "waking" && pid == P { all++; if (!on) n++ }
	END { print all, n }' "$T/e")
expect_eq "$want" "26 25" "ringbuf_stack_e's wakings, and those while off a CPU (awk)"
"$SCHEDLAB" --db "$T/db2" import "$F" > /dev/null 2>&1 || fail "import $F"
expect_eq "$(sq "$T/db2" "SELECT count(*) FROM wakeup w JOIN thread t USING (utid) WHERE w.run_id = 1 AND t.tid = 1180476")" 25 \
	"ringbuf_stack_e's wakeups"
expect_eq "$(sq "$T/db2" "SELECT w.ts_run - w.ts FROM wakeup w JOIN thread t USING (utid) WHERE w.run_id = 1 AND t.tid = 1180476
	ORDER BY w.ts LIMIT 1")" 16642 "its first delay"
# (3) why the recorded run has more wakeup rows than any replay (issue 25:
#     3,223 against 2,521): a recorded row with no run is a waking the
#     replay cannot have, the task having run and slept unseen (the file
#     lacks 180 switches): woken again before any switch-in, or woken
#     while the recorded slices show it running (its switch-out unseen),
#     or not run before the trace's end, or its next slice one the import
#     placed for a missed switch (a task with uncertain time). Worked out
#     in SQL on the rows: every row with no run is one of those.
nr=$(sq "$T/db2" "SELECT count(*) FROM wakeup WHERE run_id = 1 AND ts_run IS NULL")
split=$(sq "$T/db2" "WITH w AS (SELECT * FROM wakeup WHERE run_id = 1 AND ts_run IS NULL),
	nx AS (SELECT w.*, (SELECT min(s.ts) FROM sched_slice s WHERE s.run_id = 1 AND s.utid = w.utid AND s.ts > w.ts) AS next_run FROM w),
	c AS (SELECT EXISTS (SELECT 1 FROM sched_slice s WHERE s.run_id = 1 AND s.utid = nx.utid AND s.ts <= nx.ts AND s.ts + s.dur > nx.ts) AS running,
		EXISTS (SELECT 1 FROM wakeup x WHERE x.run_id = 1 AND x.utid = nx.utid AND x.ts > nx.ts AND x.ts <= COALESCE(nx.next_run, 1e19)) AS again,
		nx.next_run IS NULL AS unrun,
		(SELECT uncertain_ns FROM task_stat u WHERE u.run_id = 1 AND u.utid = nx.utid) > 0 AS unsure FROM nx)
	SELECT sum(running OR again), sum(NOT (running OR again) AND unrun), sum(NOT (running OR again OR unrun) AND unsure) FROM c")
set -- $(echo "$split" | tr '|' ' ')
expect_eq "$(($1 + $2 + $3))" "$nr" "recorded wakeups with no run that are re-wakings or wakings of a running task ($1),
	never run ($2), or before a placed slice ($3)"
# and every replay's wakeups are the behaviour's: one per sleep that a
# wakeup ends (a phase ending S or D with a phase after it) and one per
# start that was a wakeup by a task (forked, flags 2, or first woken by a
# task: a parent and not present at the start, flags 1); a task first
# woken by an interrupt or idle starts with no row (docs/replay.md)
"$SCHEDLAB" --db "$T/db2" -q replay --trace 1 --sched all > /dev/null 2>&1 || fail "replay $F"
sleeps=$(sq "$T/db2" "SELECT count(*) FROM task_model m, json_each(m.phases) p
	WHERE json_extract(p.value, '\$[2]') IN ('S', 'D') AND p.key < json_array_length(m.phases) - 1")
starts=$(sq "$T/db2" "SELECT count(*) FROM task_model m WHERE (m.flags & 2) != 0 OR (m.parent_utid IS NOT NULL AND (m.flags & 1) = 0)")
# (a waker the causal replay parked until its partner slept, a hand-back,
# has a wakeup row of its own: docs/replay.md "Hand-backs")
expect_eq "$(sq "$T/db2" "SELECT group_concat(n, ' ') FROM (SELECT count(w.utid) - (SELECT CAST(value AS INTEGER) FROM metric m
	WHERE m.run_id = r.id AND m.utid IS NULL AND m.name = 'replay_handbacks') AS n FROM run r LEFT JOIN wakeup w ON w.run_id = r.id
	WHERE r.id > 1 GROUP BY r.id ORDER BY r.id)")" "$(echo $((sleeps + starts)) $((sleeps + starts)) $((sleeps + starts)) $((sleeps + starts)) $((sleeps + starts)))" \
	"every model's wakeups: $sleeps sleeps + $starts starts (+ the hand-backs)"
# the report says why the recorded run has more wakeups (the same count)
"$SCHEDLAB" --db "$T/db2" report --trace 1 -o "$T/rep" > /dev/null 2>&1 || fail "report"
note=$(sed -n 's/.*Run 1 has \([0-9]*\) wakeups of which \([0-9]*\) ran; the \([0-9]*\) others.*/\1 \2 \3/p' "$T/rep/index.html")
expect_eq "$note" "$(sq "$T/db2" "SELECT count(*) FROM wakeup WHERE run_id = 1") $(sq "$T/db2" "SELECT count(*) FROM wakeup
	WHERE run_id = 1 AND ts_run IS NOT NULL AND ts_run >= ts") $nr" "report's note on the wakeup counts"
echo "ok: waking-only: a's delays 50/none/100 us; ringbuf_stack_e 25 wakeups; $nr recorded wakeups never run ($1 re-wakings or of a running task, $2 never run, $3 before a placed slice); replays $sleeps + $starts"
