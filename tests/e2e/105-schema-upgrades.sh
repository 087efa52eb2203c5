#!/bin/sh
# Schema versions 2 and 3: run_rows ranges, the burst view over
# task_model.phases, a malformed phases document, task_stat against the
# aggregates of the rows, and the upgrades of version 1 and 2 databases.
#
# tests/fixtures/schema-v1.db was written by schedlab at commit ad4c20a
# (schema 1: burst a real table, run_id indexes): import of
# traces/panopticon-desktop.ftrace.txt, then `replay --trace 1 --sched rsdl`.
# tests/golden/schema-v1-burst.txt is `SELECT * FROM burst ORDER BY utid, seq`
# on that file, and tests/golden/schema-v1-analyze.csv is what that older
# schedlab printed for `analyze --format csv` on it: both come from the old
# program, not from the code under test.
. "$(dirname "$0")/lib.sh"
# old_burst N: the burst view as a schema whose phases had N elements made
# it (the element names in order: schema.sql's view)
old_burst() {
	echo "CREATE VIEW burst AS SELECT m.utid AS utid, CAST(j.key AS INTEGER) AS seq"
	i=0
	for c in run_ns sleep_ns end_state waker_kind waker_utid waker_progress_ns pipe lost wake_cpu sleep_cpu irq_ns tick_n; do
		[ $i -lt "$1" ] && echo ", json_extract(j.value, '\$[$i]') AS $c"
		i=$((i + 1))
	done
	echo "FROM task_model m, json_each(m.phases) j;"
}
DB=$T/a.db

# 1. run_rows: for every run and table, the range holds exactly the run's rows
# (one transaction per run: contiguous rowids), and rows = count.
"$SCHEDLAB" -q --db "$DB" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null || fail "import"
"$SCHEDLAB" -q --db "$DB" replay --trace 1 --sched rsdl,o1 > /dev/null || fail "replay"
for tbl in sched_slice wakeup staircase rotation vlag; do
	bad=$(sq "$DB" "SELECT r.run_id FROM run_rows r WHERE r.tbl = '$tbl' AND (
		r.rows != (SELECT count(*) FROM $tbl t WHERE t.run_id = r.run_id)
		OR r.rows != (SELECT count(*) FROM $tbl t WHERE t.rowid BETWEEN r.first_rowid AND r.last_rowid)
		OR EXISTS (SELECT 1 FROM $tbl t WHERE t.rowid BETWEEN r.first_rowid AND r.last_rowid
			   AND t.run_id != r.run_id))")
	expect_eq "$bad" "" "run_rows of $tbl wrong for runs"
done
expect_eq "$(sq "$DB" "SELECT count(*) FROM run_rows")" 15 "run_rows rows (3 runs x 5 tables)"
expect_eq "$(sq "$DB" "SELECT rows > 0 FROM run_rows WHERE run_id = 2 AND tbl = 'rotation'")" 1 "rsdl rotations"
# no run_id index on the big tables (the point of schema 2)
expect_eq "$(sq "$DB" "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name IN
	('sched_slice', 'wakeup', 'staircase', 'rotation', 'vlag')")" 0 "indexes on run tables"

