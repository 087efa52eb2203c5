#!/bin/sh
# schedlab validate on every bundled trace: it replays the trace through the
# model of the kernel that recorded it and prints the fidelity table.
# - traces whose file carries the kernel release (trace.dat UNAME, perf.data
#   os-release: every one recorded here on Linux 6.18) pick eevdf by
#   themselves; the release stored at import equals what perf / trace-cmd
#   print for the same file (peer tools, when installed);
# - the others (text formats, pipe-mode perf.data) say so in one line and
#   exit 1, and run with --sched;
# - every table has its 18 rows (and span, utilisation), the 6 rows of
#   causes (docs/validate.md "Where a difference comes from") and a verdict; the CPU time row is exact
#   (conservation); the stored metrics equal the printed ones; csv and json
#   carry the same rows; a version 3 database gets the release on validate.
. "$TOP/tests/e2e/lib.sh"
"$SCHEDLAB" -h 2>&1 | grep -q '^  validate' || skip "validate not linked"
"$SCHEDLAB" replay -h | grep -q eevdf || skip "no eevdf model"

n=0
for f in "$TOP"/traces/*; do
	# traces/corpus/ is validated as a whole by make validate (docs/validate.md)
	case "$f" in *README.md|*/corpus|*/corpus-quiet) continue ;; esac
	n=$((n + 1))
	"$SCHEDLAB" --db "$T/db" import "$f" > "$T/imp" 2> /dev/null || fail "import $f"
	id=$(sed -n 's/^trace \([0-9]*\):.*/\1/p' "$T/imp")
	rel=$(sq "$T/db" "SELECT COALESCE(kernel_release, '') FROM trace WHERE id = $id")
	case "$f" in
	*.perf.data)
		if command -v perf > /dev/null; then
			want=$(perf report --header-only -i "$f" 2> /dev/null | sed -n 's/^# os release : //p')
			expect_eq "$rel" "$want" "release of $f (perf report --header-only)"
		fi ;;
	*.dat)
		if command -v trace-cmd > /dev/null; then
			want=$(trace-cmd report --uname "$f" 2> /dev/null | awk '/^Linux / { print $3; exit }')
			expect_eq "$rel" "$want" "release of $f (trace-cmd report --uname)"
		fi ;;
	esac
	if [ -n "$rel" ]; then
		"$SCHEDLAB" --db "$T/db" validate --trace "$id" > "$T/out" 2> "$T/err"
		[ $? -le 1 ] || fail "validate $f: $(cat "$T/err")"
		grep -q "eevdf (from the kernel release)" "$T/out" || fail "model of $f: $(head -1 "$T/out")"
	else
		rc=0
		"$SCHEDLAB" --db "$T/db" validate --trace "$id" > "$T/out" 2> "$T/err" || rc=$?
		expect_eq "$rc" 2 "exit status of validate $f without a release"
		expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 1 "error lines for $f"
		grep -q "the kernel that recorded it is unknown.*give --sched" "$T/err" || fail "message: $(cat "$T/err")"
		"$SCHEDLAB" --db "$T/db" validate --trace "$id" --sched eevdf > "$T/out" 2> "$T/err"
		[ $? -le 1 ] || fail "validate --sched eevdf $f: $(cat "$T/err")"
	fi
	expect_eq "$(grep -c -E '^(tasks with|switches|migrations  |delay (KS|p[0-9]+|max), (all|10))' "$T/out")" 18 "rows of $f"
	expect_eq "$(grep -c -E '^(migrations (at a wakeup|of runnable tasks)|wakeups onto an? (busy|idle) CPU|delay p50, onto an? (busy|idle) CPU) ' "$T/out")" 6 "the six rows of causes of $f"
	grep -q '^verdict: \(PASS\|FAIL\)' "$T/out" || fail "verdict of $f"
	grep -q '^tasks with exact CPU time .* yes$' "$T/out" || fail "CPU time of $f: $(grep '^tasks' "$T/out")"
	run=$(sed -n 's/.* replay run \([0-9]*\) .*/\1/p' "$T/out")
	# stored: the KS printed (3 decimals) is the stored one rounded
	ks=$(awk '/^delay KS, all wakeups/ { print $(NF - 3) }' "$T/out")
	expect_eq "$(sq "$T/db" "SELECT printf('%.3f', value) FROM metric WHERE run_id = $run AND name = 'fidelity_delay_ks_all'")" "$ks" "stored KS of $f"
