#!/bin/sh
# The sd model through the command line (docs/sd.md), 1 CPU, rr 6 ms:
# - nice 0 vs nice 10 hogs for 9.54 s: per rotation the nice-0 task runs 21
#   quotas of 6 ms (20 matrix slots + the first-slot reuse) = 126 ms and the
#   nice-10 task 11 of 3 ms = 33 ms: 126/159 = 79.25 % (within 0.5 %);
# - the nice-0 task only ever runs at odd levels (its matrix slots 1..39),
#   the nice-10 one at levels 3, 7, ..., 39 (level = 4k + 3);
# - every array swap is a 'major' rotation row: 30 rotations of 318 ms at rr 12 ms;
# - with --rr-interval 12ms the quotas double and the shares stay the same;
# - --opt first_slot_reuse=0 (the quirk off): 20 quotas of 6 ms = 120 ms
#   against 10 of 3 ms = 30 ms per rotation: 120/150 = 80.00 % (within 0.5 %);
# - the params record the sd options.
. "$TOP/tests/e2e/lib.sh"

cat > "$T/w" <<'W'
n0 0 run=inf
n10 10 run=inf
W
for rr in 6ms 12ms; do
	"$SCHEDLAB" --db "$T/db" replay --workload "$T/w" --sched sd --duration 9.54s --rr-interval $rr \
		> "$T/out" || fail "replay sd rr $rr"
	run=$(sed -n 's/^run \([0-9]*\) sd:.*/\1/p' "$T/out")
	[ -n "$run" ] || fail "no run id: $(cat "$T/out")"
	share=$(sq "$T/db" "SELECT SUM(CASE WHEN th.comm = 'n0' THEN s.dur ELSE 0 END) * 10000 / SUM(s.dur)
		FROM sched_slice s JOIN thread th ON th.utid = s.utid WHERE s.run_id = $run")
	[ "$share" -ge 7875 ] && [ "$share" -le 7975 ] || fail "rr $rr: nice 0 share $share / 10000, expected 7925 +- 50"
	echo "rr $rr: nice 0 share $share / 10000"
done
bad=$(sq "$T/db" "SELECT COUNT(*) FROM staircase sc JOIN thread th ON th.utid = sc.utid WHERE sc.run_id = $run
	AND ((th.comm = 'n0' AND sc.level % 2 = 0) OR (th.comm = 'n10' AND sc.level % 4 <> 3))")
expect_eq "$bad" "0" "levels outside the matrix rows"
majors=$(sq "$T/db" "SELECT COUNT(*) FROM rotation WHERE run_id = $run AND kind = 'major'")
[ "$majors" -ge 29 ] || fail "only $majors major rotations (rr 12 ms: a rotation is 318 ms, 30 in 9.54 s)"
got=$(sq "$T/db" "SELECT params FROM run WHERE id = $run")
case $got in
*'"scheduler":"sd"'*'"interactive":1'*'"accounting":0'*'"smp_scale":1'*'"first_slot_reuse":1'*) ;;
*) fail "params: $got" ;;
esac
"$SCHEDLAB" --db "$T/db" replay --workload "$T/w" --sched sd --duration 1s --opt accounting=1 \
	--opt interactive=0 > "$T/out" || fail "sd with options"
"$SCHEDLAB" --db "$T/db" replay --workload "$T/w" --sched sd --duration 9.54s --opt first_slot_reuse=0 \
	> "$T/out" || fail "sd without the first-slot reuse"
run=$(sed -n 's/^run \([0-9]*\) sd:.*/\1/p' "$T/out")
share=$(sq "$T/db" "SELECT SUM(CASE WHEN th.comm = 'n0' THEN s.dur ELSE 0 END) * 10000 / SUM(s.dur)
	FROM sched_slice s JOIN thread th ON th.utid = s.utid WHERE s.run_id = $run")
[ "$share" -ge 7950 ] && [ "$share" -le 8050 ] || fail "first_slot_reuse=0: nice 0 share $share / 10000, expected 8000 +- 50"
echo "first_slot_reuse=0: nice 0 share $share / 10000"
exit 0
