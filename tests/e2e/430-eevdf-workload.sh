#!/bin/sh
# The eevdf model through the command line (docs/eevdf.md), 1 CPU, HZ 1000:
# base slice 0.70 ms (v6.15 and later; 1 + ilog2(1) = 1). Shares of CPU-bound tasks follow the
# weights of sched_prio_to_weight exactly, up to one slice:
# - two nice-0 hogs: 1024 : 1024 = 50.00 %;
# - nice 0 vs nice 5: 1024 / (1024 + 335) = 75.35 %;
# - nice 0 vs nice 10: 1024 / (1024 + 110) = 90.30 %;
#   (within 0.2 % over 10 s: the lag of either task is bounded by a slice)
# - 40 tasks of 8 ms run / 1 ms sleep: equal CPU time within 10 %;
# - a 1 ms run / 10 ms sleep task S beside a nice-0 hog H keeps its wakeup
#   delay within 2.70 ms. Derivation (slice r = 0.70 ms, tick 1 ms, both
#   nice 0 so virtual time = CPU time):
#   1. S leaves with vlag = V - v_S = (v_H - v_S) / 2 and, H being alone
#      while S sleeps, comes back at V = v_H minus vlag * (W + w) / W =
#      2 * vlag: at the same offset d = v_S - v_H it left with (place_entity).
#   2. S is only picked while eligible (v_S <= V, i.e. d <= 0) and runs at
#      most its 1 ms burst: d <= 1 ms when it sleeps, so when it wakes.
#   3. d < 0: H is not eligible, S is the pick: it preempts at once. Else H
#      runs on (RUN_TO_PARITY); after d <= 1 ms of H's CPU time S is
#      eligible; H's deadline is never more than r beyond its vruntime, so
#      its slice ends within another 0.70 ms, seen at the next tick (<= 1 ms
#      later). Then S (eligible, deadline v_S + r < v_H + r) is the pick.
#   Bound: 1 + 0.70 + 1 = 2.70 ms. With DELAY_DEQUEUE (v6.12, the default)
#   S sleeping with d > 0 stays queued; if it is picked before it wakes it
#   leaves with its lag zeroed and wakes at d = 0 (step 3 without the first
#   1 ms), else it wakes where it was (d <= 1 ms, as above): same bound.
#   Checked with the v6.6 rules (--opt delay_dequeue=0) too.
# - the chart's rows (vlag: vruntime - min_vruntime at placement, pick and
#   put-back) of the two nice-0 hogs, by hand: both placed at 0 (a, b: 0),
#   a picked (0); at 1 ms a has run 1 ms and b (0) is the minimum: a goes
#   back at +1 ms, b is picked at 0; at 2 ms both are at 1 ms = min: b back
#   at 0, a picked at 0; at 3 ms a is 1 ms ahead again: a +1 ms, b 0;
# - the params record the eevdf options; a bad option value is refused.
. "$TOP/tests/e2e/lib.sh"

share() { # RUN NAME: NAME's CPU share in 1/10000
	sq "$T/db" "SELECT SUM(CASE WHEN th.comm = '$2' THEN s.dur ELSE 0 END) * 10000 / SUM(s.dur)
		FROM sched_slice s JOIN thread th ON th.utid = s.utid WHERE s.run_id = $1"
}
replay() { # WORKLOAD DURATION: prints the run id
	"$SCHEDLAB" --db "$T/db" replay --workload "$1" --sched eevdf --duration "$2" --debug > "$T/out" ||
		fail "replay $1: $(cat "$T/out")"
	run=$(sed -n 's/^run \([0-9]*\) eevdf:.*/\1/p' "$T/out")
	[ -n "$run" ] || fail "no run id: $(cat "$T/out")"
	echo "$run"
}

first=''
for pair in "0 5000" "5 7535" "10 9030"; do
	set -- $pair
	printf 'a 0 run=inf\nb %s run=inf\n' "$1" > "$T/w$1"
	run=$(replay "$T/w$1" 10s)
	got=$(share "$run" a)
	[ "$got" -ge $(($2 - 20)) ] && [ "$got" -le $(($2 + 20)) ] ||
		fail "nice 0 vs nice $1: nice-0 share $got / 10000, expected $2 +- 20"
	echo "nice 0 vs nice $1: nice-0 share $got / 10000 (expected $2)"
	[ -n "$first" ] || first=$run
