#!/bin/sh
# The ledger's features line (version 4, docs/ledger.md): the kernel's
# sched_feat() bits as debugfs prints them, kept by the import in the
# recorded run's params ("sched_features") and given by validate to the
# eevdf model as the options named for them (--sched-features ledger, the
# default). On a bundled recording (corpus-quiet/frame60-hogs) whose ledger
# gets the line "features PLACE_LAG NO_RUN_TO_PARITY DELAY_DEQUEUE
# NO_NEXT_BUDDY NI_RANDOM" after its clock line (this machine's kernel
# refuses the debugfs read, so its own ledgers have none):
# - the params hold "PLACE_LAG=1,RUN_TO_PARITY=0,DELAY_DEQUEUE=1,
#   NEXT_BUDDY=0,NI_RANDOM=1" (NO_X is X=0; the kernel's order);
# - validate's model options are place_lag=1,run_to_parity=0,
#   delay_dequeue=1,ni_random=1 (NEXT_BUDDY has no option), then the
#   ledger's vcpu_pack=15; with --sched-features off only vcpu_pack=15;
#   --opt run_to_parity=1 comes last and wins;
# - a features field that is not NAME or NO_NAME ([A-Z0-9_]) is refused as
#   FILE:LINE, exit 1 (import's error status), nothing imported.
. "$TOP/tests/e2e/lib.sh"
"$SCHEDLAB" replay -h | grep -q run_to_parity || skip "no eevdf model"
cp "$TOP/traces/corpus-quiet/frame60-hogs.dat" "$T/" || fail copy
awk -v OFS='\t' '{ print } /^clock\t/ { print "features", "PLACE_LAG", "NO_RUN_TO_PARITY", "DELAY_DEQUEUE", "NO_NEXT_BUDDY", "NI_RANDOM" }' \
	"$TOP/traces/corpus-quiet/frame60-hogs.dat.ledger" > "$T/frame60-hogs.dat.ledger"
"$SCHEDLAB" -q --db "$T/db" import "$T/frame60-hogs.dat" > /dev/null 2> "$T/err" || fail "import: $(cat "$T/err")"
expect_eq "$(sq "$T/db" "SELECT json_extract(params, '\$.sched_features') FROM run WHERE id = 1")" \
	"PLACE_LAG=1,RUN_TO_PARITY=0,DELAY_DEQUEUE=1,NEXT_BUDDY=0,NI_RANDOM=1" "the recorded run's sched_features"
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 1 > "$T/a" 2> /dev/null
expect_eq "$(grep '^model options' "$T/a")" "model options: place_lag=1,run_to_parity=0,delay_dequeue=1,ni_random=1,vcpu_pack=15" "from the features"
expect_eq "$(sq "$T/db" "SELECT json_extract(params, '\$.run_to_parity') FROM run ORDER BY id DESC LIMIT 1")" 0 "the replay's run_to_parity"
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 1 --sched-features off > "$T/b" 2> /dev/null
expect_eq "$(grep '^model options' "$T/b")" "model options: vcpu_pack=15" "--sched-features off"
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 1 --opt run_to_parity=1 > "$T/c" 2> /dev/null
expect_eq "$(grep '^model options' "$T/c")" "model options: place_lag=1,run_to_parity=0,delay_dequeue=1,ni_random=1,vcpu_pack=15,run_to_parity=1" "--opt after"
expect_eq "$(sq "$T/db" "SELECT json_extract(params, '\$.run_to_parity') FROM run ORDER BY id DESC LIMIT 1")" 1 "--opt wins"
# a hostile field: refused with the file and line
mkdir "$T/bad"
cp "$T/frame60-hogs.dat" "$T/bad/" || fail copy
awk -v OFS='\t' '{ print } /^clock\t/ { print "features", "PLACE_LAG", "NO_rm -rf" }' \
	"$TOP/traces/corpus-quiet/frame60-hogs.dat.ledger" > "$T/bad/frame60-hogs.dat.ledger"
"$SCHEDLAB" -q --db "$T/bad.db" import "$T/bad/frame60-hogs.dat" > /dev/null 2> "$T/err"
expect_eq "$?" 1 "a bad features field (import's error status)"
expect_eq "$(wc -l < "$T/err")" 1 "one line"
grep -q "$T/bad/frame60-hogs.dat.ledger:6:" "$T/err" || fail "the error: $(cat "$T/err")"
expect_eq "$(sq "$T/bad.db" "SELECT count(*) FROM trace" 2>/dev/null || echo 0)" 0 "nothing imported"
echo "ok ledger features: $(grep '^model options' "$T/a")"
