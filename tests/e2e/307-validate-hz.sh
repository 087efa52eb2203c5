#!/bin/sh
# validate estimates the recording kernel's CONFIG_HZ from the phase of the
# recorded run's tick preemptions (analyze/fidelity.h, sl_estimate_hz).
# 1. Two hogs on one CPU preempting each other every 1 ms, at k ms + 370 us
#    (ftrace text made here): every preemption end is at phase 370 us of a
#    1 ms tick, so the concentration is 1 at 1000 Hz; modulo 4 ms (250 Hz)
#    the ends fall at 0.37, 1.37, 2.37, 3.37 ms in turn, four phases a
#    quarter turn apart: 0; at 100 and 300 Hz they spread as well: 1000 Hz.
# 2. The same every 4 ms: 1 at 250 Hz and at 1000 Hz (4 ms is 4 ticks of
#    1 ms); the estimate is the lowest HZ within 0.6 of the best: 250 Hz.
# 3. The traces recorded on this project's machine (CONFIG_HZ=250 in its
#    /proc/config.gz when they were recorded): 250 Hz.
# 4. Too few preemptions (a trace of 20 switches): it says it cannot tell
#    and uses 1000; --hz N overrides.
. "$(dirname "$0")/lib.sh"
gen() { # gen STEP_US COUNT > file
	awk -v step="$1" -v n="$2" 'BEGIN {
		print "# tracer: nop"
		for (k = 1; k <= n; k++) {
			t = 1 + (k * step + 370) / 1e6
			if (k % 2) { a = "a"; ap = 5; b = "b"; bp = 6 } else { a = "b"; ap = 6; b = "a"; bp = 5 }
			printf "  %s-%d [000] d..2 %.6f: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=R ==> next_comm=%s next_pid=%d next_prio=120\n", a, ap, t, a, ap, b, bp
		}
	}'
}
hz_of() { "$SCHEDLAB" --db "$1" validate --trace 1 --sched eevdf | head -1 | sed -n 's/.*, \([0-9]*\) Hz (\([a-z]*\).*/\1 \2/p'; }
gen 1000 400 > "$T/1000.txt"
"$SCHEDLAB" --db "$T/a.db" import "$T/1000.txt" > /dev/null || fail "import 1000"
expect_eq "$(hz_of "$T/a.db")" "1000 estimated" "1 ms preemptions"
gen 4000 400 > "$T/250.txt"
"$SCHEDLAB" --db "$T/b.db" import "$T/250.txt" > /dev/null || fail "import 250"
expect_eq "$(hz_of "$T/b.db")" "250 estimated" "4 ms preemptions"
for tr in rec-build-mix.dat gene-desktop-1cpu.dat ed-desktop-2cpu.dat; do
	rm -f "$T/c.db"
	"$SCHEDLAB" --db "$T/c.db" import "$TOP/traces/$tr" > /dev/null 2>&1 || fail "import $tr"
	expect_eq "$(hz_of "$T/c.db")" "250 estimated" "$tr (recorded at CONFIG_HZ=250)"
done
gen 1000 20 > "$T/few.txt"
"$SCHEDLAB" --db "$T/d.db" import "$T/few.txt" > /dev/null || fail "import few"
expect_eq "$(hz_of "$T/d.db")" "1000 could" "20 preemptions"
"$SCHEDLAB" --db "$T/d.db" validate --trace 1 --sched eevdf --hz 300 | head -1 | grep -q ", 300 Hz (--hz)" || fail "--hz 300"
# From the trace's own scheduler ticks (collector/tickrt.c): corpus-quiet/
# hackbench has sched_stat_runtime and only 26 tick preemptions (the slice
# ends alone could not tell: 1000 by default before); its ledger says the
# recording kernel's CONFIG_HZ, 250. The import keeps the tick in the
# recorded run's params, and validate names where the HZ came from.
tr="$TOP/traces/corpus-quiet/hackbench.dat"
grep -q '^hz	250$' "$tr.ledger" || fail "the ledger's hz: $(grep '^hz' "$tr.ledger")"
"$SCHEDLAB" --db "$T/e.db" import "$tr" > /dev/null 2>&1 || fail "import hackbench"
expect_eq "$(sq "$T/e.db" "SELECT json_extract(params, '$.tick_hz') FROM run WHERE scheduler = 'recorded'")" 250 \
	"hackbench: the recorded run's tick_hz"
n=$(sq "$T/e.db" "SELECT json_extract(params, '$.tick_samples') FROM run WHERE scheduler = 'recorded'")
[ "$n" -ge 100 ] || fail "hackbench: only $n scheduler ticks"
"$SCHEDLAB" --db "$T/e.db" validate --trace 1 --seeds 1 | head -1 |
	grep -q ", 250 Hz (estimated from $n scheduler ticks (sched_stat_runtime)" ||
	fail "hackbench HZ: $("$SCHEDLAB" --db "$T/e.db" validate --trace 1 --seeds 1 | head -1)"
# 5. Timers at the tick (docs/model.md): hackbench's slice ends cannot tell
# the tick, sched_stat_runtime's can: the recorded run keeps its phase at
# 250 Hz, validate at 250 Hz ends the marked sleeps at a tick and says how
# many (the count the replay stores as replay_tick_timers, no more than the
# sleeps the import marked); at 1000 Hz there is no recorded phase and none
# does; --tick-timers off says so.
expect_eq "$(sq "$T/e.db" "SELECT json_extract(params, '$.tick_phase_hz') FROM run WHERE scheduler = 'recorded'")" 250 \
	"hackbench: the tick phase's HZ"
marks=$(sq "$T/e.db" "SELECT SUM(tick_n > 0) FROM burst")
[ "$marks" -gt 50 ] || fail "hackbench: $marks sleeps marked as a timer's at the tick"
"$SCHEDLAB" --db "$T/e.db" validate --trace 1 --seeds 1 > "$T/v" 2>/dev/null
got=$(sed -n 's/^timers at the tick: \([0-9]*\) sleeps of the stored replay end at a tick.*/\1/p' "$T/v")
run=$(sq "$T/e.db" "SELECT MAX(id) FROM run")
expect_eq "$got" "$(sq "$T/e.db" "SELECT CAST(value AS INTEGER) FROM metric WHERE run_id = $run AND name = 'replay_tick_timers'")" \
	"hackbench: the printed count of timers at the tick"
[ "$got" -gt 0 ] && [ "$got" -le "$marks" ] || fail "hackbench: $got timers at the tick of $marks marked"
"$SCHEDLAB" --db "$T/e.db" validate --trace 1 --seeds 1 --hz 1000 2>/dev/null | grep -q '^timers at the tick: none (no recorded tick phase at 1000 Hz' ||
	fail "hackbench at 1000 Hz: timers at the tick"
"$SCHEDLAB" --db "$T/e.db" validate --trace 1 --seeds 1 --tick-timers off 2>/dev/null | grep -q '^timers at the tick: off' ||
	fail "hackbench --tick-timers off"
echo "HZ: 1000 and 250 on made traces, 250 on the recordings of this machine (from $n ticks on hackbench); $got of $marks timers at the tick"
