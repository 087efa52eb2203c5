#!/bin/sh
# schedlab replay --workload into a database, checked with sqlite3.
# Expected values by hand (RSDL rules, RR 6 ms, HZ 1000, 1 CPU):
#   nice 0 vs nice 10 hogs: per epoch 20*6 = 120 ms vs 10*6 = 60 ms; 9 s =
#   50 epochs of 180 ms -> 6000 ms and 3000 ms; longest waits <= 60 / 180 ms.
. "$TOP/tests/e2e/lib.sh"

cat > "$T/w.txt" <<'W'
# name  nice  behaviour
a       0     run=inf
c       10    run=inf    # the nice-10 hog
W
"$SCHEDLAB" --db "$T/db" replay --workload "$T/w.txt" --sched rsdl --duration 9s > "$T/out" || fail "replay"
grep -q '^run 1 rsdl: 2 tasks on 1 CPU, 9.000 s simulated' "$T/out" || fail "summary: $(cat "$T/out")"
expect_eq "$(sq "$T/db" "SELECT format || ' ' || cpus FROM trace")" "workload 1" "trace row"
expect_eq "$(sq "$T/db" "SELECT group_concat(comm || ':' || nice, ' ') FROM (SELECT comm, nice FROM thread ORDER BY utid)")" "a:0 c:10" "threads"
expect_eq "$(sq "$T/db" "SELECT th.comm || '=' || (SUM(s.dur) / 1000000) FROM sched_slice s JOIN thread th ON th.utid = s.utid WHERE s.run_id = 1 GROUP BY th.comm ORDER BY th.comm" | tr '\n' ' ')" "a=6000 c=3000 " "runtimes"
# longest gap between consecutive slices of each task (its wait while CPU-bound)
gaps=$(sq "$T/db" "SELECT th.comm || '=' || (MAX(s.ts - p.e) <= CASE th.nice WHEN 0 THEN 60000000 ELSE 180000000 END)
	FROM sched_slice s JOIN thread th ON th.utid = s.utid
	JOIN (SELECT utid, ts + dur AS e, LEAD(ts) OVER (PARTITION BY utid ORDER BY ts) AS nts FROM sched_slice WHERE run_id = 1) p
	  ON p.utid = s.utid AND p.nts = s.ts
	WHERE s.run_id = 1 GROUP BY th.comm ORDER BY th.comm" | tr '\n' ' ')
expect_eq "$gaps" "a=1 c=1 " "longest waits within 60/180 ms"
# priorities are 100 + level: nice 0 uses levels 20..39, nice 10 30..39
expect_eq "$(sq "$T/db" "SELECT MIN(priority) || '-' || MAX(priority) FROM sched_slice s JOIN thread th USING (utid) WHERE th.comm = 'c'")" "130-139" "priority range of c"
expect_eq "$(sq "$T/db" "SELECT MIN(level) || '-' || MAX(level) FROM staircase WHERE run_id = 1 AND utid = (SELECT utid FROM thread WHERE comm = 'a')")" "20-39" "staircase levels of a"
[ "$(sq "$T/db" "SELECT COUNT(*) FROM rotation WHERE run_id = 1 AND kind = 'major'")" -ge 49 ] || fail "major rotations"
sq "$T/db" "SELECT params FROM run WHERE id = 1" | grep -q '"rr_interval_ns":6000000' || fail "params JSON"
sq "$T/db" "SELECT params FROM run WHERE id = 1" | grep -q '"idle_rotates":1' || fail "gap-fillers in params"

# the same file again: same trace, identical rows (determinism)
"$SCHEDLAB" --db "$T/db" replay --workload "$T/w.txt" --sched rsdl --duration 9s > /dev/null || fail "replay 2"
expect_eq "$(sq "$T/db" "SELECT COUNT(*) FROM trace")" 1 "trace reused"
expect_eq "$(sq "$T/db" "SELECT COUNT(*) FROM (SELECT ts, dur, cpu, utid, end_state, priority FROM sched_slice WHERE run_id = 1 EXCEPT SELECT ts, dur, cpu, utid, end_state, priority FROM sched_slice WHERE run_id = 2)")" 0 "identical rows"
expect_eq "$(sq "$T/db" "SELECT (SELECT COUNT(*) FROM sched_slice WHERE run_id = 1) = (SELECT COUNT(*) FROM sched_slice WHERE run_id = 2)")" 1 "same row count"

# options: --rr-interval and --opt land in params; unknown ones are refused
"$SCHEDLAB" --db "$T/db" replay --workload "$T/w.txt" --sched rsdl --duration 1s --rr-interval 8ms --opt a5=0 > /dev/null || fail "replay 3"
sq "$T/db" "SELECT params FROM run WHERE id = 3" | grep -q '"rr_interval_ns":8000000.*"idle_rotates":0' || fail "params of run 3 (--opt a5=0, the alias)"
"$SCHEDLAB" --db "$T/db" replay --workload "$T/w.txt" --sched rsdl --duration 1s --opt zz=1 2> "$T/err" && fail "--opt zz accepted"
grep -q "schedlab: error: replay: --opt 'zz=1'" "$T/err" || fail "opt message: $(cat "$T/err")"
"$SCHEDLAB" --db "$T/db" replay --workload "$T/w.txt" --sched nosuch --duration 1s 2> "$T/err" && fail "bad scheduler accepted"

# --dry-run: a speed line, nothing stored
"$SCHEDLAB" --db "$T/db3" replay --workload "$T/w.txt" --sched rsdl --duration 1s --dry-run > "$T/out" || fail "dry run"
grep -q '^dry run rsdl: 2 tasks on 1 CPU, 1.000 s simulated, .* decisions/s$' "$T/out" || fail "dry run line: $(cat "$T/out")"
[ ! -e "$T/db3" ] || fail "dry run created a database"

# a bad workload: one error line naming FILE:LINE, nothing written
printf 'a 0 run=inf\nb 0 run=2ms\nc 0 run=fast\n' > "$T/bad.txt"
"$SCHEDLAB" --db "$T/db2" replay --workload "$T/bad.txt" --sched rsdl --duration 1s 2> "$T/err" && fail "bad workload accepted"
expect_eq "$(cat "$T/err")" "schedlab: error: $T/bad.txt:3: run=fast: expected a positive duration or inf" "error message"
[ ! -s "$T/db2" ] || expect_eq "$(sq "$T/db2" "SELECT COUNT(*) FROM trace")" 0 "nothing written"
"$SCHEDLAB" --db "$T/db" replay --workload "$T/w.txt" --sched rsdl 2> "$T/err" && fail "no duration accepted"
exit 0
