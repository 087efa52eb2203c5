#!/bin/sh
# The control experiment of issue 10 on traces/rec-build-mix.dat (a parallel
# build, a 60 Hz task and bursts recorded on this project's 6.18 machine,
# HZ=250): eevdf, the recording kernel's own scheduler, replays it within
# docs/validate.md's thresholds on CPU time (exact), switches (+-25 %),
# the delay KS distance (<= 0.15) and the median delay (+-25 %). The
# replay is deterministic, so these are fixed figures (measured when this
# was written: switches -3.8 %, KS 0.065, p50 -5.7 %); what stays outside
# (migrations -28.2 %, p95 -34.8 %, p99 -26.4 %) is printed as NO and not
# checked here (docs/validate.md, "What limits the distance": 38 of the 190
# recorded moves are sched_exec balancing, which the replay makes at its
# exec points only where the loads say so: 12 of 297). The 6.x balancing
# (docs/eevdf.md, SMP) must move tasks at least twice as often as the
# 2.6.20 layer did (49 CPU changes; 139 now, 135 before exec points): the
# recorded 188 less the 38 exec moves is 150, so at least
# 98 = 150 * (1 - 0.35) is asked.
# With --overhead auto, rsdl, o1 and sd come from KS 0.77-0.83 (none) to
# at most 0.15 (0.07, 0.10, 0.10 when written).
. "$TOP/tests/e2e/lib.sh"
"$SCHEDLAB" replay -h | grep -q eevdf || skip "no eevdf model"
"$SCHEDLAB" --db "$T/db" import "$TOP/traces/rec-build-mix.dat" > /dev/null 2>&1 || fail import
"$SCHEDLAB" --db "$T/db" validate --trace 1 --hz 250 --format csv > "$T/csv" 2> "$T/err"; [ $? -le 1 ] || fail "validate: $(cat "$T/err")"
grep -q ',eevdf,' "$T/csv" || fail "model: $(head -2 "$T/csv")"
for m in runtime_exact switches delay_ks_all delay_p50_all; do
	expect_eq "$(awk -F, -v m=$m '$5 == m { print $11 }' "$T/csv")" 1 "$m within its threshold ($(grep ",$m," "$T/csv"))"
done
mig=$(awk -F, '$5 == "migrations" { print $7 }' "$T/csv")
[ "$mig" -ge 98 ] || fail "eevdf: $mig CPU changes (recorded 188, 150 without sched_exec moves)"
# the second recording (traces/rec-build-mix-2.dat, the same recipe on a
# busier machine; HZ estimated): CPU time exact, switches within 25 %
# (-11.5 % when written), KS <= 0.15 (0.113); the tails are far out
# (p95 -54 %, p99 -50 %) and printed only. Its 264 sched_migrate_task
# events include 27 by migration/N (sched_exec; trace-cmd report), so of
# the 254 recorded CPU changes at least (254 - 27) * 0.65 = 148 are asked
# (171 when written, 186 with exec points; 51 by the 2.6.20 layer).
"$SCHEDLAB" --db "$T/db" import "$TOP/traces/rec-build-mix-2.dat" > /dev/null 2>&1 || fail "import 2"
"$SCHEDLAB" --db "$T/db" validate --trace 2 --format csv > "$T/csv2" 2> "$T/err"; [ $? -le 1 ] || fail "validate 2: $(cat "$T/err")"
for m in runtime_exact switches delay_ks_all; do
	expect_eq "$(awk -F, -v m=$m '$5 == m { print $11 }' "$T/csv2")" 1 "rec-build-mix-2 $m ($(grep ",$m," "$T/csv2"))"
done
mig=$(awk -F, '$5 == "migrations" { print $7 }' "$T/csv2")
[ "$mig" -ge 148 ] || fail "eevdf on rec-build-mix-2: $mig CPU changes (recorded 254, 227 without sched_exec moves)"
awk -F, '$5 ~ /_all$|^switches$|^migrations$/ { printf "rec-build-mix-2 %s: recorded %s replay %s error %s\n", $5, $6, $7, $8 }' "$T/csv2"
# The quiet recording (traces/rec-build-quiet.dat: the same recipe with a
# 48-file project, NFILES=48 tests/tools/rec-build-mix.sh, recorded when
# nothing else ran: load average 0.0 before it) was the control the issue
# asked for. It has no ledger, so its replay has no task groups. Its
# mixload threads read their own CPU clock (4 tasks marked at import,
# docs/model.md "Clock reads"), and since eevdf cuts their slices when the
# pick would change, as the kernel does, its tails come within (p99 was
# +26.0 % before, the frame task's slices running on to the tick). With
# validate's defaults (interrupts from the other CPU taken relative to
# the task's CPU) every gating row of docs/validate.md but migrations is
# within, seed 0 alone and the median of 5 (when written: switches +1.4 %,
# migrations -29.6 %, KS 0.064, p50 +5.0 %, p95 -6.8 %, p99 -13.9 %).
# Migrations: since rcu_preempt is a wide wakee (docs/model.md "Wide
# wakees"; marked at import) it moves 15-29 times in the replays against
# 29 recorded (68-111 before); the other tasks fall short, `as` above all
# (24 moves at exec recorded, 2-3 replayed): the rows passed before on
# rcu_preempt's excess making up for them. With --irq-cpu remote every
# delay row is within and the exit status is that of its migrations row.
"$SCHEDLAB" --db "$T/db" import "$TOP/traces/rec-build-quiet.dat" > "$T/impq" 2>&1 || fail "import quiet"
grep -q "^4 tasks read their own CPU clock" "$T/impq" || fail "quiet: the clock readers: $(cat "$T/impq")"
expect_eq "$(sq "$T/db" "SELECT group_concat(t.comm, ' ') FROM (SELECT t.comm FROM task_model m JOIN thread t USING (utid)
	WHERE t.trace_id = 3 AND m.flags & 128 ORDER BY t.comm) t")" "burst-0 burst-1 burst-2 frame-60hz" "quiet: the tasks marked as reading their clock"
