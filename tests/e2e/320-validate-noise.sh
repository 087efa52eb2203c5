#!/bin/sh
# validate's sampling noise (docs/validate.md "Sampling noise"): for each
# gating count, KS and percentile, the recorded figure's own 95 % interval
# and whether the replay's figure is inside it (not gating). Every interval
# is worked out again here from the recorded run's rows in SQL:
# - a count N (switches, migrations: a slice on another CPU than the task's
#   slice before it): N -+ 1.96 sqrt(N) (Poisson), the low end at least 0;
# - the p50 / p95 / p99 of the n delays (ts_run - ts of the wakeups that
#   ran): the order statistics of ranks floor(n q - 1.96 s) and
#   ceil(n q + 1.96 s), s = sqrt(n q (1 - q)), kept within 1..n
#   (distribution-free);
# - KS: 0 to 1.358 sqrt((n + m) / (n m)), m the replay's delays (one seed,
#   so that m is the stored run's);
# then the flag is the replay's figure inside the interval, the table's
# "sampling noise" line names each check past its threshold on the side
# the flag says, and the metric table keeps the flags (fidelity_*_noise).
. "$TOP/tests/e2e/lib.sh"
"$SCHEDLAB" -h 2>&1 | grep -q '^  validate' || skip "validate not linked"
f="$TOP/traces/corpus-quiet/idle-desktop.dat"
[ -f "$f" ] || skip "no $f"
"$SCHEDLAB" -q --db "$T/db" import "$f" > /dev/null 2>&1 || fail "import $f"
"$SCHEDLAB" --db "$T/db" validate --trace 1 --seeds 1 --format json > "$T/json" 2> /dev/null
[ $? -le 1 ] || fail "validate --format json"
"$SCHEDLAB" --db "$T/db" validate --trace 1 --seeds 1 > "$T/out" 2> /dev/null
[ $? -le 1 ] || fail "validate"
J="readfile('$T/json')"
jm() { # jm METRIC FIELD: the field of the metric's object in the json
	sq "$T/db" "SELECT json_extract(value, '\$.$2') FROM json_each(json_extract($J, '\$.metrics'))
		WHERE json_extract(value, '\$.metric') = '$1'"
}
rep=$(sq "$T/db" "SELECT MAX(id) FROM run")
# the counts, from the recorded run's slices
for m in switches migrations; do
	if [ $m = switches ]; then
		n=$(sq "$T/db" "SELECT COUNT(*) FROM sched_slice WHERE run_id = 1")
	else
		n=$(sq "$T/db" "SELECT COUNT(*) FROM (SELECT cpu, LAG(cpu) OVER (PARTITION BY utid ORDER BY ts) p
			FROM sched_slice WHERE run_id = 1) WHERE p IS NOT NULL AND p != cpu")
	fi
	expect_eq "$(jm $m recorded)" "$n" "recorded $m"
	want=$(awk -v n="$n" 'BEGIN { s = 1.96 * sqrt(n); l = n - s; if (l < 0) l = 0; printf "[%.0f,%.0f]", l, n + s }')
	expect_eq "$(jm $m noise_interval)" "$want" "$m interval"
	flag=$(awk -v n="$n" -v r="$(jm $m replay)" 'BEGIN { s = 1.96 * sqrt(n); print (r >= n - s && r <= n + s) ? 1 : 0 }')
	expect_eq "$(jm $m noise)" "$flag" "$m inside"
