#!/bin/sh
# make demo: import a bundled real trace, replay it through the models, and
# print the per-task tables and where the outputs are.
set -e
OUT=out
DB=$OUT/schedlab.db
TRACE=traces/local-2cpu-hogs.ftrace.txt
mkdir -p $OUT
rm -f $DB $DB-wal $DB-shm
echo "== schedlab import $TRACE"
./schedlab --db $DB import $TRACE
if ./schedlab -h | grep -q '^  replay '; then
	echo "== schedlab replay --trace 1 --sched all"
	./schedlab --db $DB replay --trace 1 --sched all
fi
echo "== schedlab analyze --top 10"
./schedlab --db $DB analyze --top 10
if ./schedlab -h | grep -q '^  report '; then
	./schedlab -q --db $DB report -o $OUT/report && echo "report: $OUT/report/index.html (charts beside it)"
fi
if ./schedlab -h | grep -q '^  plot '; then
	./schedlab --db $DB plot latency --trace 1 -o $OUT/latency.svg
	./schedlab --db $DB plot staircase --trace 1 -o $OUT/staircase.pdf
	./schedlab --db $DB plot timeline --trace 1 --to 60ms -o $OUT/timeline.png
fi
echo
echo "database: $DB. Next, from this folder (README, 'A short tour'):"
echo "  ./schedlab --db $DB compare --trace 1"
echo "  ./schedlab --db $DB analyze --run 2 --format json"
echo "  sqlite3 $DB 'SELECT * FROM task_summary LIMIT 10'"
echo "  ./schedlab -h    (every command has -h; make install puts schedlab on the PATH)"
