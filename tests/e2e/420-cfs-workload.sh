#!/bin/sh
# The cfs model (docs/cfs.md) through the command line, 1 CPU, HZ 1000, the
# v2.6.24 tunables: sched_latency 20 ms, min_granularity 4 ms, nr_latency 5,
# wakeup_granularity 10 ms (1 CPU: sched_init_granularity's factor is 1).
# Every run is checked with the engine's invariants (SCHEDLAB_DEBUG=1).
. "$TOP/tests/e2e/lib.sh"
export SCHEDLAB_DEBUG=1
n=0
rep() { # WORKLOAD DURATION [OPT...]: replay, set $run
	w=$1 d=$2
	shift 2
	"$SCHEDLAB" --db "$T/db" replay --workload "$T/$w" --sched cfs --duration "$d" "$@" > "$T/out" ||
		fail "replay $w: $(cat "$T/out")"
	run=$(sed -n 's/^run \([0-9]*\) cfs:.*/\1/p' "$T/out")
	[ -n "$run" ] || fail "no run id: $(cat "$T/out")"
}
cpu() { sq "$T/db" "SELECT COALESCE(SUM(s.dur), 0) FROM sched_slice s JOIN thread th ON th.utid = s.utid
	WHERE s.run_id = $run AND th.comm = '$1'"; }
# ratio A B: 1000000 * cpu(A) / cpu(B)
ratio() { sq "$T/db" "SELECT SUM(CASE WHEN th.comm = '$1' THEN s.dur ELSE 0 END) * 1000000 /
	SUM(CASE WHEN th.comm = '$2' THEN s.dur ELSE 0 END)
	FROM sched_slice s JOIN thread th ON th.utid = s.utid WHERE s.run_id = $run"; }
within() { # VALUE EXPECTED TOLERANCE WHAT
	[ "$1" -ge $(($2 - $3)) ] && [ "$1" -le $(($2 + $3)) ] || fail "$4: $1, expected $2 +- $3"
}

# 1. Two nice-0 hogs. sched_slice = period(2) * 1024 / 2048 = 20 ms / 2 =
#    10 ms; check_preempt_tick reschedules at the first tick where the run
#    since set_next_entity EXCEEDS it (delta_exec > ideal_runtime): 11 ms.
#    The other task's vruntime is then lower by 1 ms, so every slice is
#    11 ms and in 1.1 s (100 slices) each gets 550 ms.
printf 'a 0 run=inf\nb 0 run=inf\n' > "$T/w1"
rep w1 1.1s
expect_eq "$(sq "$T/db" "SELECT COUNT(*), MIN(dur), MAX(dur) FROM sched_slice WHERE run_id = $run")" \
	"100|11000000|11000000" "two hogs: slices (count|min|max)"
expect_eq "$(cpu a)|$(cpu b)" "550000000|550000000" "two hogs: CPU time"
#    Its vlag rows (vruntime - min_vruntime): at 0, a is placed alone at
#    0 + vslice_add = 20 ms, b beside it at 0 + period(2) * 1024 / 2048 =
#    10 ms; b (lower) is picked: lag 10 ms (min_vruntime moves only in
#    update_curr). At 11 ms b is put back at 10 + 11 = 21 ms against
#    min_vruntime = min(21, 20) = 20: lag 1 ms; a is picked: lag 0.
expect_eq "$(sq "$T/db" "SELECT group_concat(th.comm || ':' || (v.ts / 1000000) || ':' || (v.lag / 1000), ' ')
	FROM (SELECT * FROM vlag WHERE run_id = $run ORDER BY rowid LIMIT 5) v JOIN thread th ON th.utid = v.utid")" \
	"a:0:20000 b:0:10000 b:0:10000 b:11:1000 a:11:0" "two hogs: first vlag rows (task:ms:us)"
#    its chart: the staircase kind draws a cfs run's vlag rows
"$SCHEDLAB" --db "$T/db" plot staircase --run $run -o "$T/lag.png" > "$T/msg" || fail "plot staircase of a cfs run"
[ "$(head -c 4 "$T/lag.png" | od -An -tx1 | tr -d ' \n')" = 89504e47 ] || fail "lag chart: not a PNG"

# 2. nice 0 vs nice 10 (prio_to_weight 1024 : 110). vruntime advances by
#    delta * 1024 / weight and the lower one runs, so the two vruntimes
#    stay within a slice of each other: cpu0 = cpu10 * 1024 / 110 up to a
#    bounded lag (< 20 ms of vruntime = < 2.2 ms of the nice-10 task's
#    ~1.94 s in 20 s): ratio 9.309 within 1 %.
printf 'n0 0 run=inf\nn10 10 run=inf\n' > "$T/w2"
rep w2 20s
within "$(ratio n0 n10)" $((1024 * 1000000 / 110)) 93000 "nice 0 : nice 10 (x 1e6)"

# 3. nice -20 vs 0 (88761 : 1024): the nice-0 task's sched_slice is
#    20 ms * 1024 / 89785 = 0.23 ms, so it runs one tick (1 ms) at a time;
#    ratio 86.68 up to that 1 ms lag over its ~228 ms: within 1 %.
printf 'm -20 run=inf\nn0 0 run=inf\n' > "$T/w3"
rep w3 20s
within "$(ratio m n0)" $((88761 * 1000000 / 1024)) 867000 "nice -20 : nice 0 (x 1e6)"

# 4. 40 tasks of 8 ms run / 1 ms sleep: all equal weight, the period is
#    stretched to 20 ms * 40 / 5 = 160 ms (4 ms each); equal vruntimes mean
#    equal CPU: every task within 10 % of the mean (20 s / 40 = 500 ms).
i=1
while [ $i -le 40 ]; do echo "t$i 0 run=8ms sleep=1ms"; i=$((i + 1)); done > "$T/w4"
rep w4 20s
expect_eq "$(sq "$T/db" "SELECT SUM(x) FROM (SELECT SUM(dur) x FROM sched_slice WHERE run_id = $run GROUP BY utid)")" \
	20000000000 "40 tasks: the CPU is always busy"
bad=$(sq "$T/db" "SELECT COUNT(*) FROM (SELECT SUM(dur) x FROM sched_slice WHERE run_id = $run GROUP BY utid)
	WHERE x < 450000000 OR x > 550000000")
expect_eq "$bad" 0 "40 tasks: tasks outside 500 ms +- 10 %"

# 5. A 1 ms / 10 ms sleeper beside a hog. Woken, it is placed at
#    max(its vruntime, min_vruntime - sched_latency) = min_vruntime - 20 ms
#    (its own vruntime lags further: it ran 1 ms while the hog ran 10), the
#    hog is at min_vruntime, and 20 ms > wakeup_granularity 10 ms: it
#    preempts at the instant of every wakeup (delay 0 < the granularity),
#    and gets 1 ms in every 11 (20 s: 1818 wakeups, 1.818-1.819 s).
printf 'hog 0 run=inf\nsl 0 run=1ms sleep=10ms\n' > "$T/w5"
rep w5 20s
expect_eq "$(sq "$T/db" "SELECT COUNT(*), MAX(w.ts_run - w.ts) FROM wakeup w JOIN thread th ON th.utid = w.utid
	WHERE w.run_id = $run AND th.comm = 'sl'")" "1818|0" "sleeper: wakeups|max delay"
within "$(cpu sl)" 1818500000 1000000 "sleeper CPU time"
#    Without the sleeper credit (new_fair_sleepers=0) it is placed at
#    min_vruntime = the hog's vruntime: no wakeup preemption; the hog has run
#    10 ms since it was picked, so the next tick (1 ms later, 11 ms > its
#    10 ms slice) ends it and the sleeper, now leftmost, runs: delay 1 ms.
rep w5 2s --opt new_fair_sleepers=0
expect_eq "$(sq "$T/db" "SELECT MIN(w.ts_run - w.ts), MAX(w.ts_run - w.ts) FROM wakeup w
	JOIN thread th ON th.utid = w.utid WHERE w.run_id = $run AND th.comm = 'sl'")" "1000000|1000000" \
	"sleeper without NEW_FAIR_SLEEPERS: delay"

# 6. START_DEBIT. The hog alone from 0 (placed at 0 + vslice_add(empty) =
#    20 ms): at 100 ms its vruntime and min_vruntime are 120 ms. The new task
#    (start=100ms) is placed at 120 + sched_vslice_add = 120 + period(2) *
#    1024 / 2048 = 130 ms: no wakeup preemption (it is behind). The hog, alone
#    since 0, has run 100 ms > its 10 ms slice: rescheduled at the 101 ms tick
#    but still leftmost (121 < 130), picked again; 11 ms later (vruntime 132
#    > 130) the new task runs: first run at 112 ms. Without the debit it is
#    placed at 120 and runs at the 101 ms tick.
printf 'hog 0 run=inf\nnt 0 run=inf start=100ms\n' > "$T/w6"
rep w6 1s
first() { sq "$T/db" "SELECT MIN(s.ts) FROM sched_slice s JOIN thread th ON th.utid = s.utid
	WHERE s.run_id = $run AND th.comm = 'nt'"; }
expect_eq "$(first)" 112000000 "new task's first run with START_DEBIT"
rep w6 1s --opt start_debit=0
expect_eq "$(first)" 101000000 "new task's first run without START_DEBIT"

# the params record the cfs options
got=$(sq "$T/db" "SELECT params FROM run WHERE id = $run")
case $got in
*'"scheduler":"cfs"'*'"start_debit":0'*'"new_fair_sleepers":1'*'"wakeup_preempt":1'*'"child_runs_first":1'*'"compat_yield":0'*'"smp_scale":1'*) ;;
*) fail "params: $got" ;;
esac
exit 0
