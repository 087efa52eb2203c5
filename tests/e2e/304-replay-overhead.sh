#!/bin/sh
# replay --overhead: the kernel's own costs (docs/replay.md "Kernel overheads").
# - auto (the default for a trace) stores in the run's params the 16 quantiles
#   of the recorded run's idle-CPU wakeup delays and preemption delays; both
#   are recomputed here in SQL, independently of the C code, from the rule:
#   idle sample = a wakeup whose CPU ran no slice at ts and whose next slice
#   on that CPU is the woken task's starting at ts_run; switch sample = the
#   slice running at ts ends at ts_run preempted (R) and the woken task's
#   slice starts there, unless a tick of that CPU lies after ts + 100 us and
#   within 100 us of ts_run (the tick's preemption). The ticks, in SQL too:
#   250 Hz (validate's estimate, checked below; this trace was recorded on
#   a 250 Hz kernel), each CPU's phase the circular mean of the slice ends
#   (R, no wakeup in the 100 us before) in the 3 adjacent bins of 64 per
#   period holding the most, if at least 10 and 4 x 3/64 of that CPU's;
#   a CPU without one takes the recorded run's tick (params tick_phase_ns).
#   Quantile i = nearest rank ceil((2i+1)/32 * n).
# - a workload defaults to none (params "overhead":"none", delays as before);
# - a fixed value makes every idle-CPU wakeup of a lone sleeper last exactly it;
# - bad values are refused with one line.
. "$TOP/tests/e2e/lib.sh"

"$SCHEDLAB" --db "$T/db" import "$TOP/traces/perf-sched-load-2cpu.perf.data" > /dev/null 2>&1 || fail import
"$SCHEDLAB" --db "$T/db" replay --trace 1 --sched rsdl > "$T/out" || fail "replay auto"
p=$(sq "$T/db" "SELECT params FROM run WHERE id = 2")
echo "$p" | grep -q '"overhead":"auto"' || fail "params: $p"

P=4000000
samples() { # $1: idle | switch
	cond='prev.ts IS NULL OR prev.ts + prev.dur <= x.ts'
	[ "$1" = switch ] && cond="prev.ts + prev.dur > x.ts AND prev.ts + prev.dur = x.ts_run AND prev.end_state = 'R' AND prev.utid <> x.utid
	  AND NOT EXISTS (SELECT 1 FROM ph WHERE ph.cpu = prev.cpu AND
	    ABS(x.ts_run - (ph.p + $P * FLOOR((x.ts_run - ph.p) / $P + 0.5))) <= 100000 AND
	    ph.p + $P * FLOOR((x.ts_run - ph.p) / $P + 0.5) - 100000 > x.ts)"
	sq "$T/db" "WITH s AS (SELECT rowid AS id, * FROM sched_slice WHERE run_id = 1),
	  e AS (SELECT cpu, ts + dur AS e, ((ts + dur) % $P) * 1.0 / $P AS f FROM s WHERE end_state = 'R'
	    AND NOT EXISTS (SELECT 1 FROM wakeup w WHERE w.run_id = 1 AND w.ts <= s.ts + s.dur AND w.ts + 100000 >= s.ts + s.dur)),
	  eb AS (SELECT cpu, f, MIN(CAST(f * 64 AS INT), 63) AS b FROM e),
	  bins AS (SELECT c.cpu, k.b, (SELECT COUNT(*) FROM eb WHERE eb.cpu = c.cpu AND eb.b IN (k.b, (k.b + 63) % 64, (k.b + 1) % 64)) AS n
	    FROM (SELECT DISTINCT cpu FROM eb) c, (WITH RECURSIVE r(b) AS (SELECT 0 UNION ALL SELECT b + 1 FROM r WHERE b < 63) SELECT b FROM r) k),
	  top AS (SELECT cpu, (SELECT b FROM bins b2 WHERE b2.cpu = b1.cpu ORDER BY n DESC, b LIMIT 1) AS b,
	    MAX(n) AS n, (SELECT COUNT(*) FROM eb WHERE eb.cpu = b1.cpu) AS tot FROM bins b1 GROUP BY cpu),
	  ph0 AS (SELECT t.cpu, ((atan2(SUM(sin(2 * pi() * eb.f)), SUM(cos(2 * pi() * eb.f))) / (2 * pi()) + 1.0) -
	       FLOOR(atan2(SUM(sin(2 * pi() * eb.f)), SUM(cos(2 * pi() * eb.f))) / (2 * pi()) + 1.0)) * $P AS p
	    FROM top t JOIN eb ON eb.cpu = t.cpu AND eb.b IN (t.b, (t.b + 63) % 64, (t.b + 1) % 64)
	    WHERE t.n >= 10 AND t.n * 64 >= 12 * t.tot GROUP BY t.cpu),
	  ph AS (SELECT cpu, p FROM ph0 UNION ALL SELECT c.cpu, rp.p FROM (SELECT DISTINCT cpu FROM s) c,
	    (SELECT json_extract(params, '\$.tick_phase_ns') AS p FROM run WHERE id = 1
	      AND json_extract(params, '\$.tick_phase_hz') = 250) rp WHERE c.cpu NOT IN (SELECT cpu FROM ph0)),
	  x AS (SELECT w.ts, w.ts_run, w.utid,
	    (SELECT id FROM s WHERE s.cpu = w.cpu AND s.ts < w.ts ORDER BY s.ts DESC LIMIT 1) AS pr,
	    (SELECT id FROM s WHERE s.cpu = w.cpu AND s.ts >= w.ts ORDER BY s.ts LIMIT 1) AS nx
	    FROM wakeup w WHERE w.run_id = 1 AND w.ts_run IS NOT NULL AND w.ts_run >= w.ts)
	  SELECT x.ts_run - x.ts FROM x JOIN s nxt ON nxt.id = x.nx LEFT JOIN s prev ON prev.id = x.pr
	  WHERE nxt.utid = x.utid AND nxt.ts = x.ts_run AND ($cond) ORDER BY 1"
}
for kind in idle switch; do
	samples $kind > "$T/$kind"
	n=$(wc -l < "$T/$kind" | tr -d ' ')
	[ "$n" -gt 0 ] || fail "no $kind samples"
	key=wake; [ $kind = switch ] && key=switch
	for i in 0 7 15; do
		rank=$(( ((2 * i + 1) * n + 31) / 32 ))
		want=$(sed -n "${rank}p" "$T/$kind")
		got=$(sq "$T/db" "SELECT json_extract(params, '\$.${key}_latency_ns[$i]') FROM run WHERE id = 2")
		expect_eq "$got" "$want" "$key quantile $i of $n samples"
	done
