#!/bin/sh
# The cfs model (docs/cfs.md) on every bundled trace, timed and causal, with
# the engine's invariants checked after every model call (--debug; the
# model's own check walks its queue: heap order, positions, load and count):
# - conservation: every task's replayed CPU time equals its recorded CPU time
#   within one tick (1 ms): the model may reorder work, never lose or add it;
# - the 2-CPU trace runs on both CPUs;
# - determinism: a second database gives the same rows.
. "$TOP/tests/e2e/lib.sh"

i=0
for f in "$TOP"/traces/*; do
	case $f in *README*) continue ;; esac
	"$SCHEDLAB" --db "$T/db" import "$f" > /dev/null 2>&1 || continue
	i=$((i + 1))
	for mode in timed causal; do
		"$SCHEDLAB" --db "$T/db" replay --trace $i --sched cfs --mode $mode --debug > "$T/out" ||
			fail "cfs replay of $f ($mode): $(cat "$T/out")"
		run=$(sed -n 's/^run \([0-9]*\) cfs:.*/\1/p' "$T/out")
		[ -n "$run" ] || fail "no run id: $(cat "$T/out")"
		bad=$(unconserved "$T/db" $i $run)
		expect_eq "$bad" 0 "$(basename "$f") ($mode): tasks whose CPU time was not conserved"
	done
	echo "ok $(basename "$f")"
done
[ $i -gt 0 ] || skip "no bundled traces"
[ $i -ge 10 ] || fail "only $i bundled traces imported"
t=$(sq "$T/db" "SELECT id FROM trace WHERE path LIKE '%local-2cpu-hogs%' LIMIT 1")
if [ -n "$t" ]; then
	n=$(sq "$T/db" "SELECT COUNT(DISTINCT s.cpu) FROM sched_slice s JOIN run r ON r.id = s.run_id
		WHERE r.trace_id = $t AND r.scheduler = 'cfs'")
	expect_eq "$n" 2 "CPUs used by cfs on the 2-CPU trace"
fi

"$SCHEDLAB" --db "$T/db2" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1
"$SCHEDLAB" --db "$T/db3" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1
for d in db2 db3; do
	"$SCHEDLAB" --db "$T/$d" replay --trace 1 --sched cfs > /dev/null
	"$SCHEDLAB" --db "$T/$d" replay --trace 1 --sched cfs --mode causal > /dev/null
	sq "$T/$d" "SELECT r.mode, s.ts, s.dur, s.cpu, s.utid, s.end_state, s.priority
		FROM sched_slice s JOIN run r ON r.id = s.run_id WHERE r.trace_id = 1 AND r.scheduler = 'cfs'
		ORDER BY r.mode, s.ts, s.cpu" > "$T/$d.rows"
done
[ -s "$T/db2.rows" ] || fail "no cfs rows"
cmp -s "$T/db2.rows" "$T/db3.rows" || fail "cfs replays of the same trace differ"
echo "ok determinism ($(wc -l < "$T/db2.rows") rows)"
exit 0
