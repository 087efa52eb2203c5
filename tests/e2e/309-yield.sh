#!/bin/sh
# sched_yield in a recording (issue 22; docs/model.md "Yields", docs/eevdf.md
# rule 10) on traces/rec-yield-loop.dat: `tests/tools/yieldloop 4 2` recorded
# by `schedlab record` (4 processes each spinning 5 us and calling
# sched_yield, 2 CPUs, 2 s).
# 1. Every runnable switch-out of a yieldloop child is its yield, but for the
#    few the tick or a wakeup made (its loop spins 5 us between yields, the
#    tick comes every 4 ms): at least 99 % of them end Y; no other task
#    yields (the recorder, the VM's threads): none of theirs ends Y.
# 2. validate: the HZ estimate no longer counts the yields (before: 314836
#    "tick preemptions", concentration too low, 1000 Hz by default; the
#    machine runs HZ 250): it is made from fewer than 1000. This recording
#    has no sched_stat_runtime (the tick's own evidence, collector/tickrt.c)
#    and its few tick preemptions cannot tell the HZ (docs/validate.md "Which
#    HZ": the host stalls both vCPUs every 1 ms), so the replay gets --hz
#    250; its yields switch (two loops per CPU take turns): its switches
#    within the +-25 % of docs/validate.md of the recorded 316086 (before:
#    1796, -99.4 %), every task's CPU time exact.
. "$(dirname "$0")/lib.sh"
tr="$TOP/traces/rec-yield-loop.dat"
"$SCHEDLAB" --db "$T/db" import "$tr" > /dev/null 2>&1 || fail "import $tr"
y=$(sq "$T/db" "SELECT COUNT(*) FROM sched_slice s JOIN thread th USING (utid)
	WHERE th.comm = 'yieldloop' AND s.end_state = 'Y'")
r=$(sq "$T/db" "SELECT COUNT(*) FROM sched_slice s JOIN thread th USING (utid)
	WHERE th.comm = 'yieldloop' AND s.end_state IN ('R', 'Y')")
[ $((y * 100)) -ge $((r * 99)) ] || fail "yieldloop: $y of $r runnable switch-outs taken for yields"
other=$(sq "$T/db" "SELECT COUNT(*) FROM sched_slice s JOIN thread th USING (utid)
	WHERE th.comm <> 'yieldloop' AND s.end_state = 'Y'")
expect_eq "$other" 0 "yields of tasks that do not yield"
ph=$(sq "$T/db" "SELECT COUNT(*) FROM burst WHERE end_state = 'Y'")
expect_eq "$ph" "$y" "Y phases against Y slices"
echo "yieldloop: $y of $r runnable switch-outs are yields"

"$SCHEDLAB" --db "$T/db" validate --trace 1 --seeds 1 > "$T/v0" || true
n=$(sed -n 's/.*from \([0-9]*\) tick preemptions.*/\1/p' "$T/v0" | sed -n 1p)
[ -n "$n" ] && [ "$n" -lt 1000 ] || fail "HZ estimate: $(grep -m1 'Hz' "$T/v0")"
"$SCHEDLAB" --db "$T/db" validate --trace 1 --hz 250 > "$T/v" || true
grep -q '^tasks with exact CPU time .* yes$' "$T/v" || fail "CPU time: $(grep '^tasks' "$T/v")"
sw=$(sed -n 's/^switches  *\([0-9]*\)  *\([0-9]*\) .*/\1 \2/p' "$T/v")
set -- $sw
[ $(($2 * 100)) -ge $(($1 * 75)) ] && [ $(($2 * 100)) -le $(($1 * 125)) ] ||
	fail "switches recorded $1, replayed $2: beyond +-25 %"
run=$(sq "$T/db" "SELECT MAX(id) FROM run")
ry=$(sq "$T/db" "SELECT COUNT(*) FROM sched_slice WHERE run_id = $run AND end_state = 'Y'")
[ "$ry" -gt 0 ] || fail "no replayed slice ends in a yield"
echo "validate: switches recorded $1, replayed $2 ($ry yields)"
exit 0