# 2. the burst view: a task's CPU time in the recorded run is the sum of
# its bursts (conservation, docs/model.md), for every task of the trace
# (run_ns = -1 would mean 'never sleeps': no such phase in a trace)
bad=$(sq "$DB" "SELECT s.utid FROM task_summary s WHERE s.run_id = 1 AND s.runtime_ns !=
	(SELECT COALESCE(SUM(run_ns), 0) FROM burst b WHERE b.utid = s.utid)")
expect_eq "$bad" "" "tasks whose bursts do not add up to their recorded runtime"
expect_eq "$(sq "$DB" "SELECT count(*) FROM burst WHERE run_ns < 0")" 0 "infinite bursts in a trace"

# 3. a malformed phases document: replay fails with one line naming the
# task and offset, exit 1, and the database is unchanged
cp "$DB" "$T/bad.db"
sq "$T/bad.db" "UPDATE task_model SET phases = '[[1,2,\"S\",\"task\",null,0,0' WHERE utid = 3"
before=$(sqlite3 "$T/bad.db" .dump | md5sum)
"$SCHEDLAB" --db "$T/bad.db" replay --trace 1 --sched rsdl > "$T/out" 2> "$T/err"; rc=$?
expect_eq "$rc" 1 "exit status on malformed phases"
expect_eq "$(wc -l < "$T/err")" 1 "error lines"
# the document is 25 characters long and stops before the 8th number: the
# reader fails at offset 25, its end
grep -q "task_model.phases of utid 3 is malformed at offset 25" "$T/err" || fail "error: $(cat "$T/err")"
expect_eq "$(sqlite3 "$T/bad.db" .dump | md5sum)" "$before" "database after a failed replay"
# a thirteenth element (wake_at, schema 16) that is negative: the phase is
# read whole and refused after its closing bracket, offset 38 of the
# document's 39 characters
sq "$T/bad.db" "UPDATE task_model SET phases = '[[1,2,\"S\",\"irq\",null,0,0,0,0,0,0,0,-5]]' WHERE utid = 3"
"$SCHEDLAB" --db "$T/bad.db" replay --trace 1 --sched rsdl > "$T/out" 2> "$T/err"; rc=$?
expect_eq "$rc" 1 "exit status on a negative wake_at"
grep -q "task_model.phases of utid 3 is malformed at offset 38" "$T/err" || fail "error: $(cat "$T/err")"

# 4. a version 1 database is upgraded on open: the bursts move into
# task_model.phases without a change, the analysis is the old program's,
# and it takes new runs
cp "$TOP/tests/fixtures/schema-v1.db" "$T/v1.db"
"$SCHEDLAB" --db "$T/v1.db" analyze --format csv > "$T/v1.csv" 2> "$T/err" || fail "analyze v1: $(cat "$T/err")"
diff -u "$TOP/tests/golden/schema-v1-analyze.csv" "$T/v1.csv" || fail "analysis of an upgraded v1 database"
expect_eq "$(sq "$T/v1.db" "PRAGMA user_version")" 18 "user_version after the upgrade"
# (the version 1 columns; wake_cpu, new in version 8, is NULL in an old import)
V1COLS="utid, seq, run_ns, sleep_ns, end_state, waker_kind, waker_utid, waker_progress_ns, pipe, lost"
sq "$T/v1.db" "SELECT $V1COLS FROM burst ORDER BY utid, seq" > "$T/burst.txt"
diff -u "$TOP/tests/golden/schema-v1-burst.txt" "$T/burst.txt" || fail "bursts after the upgrade"
expect_eq "$(sq "$T/v1.db" "SELECT count(*) FROM burst WHERE wake_cpu IS NOT NULL OR end_state = 'V'")" 0 "wake CPUs or exec points in an old import"
"$SCHEDLAB" -q --db "$T/v1.db" replay --trace 1 --sched o1 > /dev/null || fail "replay on an upgraded database"
expect_eq "$(sq "$T/v1.db" "SELECT rows = (SELECT count(*) FROM sched_slice WHERE run_id = 3)
	FROM run_rows WHERE run_id = 3 AND tbl = 'sched_slice'")" 1 "run_rows of a new run in an upgraded db"
# the same trace imported fresh gives the same bursts (same utids: a fresh
# database) once its exec points (version 8: a burst cut where the task
# exec'd, end_state V; the file has 2 sched_process_exec, both of tasks
# running in a slice the trace shows begin) are joined to the burst after
# them, as the version 1 model had them, and with the start of the trace as
# version 18 has it (docs/model.md "The trace's start"): the task a CPU's
# first event names runs there from that event. tests/golden/
# panopticon-fresh-burst.txt is the version 1 golden with those runs:
# threaded-ml (utid 1), first seen on CPU 1 at 21926.770086, switched out
# (R+) at .770409: its first burst 163 + 323 = 486 us; trace.sh (utid 3),
# first seen on CPU 3 at .770331, switched out asleep (S) at .771802: a
# first burst of 1471 us, then the sleep until ls (utid 12) wakes it, before
# its old last burst; the tasks they woke (utids 2, 4, 5) see their wakers'
# progress grow by those runs (utid 2's second wakeup: 299 + 323 = 622 us)
"$SCHEDLAB" -q --db "$T/fresh.db" import "$TOP/traces/panopticon-desktop.ftrace.txt" > /dev/null || fail "fresh import"
expect_eq "$(sq "$T/fresh.db" "SELECT count(*) FROM burst WHERE end_state = 'V'")" 2 "exec points of a fresh import"
sq "$T/fresh.db" "SELECT $V1COLS FROM burst ORDER BY utid, seq" |
	awk -F'|' -v OFS='|' '{ if ($1 != u) { u = $1; n = 0; add = 0 }
		if ($5 == "V") { add += $3; next }
		$2 = n++; $3 += add; add = 0; print }' > "$T/burst2.txt"
diff -u "$TOP/tests/golden/panopticon-fresh-burst.txt" "$T/burst2.txt" || fail "bursts of a fresh import"

