#!/bin/sh
# schedlab bound: the four examples of issue 4, worked by hand with
# bound(i) = sum over j != i of q_j * (L_j + max(0, n_i - n_j)), L = 20 - nice,
# q = RR (nice >= 0) or RR*(1 - nice):
#   0 0        -> 20 RR = 120 ms each
#   0 10       -> nice 0: 10 RR = 60 ms; nice 10: 20 + 10 = 30 RR = 180 ms
#   -20 0 10 19-> nice -20: 20+10+1 = 31 RR = 186; nice 0: 21*60+10+1 = 1271 RR
#                 = 7626; nice 10: 21*70+30+1 = 1501 RR = 9006; nice 19:
#                 21*79+39+19 = 1717 RR = 10302 ms
#   --rr-interval 8ms 0 0 -> 20 * 8 = 160 ms
. "$TOP/tests/e2e/lib.sh"

"$SCHEDLAB" bound 0 0 > "$T/a" || fail "bound 0 0"
printf 'nice=0 bound_ms=120.000\nnice=0 bound_ms=120.000\n' > "$T/e"
diff -u "$T/e" "$T/a" || fail "bound 0 0"

"$SCHEDLAB" bound 0 10 > "$T/a" || fail "bound 0 10"
printf 'nice=0 bound_ms=60.000\nnice=10 bound_ms=180.000\n' > "$T/e"
diff -u "$T/e" "$T/a" || fail "bound 0 10"

"$SCHEDLAB" bound -20 0 10 19 > "$T/a" || fail "bound -20 0 10 19"
printf 'nice=-20 bound_ms=186.000\nnice=0 bound_ms=7626.000\nnice=10 bound_ms=9006.000\nnice=19 bound_ms=10302.000\n' > "$T/e"
diff -u "$T/e" "$T/a" || fail "bound -20 0 10 19"

"$SCHEDLAB" bound --rr-interval 8ms 0 0 > "$T/a" || fail "bound --rr-interval 8ms"
printf 'nice=0 bound_ms=160.000\nnice=0 bound_ms=160.000\n' > "$T/e"
diff -u "$T/e" "$T/a" || fail "bound --rr-interval 8ms 0 0"

# negative values after --, and --rr-interval=T
"$SCHEDLAB" bound --rr-interval=6ms -- -20 0 10 19 > "$T/b" || fail "bound -- ..."
printf 'nice=-20 bound_ms=186.000\nnice=0 bound_ms=7626.000\nnice=10 bound_ms=9006.000\nnice=19 bound_ms=10302.000\n' > "$T/e"
diff -u "$T/e" "$T/b" || fail "bound -- -20 0 10 19"

# bad input: one error line, exit 2
for args in "20" "abc" "--rr-interval 0ms 0" "--frobnicate 0" ""; do
	# shellcheck disable=SC2086
	"$SCHEDLAB" bound $args > "$T/o" 2> "$T/err" && fail "bound $args succeeded"
	[ "$(grep -c 'schedlab: error:\|^usage' "$T/err")" -ge 1 ] || fail "bound $args: no message"
done
"$SCHEDLAB" bound 21 2> "$T/err"; rc=$?
expect_eq "$rc" 2 "exit status of bound 21"
expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 1 "error lines"
exit 0
