#!/bin/sh
# The 2.6.20 SMP layer on the bundled 2-CPU traces (traces/*2cpu*,
# traces/rec-*.dat), every model (--sched all walks the policy table), timed
# replays with the default overheads:
# - CPU changes and quick returns, counted from sched_slice rows the same way
#   for the recorded run and each replay: a change is two consecutive slices
#   of a task on different CPUs; a quick return is a stay on CPU A, then on
#   B, then on A again, with at most 200 ms from the end of the first stay to
#   the start of the third. On the desktop-like traces (the demo trace
#   local-2cpu-hogs, and the busy loops with a periodic task beside a build or
#   other work: perf-sched-load, perf-record-sched-all, perf-sched-pipe) each
#   replay's counts are within 2x of the recorded run's. Their counts are a
#   few events (the demo records 10 changes, 2 quick returns), so the ratio
#   is taken on count + 10: (replay + 10) / (recorded + 10) in [0.5, 2].
#   The pipe/socket benchmarks (perf bench sched messaging) are printed, not
#   checked: the recording's kernel wakes tasks on idle CPUs, 2.6.20 does
#   not (docs/replay.md has the figures). Nor are the other build and
#   desktop recordings' quick returns (rec-build-mix*, perf-sched-missed,
#   ftrace-runtime): 6.18's new-idle pulls and idle-sibling wakeups move
#   tasks in other ways than 2.6.20's rules do (docs/replay.md, "Why the
#   2.6.20 layer moves tasks less than the recordings").
# - Interrupt wakeups (docs/replay.md, "Wakeup CPU"): rsdl, o1, sd and cfs
#   take them by default on the CPU the interrupt fired on, placed as it
#   was against the CPU the task slept on (--irq-cpu relative: on the
#   task's own CPU when the interrupt fired there in the recording, else on
#   the other CPU), where 2.6.20's wake-affine rule may take the task. On
#   the bundled 2-CPU desktop trace ed-desktop their CPU changes and the
#   quick returns of rsdl, o1 and cfs (the median of seeds 0-2) are within
#   2x of the recording's (180 and 46; each mode's counts are in
#   docs/bench-log.md). Most recorded quick returns are rcu_preempt's (26
#   of 46): 367 of its 524 wakeups came from the other CPU's interrupt, and
#   481 of them at a tick (its timers fire there: docs/model.md "Timers
#   that fire at the tick"). At the tick the 2.6.20 layer reads loads the
#   tick has just set (cpu_load[0] equal to the load), and the other CPU,
#   idle, takes rcu_preempt more often: quick returns over seeds 0-6 with
#   the tick's timers (without): rsdl 37-83 (34-124), o1 53-96 (41-77), cfs
#   48-77 (38-53), sd 79-164 (52-137). sd's are printed, not checked.
#   eevdf (--irq-cpu relative too) has its CPU changes
#   checked within 2x; its quick returns are printed: rcu_preempt moves
#   about 160 times against 36 recorded. Its wake_affine_weight sees root
#   loads of 5 000-10 000 (no ledger, so no autogroups: every task at the
#   root) and a task load of 40-185, so the interrupt's CPU wins half the
#   time; before every task first seen at a wakeup took a fork's full
#   weight (docs/validate.md, mechanism 4), the loads read 15 000-94 000
#   and rcu_preempt's own 365-1 023, which kept it put (157 quick returns
#   now, 35 then).
# - eevdf's own 6.x placement and balancing (docs/eevdf.md, SMP): on the
#   desktop and benchmark recordings of 6.x kernels with (next to) no exec
#   points (perf-record-zstd, ftrace-runtime) eevdf's CPU changes are within
#   2x of the recorded count. On the messaging benchmarks it moves too much (replayed timed;
#   docs/eevdf.md).
# - Exec points (docs/model.md): on the recordings of builds (100 or more
#   exec points: rec-build-mix*, ed-desktop, perf-sched-missed) the 2.6.20
#   layer balances every exec (sched_exec -> sched_balance_self, which moves
#   an exec'ing task to a CPU with less than 100/112 of its own CPU's load),
#   and each of rsdl, o1, sd and cfs changes CPUs within 2x of the recorded
#   count, (replay + 10) / (recorded + 10) in [0.5, 2] (the counts before
#   and after exec points: docs/bench-log.md). eevdf's exec balancing (6.x
#   find_idlest_cpu, the exec'ing task's own share off its CPU) moves far
#   less: printed, docs/eevdf.md.
# - On every one of them, the share of the span in which a CPU has no task
#   while a task allowed on every CPU waits behind another CPU's running
#   task, beyond what the balancing intervals allow for each stretch
#   (max_interval 4 ms + 2 refused cache-hot attempts at 1 ms + 1 tick: 7 ms,
#   docs/replay.md), is below 3 % (the run's replay_idle_wait_beyond_ns
#   over its replay_span_ns, metrics the replay stores; the summary line
#   prints the same shares, checked to agree).
. "$TOP/tests/e2e/lib.sh"

