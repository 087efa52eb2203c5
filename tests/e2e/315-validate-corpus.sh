#!/bin/sh
# tests/tools/validate-corpus.sh (make validate, make bench): one line per
# trace with the gating checks' errors ('*' past the threshold) and the
# verdict, the pass rate, and the summary lines. Checked on two bundled
# recordings (corpus-quiet's audio-200hz and frame60-hogs, copied with their
# ledgers into a folder of their own), against what the table itself prints:
# - a line per trace, a verdict each, and "N of 2 traces pass" counting the
#   PASS lines;
# - "past the threshold": per check, the number of '*' in its column;
# - "mean |error| / threshold": per check, the mean over the traces of
#   |printed error| / threshold (25 % for switches, migrations, p50, p95 and
#   p99; 10 % for span; 0.15 for the KS distance: docs/validate.md), each
#   capped at 3, recomputed here from the printed table (rounded to a tenth
#   of a percent, so within 0.01), and their sum;
# - for each FAIL line a line of causes equal to the six rows of causes of
#   a validate of that trace run here on its own.
. "$TOP/tests/e2e/lib.sh"
"$SCHEDLAB" replay -h | grep -q eevdf || skip "no eevdf model"
mkdir -p "$T/c"
for w in audio-200hz frame60-hogs; do
	cp "$TOP/traces/corpus-quiet/$w.dat" "$TOP/traces/corpus-quiet/$w.dat.ledger" "$T/c/" || fail "copy $w"
done
SCHEDLAB="$SCHEDLAB" sh "$TOP/tests/tools/validate-corpus.sh" "$T/c" > "$T/out" 2> "$T/err" || fail "validate-corpus: $(tail -1 "$T/err")"
cat "$T/out"
expect_eq "$(grep -c '\.dat .*\(PASS\|FAIL\)$' "$T/out")" 2 "one line per trace"
npass=$(grep -c '\.dat .*PASS$' "$T/out")
expect_eq "$(sed -n 's/^validate: \([0-9]*\) of 2 traces pass$/\1/p' "$T/out")" "$npass" "the pass rate"
# the table's columns: trace cpu switches migrat. span KS p50 p95 p99 verdict
past=$(awk '/\.dat .*(PASS|FAIL)$/ { for (i = 3; i <= 9; i++) if ($i ~ /\*$/) n[i]++ }
	END { printf "switches %d migrations %d span %d KS %d p50 %d p95 %d p99 %d", n[3], n[4], n[5], n[6], n[7], n[8], n[9] }' "$T/out")
expect_eq "$(sed -n 's/^past the threshold: //p' "$T/out")" "$past" "past the threshold"
want=$(awk '/\.dat .*(PASS|FAIL)$/ {
		for (i = 3; i <= 9; i++) {
			v = $i; gsub(/[*%+]/, "", v); v = v < 0 ? -v : v
			r = (i == 6) ? v / 0.15 : (i == 5) ? v / 10 : v / 25
			s[i] += r > 3 ? 3 : r; n[i]++
		}
	}
	END { for (i = 3; i <= 9; i++) printf "%s%.4f", (i == 3 ? "" : " "), s[i] / n[i] }' "$T/out")
got=$(sed -n 's/^mean |error| \/ threshold: //p' "$T/out")
[ -n "$got" ] || fail "no mean errors line"
set -- $want
sum=0
for name in switches migrations span KS p50 p95 p99; do
	g=$(echo "$got" | sed -n "s/.*$name \([0-9.]*\).*/\1/p")
	awk -v g="$g" -v w="$1" 'BEGIN { exit !(g - w < 0.01 && w - g < 0.01) }' ||
		fail "mean error of $name: printed $g, the table gives $1"
	sum=$(awk -v a="$sum" -v b="$g" 'BEGIN { printf "%.2f", a + b }')
	shift
done
gsum=$(echo "$got" | sed -n 's/.*(sum \([0-9.]*\)).*/\1/p')
awk -v g="$gsum" -v w="$sum" 'BEGIN { exit !(g - w < 0.03 && w - g < 0.03) }' || fail "sum $gsum against $sum"
# the failures' rows of causes: one line per FAIL line, each with the six
# rows of a validate of that trace in a database of its own (the same
# defaults, deterministic: the same figures), recorded/replayed, delays in us
nfail=$(grep -c '\.dat .*FAIL$' "$T/out")
expect_eq "$(sed -n '/^where the failures come from/,$p' "$T/out" | grep -c '\.dat ')" "$nfail" "a line of causes per failing trace"
for f in $(grep '\.dat .*FAIL$' "$T/out" | awk '{ print $1 }'); do
	"$SCHEDLAB" -q --db "$T/$f.db" import "$T/c/$f" > /dev/null 2>&1 || fail "import $f"
	"$SCHEDLAB" -q --db "$T/$f.db" validate --trace 1 --format csv > "$T/$f.csv" 2> /dev/null
	want=$(awk -F, '{ r[$5] = $6 "/" $7; u[$5] = sprintf("%.1f/%.1f", $6 / 1000, $7 / 1000) }
		END { print r["migrations_wakeup"], r["migrations_runnable"], r["wakeups_busy"], u["delay_p50_busy"], r["wakeups_idle"], u["delay_p50_idle"] }' "$T/$f.csv")
	got=$(sed -n '/^where the failures come from/,$p' "$T/out" | awk -v f="$f" '$1 == f { print $2, $3, $4, $5, $6, $7 }')
	expect_eq "$got" "$want" "the causes of $f"
done
echo "validate-corpus: table, pass rate, summary and the failures' causes agree ($nfail failing)"
