#!/bin/sh
# The o1 model through the command line on workload files, 1 CPU. Expected
# figures are worked out by hand from kernel/sched.c of 2.6.20 (docs/o1.md):
# - two nice-0 hogs for 2 s: whole 100 ms slices at prio 125 (sleep_avg 0:
#   120 - (0 - 5)), 1000 ms each, 10 slices each;
# - at --hz 100 the nice-19 slice is MIN_TIMESLICE = max(5*100/1000, 1) = 1
#   jiffy = 10 ms (not 5 ms), the nice-0 slice stays 10 jiffies = 100 ms:
#   nice 0 vs 19 in 2.2 s is 20 epochs of 110 ms: 2000 ms : 200 ms;
# - the run's params hold the model's options; a bad option fails cleanly.
. "$TOP/tests/e2e/lib.sh"

cat > "$T/hogs.wl" <<'W'
# two CPU hogs
a 0 run=inf
b 0 run=inf
W
"$SCHEDLAB" --db "$T/db" replay --workload "$T/hogs.wl" --sched o1 --duration 2s > "$T/out" ||
	fail "replay o1"
run=$(sed -n 's/^run \([0-9]*\) o1:.*/\1/p' "$T/out")
[ -n "$run" ] || fail "no run id printed: $(cat "$T/out")"
got=$(sq "$T/db" "SELECT th.comm, SUM(s.dur), COUNT(*), MIN(s.priority), MAX(s.priority)
	FROM sched_slice s JOIN thread th ON th.utid = s.utid WHERE s.run_id = $run
	GROUP BY th.comm ORDER BY th.comm" | tr '\n' ' ')
expect_eq "$got" "a|1000000000|10|125|125 b|1000000000|10|125|125 " "two hogs"
# every slice but the cut last one is 100 ms
got=$(sq "$T/db" "SELECT COUNT(*) FROM sched_slice WHERE run_id = $run AND dur <> 100000000")
expect_eq "$got" "0" "slices of 100 ms"
# staircase: level 25 only, both arrays used (expiry, array switch)
got=$(sq "$T/db" "SELECT MIN(level), MAX(level), COUNT(DISTINCT array) FROM staircase WHERE run_id = $run")
expect_eq "$got" "25|25|2" "staircase"
got=$(sq "$T/db" "SELECT params FROM run WHERE id = $run")
case $got in
*'"scheduler":"o1"'*'"unknown_waker_irq":0'*'"initial_sleep_avg_ms":0'*) ;;
*) fail "params: $got" ;;
esac

cat > "$T/nice.wl" <<'W'
n0 0 run=inf
n19 19 run=inf
W
"$SCHEDLAB" --db "$T/db" replay --workload "$T/nice.wl" --sched o1 --hz 100 --duration 2.2s \
	--opt unknown_waker_irq=1 > "$T/out" || fail "replay o1 --hz 100"
run=$(sed -n 's/^run \([0-9]*\) o1:.*/\1/p' "$T/out")
got=$(sq "$T/db" "SELECT th.comm, SUM(s.dur) FROM sched_slice s JOIN thread th ON th.utid = s.utid
	WHERE s.run_id = $run GROUP BY th.comm ORDER BY th.comm" | tr '\n' ' ')
expect_eq "$got" "n0|2000000000 n19|200000000 " "nice 0 vs 19 at HZ 100"
got=$(sq "$T/db" "SELECT params FROM run WHERE id = $run")
case $got in *'"hz":100'*'"unknown_waker_irq":1'*) ;; *) fail "params: $got" ;; esac

# a bad option: one error line, exit 1, nothing half-written
before=$(sq "$T/db" "SELECT COUNT(*) FROM run")
"$SCHEDLAB" --db "$T/db" replay --workload "$T/nice.wl" --sched o1 --duration 1s \
	--opt unknown_waker_irq=7 > "$T/out" 2> "$T/err" && fail "bad option accepted"
[ "$(wc -l < "$T/err")" -eq 1 ] || fail "expected one error line: $(cat "$T/err")"
grep -q '^schedlab: error: ' "$T/err" || fail "error format: $(cat "$T/err")"
expect_eq "$(sq "$T/db" "SELECT COUNT(*) FROM run")" "$before" "runs after a failed replay"
exit 0