done
got=$(sq "$T/db" "SELECT group_concat(r, ' ') FROM (SELECT th.comm || '|' || v.ts || '|' || v.lag AS r
	FROM vlag v JOIN thread th ON th.utid = v.utid WHERE v.run_id = $first ORDER BY v.rowid LIMIT 9)")
expect_eq "$got" "a|0|0 b|0|0 a|0|0 a|1000000|1000000 b|1000000|0 b|2000000|0 a|2000000|0 a|3000000|1000000 b|3000000|0" \
	"first vlag rows of two nice-0 hogs"

i=1
: > "$T/w40"
while [ $i -le 40 ]; do echo "t$i 0 run=8ms sleep=1ms" >> "$T/w40"; i=$((i + 1)); done
run=$(replay "$T/w40" 10s)
r=$(sq "$T/db" "SELECT COUNT(*), MIN(t), MAX(t), MAX(t) * 1000 / MIN(t) FROM
	(SELECT SUM(dur) AS t FROM sched_slice WHERE run_id = $run GROUP BY utid)")
echo "40 x (8 ms / 1 ms): tasks|min ns|max ns|max/min x1000 = $r"
expect_eq "${r%%|*}" 40 "tasks that ran"
[ "${r##*|}" -le 1100 ] || fail "40 tasks: max/min CPU time ${r##*|} / 1000 > 1.1"

printf 'hog 0 run=inf\ns 0 run=1ms sleep=10ms\n' > "$T/ws"
for opt in delay_dequeue=1 delay_dequeue=0; do
	"$SCHEDLAB" --db "$T/db" replay --workload "$T/ws" --sched eevdf --duration 10s --debug --opt $opt \
		> "$T/out" || fail "replay sleeper $opt: $(cat "$T/out")"
	run=$(sed -n 's/^run \([0-9]*\) eevdf:.*/\1/p' "$T/out")
	r=$(sq "$T/db" "SELECT COUNT(*), MAX(w.ts_run - w.ts) FROM wakeup w JOIN thread th ON th.utid = w.utid
		WHERE w.run_id = $run AND th.comm = 's' AND w.ts_run IS NOT NULL")
	echo "sleeper ($opt): wakeups|max delay ns = $r (bound 2700000)"
	# 10 s / (1 ms + 10 ms + delay) wakeups: between 10 s / 13.70 ms = 729 and 909
	[ "${r%%|*}" -ge 729 ] && [ "${r%%|*}" -le 909 ] || fail "sleeper ($opt): ${r%%|*} wakeups"
	[ "${r##*|}" -le 2700000 ] || fail "sleeper ($opt): max wakeup delay ${r##*|} ns > 2.70 ms"
done

got=$(sq "$T/db" "SELECT params FROM run WHERE id = $run")
case $got in
*'"scheduler":"eevdf"'*'"base_slice_us":0'*'"run_to_parity":1'*'"place_lag":1'*'"delay_dequeue":0'*) ;;
*) fail "params: $got" ;;
esac
# base_slice_us=3000: the first two slices end at the first tick past the
# half slice (new tasks: 1.5 ms -> 2 ms each), then both sit at v = 2 ms with
# deadlines 5 ms: they alternate 3 ms slices from t = 4 ms on
run=$("$SCHEDLAB" --db "$T/db" replay --workload "$T/w0" --sched eevdf --duration 1s \
	--opt base_slice_us=3000 | sed -n 's/^run \([0-9]*\) eevdf:.*/\1/p')
r=$(sq "$T/db" "SELECT MIN(dur), MAX(dur) FROM sched_slice WHERE run_id = $run AND ts >= 4000000 AND ts + dur < 1000000000")
echo "base_slice_us=3000: slice min|max = $r"
expect_eq "$r" "3000000|3000000" "slices with a 3 ms base slice"
if "$SCHEDLAB" --db "$T/db" replay --workload "$T/w0" --sched eevdf --duration 1s --opt run_to_parity=2 \
	> "$T/out" 2> "$T/err"; then
	fail "run_to_parity=2 accepted"
fi
grep -q "run_to_parity" "$T/err" || fail "message: $(cat "$T/err")"
exit 0
