#!/bin/sh
# The eevdf model on every bundled trace (traces/), timed and causal, with
# the engine's invariants checked after every model call (--debug, which is
# what SCHEDLAB_DEBUG=1 turns on):
# - conservation: every task's replayed CPU time equals its recorded CPU
#   time exactly (the engine replays each burst whole; no tolerance);
# - determinism: a second database gives the same rows for the 2-CPU trace.
. "$TOP/tests/e2e/lib.sh"

i=0
for f in "$TOP"/traces/*; do
	case $f in *.md) continue ;; esac
	"$SCHEDLAB" --db "$T/db" import "$f" > /dev/null 2>&1 || continue
	i=$((i + 1))
	for mode in timed causal; do
		SCHEDLAB_DEBUG=1 "$SCHEDLAB" --db "$T/db" replay --trace $i --sched eevdf --mode $mode --debug \
			> "$T/out" 2>&1 || fail "eevdf replay of $f ($mode): $(cat "$T/out")"
		run=$(sed -n 's/^run \([0-9]*\) eevdf:.*/\1/p' "$T/out")
		[ -n "$run" ] || fail "$f ($mode): no run id: $(cat "$T/out")"
		bad=$(sq "$T/db" "
			WITH rec AS (SELECT s.utid, SUM(s.dur) AS rt FROM sched_slice s JOIN run r ON r.id = s.run_id
				     WHERE r.trace_id = $i AND r.scheduler = 'recorded' GROUP BY s.utid),
			     rep AS (SELECT utid, SUM(dur) AS rt FROM sched_slice WHERE run_id = $run GROUP BY utid)
			SELECT COUNT(*) FROM rec LEFT JOIN rep USING (utid) WHERE rec.rt <> COALESCE(rep.rt, 0)")
		expect_eq "$bad" 0 "$(basename "$f") ($mode): tasks whose CPU time was not conserved"
	done
	echo "ok $(basename "$f")"
done
[ $i -gt 0 ] || skip "no bundled traces"

f="$TOP/traces/local-2cpu-hogs.ftrace.txt"
[ -f "$f" ] || exit 0
"$SCHEDLAB" --db "$T/db2" import "$f" > /dev/null 2>&1 || fail "import $f"
"$SCHEDLAB" --db "$T/db2" replay --trace 1 --sched eevdf > /dev/null || fail "replay into db2"
"$SCHEDLAB" --db "$T/db3" import "$f" > /dev/null 2>&1 || fail "import $f"
"$SCHEDLAB" --db "$T/db3" replay --trace 1 --sched eevdf > /dev/null || fail "replay into db3"
rows() {
	sq "$1" "SELECT s.ts, s.dur, s.cpu, s.utid, s.end_state, s.priority FROM sched_slice s
		JOIN run r ON r.id = s.run_id WHERE r.scheduler = 'eevdf' ORDER BY s.ts, s.cpu"
}
rows "$T/db2" > "$T/a"
rows "$T/db3" > "$T/b"
[ -s "$T/a" ] || fail "no eevdf rows"
cmp -s "$T/a" "$T/b" || fail "eevdf replays of the same trace differ"
n=$(sq "$T/db2" "SELECT COUNT(DISTINCT s.cpu) FROM sched_slice s JOIN run r ON r.id = s.run_id
	WHERE r.scheduler = 'eevdf'")
expect_eq "$n" 2 "CPUs used by eevdf on the 2-CPU trace"
echo "ok determinism ($(wc -l < "$T/a") rows)"
exit 0