counts() { # DB RUN -> "changes quick"
	sq "$1" "
	WITH s AS (SELECT utid, ts, ts + dur AS te, cpu,
		LAG(cpu) OVER (PARTITION BY utid ORDER BY ts, cpu) AS pc FROM sched_slice WHERE run_id = $2),
	st AS (SELECT utid, ts, te, cpu, SUM(CASE WHEN pc IS NULL OR pc != cpu THEN 1 ELSE 0 END)
		OVER (PARTITION BY utid ORDER BY ts, cpu) AS g FROM s),
	stays AS (SELECT utid, g, cpu, MIN(ts) AS t0, MAX(te) AS t1 FROM st GROUP BY utid, g),
	tri AS (SELECT cpu, t0, LAG(cpu, 2) OVER w AS c2, LAG(t1, 2) OVER w AS e2
		FROM stays WINDOW w AS (PARTITION BY utid ORDER BY g))
	SELECT (SELECT COUNT(*) FROM s WHERE pc IS NOT NULL AND pc != cpu) || ' ' ||
	       (SELECT COUNT(*) FROM tri WHERE c2 = cpu AND t0 - e2 <= 200000000)"
}

idle() { # DB RUN -> "share beyond": a CPU idle beside a waiting task, in % of
	# the span, all of it and the part beyond the balancing intervals
	sq "$1" "SELECT printf('%.2f %.2f', 100.0 * w.value / s.value, 100.0 * b.value / s.value)
		FROM metric s JOIN metric w USING (run_id) JOIN metric b USING (run_id)
		WHERE s.run_id = $2 AND s.name = 'replay_span_ns' AND w.name = 'replay_idle_wait_ns'
		AND b.name = 'replay_idle_wait_beyond_ns' AND s.utid IS NULL AND w.utid IS NULL
		AND b.utid IS NULL"
}

# within2 REPLAY RECORDED: (replay + 10) / (recorded + 10) in [0.5, 2]
within2() { [ $((2 * ($1 + 10))) -ge $(($2 + 10)) ] && [ $(($1 + 10)) -le $((2 * ($2 + 10))) ]; }

i=0
for path in "$TOP"/traces/*2cpu* "$TOP"/traces/rec-*.dat; do
	f=${path##*/}
	i=$((i + 1))
	"$SCHEDLAB" --db "$T/db" import "$TOP/traces/$f" > /dev/null 2>&1 || fail "import $f"
	"$SCHEDLAB" --db "$T/db" replay --trace $i --sched all --mode timed > "$T/out" 2>&1 || fail "replay $f: $(cat "$T/out")"
	rec=$(sq "$T/db" "SELECT id FROM run WHERE trace_id = $i AND scheduler = 'recorded'")
	set -- $(counts "$T/db" "$rec")
	rc=$1 rq=$2
	line="$f: recorded $rc changes, $rq quick returns"
	while read -r run model; do
		set -- $(idle "$T/db" "$run")
		share=$1 beyond=$2
		[ -n "$beyond" ] || fail "$f $model: run $run has no replay_idle_wait metrics"
		grep -q "^run $run $model: .* waiting task $share% of the time .* $beyond% beyond" "$T/out" ||
			fail "$f $model: the stored shares $share % and $beyond % are not the printed ones"
		awk -v b="$beyond" 'BEGIN { exit !(b < 3) }' ||
			fail "$f $model: a CPU idle beside a waiting task beyond the intervals $beyond % of the span"
		set -- $(counts "$T/db" "$run")
		line="$line; $model $1/$2 (idle beside waiting $share %, beyond $beyond %)"
		case $f in
		local-2cpu-hogs.* | perf-sched-load-2cpu.* | perf-record-sched-all-2cpu.* | perf-sched-pipe-2cpu.*)
			within2 "$1" "$rc" || fail "$f $model: $1 CPU changes against $rc recorded"
			within2 "$2" "$rq" || fail "$f $model: $2 quick returns against $rq recorded"
			;;
		esac
	done << EOF