done

# the calibrated overheads bring the delay distribution nearer the recording:
# KS with auto well below KS without (0.80 -> 0.11 when this was written)
"$SCHEDLAB" --db "$T/db" replay --trace 1 --sched rsdl --overhead none > /dev/null || fail "none"
"$SCHEDLAB" --db "$T/db" analyze --trace 1 --format csv > /dev/null || fail analyze
ks_auto=$(sq "$T/db" "SELECT value FROM metric WHERE run_id = 2 AND utid IS NULL AND name = 'delay_ks_distance'")
ks_none=$(sq "$T/db" "SELECT value FROM metric WHERE run_id = 3 AND utid IS NULL AND name = 'delay_ks_distance'")
awk -v a="$ks_auto" -v n="$ks_none" 'BEGIN { exit !(a < 0.3 && a < n / 2) }' || fail "KS auto $ks_auto none $ks_none"

# a workload: none by default; a fixed wake latency gives a lone sleeper
# exactly that delay at every wakeup (its CPU is always idle when it wakes)
printf 's 0 run=1ms sleep=10ms\n' > "$T/w.txt"
"$SCHEDLAB" --db "$T/db" replay --workload "$T/w.txt" --sched rsdl --duration 100ms > /dev/null || fail "workload"
"$SCHEDLAB" --db "$T/db" replay --workload "$T/w.txt" --sched rsdl --duration 100ms --overhead 40us,5us > /dev/null || fail "fixed"
expect_eq "$(sq "$T/db" "SELECT json_extract(params, '\$.overhead') FROM run WHERE id = 4")" none "workload default"
expect_eq "$(sq "$T/db" "SELECT DISTINCT ts_run - ts FROM wakeup WHERE run_id = 4")" 0 "no overhead"
expect_eq "$(sq "$T/db" "SELECT DISTINCT ts_run - ts FROM wakeup WHERE run_id = 5")" 40000 "fixed 40us"
expect_eq "$(sq "$T/db" "SELECT json_extract(params, '\$.wake_latency_ns') || ',' || json_extract(params, '\$.switch_latency_ns') FROM run WHERE id = 5")" "40000,5000" "fixed params"

for bad in 2s x 1us, -1us; do
	"$SCHEDLAB" --db "$T/db" replay --trace 1 --sched rsdl --overhead "$bad" > /dev/null 2> "$T/err" && fail "--overhead $bad accepted"
	expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 1 "error lines for $bad"
done
"$SCHEDLAB" --db "$T/db" replay --workload "$T/w.txt" --sched rsdl --duration 1s --overhead auto 2> "$T/err" && fail "auto on a workload"

# the tick rate the calibration took is validate's estimate: 250 Hz
"$SCHEDLAB" --db "$T/db" validate --trace 1 --sched rsdl > "$T/val"; [ $? -le 1 ] || fail validate
grep -q ', 250 Hz (estimated' "$T/val" || fail "tick rate: $(head -1 "$T/val")"
left=$(sed -n 's/.*; \([0-9]*\) tick preemptions left out.*/\1/p' "$T/val")
[ "${left:-0}" -gt 0 ] || fail "no tick preemption left out: $(sed -n 2p "$T/val")"
exit 0