done
[ "$n" -ge 15 ] || fail "only $n bundled traces"

# the switches row counts slices, as SQL does; migrations are a task's slice
# on another CPU than its previous one (window function over the rows); one
# replay (--seeds 1): the stored run is the figures' replay
"$SCHEDLAB" --db "$T/db" validate --trace 1 --sched eevdf --seeds 1 --format csv > "$T/csv"; [ $? -le 1 ] || fail csv
run=$(awk -F, 'NR == 2 { print $2 }' "$T/csv")
expect_eq "$(awk -F, '$5 == "switches" { print $6 "," $7 }' "$T/csv")" \
	"$(sq "$T/db" "SELECT (SELECT COUNT(*) FROM sched_slice WHERE run_id = 1) || ',' || (SELECT COUNT(*) FROM sched_slice WHERE run_id = $run)")" "switches"
mig() { sq "$T/db" "SELECT COUNT(*) FROM (SELECT cpu, LAG(cpu) OVER (PARTITION BY utid ORDER BY ts, rowid) AS p FROM sched_slice WHERE run_id = $1) WHERE p IS NOT NULL AND p <> cpu"; }
expect_eq "$(awk -F, '$5 == "migrations" { print $6 "," $7 }' "$T/csv")" "$(mig 1),$(mig "$run")" "migrations"
# span: first slice's start to last slice's end; utilisation: CPU time over
# span * CPUs (the trace's 2 CPUs), both from the rows
span() { sq "$T/db" "SELECT MAX(ts + dur) - MIN(ts) FROM sched_slice WHERE run_id = $1"; }
expect_eq "$(awk -F, '$5 == "span" { print $6 "," $7 }' "$T/csv")" "$(span 1),$(span "$run")" "span"
util() { sq "$T/db" "SELECT printf('%.6f', 1.0 * SUM(dur) / ((MAX(ts + dur) - MIN(ts)) * (SELECT cpus FROM run WHERE id = $1))) FROM sched_slice WHERE run_id = $1"; }
expect_eq "$(awk -F, '$5 == "utilisation" { print $6 "," $7 "," $9 "," $10 }' "$T/csv")" "$(util 1),$(util "$run"),0.10,1" "utilisation"
# the rows of causes, in SQL: migrations split by the end state of the
# task's previous slice (R or Y: it stayed runnable); wakeups split by
# whether a slice of another task covered the wakeup's instant on the CPU
# it was put on, with each side's nearest-rank median ((n + 1) / 2-th)
migsplit() { sq "$T/db" "SELECT IFNULL(SUM(pe NOT IN ('R', 'Y')), 0) || ',' || IFNULL(SUM(pe IN ('R', 'Y')), 0) FROM (SELECT cpu,
	LAG(cpu) OVER w AS p, LAG(end_state) OVER w AS pe FROM sched_slice WHERE run_id = $1
	WINDOW w AS (PARTITION BY utid ORDER BY ts, rowid)) WHERE p IS NOT NULL AND p <> cpu"; }
expect_eq "$(awk -F, '$5 == "migrations_wakeup" { a = $6 "," $7 } $5 == "migrations_runnable" { b = $6 "," $7 } END { print a ";" b }' "$T/csv")" \
	"$(migsplit 1 | cut -d, -f1),$(migsplit "$run" | cut -d, -f1);$(migsplit 1 | cut -d, -f2),$(migsplit "$run" | cut -d, -f2)" "migrations at a wakeup; of runnable tasks"
