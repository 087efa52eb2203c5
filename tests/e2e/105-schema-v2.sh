#!/bin/sh
# Schema version 2: run_rows ranges, the burst view over task_model.phases,
# a malformed phases document, and the upgrade of a version 1 database.
#
# tests/fixtures/schema-v1.db was written by schedlab at commit ad4c20a
# (schema 1: burst a real table, run_id indexes): import of
# traces/panopticon-desktop.ftrace.txt, then `replay --trace 1 --sched rsdl`.
# tests/golden/schema-v1-burst.txt is `SELECT * FROM burst ORDER BY utid, seq`
# on that file, and tests/golden/schema-v1-analyze.csv is what that older
# schedlab printed for `analyze --format csv` on it: both come from the old
# program, not from the code under test.
. "$(dirname "$0")/lib.sh"
DB=$T/a.db

# 1. run_rows: for every run and table, the range holds exactly the run's rows
# (one transaction per run: contiguous rowids), and rows = count.
"$SCHEDLAB" -q --db "$DB" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null || fail "import"
"$SCHEDLAB" -q --db "$DB" replay --trace 1 --sched rsdl,o1 > /dev/null || fail "replay"
for tbl in sched_slice wakeup staircase rotation; do
	bad=$(sq "$DB" "SELECT r.run_id FROM run_rows r WHERE r.tbl = '$tbl' AND (
		r.rows != (SELECT count(*) FROM $tbl t WHERE t.run_id = r.run_id)
		OR r.rows != (SELECT count(*) FROM $tbl t WHERE t.rowid BETWEEN r.first_rowid AND r.last_rowid)
		OR EXISTS (SELECT 1 FROM $tbl t WHERE t.rowid BETWEEN r.first_rowid AND r.last_rowid
			   AND t.run_id != r.run_id))")
	expect_eq "$bad" "" "run_rows of $tbl wrong for runs"
done
expect_eq "$(sq "$DB" "SELECT count(*) FROM run_rows")" 12 "run_rows rows (3 runs x 4 tables)"
expect_eq "$(sq "$DB" "SELECT rows > 0 FROM run_rows WHERE run_id = 2 AND tbl = 'rotation'")" 1 "rsdl rotations"
# no run_id index on the big tables (the point of schema 2)
expect_eq "$(sq "$DB" "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name IN
	('sched_slice', 'wakeup', 'staircase', 'rotation')")" 0 "indexes on run tables"

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

# 4. a version 1 database is upgraded on open: the bursts move into
# task_model.phases without a change, the analysis is the old program's,
# and it takes new runs
cp "$TOP/tests/fixtures/schema-v1.db" "$T/v1.db"
"$SCHEDLAB" --db "$T/v1.db" analyze --format csv > "$T/v1.csv" 2> "$T/err" || fail "analyze v1: $(cat "$T/err")"
diff -u "$TOP/tests/golden/schema-v1-analyze.csv" "$T/v1.csv" || fail "analysis of an upgraded v1 database"
expect_eq "$(sq "$T/v1.db" "PRAGMA user_version")" 2 "user_version after the upgrade"
sq "$T/v1.db" "SELECT * FROM burst ORDER BY utid, seq" > "$T/burst.txt"
diff -u "$TOP/tests/golden/schema-v1-burst.txt" "$T/burst.txt" || fail "bursts after the upgrade"
"$SCHEDLAB" -q --db "$T/v1.db" replay --trace 1 --sched o1 > /dev/null || fail "replay on an upgraded database"
expect_eq "$(sq "$T/v1.db" "SELECT rows = (SELECT count(*) FROM sched_slice WHERE run_id = 3)
	FROM run_rows WHERE run_id = 3 AND tbl = 'sched_slice'")" 1 "run_rows of a new run in an upgraded db"
# the same trace imported fresh gives the same bursts (same utids: a fresh database)
"$SCHEDLAB" -q --db "$T/fresh.db" import "$TOP/traces/panopticon-desktop.ftrace.txt" > /dev/null || fail "fresh import"
sq "$T/fresh.db" "SELECT * FROM burst ORDER BY utid, seq" > "$T/burst2.txt"
diff -u "$TOP/tests/golden/schema-v1-burst.txt" "$T/burst2.txt" || fail "bursts of a fresh import"
echo "schema 2: ranges, burst view, malformed phases, v1 upgrade: ok"