# 5. task_stat (schema 3): task_summary equals, row for row, the version 2
# view's definition (aggregates over sched_slice and wakeup, evaluated by
# SQLite here) on fresh imports and replays of several formats and modes
OLDVIEW="SELECT r.id, th.utid, th.tid, th.comm, th.nice, COALESCE(s.rt, 0), COALESCE(s.sw, 0),
	COALESCE(w.wk, 0), w.av, w.mx FROM run r JOIN thread th ON th.trace_id = r.trace_id
	LEFT JOIN (SELECT run_id, utid, SUM(dur) AS rt, COUNT(*) AS sw FROM sched_slice
		   GROUP BY run_id, utid) s ON s.run_id = r.id AND s.utid = th.utid
	LEFT JOIN (SELECT run_id, utid, COUNT(*) AS wk,
		   AVG(CASE WHEN ts_run IS NOT NULL THEN ts_run - ts END) AS av,
		   MAX(CASE WHEN ts_run IS NOT NULL THEN ts_run - ts END) AS mx
		   FROM wakeup GROUP BY run_id, utid) w ON w.run_id = r.id AND w.utid = th.utid
	WHERE s.sw IS NOT NULL OR w.wk IS NOT NULL ORDER BY 1, 2"
N=$T/n.db
"$SCHEDLAB" -q --db "$N" import "$TOP/traces/perf-sched-load-2cpu.perf.data" "$TOP/traces/rec-pipes-lost.dat" \
	> /dev/null 2>&1 || fail "imports for task_stat"
"$SCHEDLAB" -q --db "$N" replay --trace 1 --sched rsdl,o1,sd > /dev/null || fail "replay timed"
"$SCHEDLAB" -q --db "$N" replay --trace 2 --sched rsdl --mode causal > /dev/null || fail "replay causal"
sq "$N" "$OLDVIEW" > "$T/old.txt"
sq "$N" "SELECT run_id, utid, tid, comm, nice, runtime_ns, switches, wakeups, avg_delay_ns,
	max_delay_ns FROM task_summary ORDER BY 1, 2" > "$T/new.txt"
[ "$(wc -l < "$T/old.txt")" -gt 200 ] || fail "too few summary rows: $(wc -l < "$T/old.txt")"
diff -u "$T/old.txt" "$T/new.txt" || fail "task_summary differs from the aggregates of the rows"
expect_eq "$(sq "$N" "SELECT count(DISTINCT run_id) FROM task_stat")" 6 "runs with task_stat rows"

# 6. a version 2 database is upgraded: tests/fixtures/schema-v2.db was
# written by schedlab at commit 5180a09 (schema 2): imports of
# traces/local-2cpu-hogs.ftrace.txt and traces/rec-sleep.dat, then
# `replay --trace 2 --sched rsdl,o1`; tests/golden/schema-v2-task-summary.txt
# is that schedlab's task_summary view (`SELECT * ... ORDER BY run_id,
# utid`). After the upgrade the new view gives the same text.
cp "$TOP/tests/fixtures/schema-v2.db" "$T/v2.db"
"$SCHEDLAB" --db "$T/v2.db" analyze --run 1 > /dev/null 2> "$T/err" || fail "analyze v2: $(cat "$T/err")"
expect_eq "$(sq "$T/v2.db" "PRAGMA user_version")" 18 "user_version after the v2 upgrade"
# (the version 2 view's columns; uncertain_ns, new in version 6, is 0 for old runs)
sqlite3 -batch "$T/v2.db" "SELECT run_id, utid, tid, comm, nice, runtime_ns, switches, wakeups,
	avg_delay_ns, max_delay_ns FROM task_summary ORDER BY run_id, utid" > "$T/v2sum.txt"
diff -u "$TOP/tests/golden/schema-v2-task-summary.txt" "$T/v2sum.txt" || fail "task_summary after the v2 upgrade"
expect_eq "$(sq "$T/v2.db" "SELECT count(*) FROM task_summary WHERE uncertain_ns != 0")" 0 "uncertain_ns of old runs"
"$SCHEDLAB" -q --db "$T/v2.db" replay --trace 1 --sched rsdl > /dev/null || fail "replay on an upgraded v2 database"
expect_eq "$(sq "$T/v2.db" "SELECT count(*) FROM task_stat WHERE run_id = 5")" \
	"$(sq "$T/v2.db" "SELECT count(DISTINCT utid) FROM sched_slice WHERE run_id = 5")" "task_stat rows of a new run"

# 7. a version 3 database (no vlag table) is upgraded: the table appears,
# the old runs keep their rows, and a cfs replay writes vlag rows for its
# run (the v3 file is a fresh database with the table dropped and the
# version set back, which is what schedlab 3 wrote)
V3=$T/v3.db
"$SCHEDLAB" -q --db "$V3" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1 || fail "import for v3"
"$SCHEDLAB" -q --db "$V3" replay --trace 1 --sched sd > /dev/null || fail "replay for v3"
sq "$V3" "DROP TABLE vlag; DELETE FROM run_rows WHERE tbl = 'vlag'; ALTER TABLE trace DROP COLUMN kernel_release; PRAGMA user_version = 3"
before=$(sq "$V3" "SELECT count(*) FROM sched_slice")
"$SCHEDLAB" -q --db "$V3" replay --trace 1 --sched cfs > /dev/null || fail "cfs replay on a v3 database"
expect_eq "$(sq "$V3" "PRAGMA user_version")" 18 "user_version after the v3 upgrade"
expect_eq "$(sq "$V3" "SELECT count(*) FROM sched_slice WHERE run_id <= 2")" "$before" "old runs' slices after the v3 upgrade"
expect_eq "$(sq "$V3" "SELECT rows > 0 AND rows = (SELECT count(*) FROM vlag WHERE run_id = 3)
	FROM run_rows WHERE run_id = 3 AND tbl = 'vlag'")" 1 "vlag rows of a cfs run in an upgraded db"

