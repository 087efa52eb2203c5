#!/bin/sh
# run_pack (schema 7): each run's rows are also written packed, and
# schedlab reads runs back from the packs. The reference is the row tables
# themselves: the same database with run_pack emptied is read from its rows
# (the path of a run written before version 7), and analyze, compare, the
# report (its PNGs and page) and every chart must come out byte for byte the
# same from both. Then: the packs hold exactly the runs' rows (counts, chunk
# numbering), a run big enough for several chunks, a damaged chunk is a
# one-line error, and a version 6 database is upgraded and read from rows.
. "$(dirname "$0")/lib.sh"
DB=$T/a.db

# traces of 2 CPUs with lost events and NULL wakers (rec-pipes-lost.dat)
# and 1 CPU; every model; and a workload long enough for chunks of 65536
# rows (150 s of examples/desktop.txt: 84 000 slices per run, see below)
"$SCHEDLAB" -q --db "$DB" import "$TOP/traces/rec-pipes-lost.dat" \
	"$TOP/traces/massive-intr-10x-1cpu.ftrace.txt" > /dev/null 2>&1 || fail "import"
"$SCHEDLAB" -q --db "$DB" replay --trace 1 --sched all > /dev/null || fail "replay trace 1"
"$SCHEDLAB" -q --db "$DB" replay --trace 2 --sched rsdl,cfs --mode causal > /dev/null || fail "replay trace 2"
"$SCHEDLAB" -q --db "$DB" replay --workload "$TOP/examples/desktop.txt" --sched rsdl,cfs --cpus 2 \
	--duration 150s > /dev/null || fail "replay workload"

# 1. every run and table: the chunks' rows add up to run_rows.rows, and the
# chunks are numbered 0, 1, ... with at most 65536 rows each
bad=$(sq "$DB" "SELECT r.run_id || ':' || r.tbl FROM run_rows r WHERE r.rows !=
	(SELECT COALESCE(SUM(p.rows), 0) FROM run_pack p WHERE p.run_id = r.run_id AND p.tbl = r.tbl)
	OR (SELECT COUNT(*) FROM run_pack p WHERE p.run_id = r.run_id AND p.tbl = r.tbl) !=
	   (SELECT COALESCE(MAX(seq) + 1, 0) FROM run_pack p WHERE p.run_id = r.run_id AND p.tbl = r.tbl)")
expect_eq "$bad" "" "runs whose packs do not hold their rows"
expect_eq "$(sq "$DB" "SELECT MAX(rows) <= 65536 FROM run_pack")" 1 "rows of the largest chunk"
# the workload's runs have more than 65536 slices: two chunks or more
W=$(sq "$DB" "SELECT MIN(id) FROM run WHERE trace_id = 3")
expect_eq "$(sq "$DB" "SELECT rows > 65536 AND (SELECT COUNT(*) FROM run_pack WHERE run_id = $W AND
	tbl = 'sched_slice') >= 2 FROM run_rows WHERE run_id = $W AND tbl = 'sched_slice'")" 1 \
	"a run of more than 65536 slices in several chunks"

# 2. read back: packs against rows, on everything that reads runs
cp "$DB" "$T/rows.db"
sq "$T/rows.db" "DELETE FROM run_pack"
for v in a rows; do
	"$SCHEDLAB" --db "$T/$v.db" analyze --format json > "$T/$v.analyze" || fail "analyze $v"
	for tr in 1 2 3; do
		"$SCHEDLAB" --db "$T/$v.db" compare --trace $tr --top 0 >> "$T/$v.compare" || fail "compare $v $tr"
		"$SCHEDLAB" --db "$T/$v.db" report --trace $tr -o "$T/$v.report$tr" > /dev/null || fail "report $v $tr"
		for k in staircase latency histogram timeline share compare; do
			"$SCHEDLAB" --db "$T/$v.db" plot $k --trace $tr -o "$T/$v.$k$tr.png" > /dev/null ||
				fail "plot $k $v $tr"
		done
	done
	"$SCHEDLAB" --db "$T/$v.db" export --run 2 -o "$T/$v.export.json" > /dev/null || fail "export $v"
done
# 1 + 5 + 1 + 2 + 2 runs
expect_eq "$(grep -o '"scheduler"' "$T/a.analyze" | wc -l)" 11 "runs analyzed"
cmp -s "$T/a.analyze" "$T/rows.analyze" || fail "analyze differs between packs and rows"
cmp -s "$T/a.compare" "$T/rows.compare" || fail "compare differs between packs and rows"
cmp -s "$T/a.export.json" "$T/rows.export.json" || fail "export differs between packs and rows"
for tr in 1 2 3; do
	diff -r "$T/a.report$tr" "$T/rows.report$tr" > /dev/null || fail "report of trace $tr differs"
	for k in staircase latency histogram timeline share compare; do
		cmp -s "$T/a.$k$tr.png" "$T/rows.$k$tr.png" || fail "$k chart of trace $tr differs"
	done
done

# 3. a damaged chunk (its blob cut short) is one line naming the run, exit 1
cp "$DB" "$T/bad.db"
sq "$T/bad.db" "UPDATE run_pack SET data = substr(data, 1, length(data) / 2)
	WHERE run_id = 2 AND tbl = 'sched_slice' AND seq = 0"
"$SCHEDLAB" --db "$T/bad.db" analyze --run 2 > /dev/null 2> "$T/err"; rc=$?
expect_eq "$rc" 1 "exit status on a damaged pack"
expect_eq "$(wc -l < "$T/err")" 1 "error lines on a damaged pack"
grep -q "^schedlab: error: .*bad.db: run 2: its packed sched_slice rows do not decode" "$T/err" ||
	fail "error: $(cat "$T/err")"

# 3b. row counts that the blobs cannot hold (every packed row takes at least
# one byte, its null mask) are refused before anything is allocated for
# them: before, run_rows and run_pack saying 2 000 000 000 rows made analyze
# ask for 48 GB and abort (exit 134)
cp "$DB" "$T/huge.db"
sq "$T/huge.db" "UPDATE run_rows SET rows = rows - (SELECT rows FROM run_pack WHERE run_id = 2
		 AND tbl = 'sched_slice' AND seq = 0) + 2000000000 WHERE run_id = 2 AND tbl = 'sched_slice';
	UPDATE run_pack SET rows = 2000000000 WHERE run_id = 2 AND tbl = 'sched_slice' AND seq = 0"
