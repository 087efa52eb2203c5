#!/bin/sh
# schedlab plot: every kind on the runs of two real traces (1 CPU perf.data,
# 2 CPU ftrace) in PNG, SVG and PDF (checked by magic bytes), and the data
# files handed to gnuplot (--keep) hold exactly the rows SQL gives.
. "$TOP/tests/e2e/lib.sh"
command -v gnuplot > /dev/null || skip "gnuplot not installed"
TAB=$(printf '\t')
sqt() { sqlite3 -batch -noheader -separator "$TAB" "$1" "$2"; }

# magic FILE EXT: the file starts as its format says
magic() {
	case $2 in
	png) [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e47 ] || fail "$1: not a PNG" ;;
	pdf) [ "$(head -c 4 "$1")" = "%PDF" ] || fail "$1: not a PDF" ;;
	svg) head -c 400 "$1" | grep -q '<svg' || fail "$1: no <svg in its head" ;;
	esac
}

for tr in massive-intr-20x-1cpu.perf.data local-2cpu-hogs.ftrace.txt; do
	DB="$T/$tr.db"
	"$SCHEDLAB" --db "$DB" import "$TOP/traces/$tr" > /dev/null 2>&1 || fail "import $tr"
	"$SCHEDLAB" --db "$DB" replay --trace 1 --sched rsdl,o1 > /dev/null 2>&1 || fail "replay $tr"
	for kind in staircase latency histogram timeline share compare; do
		for ext in png svg pdf; do
			out="$T/$tr-$kind.$ext"
			"$SCHEDLAB" --db "$DB" plot $kind --run 1 2 3 -o "$out" --keep > "$T/msg" ||
				fail "plot $kind $ext on $tr"
			[ -s "$out" ] || fail "$out empty"
			magic "$out" $ext
		done
	done

	# latency: per run, each distinct delay with how many delays are <= it,
	# and the number of wakeups that ran
	for run in 1 2 3; do
		grep -v '^#' "$T/$tr-latency.png.run$run.dat" > "$T/got"
		sqt "$DB" "WITH d AS (SELECT ts_run - ts AS d FROM wakeup WHERE run_id = $run
			AND ts_run IS NOT NULL AND ts_run >= ts), c AS (SELECT d, COUNT(*) AS c FROM d GROUP BY d)
			SELECT d, SUM(c) OVER (ORDER BY d), (SELECT COUNT(*) FROM d) FROM c ORDER BY d" > "$T/want"
		[ -s "$T/want" ] || fail "$tr run $run: no delays in SQL"
		cmp -s "$T/got" "$T/want" || { diff "$T/want" "$T/got" | head; fail "$tr run $run: CDF rows differ from SQL"; }
	done
	grep -q "run1.dat' using (\$1 > 0 ? \$1 / 1000.0 : X0):(\$2 / \$3) with steps" "$T/$tr-latency.png.gp" ||
		fail "latency script does not plot delay/1000 against cum/total"
	# its tail panel: 1 - CDF = (total - cum) / total on a log y (0 left
	# undrawn), the fraction of delays greater than x; checked at each
	# row of run 2 against SQL's count of delays > that delay
	grep -q "set logscale y" "$T/$tr-latency.png.gp" || fail "latency: no log-y tail panel"
	grep -q "run2.dat' using (\$1 > 0 ? \$1 / 1000.0 : X0):(\$3 > \$2 ? (\$3 - \$2) / \$3 : 1/0) with steps" \
		"$T/$tr-latency.png.gp" || fail "latency script does not plot (total - cum) / total"
	grep -v '^#' "$T/$tr-latency.png.run2.dat" | awk -F"$TAB" '{ printf "%s %.9f\n", $1, ($3 - $2) / $3 }' > "$T/got"
	sqt "$DB" "WITH d AS (SELECT ts_run - ts AS d FROM wakeup WHERE run_id = 2 AND ts_run IS NOT NULL AND ts_run >= ts)
		SELECT DISTINCT a.d || ' ' || printf('%.9f', (SELECT COUNT(*) FROM d b WHERE b.d > a.d) * 1.0 / (SELECT COUNT(*) FROM d))
		FROM d a ORDER BY a.d" > "$T/want"
	cmp -s "$T/got" "$T/want" || { diff "$T/want" "$T/got" | head; fail "$tr run 2: tail differs from SQL"; }

	# histogram: each bin [lo, hi) holds the SQL count of each run, and the
	# bins hold every delay (only empty bins at the ends are left out)
	grep -v '^#' "$T/$tr-histogram.png.bins.dat" | while IFS="$TAB" read lo hi label c1 c2 c3; do
		want=$(sqt "$DB" "SELECT group_concat(n, ' ') FROM (SELECT run_id, SUM(ts_run - ts >= $lo AND
			ts_run - ts < $hi) AS n FROM wakeup WHERE ts_run IS NOT NULL AND ts_run >= ts GROUP BY run_id
			ORDER BY run_id)")
		expect_eq "$c1 $c2 $c3" "$want" "$tr histogram bin $label"
	done || exit 1
	for run in 1 2 3; do
		col=$((run + 3))
		got=$(grep -v '^#' "$T/$tr-histogram.png.bins.dat" | awk -F"$TAB" -v c=$col '{ s += $c } END { print s }')
		want=$(sq "$DB" "SELECT COUNT(*) FROM wakeup WHERE run_id = $run AND ts_run IS NOT NULL AND ts_run >= ts")
		expect_eq "$got" "$want" "$tr histogram run $run total"
	done

	# share: one window for every run, from the earliest first slice of any
	# run (A) to the earliest last slice end of any run (B, the shortest
	# span); each task's runtime per run = the parts of its slices inside
	# [A, B]; the other tasks' row is the rest; by nice = the same per nice
	# (levels with CPU time in the window); the script's denominators are
	# (B - A) * cpus for every run
	A=$(sq "$DB" "SELECT MIN(ts) FROM sched_slice")
	Bw=$(sq "$DB" "SELECT MIN(e) FROM (SELECT MAX(ts + dur) AS e FROM sched_slice GROUP BY run_id)")
	IN="MAX(0, MIN(ts + dur, $Bw) - MAX(ts, $A))"
	grep -v '^#' "$T/$tr-share.png.task.dat" | while IFS="$TAB" read label utid tid nice r1 r2 r3; do
		if [ "$utid" = -1 ]; then
			cond="utid NOT IN ($(grep -v '^#' "$T/$tr-share.png.task.dat" | awk -F"$TAB" '$2 != -1 { printf "%s%s", s, $2; s = "," }'))"
		else
			cond="utid = $utid"
		fi
		want=$(sqt "$DB" "SELECT group_concat(n, ' ') FROM (SELECT r.id, (SELECT COALESCE(SUM($IN), 0)
			FROM sched_slice WHERE run_id = r.id AND $cond) AS n FROM run r ORDER BY r.id)")
		expect_eq "$r1 $r2 $r3" "$want" "$tr share of $label"
	done || exit 1
	grep -v '^#' "$T/$tr-share.png.nice.dat" | sed 's/^nice //' > "$T/got"
	sqt "$DB" "SELECT t.nice, SUM(CASE WHEN s.run_id = 1 THEN $IN ELSE 0 END),
		SUM(CASE WHEN s.run_id = 2 THEN $IN ELSE 0 END), SUM(CASE WHEN s.run_id = 3 THEN $IN ELSE 0 END)
		FROM sched_slice s JOIN thread t USING (utid) GROUP BY t.nice HAVING SUM($IN) > 0 ORDER BY t.nice" > "$T/want"
	cmp -s "$T/got" "$T/want" || { diff "$T/want" "$T/got"; fail "$tr share by nice differs from SQL"; }
	for run in 1 2 3; do
		want=$(sq "$DB" "SELECT ($Bw - $A) * cpus FROM run WHERE id = $run")
		grep -q "^tot\[$run\] = $want.0 " "$T/$tr-share.png.gp" || fail "$tr share: tot[$run] is not $want"
	done
	grep -q "common to all runs" "$T/$tr-share.png.gp" || fail "$tr share: the title does not name its window"

	# staircase (--keep writes what was drawn, OUT.steps.dat): one level
	# axis 0..39 for every panel; the tasks shown are the busiest and the
	# most often put to sleep (the interactive ones) of the first run with
	# staircase rows (run 2): by SQL, the task with most slices ending in S
	# or D and the one with most runtime are among them; no level is drawn
	# while a task sleeps: no segment overlaps a sleep, i.e. the time from
	# the end of a slice ending in S/D to the task's next wakeup (or next
	# slice) in that run
	st="$T/$tr-staircase.png.steps.dat"
	expect_eq "$(sed -n 1p "$st")" "# levels 0..39" "$tr staircase level axis"
	shown=" $(sed -n 2p "$st" | sed 's/^# tasks //') "
	woken=$(sq "$DB" "SELECT utid FROM sched_slice WHERE run_id = 2 AND end_state IN ('S', 'D')
		AND utid IN (SELECT utid FROM staircase WHERE run_id = 2) GROUP BY utid ORDER BY COUNT(*) DESC, utid LIMIT 1")
	busiest=$(sq "$DB" "SELECT utid FROM sched_slice WHERE run_id = 2
		AND utid IN (SELECT utid FROM staircase WHERE run_id = 2) GROUP BY utid ORDER BY SUM(dur) DESC, utid LIMIT 1")
	case "$shown" in *" $busiest "*) ;; *) fail "$tr staircase: busiest task $busiest not in$shown" ;; esac
	if [ -n "$woken" ]; then
		case "$shown" in *" $woken "*) ;; *) fail "$tr staircase: most-woken task $woken not in$shown" ;; esac
	fi
	grep -v '^#' "$st" > "$T/steps.tsv"
	[ -s "$T/steps.tsv" ] || fail "$tr staircase: no segment drawn"
	t0=$(sq "$DB" "SELECT first_ts FROM trace WHERE id = 1")
	bad=$(sqlite3 -batch -noheader "$DB" ".mode tabs" "CREATE TEMP TABLE st(run, utid, level, arr, a, b)" ".import $T/steps.tsv st" \
		"CREATE INDEX IF NOT EXISTS e2e_w ON wakeup(run_id, utid, ts)" \
		"CREATE INDEX IF NOT EXISTS e2e_s ON sched_slice(run_id, utid, ts)" \
		"WITH sl AS (SELECT s.run_id, s.utid, s.ts + s.dur AS e,
			COALESCE((SELECT MIN(w.ts) FROM wakeup w WHERE w.run_id = s.run_id AND w.utid = s.utid AND w.ts >= s.ts + s.dur),
				(SELECT MIN(n.ts) FROM sched_slice n WHERE n.run_id = s.run_id AND n.utid = s.utid AND n.ts >= s.ts + s.dur),
				9223372036854775807) AS w
			FROM sched_slice s WHERE s.end_state IN ('S', 'D'))
		SELECT COUNT(*) FROM st JOIN sl ON sl.run_id = st.run AND sl.utid = st.utid
		WHERE st.a + $t0 < sl.w AND st.b + $t0 > sl.e")
	expect_eq "$bad" 0 "$tr staircase: segments drawn while the task slept"

	# timeline (--keep: OUT.timeline.dat). A task keeps its colour: each
	# task of the staircase has the same colour index in the timeline of the
	# same runs. One time axis for every run (issue 25: runs side by side
	# compare at a glance): drawn whole, from the first slice of any run to
	# the last slice end of any run; when
	# that would be stripes, one window for all runs in which no CPU row has
	# more than 110 of the 1100 pixel columns holding two or more slice
	# starts (counted here in SQL). Marks: one per wakeup in the window
	# (on a CPU of the run) and one per slice that ended preempted (R) in it.
	tl="$T/$tr-timeline.png.timeline.dat"
	utl=$(sed -n 2p "$st" | sed 's/^# tasks //')
	cols=$(sed -n 3p "$st" | sed 's/^# colors //')
	i=1
	for u in $utl; do
		c=$(echo "$cols" | cut -d' ' -f$i)
		tc=$(awk -v u="$u" '$1 == "color" && $2 == u { print $3 }' "$tl")
		expect_eq "$tc" "$c" "$tr: colour of utid $u in the timeline and the staircase"
		i=$((i + 1))
	done
	first=$(sq "$DB" "SELECT MIN(ts) - $t0 FROM sched_slice")
	nwin=$(awk '$1 == "window" { print $3, $4 }' "$tl" | sort -u | wc -l)
	expect_eq "$nwin" 1 "$tr timeline: windows (one axis for every run)"
	end=$(sq "$DB" "SELECT MAX(ts + dur) - $t0 FROM sched_slice")
	for run in 1 2 3; do
		set -- $(awk -v r=$run '$1 == "window" && $2 == r { print $3, $4 }' "$tl")
		[ $# -eq 2 ] || fail "$tr timeline: no window for run $run"
		from=$1 to=$2
		expect_eq "$from" "$first" "$tr timeline run $run: window start"
		if [ "$to" != "$end" ]; then
			crowd=$(sq "$DB" "SELECT COALESCE(MAX(n), 0) FROM (SELECT cpu, COUNT(*) AS n FROM (SELECT cpu,
				CAST((ts - $t0 - $from) * 1100.0 / ($to - $from) AS INTEGER) AS px FROM sched_slice
				WHERE run_id = $run AND ts - $t0 >= $from AND ts - $t0 < $to GROUP BY cpu, px HAVING COUNT(*) >= 2)
				GROUP BY cpu)")
			[ "$crowd" -le 110 ] || fail "$tr timeline run $run: $crowd crowded pixel columns in the window"
		fi
		want=$(sq "$DB" "SELECT COUNT(*) FROM wakeup w JOIN run r ON r.id = w.run_id WHERE w.run_id = $run
			AND w.cpu >= 0 AND w.cpu < r.cpus AND w.ts - $t0 BETWEEN $from AND $to")
		expect_eq "$(awk -v r=$run '$1 == "mark" && $2 == r && $3 == "wake"' "$tl" | wc -l)" "$want" "$tr timeline run $run: wakeup marks"
		want=$(sq "$DB" "SELECT COUNT(*) FROM sched_slice WHERE run_id = $run AND end_state = 'R'
			AND ts + dur - $t0 BETWEEN $from AND $to")
		expect_eq "$(awk -v r=$run '$1 == "mark" && $2 == r && $3 == "preempt"' "$tl" | wc -l)" "$want" "$tr timeline run $run: preemption marks"
		# a migration mark where a task's slice is on another CPU than its previous one
		# (slices of one instant in the order a run is loaded: ts, CPU, then
		# duration, analyze/store_load.c; an exec's move at a task's first
		# instant leaves a slice of 0 ns on the CPU it left)
		want=$(sq "$DB" "SELECT COUNT(*) FROM (SELECT s.ts, s.cpu, LAG(s.cpu) OVER (PARTITION BY s.utid ORDER BY s.ts, s.cpu, s.dur) AS pc
			FROM sched_slice s JOIN run r ON r.id = s.run_id WHERE s.run_id = $run AND s.cpu >= 0 AND s.cpu < r.cpus)
			WHERE pc IS NOT NULL AND pc != cpu AND ts - $t0 BETWEEN $from AND $to")
		expect_eq "$(awk -v r=$run '$1 == "mark" && $2 == r && $3 == "migrate"' "$tl" | wc -l)" "$want" "$tr timeline run $run: migration marks"
	done

	# compare: the metric rows are what analyze stores
	"$SCHEDLAB" --db "$DB" analyze > /dev/null || fail "analyze $tr"
	grep -v '^#' "$T/$tr-compare.png.metrics.dat" | cut -f1,3-7,9 > "$T/got"
	sqt "$DB" "SELECT r.id || ' ' || r.scheduler,
		$(for m in delay_p50_ns delay_p95_ns delay_p99_ns delay_max_ns max_wait_ns span_ns; do
			printf "(SELECT CAST(value AS INTEGER) FROM metric WHERE run_id = r.id AND utid IS NULL AND name = '%s')," $m; done) 0
		FROM run r ORDER BY r.id" | sed "s/${TAB}0\$//" > "$T/want"
	cmp -s "$T/got" "$T/want" || { diff "$T/want" "$T/got"; fail "$tr compare rows differ from the metric table"; }
	# each time panel in the unit that fits its largest value (us below 1 ms,
	# ms below 1 s, else s); no Jain panel (over every task it means nothing)
	col=2
	for name in "mean delay" "p50 delay" "p95 delay" "p99 delay" "max delay" "longest runnable wait"; do
		unit=$(grep -v '^#' "$T/$tr-compare.png.metrics.dat" | awk -F"$TAB" -v c=$col '$c + 0 > m { m = $c + 0 }
			END { print m < 1e6 ? "us" : m < 1e9 ? "ms" : "s" }')
		grep -q "^set title '$name ($unit)'" "$T/$tr-compare.png.gp" || fail "$tr compare: '$name' not in $unit"
		col=$((col + 1))
	done
	grep -qi "jain" "$T/$tr-compare.png.gp" && fail "$tr compare: a Jain panel"

done

# the temporary files are gone without --keep
# (a TMPDIR of the test's own: other test runs may be drawing at the same time)
mkdir "$T/tmp"
TMPDIR="$T/tmp" "$SCHEDLAB" --db "$DB" plot latency --trace 1 -o "$T/nokeep.svg" > /dev/null || fail "plot --trace"
magic "$T/nokeep.svg" svg
[ ! -e "$T/nokeep.svg.gp" ] || fail "script kept without --keep"
expect_eq "$(ls "$T/tmp" | wc -l)" 0 "temporary folders left"

# staircase of one task, timeline window
tid=$(sq "$DB" "SELECT tid FROM task_summary WHERE run_id = 2 ORDER BY runtime_ns DESC LIMIT 1")
"$SCHEDLAB" --db "$DB" plot staircase --run 2,3 --task "$tid" -o "$T/one.png" > /dev/null || fail "staircase --task"
magic "$T/one.png" png
"$SCHEDLAB" --db "$DB" plot timeline --run 1 --from 10ms --to 30ms -o "$T/win.pdf" > /dev/null || fail "timeline window"
magic "$T/win.pdf" pdf

# runs without a single wakeup (two CPU hogs): every kind still draws, the
# CDF data file has its header only
printf 'hog 0 run=inf\nhog2 5 run=inf\n' > "$T/hogs.txt"
"$SCHEDLAB" --db "$T/hogs.db" replay --workload "$T/hogs.txt" --sched rsdl --duration 100ms > /dev/null || fail "hogs replay"
for kind in staircase latency histogram timeline share compare; do
	"$SCHEDLAB" --db "$T/hogs.db" plot $kind --run 1 -o "$T/hogs-$kind.png" --keep > /dev/null || fail "hogs: plot $kind"
	magic "$T/hogs-$kind.png" png
done
expect_eq "$(grep -vc '^#' "$T/hogs-latency.png.run1.dat")" 0 "hogs: CDF rows"
# a workload has no recording: no KS distance (NaN, no bar), said on the
# panel; a trace's recorded run is its own distribution (0, checked above)
expect_eq "$(grep -v '^#' "$T/hogs-compare.png.metrics.dat" | cut -f8)" NaN "hogs: KS column"
grep -q "no recorded run to compare with" "$T/hogs-compare.png.gp" || fail "hogs: KS panel not marked"

# errors: one line, exit 1 (2 for usage)
"$SCHEDLAB" --db "$DB" plot latency --run 1 -o "$T/x.jpg" 2> "$T/err"; expect_eq $? 1 "jpg exit"
grep -q "^schedlab: error: $T/x.jpg: unknown chart format" "$T/err" || fail "jpg message: $(cat "$T/err")"
"$SCHEDLAB" --db "$DB" plot latency --run 99 -o "$T/x.png" 2> "$T/err"; expect_eq $? 1 "missing run exit"
[ "$(wc -l < "$T/err")" -eq 1 ] || fail "missing run: not one line"
"$SCHEDLAB" --db "$DB" plot pie --run 1 -o "$T/x.png" 2> "$T/err"; expect_eq $? 2 "unknown kind exit"
"$SCHEDLAB" --db "$DB" plot staircase --run 2 --task 999999 -o "$T/x.png" 2> "$T/err"; expect_eq $? 1 "no such task"
other="$T/massive-intr-20x-1cpu.perf.data.db"
"$SCHEDLAB" --db "$other" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1
"$SCHEDLAB" --db "$other" plot latency --run 1 4 -o "$T/x.png" 2> "$T/err"; expect_eq $? 1 "mixed traces"
grep -q "chart runs of one trace" "$T/err" || fail "mixed traces message: $(cat "$T/err")"
echo ok