# 8. a version 5 database (no trace.missed_switches, trace.cut_at,
# task_stat.uncertain_ns; the view without uncertain_ns) is upgraded on open:
# the columns appear with 0 / NULL for the old trace, its runs keep their
# rows, and a new import fills them (traces/perf-sched-missed-2cpu.perf.data:
# 1108 missed switches, tests/e2e/260)
V5=$T/v5.db
"$SCHEDLAB" -q --db "$V5" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1 || fail "import for v5"
sq "$V5" "DROP VIEW task_summary; ALTER TABLE trace DROP COLUMN missed_switches;
	ALTER TABLE trace DROP COLUMN cut_at; ALTER TABLE task_stat DROP COLUMN uncertain_ns;
	PRAGMA user_version = 5"
before=$(sq "$V5" "SELECT count(*), SUM(dur) FROM sched_slice")
"$SCHEDLAB" -q --db "$V5" import "$TOP/traces/perf-sched-missed-2cpu.perf.data" > /dev/null 2>&1 || fail "import on a v5 database"
expect_eq "$(sq "$V5" "PRAGMA user_version")" 18 "user_version after the v5 upgrade"
expect_eq "$(sq "$V5" "SELECT count(*), SUM(dur) FROM sched_slice WHERE run_id = 1")" "$before" "old run's slices after the v5 upgrade"
expect_eq "$(sq "$V5" "SELECT id, missed_switches, cut_at IS NULL FROM trace ORDER BY id" | tr '\n' ' ')" "1|0|1 2|1108|1 " "trace rows after the v5 upgrade"
expect_eq "$(sq "$V5" "SELECT count(*) > 0, SUM(uncertain_ns > 0) > 0 FROM task_summary WHERE run_id = 2")" "1|1" "uncertain_ns of the new import"
# 9. a version 7 database (phases of eight elements, no exec points, the
# burst view without wake_cpu) is upgraded on open: the view shows wake_cpu
# NULL for the old import, its phases read as before (a replay of it is the
# replay of the same behaviour with no wake CPUs, even with --irq-cpu
# recorded), and a
# new import has exec points and wake CPUs (the v7 file is a fresh database
# with the ninth and tenth elements removed, the view of version 7 and the version set
# back; its exec points stay, so that the two replays differ only by the
# wake CPUs)
V7=$T/v7.db
"$SCHEDLAB" -q --db "$V7" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1 || fail "import for v7"
expect_eq "$(sq "$V7" "SELECT count(*) > 0 FROM burst WHERE wake_cpu IS NOT NULL")" 1 "wake CPUs of a fresh import"
"$SCHEDLAB" -q --db "$V7" replay --trace 1 --sched o1 --irq-cpu sleeper > /dev/null || fail "replay for v7"
sq "$V7" "DROP VIEW burst;
	UPDATE task_model SET phases = (SELECT json_group_array(json(json_remove(value, '$[12]', '$[11]', '$[10]', '$[9]', '$[8]')))
		FROM json_each(task_model.phases)) WHERE phases != '[]';
	$(old_burst 8)
	PRAGMA user_version = 7"
"$SCHEDLAB" -q --db "$V7" replay --trace 1 --sched o1 --irq-cpu recorded > /dev/null || fail "replay on a v7 database"
expect_eq "$(sq "$V7" "PRAGMA user_version")" 18 "user_version after the v7 upgrade"
expect_eq "$(sq "$V7" "SELECT count(*) FROM burst WHERE wake_cpu IS NOT NULL")" 0 "wake CPUs of the old import"
# run 2 (before, --irq-cpu sleeper) and run 3 (after the upgrade, --irq-cpu
# recorded but no wake CPU left): the same rows
expect_eq "$(sq "$V7" "SELECT count(*) FROM (SELECT ts, dur, cpu, utid, end_state FROM sched_slice WHERE run_id = 2
	EXCEPT SELECT ts, dur, cpu, utid, end_state FROM sched_slice WHERE run_id = 3)")" 0 "slices of a replay of the old import"