"$SCHEDLAB" --db "$T/huge.db" analyze --run 2 > /dev/null 2> "$T/err"; rc=$?
expect_eq "$rc" 1 "exit status on an absurd row count"
expect_eq "$(wc -l < "$T/err")" 1 "error lines on an absurd row count"
grep -q "^schedlab: error: .*huge.db: run 2: its packed sched_slice rows claim more rows than" "$T/err" ||
	fail "absurd row count: $(cat "$T/err")"
# a negative count in one chunk, the total unchanged elsewhere: refused too
cp "$DB" "$T/neg.db"
sq "$T/neg.db" "UPDATE run_pack SET rows = -5 WHERE run_id = 2 AND tbl = 'wakeup' AND seq = 0"
"$SCHEDLAB" --db "$T/neg.db" analyze --run 2 > /dev/null 2> "$T/err"; rc=$?
expect_eq "$rc" 1 "exit status on a negative row count"
# a user_version that no schedlab writes is refused, not taken as current
cp "$DB" "$T/uv.db"
sq "$T/uv.db" "PRAGMA user_version = -1"
"$SCHEDLAB" --db "$T/uv.db" analyze --run 2 > /dev/null 2> "$T/err"; rc=$?
expect_eq "$rc" 1 "exit status on user_version -1"
grep -q "uv.db: database schema version -1 is not one schedlab writes" "$T/err" || fail "user_version -1: $(cat "$T/err")"

# 4. a version 6 database (no run_pack) is upgraded on open: the table
# appears empty, the old runs are read from their rows (same analysis), a
# new run is packed
cp "$DB" "$T/v6.db"
sq "$T/v6.db" "DROP TABLE run_pack; PRAGMA user_version = 6"
"$SCHEDLAB" --db "$T/v6.db" analyze --format json > "$T/v6.analyze" || fail "analyze v6"
expect_eq "$(sq "$T/v6.db" "PRAGMA user_version")" 18 "user_version after the v6 upgrade"
cmp -s "$T/v6.analyze" "$T/rows.analyze" || fail "analysis of an upgraded v6 database"
"$SCHEDLAB" -q --db "$T/v6.db" replay --trace 2 --sched sd > /dev/null || fail "replay on an upgraded v6 database"
N=$(sq "$T/v6.db" "SELECT MAX(id) FROM run")
expect_eq "$(sq "$T/v6.db" "SELECT COUNT(DISTINCT run_id) || ' ' || MIN(run_id) FROM run_pack")" "1 $N" \
	"runs packed after the v6 upgrade"
echo "run_pack: packs hold the rows, read back identical to the rows, damaged chunk, v6 upgrade: ok"
