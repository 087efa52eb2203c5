#!/bin/sh
# The sd model on the bundled real traces, timed and causal, with the
# engine's invariants checked after every model call (--debug):
# - conservation: every task's replayed CPU time equals its recorded CPU time
#   within one tick (1 ms);
# - the 2-CPU trace runs on both CPUs (rr_interval scaled to 12 ms there);
# - determinism: a second database gives the same rows.
. "$TOP/tests/e2e/lib.sh"

i=0
for f in local-2cpu-hogs.ftrace.txt massive-intr-10x-1cpu.ftrace.txt panopticon-desktop.ftrace.txt lisa-juno-report.txt; do
	[ -f "$TOP/traces/$f" ] || continue
	i=$((i + 1))
	"$SCHEDLAB" --db "$T/db" import "$TOP/traces/$f" > /dev/null 2>&1 || fail "import $f"
	for mode in timed causal; do
		"$SCHEDLAB" --db "$T/db" replay --trace $i --sched sd --mode $mode --debug > "$T/out" ||
			fail "sd replay of $f ($mode): $(cat "$T/out")"
		run=$(sed -n 's/^run \([0-9]*\) sd:.*/\1/p' "$T/out")
		bad=$(unconserved "$T/db" $i $run)
		expect_eq "$bad" 0 "$f ($mode): tasks whose CPU time was not conserved"
	done
	echo "ok $f"
done
[ $i -gt 0 ] || skip "no bundled traces"
n=$(sq "$T/db" "SELECT COUNT(DISTINCT s.cpu) FROM sched_slice s JOIN run r ON r.id = s.run_id
	WHERE r.trace_id = 1 AND r.scheduler = 'sd'")
expect_eq "$n" 2 "CPUs used by sd on the 2-CPU trace"

"$SCHEDLAB" --db "$T/db2" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1
"$SCHEDLAB" --db "$T/db2" replay --trace 1 --sched sd --mode timed > /dev/null
"$SCHEDLAB" --db "$T/db2" replay --trace 1 --sched sd --mode causal > /dev/null
rows() {
	sq "$1" "SELECT r.mode, s.ts, s.dur, s.cpu, s.utid, s.end_state, s.priority
		FROM sched_slice s JOIN run r ON r.id = s.run_id WHERE r.trace_id = 1 AND r.scheduler = 'sd'
		ORDER BY r.mode, s.ts, s.cpu"
	sq "$1" "SELECT r.mode, c.ts, c.utid, c.level, c.array FROM staircase c JOIN run r ON r.id = c.run_id
		WHERE r.trace_id = 1 AND r.scheduler = 'sd' ORDER BY r.mode, c.ts, c.utid, c.level, c.array"
}
rows "$T/db" > "$T/a"
rows "$T/db2" > "$T/b"
[ -s "$T/a" ] || fail "no sd rows"
cmp -s "$T/a" "$T/b" || fail "sd replays of the same trace differ"
echo "ok determinism ($(wc -l < "$T/a") rows)"
exit 0