"$SCHEDLAB" -q --db "$V7" import "$TOP/traces/panopticon-desktop.ftrace.txt" > /dev/null 2>&1 || fail "import on a v7 database"
expect_eq "$(sq "$V7" "SELECT count(*) FROM burst b JOIN thread t USING (utid) WHERE t.trace_id = 2 AND end_state = 'V'")" 2 "exec points of a new import"
# 10. a version 8 database (phases of nine elements: wake CPUs without the
# CPU the task slept on; the burst view without sleep_cpu) is upgraded on
# open: the view shows sleep_cpu NULL for the old import, and --irq-cpu
# relative, which needs it, takes each recorded wake CPU as it is: the same
# replay as --irq-cpu recorded (docs/replay.md). A fresh import has both.
V8=$T/v8.db
"$SCHEDLAB" -q --db "$V8" import "$TOP/traces/ed-desktop-2cpu.dat" > /dev/null 2>&1 || fail "import for v8"
expect_eq "$(sq "$V8" "SELECT count(*) > 0, SUM(sleep_cpu IS NULL) FROM burst WHERE wake_cpu IS NOT NULL")" "1|0" "sleep CPUs of a fresh import"
sq "$V8" "DROP VIEW burst;
	UPDATE task_model SET phases = (SELECT json_group_array(json(json_remove(value, '$[12]', '$[11]', '$[10]', '$[9]')))
		FROM json_each(task_model.phases)) WHERE phases != '[]';
	$(old_burst 9)
	PRAGMA user_version = 8"
"$SCHEDLAB" -q --db "$V8" replay --trace 1 --sched rsdl --irq-cpu relative > /dev/null || fail "replay on a v8 database"
expect_eq "$(sq "$V8" "PRAGMA user_version")" 18 "user_version after the v8 upgrade"
expect_eq "$(sq "$V8" "SELECT count(*) > 0, SUM(sleep_cpu IS NOT NULL) FROM burst WHERE wake_cpu IS NOT NULL")" "1|0" "sleep CPUs of the old import"
"$SCHEDLAB" -q --db "$V8" replay --trace 1 --sched rsdl --irq-cpu recorded > /dev/null || fail "replay recorded on a v8 database"
expect_eq "$(sq "$V8" "SELECT count(*) FROM (SELECT ts, dur, cpu, utid, end_state FROM sched_slice WHERE run_id = 2
	EXCEPT SELECT ts, dur, cpu, utid, end_state FROM sched_slice WHERE run_id = 3)")" 0 "relative against recorded on the old import"
expect_eq "$(sq "$V8" "SELECT json_extract(params, '$.irq_cpu') FROM run WHERE id IN (2, 3) ORDER BY id" | tr '\n' ' ')" "relative recorded " "the runs' irq_cpu"
# v9 -> v10: the trace's ledger columns and table ledger_thread come; a
# trace imported before has no ledger (NULL), its analysis is unchanged
V9="$T/v9.db"
"$SCHEDLAB" -q --db "$V9" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1 || fail "v9 import"
"$SCHEDLAB" --db "$V9" analyze --run 1 --format csv > "$T/v9.before" || fail "v9 analyze before"
sq "$V9" "ALTER TABLE trace DROP COLUMN ledger; ALTER TABLE trace DROP COLUMN completeness_cpu;
	ALTER TABLE trace DROP COLUMN completeness_wait; DROP TABLE ledger_thread; PRAGMA user_version = 9"
"$SCHEDLAB" --db "$V9" analyze --run 1 --format csv > "$T/v9.after" || fail "analyze of a v9 database"
expect_eq "$(sq "$V9" "PRAGMA user_version")" 18 "user_version after the v9 upgrade"
expect_eq "$(sq "$V9" "SELECT COUNT(*) FROM ledger_thread")" 0 "ledger_thread after the v9 upgrade"
expect_eq "$(sq "$V9" "SELECT COALESCE(ledger, 'null') || ' ' || COALESCE(completeness_cpu, 'null') FROM trace")" "null null" \
	"a v9 trace's ledger columns"
cmp -s "$T/v9.before" "$T/v9.after" || fail "analysis changed by the v9 upgrade"
# v10 -> v11: each thread's group columns come (docs/groups.md); a thread
# imported before has none (NULL): its replays take every task into the
# root group, and say so in the params
V10="$T/v10.db"
"$SCHEDLAB" -q --db "$V10" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1 || fail "v10 import"
sq "$V10" "ALTER TABLE thread DROP COLUMN autogroup; ALTER TABLE thread DROP COLUMN autogroup_nice;
	ALTER TABLE thread DROP COLUMN cgroup; ALTER TABLE thread DROP COLUMN cgroup_weight; PRAGMA user_version = 10"
"$SCHEDLAB" -q --db "$V10" replay --trace 1 --sched eevdf > /dev/null || fail "replay on a v10 database"
expect_eq "$(sq "$V10" "PRAGMA user_version")" 18 "user_version after the v10 upgrade"
expect_eq "$(sq "$V10" "SELECT COUNT(*), SUM(autogroup IS NULL AND cgroup IS NULL) FROM thread" | awk -F'|' '{print ($1 > 0 && $1 == $2)}')" 1 \
	"a v10 trace's group columns"