$(sq "$T/db" "SELECT id, scheduler FROM run WHERE trace_id = $i AND scheduler != 'recorded' ORDER BY id" | tr '|' ' ')
EOF
	if [ $i -eq 1 ]; then # analyze recomputes its own metrics and keeps the replay's
		n=$(sq "$T/db" "SELECT count(*) FROM metric WHERE name LIKE 'replay\_%' ESCAPE '\'")
		"$SCHEDLAB" --db "$T/db" analyze --trace 1 > /dev/null || fail "analyze $f"
		expect_eq "$(sq "$T/db" "SELECT count(*) FROM metric WHERE name LIKE 'replay\_%' ESCAPE '\'")" \
			"$n" "replay_* metrics after analyze"
		# 5 models x 10 metrics (replay_span_ns, 3 replay_idle_wait_*, 2
		# replay_sync_*, replay_handbacks, replay_tick_timers,
		# replay_hrtimer_early, replay_reap_any)
		expect_eq "$n" 50 "replay_* metrics of trace 1"
	fi
	execs=$(sq "$T/db" "SELECT count(*) FROM burst b JOIN thread t USING (utid) WHERE t.trace_id = $i AND b.end_state = 'V'")
	case $f in
	perf-record-zstd-2cpu.* | ftrace-runtime-2cpu.*)
		n=$(echo "$line" | sed -n "s/.*; eevdf \([0-9]*\)\/.*/\1/p")
		within2 "$n" "$rc" || fail "$f eevdf: $n CPU changes against $rc recorded"
		;;
	rec-build-mix*.dat | ed-desktop-2cpu.* | perf-sched-missed-2cpu.*)
		[ "$execs" -ge 100 ] || fail "$f: $execs exec points"
		# eevdf too on the desktop trace (its own 6.x placement, --irq-cpu
		# remote: 125 / 35 when written)
		ms="rsdl o1 sd cfs"
		case $f in ed-desktop-2cpu.*) ms="$ms eevdf" ;; esac
		for m in $ms; do
			n=$(echo "$line" | sed -n "s/.*; $m \([0-9]*\)\/.*/\1/p")
			within2 "$n" "$rc" || fail "$f $m: $n CPU changes against $rc recorded ($execs exec points)"
			case $f:$m in
			ed-desktop-2cpu.*:eevdf | ed-desktop-2cpu.*:sd) ;; # printed: see the header
			ed-desktop-2cpu.*)
				# the median of seeds 0-2 (the overheads' draws): one
				# seed's count swings by half (sd: 51-108 over seeds
				# 0-6, with and without wall-clock bursts)
				q0=$(echo "$line" | sed -n "s/.*; $m [0-9]*\/\([0-9]*\) .*/\1/p")
				qs="$q0"
				for seed in 1 2; do
					"$SCHEDLAB" --db "$T/db" replay --trace $i --sched $m --mode timed --seed $seed \
						> /dev/null 2>&1 || fail "replay $f $m --seed $seed"
					set -- $(counts "$T/db" "$(sq "$T/db" "SELECT MAX(id) FROM run")")
					qs="$qs $2"
				done
				q=$(echo "$qs" | tr ' ' '\n' | sort -n | sed -n 2p)
				within2 "$q" "$rq" || fail "$f $m: $q quick returns (median of $qs) against $rq recorded"
				;;
			esac
		done
		;;
	esac
	echo "ok $line; $execs exec points"
done
[ $i -ge 10 ] || fail "only $i bundled 2-CPU traces found"
exit 0