done
# the percentiles, from the recorded delays
D="SELECT ts_run - ts AS d FROM wakeup WHERE run_id = 1 AND ts_run IS NOT NULL AND ts_run >= ts"
n=$(sq "$T/db" "SELECT COUNT(*) FROM ($D)")
[ "$n" -ge 100 ] || fail "only $n recorded delays"
for q in 50 95 99; do
	ranks=$(awk -v n="$n" -v q="$q" 'BEGIN { q /= 100; s = 1.96 * sqrt(n * q * (1 - q))
		l = int(n * q - s); if (l > n * q - s) l--; h = int(n * q + s); if (h < n * q + s) h++
		if (l < 1) l = 1; if (l > n) l = n; if (h < 1) h = 1; if (h > n) h = n; print l, h }')
	set -- $ranks
	lo=$(sq "$T/db" "SELECT d FROM ($D) ORDER BY d LIMIT 1 OFFSET $(($1 - 1))")
	hi=$(sq "$T/db" "SELECT d FROM ($D) ORDER BY d LIMIT 1 OFFSET $(($2 - 1))")
	expect_eq "$(jm delay_p${q}_all noise_interval)" "[$lo,$hi]" "p$q interval (ranks $1 and $2 of $n)"
	r=$(jm delay_p${q}_all replay)
	expect_eq "$(jm delay_p${q}_all noise)" "$([ "$r" -ge "$lo" ] && [ "$r" -le "$hi" ] && echo 1 || echo 0)" "p$q inside"
done
# KS against the critical value of n and the stored replay's m delays
m=$(sq "$T/db" "SELECT COUNT(*) FROM wakeup WHERE run_id = $rep AND ts_run IS NOT NULL AND ts_run >= ts")
crit=$(awk -v n="$n" -v m="$m" 'BEGIN { printf "%.6f", 1.358 * sqrt((n + m) / (n * m)) }')
expect_eq "$(sq "$T/db" "SELECT printf('%.6f', json_extract($J, '\$.metrics[5].noise_interval[1]'))")" "$crit" "KS critical value (n $n, m $m)"
expect_eq "$(jm delay_ks_all metric)" delay_ks_all "KS row"
ks=$(jm delay_ks_all error)
expect_eq "$(jm delay_ks_all noise)" "$(awk -v k="$ks" -v c="$crit" 'BEGIN { print k <= c ? 1 : 0 }')" "KS inside"
# no interval for CPU time, span, utilisation and the rows without a threshold
for k in runtime_exact span utilisation delay_max_all migrations_wakeup; do
	expect_eq "$(jm $k noise)" "" "no interval for $k"
done
# the table's line: each check past its threshold on its side
line=$(grep '^sampling noise' "$T/out")
past=$(sq "$T/db" "SELECT COUNT(*) FROM json_each(json_extract($J, '\$.metrics'))
	WHERE json_extract(value, '\$.gating') AND NOT json_extract(value, '\$.pass')
	AND json_extract(value, '\$.noise') IS NOT NULL")
if [ "$past" -eq 0 ]; then
	expect_eq "$line" "" "no sampling noise line without a check past its threshold"
else
	inside=${line%%; outside it:*}
	outside=${line#*; outside it:}
	for k in switches migrations delay_ks_all delay_p50_all delay_p95_all delay_p99_all; do
		[ "$(jm $k pass)" = 0 ] || continue
		what=$(case $k in switches|migrations) echo "$k" ;; delay_ks_all) echo "delay KS, all wakeups" ;;
			*) echo "delay $(echo $k | cut -d_ -f2), all wakeups" ;; esac)
		if [ "$(jm $k noise)" = 1 ]; then
			case "$inside" in *" $what ["*) ;; *) fail "$k not on the inside: $line" ;; esac
		else
			case "$outside" in *" $what ["*) ;; *) fail "$k not on the outside: $line" ;; esac
		fi
	done
fi
# stored
for k in switches migrations delay_ks_all delay_p50_all delay_p95_all delay_p99_all; do
	expect_eq "$(sq "$T/db" "SELECT CAST(value AS INTEGER) FROM metric WHERE run_id = $rep AND name = 'fidelity_${k}_noise'")" \
		"$(jm $k noise)" "stored noise flag of $k"
done
echo "ok: intervals of $n recorded delays, flags and the table's line as worked out here"