expect_eq "$(sq "$V10" "SELECT json_extract(params, '$.groups') FROM run WHERE id = 2")" \
	"none (no ledger: every task assumed in the root group)" "groups of a replay without a ledger"
# v11 -> v12: phases carry their interference (an eleventh element,
# docs/model.md "Work and interference"), the burst view shows it as irq_ns,
# and table recorded_work and ledger_thread.trace_work_ns come. A v11 import (ten elements, no
# recorded_work) reads irq_ns NULL: its bursts are all work, so replay
# --interference none gives the same slices as recorded (the default).
V11="$T/v11.db"
"$SCHEDLAB" -q --db "$V11" import "$TOP/traces/perf-sched-missed-2cpu.perf.data" > /dev/null 2>&1 || fail "v11 import"
expect_eq "$(sq "$V11" "SELECT SUM(irq_ns) > 0, (SELECT COUNT(*) > 0 FROM recorded_work) FROM burst")" "1|1" "interference of a fresh import"
sq "$V11" "DROP VIEW burst; DROP TABLE recorded_work; ALTER TABLE ledger_thread DROP COLUMN trace_work_ns;
	UPDATE task_model SET phases = (SELECT json_group_array(json(json_remove(value, '$[12]', '$[11]', '$[10]')))
		FROM json_each(task_model.phases)) WHERE phases != '[]';
	$(old_burst 10)
	PRAGMA user_version = 11"
"$SCHEDLAB" -q --db "$V11" replay --trace 1 --sched cfs --interference none > /dev/null 2>&1 || fail "replay none on a v11 database"
expect_eq "$(sq "$V11" "PRAGMA user_version")" 18 "user_version after the v11 upgrade"
expect_eq "$(sq "$V11" "SELECT COUNT(*), SUM(irq_ns IS NULL) FROM burst" | awk -F'|' '{print ($1 > 0 && $1 == $2)}')" 1 \
	"a v11 import's bursts: interference NULL"
expect_eq "$(sq "$V11" "SELECT COUNT(*) FROM recorded_work")" 0 "recorded_work after the v11 upgrade"
expect_eq "$(sq "$V11" "SELECT COUNT(*) FROM pragma_table_info('ledger_thread') WHERE name = 'trace_work_ns'")" 1 \
	"ledger_thread.trace_work_ns after the v11 upgrade"
"$SCHEDLAB" -q --db "$V11" replay --trace 1 --sched cfs > /dev/null 2>&1 || fail "replay recorded on a v11 database"
expect_eq "$(sq "$V11" "SELECT count(*) FROM (SELECT ts, dur, cpu, utid, end_state FROM sched_slice WHERE run_id = 2
	EXCEPT SELECT ts, dur, cpu, utid, end_state FROM sched_slice WHERE run_id = 3)")" 0 "none against recorded on a v11 import"
# v12 -> v13: table cpu_first (each CPU's first slice or wakeup in the
# recorded run, kept at import) comes with the upgrade, empty: a v12
# import's late CPUs are read from its recorded run's rows, as before. On
# the Android systrace CPU 1 is late (tests/e2e/114-offline-cpus.sh works it
# out from the rows); the upgraded database's replay keeps the same list in
# its params as a replay of the fresh import.
HMP="$SHARED/traces/catapult-android-systrace/android_systrace.html"
if [ -f "$HMP" ]; then
	V12="$T/v12.db"
	"$SCHEDLAB" -q --db "$V12" import "$HMP" > /dev/null 2>&1 || fail "v12 import"
	"$SCHEDLAB" -q --db "$V12" replay --trace 1 --sched cfs > /dev/null 2>&1 || fail "replay of a fresh import"
	expect_eq "$(sq "$V12" "SELECT group_concat(cpu) FROM (SELECT cpu FROM cpu_first ORDER BY cpu)")" 0,1 "cpu_first of a fresh import"
	sq "$V12" "DROP TABLE cpu_first; PRAGMA user_version = 12"
	"$SCHEDLAB" -q --db "$V12" replay --trace 1 --sched cfs > /dev/null 2>&1 || fail "replay on a v12 database"
	expect_eq "$(sq "$V12" "PRAGMA user_version")" 18 "user_version after the v12 upgrade"
	expect_eq "$(sq "$V12" "SELECT COUNT(*) FROM cpu_first")" 0 "cpu_first after the v12 upgrade"
	expect_eq "$(sq "$V12" "SELECT json_extract(params, '\$.late_cpus') FROM run WHERE id = 3")" \
		"$(sq "$V12" "SELECT json_extract(params, '\$.late_cpus') FROM run WHERE id = 2")" "late CPUs of a v12 import"
	expect_eq "$(sq "$V12" "SELECT json_array_length(json_extract(params, '\$.late_cpus')) FROM run WHERE id = 3")" 1 \
		"one late CPU in a v12 import"
