#!/bin/sh
# validate --opt NAME=VALUE: a model option for the replays, after the
# release's and the ledger's (docs/validate.md, "Group buddies and stale
# requeues"). On a bundled recording (corpus-quiet/frame60-hogs, with its
# ledger):
# - --opt requeue_stale=0, the option's default, prints the same table as
#   no option;
# - --opt requeue_stale=1 says so on the "model options" line and in the
#   stored run's params ("requeue_stale":1);
# - a name the model does not have, or no "=VALUE", is a one-line usage
#   error, exit 2, and no run is stored.
. "$TOP/tests/e2e/lib.sh"
"$SCHEDLAB" replay -h | grep -q requeue_stale || skip "no eevdf model"
cp "$TOP/traces/corpus-quiet/frame60-hogs.dat" "$TOP/traces/corpus-quiet/frame60-hogs.dat.ledger" "$T/" || fail copy
"$SCHEDLAB" -q --db "$T/db" import "$T/frame60-hogs.dat" > /dev/null 2>&1 || fail import
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 2 > "$T/a" 2>&1
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 2 --opt requeue_stale=0 > "$T/b" 2>&1
sed 's/run [0-9]* is seed/run N is seed/; s/replay run [0-9]*/replay run N/; /^model options/d' "$T/a" > "$T/a2"
sed 's/run [0-9]* is seed/run N is seed/; s/replay run [0-9]*/replay run N/; /^model options/d' "$T/b" > "$T/b2"
cmp -s "$T/a2" "$T/b2" || fail "--opt requeue_stale=0 differs from the default: $(diff "$T/a2" "$T/b2" | head -5)"
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 2 --opt requeue_stale=1 > "$T/c" 2>&1
grep -q '^model options: .*requeue_stale=1' "$T/c" || fail "the model options line: $(grep '^model options' "$T/c")"
expect_eq "$(sq "$T/db" "SELECT json_extract(params, '\$.requeue_stale') FROM run ORDER BY id DESC LIMIT 1")" 1 "the stored run's requeue_stale"
runs=$(sq "$T/db" "SELECT count(*) FROM run")
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --opt nosuch=1 > /dev/null 2> "$T/err"
expect_eq "$?" 2 "an unknown option is a usage error"
expect_eq "$(wc -l < "$T/err")" 1 "one line"
grep -q "validate: --opt 'nosuch=1': the eevdf model has no option 'nosuch'" "$T/err" || fail "the error: $(cat "$T/err")"
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --opt requeue_stale > /dev/null 2> "$T/err"
expect_eq "$?" 2 "an option without a value is a usage error"
grep -q "expected NAME=VALUE" "$T/err" || fail "the error: $(cat "$T/err")"
expect_eq "$(sq "$T/db" "SELECT count(*) FROM run")" "$runs" "no run stored by a refused validate"
# --sync group (docs/replay.md "Sync wakeups"): validate stores it in the
# run's params; replay's summary counts the wakeups the rule infers, worked
# out again here in SQL from the burst view: a task waking a task, neither a
# kernel thread (task_model.flags 16), of two thread groups, less those the
# waker made on its exit path (its burst holding the wakeup, past yields,
# ends in X within 50 us). When written: 13 such wakeups, 9 on an exit path, 4.
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 1 --sync group > /dev/null 2>&1
expect_eq "$(sq "$T/db" "SELECT json_extract(params, '\$.sync') FROM run ORDER BY id DESC LIMIT 1")" group "validate --sync group in the params"
want=$(sq "$T/db" "WITH c AS (SELECT utid, seq, end_state, SUM(run_ns) OVER (PARTITION BY utid ORDER BY seq) AS cum FROM burst),
	w AS (SELECT b.waker_utid, b.waker_progress_ns AS p FROM burst b JOIN task_model m ON m.utid = b.utid
		JOIN task_model mw ON mw.utid = b.waker_utid JOIN thread t ON t.utid = b.utid JOIN thread tw ON tw.utid = b.waker_utid
		WHERE b.waker_kind = 'task' AND b.waker_utid <> b.utid AND (m.flags & 16) = 0 AND (mw.flags & 16) = 0 AND t.tgid <> tw.tgid),
	h AS (SELECT (SELECT c.end_state = 'X' AND c.cum - w.p <= 50000 FROM c WHERE c.utid = w.waker_utid AND c.cum >= w.p
		AND c.end_state <> 'Y' ORDER BY c.seq LIMIT 1) AS ex FROM w)
	SELECT COUNT(*) - IFNULL(SUM(ex), 0) FROM h")
"$SCHEDLAB" --db "$T/db" replay --trace 1 --sched eevdf --mode causal --sync group > "$T/r" 2>&1 || fail "replay --sync group: $(tail -1 "$T/r")"
got=$(sed -n 's/.* sync of \([0-9]*\) inferred.*/\1/p' "$T/r")
expect_eq "$got" "$want" "wakeups the group rule takes for sync"
echo "ok validate --opt: $(grep '^model options' "$T/c"); --sync group: $got sync wakeups inferred"
