#!/bin/sh
# e2e 313: wall-clock bursts (analyze/wall.c, replay/wall.c; docs/model.md
# "Wall-clock bursts"). massive_intr's workers spin until 8 ms of wall time
# have passed since they woke (tests/tools/massive_intr.c), so a worker
# that gets its CPU back after its deadline only leaves the loop and
# sleeps. The import finds the ten workers of the bundled quiet recording
# (and nothing else), and validate's replay with them reproduces the
# recorded switches and wakeup delays, where fixed CPU work per burst
# (--wall-clock off) has 17 % fewer switches and delays 45-51 % longer.
. "$(dirname "$0")/lib.sh"
F="$TOP/traces/corpus-quiet/massive-intr.dat"
"$SCHEDLAB" -q --db "$T/a.db" import "$F" > /dev/null 2>&1 || fail "import"
# the ten workers and no other task; their deadline is the program's 8 ms
# plus the time from the first run to the loop's first clock read, their
# tail the exit path into nanosleep (microseconds)
expect_eq "$(sq "$T/a.db" "SELECT COUNT(*), SUM(t.comm = 'massive_intr'), SUM(m.wall_ns BETWEEN 8000000 AND 8100000),
	SUM(m.wall_tail_ns BETWEEN 1000 AND 100000) FROM task_model m JOIN thread t USING (utid) WHERE m.flags & 512 != 0")" \
	"10|10|10|10" "wall-clock tasks"
expect_eq "$(sq "$T/a.db" "SELECT COUNT(*) FROM task_model WHERE flags & 512 = 0 AND (wall_ns != 0 OR wall_tail_ns != 0)")" 0 \
	"a deadline on an unmarked task"
# validate: CPU time exact both ways; with the deadlines switches within
# 10 % and p50/p95 within 10 %; without them, switches 10 % or more short
# and p50, p95 25 % or more long (the figures of docs/model.md)
val() { "$SCHEDLAB" -q --db "$T/a.db" validate --trace 1 --format csv "$@" 2> /dev/null; }
fig() { awk -F, -v m="$2" '$5 == m { print $8 }' "$1"; }
val > "$T/on.csv"
val --wall-clock off > "$T/off.csv"
for f in on off; do
	expect_eq "$(fig "$T/$f.csv" runtime_exact)" 0 "CPU time exact ($f)"
done
awk -v s="$(fig "$T/on.csv" switches)" -v p="$(fig "$T/on.csv" delay_p50_all)" -v q="$(fig "$T/on.csv" delay_p95_all)" \
	'BEGIN { exit !(s > -0.1 && s < 0.1 && p > -0.1 && p < 0.1 && q > -0.1 && q < 0.1) }' ||
	{ cat "$T/on.csv"; fail "with the deadlines"; }
awk -v s="$(fig "$T/off.csv" switches)" -v p="$(fig "$T/off.csv" delay_p50_all)" -v q="$(fig "$T/off.csv" delay_p95_all)" \
	'BEGIN { exit !(s <= -0.1 && p >= 0.25 && q >= 0.25) }' || { cat "$T/off.csv"; fail "without the deadlines"; }
# the run's params say which
expect_eq "$(sq "$T/a.db" "SELECT group_concat(json_extract(params, '\$.wall_clock'), ',') FROM run WHERE id IN (2, 3)")" \
	"on,off" "params wall_clock"
"$SCHEDLAB" -q --db "$T/a.db" replay --trace 1 --wall-clock maybe > /dev/null 2> "$T/err" && fail "a bad --wall-clock was taken"
grep -q "wall-clock" "$T/err" || fail "the error does not name the option: $(cat "$T/err")"
# the same options give the same replay
"$SCHEDLAB" -q --db "$T/a.db" replay --trace 1 --sched eevdf > /dev/null 2>&1 || fail "replay"
"$SCHEDLAB" -q --db "$T/a.db" replay --trace 1 --sched eevdf > /dev/null 2>&1 || fail "replay again"
n=$(sq "$T/a.db" "SELECT MAX(id) FROM run")
expect_eq "$(sq "$T/a.db" "SELECT COUNT(*) FROM (SELECT ts, dur, cpu, utid FROM sched_slice WHERE run_id = $n
	EXCEPT SELECT ts, dur, cpu, utid FROM sched_slice WHERE run_id = $((n - 1)))")" 0 "deterministic"
# a schema 13 database gains the columns, its tasks unmarked (0)
"$SCHEDLAB" -q --db "$T/b.db" import "$F" > /dev/null 2>&1 || fail "import b"
sq "$T/b.db" "ALTER TABLE task_model DROP COLUMN wall_ns; ALTER TABLE task_model DROP COLUMN wall_tail_ns;
	UPDATE task_model SET flags = flags & ~512; PRAGMA user_version = 13"
"$SCHEDLAB" -q --db "$T/b.db" replay --trace 1 --sched eevdf > /dev/null 2>&1 || fail "replay on a v13 database"
expect_eq "$(sq "$T/b.db" "PRAGMA user_version")" 18 "user_version after the v13 upgrade"
expect_eq "$(sq "$T/b.db" "SELECT COUNT(*), SUM(wall_ns) FROM task_model WHERE wall_ns != 0")" "0|" "v13 tasks unmarked"
echo "wall-clock bursts: ok"