fi
# v14 -> v15: a phase carries a twelfth element, tick_n (a sleep a timer
# ended at a tick of the recording, docs/model.md "Timers that fire at the
# tick"), the burst view shows it; the recorded run's params carry the
# tick's phase. The rule counted again here from the recorded run's rows:
# a wakeup with no waking task within 100 us of a tick (the params' phase,
# 4 ms apart at HZ 250) whose task's last slice ended more than 100 us
# before that tick, of the tasks with at least half their such wakeups so.
# The import takes each CPU's own phase where this takes the machine's, so
# the counts may differ by a wakeup or two. A v14
# import (eleven elements) reads tick_n NULL and its replay keeps every
# timer's recorded length (--tick-timers off gives the same slices).
V14="$T/v14.db"
"$SCHEDLAB" -q --db "$V14" import "$TOP/traces/corpus-quiet/two-sessions.dat" > /dev/null 2>&1 || fail "v14 import"
expect_eq "$(sq "$V14" "SELECT json_extract(params, '\$.tick_phase_hz') FROM run WHERE id = 1")" 250 "the tick phase's HZ"
marked=$(sq "$V14" "SELECT SUM(tick_n > 0) FROM burst")
counted=$(sq "$V14" "WITH p AS (SELECT json_extract(params, '\$.tick_phase_ns') AS ph FROM run WHERE id = 1),
	w AS (SELECT w.utid, w.ts, p.ph + (w.ts - p.ph + 2000000) / 4000000 * 4000000 AS tick,
		(SELECT MAX(s.ts + s.dur) FROM sched_slice s WHERE s.run_id = 1 AND s.utid = w.utid
			AND s.ts + s.dur <= w.ts) AS start
		FROM wakeup w, p WHERE w.run_id = 1 AND w.waker_utid IS NULL)
	SELECT SUM(n) FROM (SELECT SUM(start IS NOT NULL AND abs(ts - tick) <= 100000 AND start < tick - 100000) AS n,
		SUM(start IS NOT NULL) AS all_n FROM w GROUP BY utid) WHERE 2 * n >= all_n")
[ "$marked" -gt 50 ] && [ "$((marked - counted))" -le 2 ] && [ "$((counted - marked))" -le 2 ] ||
	fail "timers at the tick: the import marked $marked, the rows give $counted"
sq "$V14" "DROP VIEW burst;
	UPDATE task_model SET phases = (SELECT json_group_array(json(json_remove(value, '\$[12]', '\$[11]')))
		FROM json_each(task_model.phases)) WHERE phases != '[]';
	$(old_burst 11)
	PRAGMA user_version = 14"
"$SCHEDLAB" -q --db "$V14" replay --trace 1 --sched eevdf > /dev/null 2>&1 || fail "replay on a v14 database"
expect_eq "$(sq "$V14" "PRAGMA user_version")" 18 "user_version after the v14 upgrade"
expect_eq "$(sq "$V14" "SELECT COUNT(*), SUM(tick_n IS NULL) FROM burst" | awk -F'|' '{print ($1 > 0 && $1 == $2)}')" 1 \
	"a v14 import's bursts: tick_n NULL"
"$SCHEDLAB" -q --db "$V14" replay --trace 1 --sched eevdf --tick-timers off > /dev/null 2>&1 || fail "replay --tick-timers off"
expect_eq "$(sq "$V14" "SELECT count(*) FROM (SELECT ts, dur, cpu, utid, end_state FROM sched_slice WHERE run_id = 2
	EXCEPT SELECT ts, dur, cpu, utid, end_state FROM sched_slice WHERE run_id = 3)")" 0 "on against off on a v14 import"
# v15 -> v16: a phase carries a thirteenth element, wake_at (an absolute
# periodic timer's recorded wakeup, task flag 1024: docs/model.md
# "Absolute timers"), the burst view shows it. frame-60hz of
# traces/corpus-quiet/frame60-hogs.dat (tests/tools/mixload.c: clock_nanosleep
# TIMER_ABSTIME, next += 1/60 s) is found on one: each of its sleeps that an
# interrupt on its own CPU ended carries that wakeup's time, as the recorded
# run's wakeup row has it, and no other phase does. A v15 import (twelve
# elements, no flag) replays as --abs-timers off does.
V15="$T/v15.db"
"$SCHEDLAB" -q --db "$V15" import "$TOP/traces/corpus-quiet/frame60-hogs.dat" > /dev/null 2>&1 || fail "v15 import"
expect_eq "$(sq "$V15" "SELECT group_concat(t.comm) FROM task_model m JOIN thread t USING (utid) WHERE m.flags & 1024")" \
	frame-60hz "the task on an absolute timer"
expect_eq "$(sq "$V15" "SELECT SUM(b.wake_at > 0) = SUM(b.waker_kind IN ('irq', 'idle') AND b.wake_cpu = b.sleep_cpu
	AND b.tick_n = 0 AND b.end_state IN ('S', 'D')) AND SUM(b.wake_at > 0) > 50,
	SUM(b.wake_at > 0 AND b.wake_at NOT IN (SELECT w.ts FROM wakeup w WHERE w.run_id = 1 AND w.utid = b.utid))
	FROM burst b JOIN task_model m USING (utid) WHERE m.flags & 1024")" "1|0" "its timer sleeps' wake_at"
expect_eq "$(sq "$V15" "SELECT COUNT(*) FROM burst b JOIN task_model m USING (utid) WHERE NOT m.flags & 1024 AND b.wake_at != 0")" 0 \
	"no wake_at elsewhere"
sq "$V15" "DROP VIEW burst;
	UPDATE task_model SET phases = (SELECT json_group_array(json(json_remove(value, '\$[12]')))
		FROM json_each(task_model.phases)) WHERE phases != '[]';
	UPDATE task_model SET flags = flags & ~1024;
	$(old_burst 12)
	PRAGMA user_version = 15"
"$SCHEDLAB" -q --db "$V15" replay --trace 1 --sched eevdf > /dev/null 2>&1 || fail "replay on a v15 database"
expect_eq "$(sq "$V15" "PRAGMA user_version")" 18 "user_version after the v15 upgrade"
expect_eq "$(sq "$V15" "SELECT COUNT(*), SUM(wake_at IS NULL) FROM burst" | awk -F'|' '{print ($1 > 0 && $1 == $2)}')" 1 \
	"a v15 import's bursts: wake_at NULL"
"$SCHEDLAB" -q --db "$V15" replay --trace 1 --sched eevdf --abs-timers off > /dev/null 2>&1 || fail "replay --abs-timers off"
expect_eq "$(sq "$V15" "SELECT count(*) FROM (SELECT ts, dur, cpu, utid, end_state FROM sched_slice WHERE run_id = 2
	EXCEPT SELECT ts, dur, cpu, utid, end_state FROM sched_slice WHERE run_id = 3)")" 0 "on against off on a v15 import"
# v16 -> v17: table start_pelt (the kernel's load tracking at the ledger's
# start, version 5 ledgers) comes with the schema; a database without it is
# upgraded, and a trace imported before has no rows (its replays estimate)
V16="$T/v16.db"
"$SCHEDLAB" -q --db "$V16" import "$TOP/traces/corpus-quiet/two-sessions.dat" > /dev/null 2>&1 || fail "v16 import"
expect_eq "$(sq "$V16" "SELECT count(*) FROM start_pelt")" 0 "no start_pelt rows from a version 2-4 ledger"
sq "$V16" "DROP TABLE start_pelt; PRAGMA user_version = 16"
"$SCHEDLAB" -q --db "$V16" replay --trace 1 --sched eevdf > /dev/null 2>&1 || fail "replay on a v16 database"
expect_eq "$(sq "$V16" "PRAGMA user_version")" 18 "user_version after the v16 upgrade"
expect_eq "$(sq "$V16" "SELECT count(*) FROM start_pelt")" 0 "start_pelt after the v16 upgrade"
# v17 -> v18: task_model.start_cpu (the CPU the trace first shows a task
# on, docs/replay.md "The trace's start"); a database without it gains the
# column, NULL for the tasks imported before (placed as any new task)
V17="$T/v17.db"
"$SCHEDLAB" -q --db "$V17" import "$TOP/traces/corpus-quiet/two-sessions.dat" > /dev/null 2>&1 || fail "v17 import"
# schedlab record's own thread runs on CPU 0 when the trace begins (CPU 0's
# first event, a sched_stat_runtime of it: trace-cmd report)
expect_eq "$(sq "$V17" "SELECT m.start_cpu FROM task_model m JOIN thread t USING (utid) WHERE t.tid = 18433")" 0 \
	"start_cpu of the recorder"
sq "$V17" "ALTER TABLE task_model DROP COLUMN start_cpu; PRAGMA user_version = 17"
"$SCHEDLAB" -q --db "$V17" replay --trace 1 --sched eevdf > /dev/null 2>&1 || fail "replay on a v17 database"
expect_eq "$(sq "$V17" "PRAGMA user_version")" 18 "user_version after the v17 upgrade"
expect_eq "$(sq "$V17" "SELECT count(*) FROM task_model WHERE start_cpu IS NOT NULL")" 0 "start_cpu after the v17 upgrade"
echo "schema 18: ranges, burst view, malformed phases, task_stat, v1 to v17 upgrades: ok"