busyidle() { sq "$T/db" "WITH w AS (SELECT x.ts_run - x.ts AS d, EXISTS (SELECT 1 FROM sched_slice s WHERE s.run_id = $1
	AND s.cpu = x.cpu AND s.utid <> x.utid AND s.ts <= x.ts AND s.ts + s.dur > x.ts) AS busy
	FROM wakeup x WHERE x.run_id = $1 AND x.ts_run IS NOT NULL AND x.ts_run >= x.ts AND x.cpu >= 0),
	o AS (SELECT d, busy, ROW_NUMBER() OVER (PARTITION BY busy ORDER BY d) AS rn, COUNT(*) OVER (PARTITION BY busy) AS n FROM w)
	SELECT (SELECT COUNT(*) FROM w WHERE busy) || ',' || (SELECT COUNT(*) FROM w WHERE NOT busy) || ',' ||
	IFNULL((SELECT d FROM o WHERE busy AND rn = (n + 1) / 2), 0) || ',' || IFNULL((SELECT d FROM o WHERE NOT busy AND rn = (n + 1) / 2), 0)"; }
cause() { awk -F, -v c=$1 '$5 == "wakeups_busy" { v[1] = $c } $5 == "wakeups_idle" { v[2] = $c }
	$5 == "delay_p50_busy" { v[3] = $c } $5 == "delay_p50_idle" { v[4] = $c } END { print v[1] "," v[2] "," v[3] "," v[4] }' "$T/csv"; }
expect_eq "$(cause 6)" "$(busyidle 1)" "wakeups onto a busy / an idle CPU and their medians, recorded"
expect_eq "$(cause 7)" "$(busyidle "$run")" "wakeups onto a busy / an idle CPU and their medians, replayed"
expect_eq "$(grep -c . "$T/csv")" 28 "csv lines (header, 26 rows, verdict)"
# --seeds 3: each replay figure is the median of three replays, --seed 0, 1
# and 2, which `schedlab replay` makes too with the options validate stored
# (causal, overheads auto, its HZ): their switches, migrations and span
# counted by SQL, the middle one of each three is validate's; seed 0's run is
# the one validate stored. When written (ed-desktop-2cpu.dat): switches 7616,
# 7659, 7567; migrations 173, 168, 150; span 6.607, 6.677, 6.836 s: seed 0
# is the median of the switches only, so the other two tell a median from
# seed 0's figure.
"$SCHEDLAB" --db "$T/db" validate --trace 1 --sched eevdf --seeds 3 --format csv > "$T/csv3"; [ $? -le 1 ] || fail "csv --seeds 3"
run=$(awk -F, 'NR == 2 { print $2 }' "$T/csv3")
hz=$(sq "$T/db" "SELECT json_extract(params, '\$.hz') FROM run WHERE id = $run")
: > "$T/three"
for s in 0 1 2; do
	"$SCHEDLAB" --db "$T/db" replay --trace 1 --sched eevdf --mode causal --overhead auto --hz "$hz" --seed $s > /dev/null 2>&1 || fail "replay --seed $s"
	r=$(sq "$T/db" "SELECT MAX(id) FROM run")
	echo "$(sq "$T/db" "SELECT COUNT(*) FROM sched_slice WHERE run_id = $r") $(mig "$r") $(span "$r")" >> "$T/three"
	[ $s = 0 ] && expect_eq "$(sq "$T/db" "SELECT COUNT(*) FROM sched_slice WHERE run_id = $r")" \
		"$(sq "$T/db" "SELECT COUNT(*) FROM sched_slice WHERE run_id = $run")" "seed 0 replay = validate's stored run"
done
for k in 1 2 3; do
	med=$(awk -v k=$k '{ print $k }' "$T/three" | sort -n | sed -n 2p)
	key=$(echo "switches migrations span" | cut -d' ' -f$k)
	expect_eq "$(awk -F, -v m=$key '$5 == m { print $7 }' "$T/csv3")" "$med" "$key: median of seeds 0-2 ($(tr '\n' ';' < "$T/three"))"
done
"$SCHEDLAB" --db "$T/db" validate --trace 1 --sched eevdf --format json > "$T/json"; [ $? -le 1 ] || fail json
expect_eq "$(sq "$T/db" "SELECT json_array_length(readfile('$T/json'), '\$.metrics')")" 26 "json rows"

# bad input: one line, exit 1 or 2, nothing stored for a refused run
"$SCHEDLAB" --db "$T/db" validate --trace 999 2> "$T/err" && fail "trace 999"
expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 1 "error lines"
"$SCHEDLAB" --db "$T/db" validate --trace 1 --sched nosuch 2> "$T/err"; expect_eq $? 2 "unknown model status"
"$SCHEDLAB" --db "$T/db" validate 2> /dev/null; expect_eq $? 2 "no --trace"

# a version 4 database (traces without kernel_release): validate reads the
# release from the file and stores it
"$SCHEDLAB" --db "$T/v4.db" import "$TOP/traces/rec-sleep.dat" > /dev/null 2>&1 || fail "import v4"
sq "$T/v4.db" "ALTER TABLE trace DROP COLUMN kernel_release; PRAGMA user_version = 4"
"$SCHEDLAB" --db "$T/v4.db" validate --trace 1 > "$T/out" 2> "$T/err"; [ $? -le 1 ] || fail "validate v4: $(cat "$T/err")"
expect_eq "$(sq "$T/v4.db" "PRAGMA user_version")" 18 "upgraded (to the current version, 18)"
expect_eq "$(sq "$T/v4.db" "SELECT kernel_release FROM trace WHERE id = 1")" "$(sq "$T/db" "SELECT kernel_release FROM trace WHERE path LIKE '%/rec-sleep.dat'")" "release filled in"
# issue 22: a check that cannot be measured says n/a and never passes. Two
# hogs on one CPU switching every 4 ms with no wakeup event: there is no
# wakeup delay in either run, so the 4 gating delay checks (KS, p50, p95,
# p99 over all wakeups) are n/a (they were "yes", 0 us against 0 us), and
# the verdict is FAIL with 5 of the 9 (CPU time, switches, migrations, span, utilisation).
awk 'BEGIN { t = 100.0; for (i = 0; i < 40; i++) { a = i % 2; printf "hog%d-%d ( %d) [000] d..2. %.6f: sched_switch: prev_comm=hog%d prev_pid=%d prev_prio=120 prev_state=R ==> next_comm=hog%d next_pid=%d next_prio=120\n", a, 101 + a, 101 + a, t, a, 101 + a, 1 - a, 102 - a; t += 0.004 } }' > "$T/nw.ftrace.txt"
"$SCHEDLAB" -q --db "$T/nw.db" import "$T/nw.ftrace.txt" > /dev/null 2>&1 || fail "import no-wakeup trace"
"$SCHEDLAB" --db "$T/nw.db" validate --trace 1 --sched eevdf > "$T/nw" 2> "$T/err"; [ $? -le 1 ] || fail "validate no-wakeup: $(cat "$T/err")"
expect_eq "$(grep -c 'all wakeups .* n/a$' "$T/nw")" 4 "4 gating delay checks n/a"
grep -q '^verdict: FAIL (5 of 9 checks' "$T/nw" || fail "n/a passed: $(tail -1 "$T/nw")"
# issue 22: validate's replay says so in its params (origin)
expect_eq "$(sq "$T/nw.db" "SELECT json_extract(params, '\$.origin') FROM run WHERE id = 2")" validate "validate's run marked"
# and a report of that run shows the mark in its title (report.c run_section; charts: sl_pruns_label_run)
"$SCHEDLAB" --db "$T/nw.db" report --trace 1 -o "$T/nwr" > /dev/null 2>&1 || fail "report of validate's run"
grep -q "run 2: eevdf (causal, validate), 1 CPU" "$T/nwr/index.html" || fail "report does not show validate's mark"
# the exit status is the verdict's (issue 22): 0 PASS, 1 FAIL, whichever
# the csv's verdict line says (its last field: 1 pass, 0 fail); 2 on an error
rc=0
"$SCHEDLAB" --db "$T/nw.db" validate --trace 1 --sched rsdl --format csv > "$T/rc.csv" 2> /dev/null || rc=$?
v=$(awk -F, '$5 == "verdict" { print $NF }' "$T/rc.csv")
[ -n "$v" ] || fail "no verdict line: $(cat "$T/rc.csv")"
expect_eq "$rc" "$((1 - v))" "exit status of verdict $v"
rc=0
"$SCHEDLAB" --db "$T/nw.db" validate --trace 99 > /dev/null 2>&1 || rc=$?
expect_eq "$rc" 2 "exit status on an error (no such trace)"
exit 0