expect_eq "$(sq "$T/db" "SELECT group_concat(t.comm, ' ') FROM task_model m JOIN thread t USING (utid)
	WHERE t.trace_id = 3 AND m.flags & 256")" "rcu_preempt" "quiet: the wide wakees"
for seeds in 1 5; do
	"$SCHEDLAB" --db "$T/db" validate --trace 3 --hz 250 --seeds $seeds --format csv > "$T/csv3" 2> "$T/err"
	rc=$?
	for m in runtime_exact switches span utilisation delay_ks_all delay_p50_all delay_p95_all delay_p99_all; do
		expect_eq "$(awk -F, -v m=$m '$5 == m { print $11 }' "$T/csv3")" 1 "rec-build-quiet ($seeds seeds) $m ($(grep ",$m," "$T/csv3"))"
	done
	mok=$(awk -F, '$5 == "migrations" { print $11 }' "$T/csv3")
	expect_eq "$rc" "$((1 - mok))" "validate quiet, $seeds seeds: exit status against its migrations row"
done
run=$(sq "$T/db" "SELECT MAX(id) FROM run WHERE trace_id = 3")
rcu() { sq "$T/db" "WITH s AS (SELECT cpu, lag(cpu) OVER (ORDER BY ts) pc FROM sched_slice
	WHERE run_id = $1 AND utid = (SELECT utid FROM thread WHERE trace_id = 3 AND comm = 'rcu_preempt'))
	SELECT SUM(pc IS NOT NULL AND pc <> cpu) FROM s"; }
rrec=$(rcu "$(sq "$T/db" "SELECT MIN(id) FROM run WHERE trace_id = 3")")
rrep=$(rcu "$run")
[ "$((rrep * 2))" -ge "$rrec" ] && [ "$((rrep * 2))" -le "$((rrec * 3))" ] ||
	fail "rcu_preempt moves: recorded $rrec, replayed $rrep (not within 0.5-1.5 times)"
# --irq-cpu remote: every delay row within, the exit status that of the
# migrations row, and the stored replay's params say remote
"$SCHEDLAB" --db "$T/db" validate --trace 3 --hz 250 --irq-cpu remote --format csv > "$T/csv3r" 2> "$T/err"
rc=$?
for m in runtime_exact switches span delay_ks_all delay_p50_all delay_p95_all delay_p99_all; do
	expect_eq "$(awk -F, -v m=$m '$5 == m { print $11 }' "$T/csv3r")" 1 "rec-build-quiet remote $m ($(grep ",$m," "$T/csv3r"))"
done
mok=$(awk -F, '$5 == "migrations" { print $11 }' "$T/csv3r")
expect_eq "$rc" "$((1 - mok))" "validate quiet, remote: exit status against its migrations row"
sqlite3 "$T/db" "SELECT params FROM run ORDER BY id DESC LIMIT 1" | grep -q '"irq_cpu":"remote"' || fail "the stored replay's params do not say remote"
awk -F, '$5 ~ /_all$|^switches$|^migrations$/ { printf "rec-build-quiet %s: recorded %s replay %s error %s\n", $5, $6, $7, $8 }' "$T/csv3"
ks() { "$SCHEDLAB" --db "$T/db" validate --trace 1 --sched "$1" --mode timed --overhead "$2" --format csv | awk -F, '$5 == "delay_ks_all" { print $8 }'; }
for m in rsdl o1 sd; do
	none=$(ks $m none) auto=$(ks $m auto)
	awk -v n="$none" -v a="$auto" 'BEGIN { exit !(n > 0.7 && a <= 0.15) }' || fail "$m KS none $none auto $auto"
done
# The recording kernel's release sets the eevdf features validate replays
# with (collector/release.c, sl_release_eevdf_opts; docs/eevdf.md): a trace
# of 6.8 has the 0.75 ms base slice (0.70 from v6.15), no DELAY_DEQUEUE and
# no PLACE_REL_DEADLINE (both v6.12), and yield does not forfeit (v6.18).
# The stored replay's params say what ran, not only the printed line (they
# used to keep 6.18's defaults whatever the release).
cp "$T/db" "$T/db68"
sq "$T/db68" "UPDATE trace SET kernel_release = '6.8.0-45-generic' WHERE id = 1"
"$SCHEDLAB" --db "$T/db68" validate --trace 1 --hz 250 > "$T/out68" 2> "$T/err"; [ $? -le 1 ] || fail "validate 6.8: $(cat "$T/err")"
grep -q "^model options: slice_norm_us=750,delay_dequeue=0,rel_deadline=0,yield_forfeit=0" "$T/out68" ||
	fail "6.8 options not printed: $(head -3 "$T/out68")"
expect_eq "$(sq "$T/db68" "SELECT json_extract(params, '$.slice_norm_us'), json_extract(params, '$.delay_dequeue'),
	json_extract(params, '$.rel_deadline'), json_extract(params, '$.yield_forfeit') FROM run WHERE id = (SELECT MAX(id) FROM run)")" \
	"750|0|0|0" "a 6.8 trace's replay params"
exit 0
