#!/bin/sh
# Run every test family; print one closing "N passed, N failed, N skipped".
# B is the build folder (build/default or build/san).
B=${B:-build/default}
export LC_ALL=C TZ=UTC
export SCHEDLAB="$(pwd)/schedlab" B="$(pwd)/$B" TOP="$(pwd)"
export SHARED="${SHARED:-$(cd .. && pwd)/shared}"
pass=0 fail=0 skip=0
add() { pass=$((pass + $1)); fail=$((fail + $2)); skip=$((skip + $3)); }

# Every step runs under a time limit (TEST_TIMEOUT seconds, default 600) so
# that a hang is a named failure instead of a stalled CI run; each e2e test's
# name and time are printed as it finishes.
TO=${TEST_TIMEOUT:-600}
lim() { timeout -k 10 "$TO" "$@"; }

# unit tests
out=$(lim "$B/unit_tests" 2>&1); rc=$?
[ $rc -eq 124 ] || [ $rc -eq 137 ] && echo "FAIL unit tests: no result within ${TO}s"
echo "$out" | grep -v '^unit:' | sed 's/^/  /'
line=$(echo "$out" | grep '^unit:' | tail -1)
echo "$line"
set -- $(echo "$line" | sed 's/[^0-9 ]//g')
if [ $# -ge 2 ]; then add "${1:-0}" "${2:-0}" "${3:-0}"; else add 0 1 0; fi
[ $rc -ne 0 ] && [ "${2:-0}" = 0 ] && add 0 1 0

# fuzz corpora replayed through each target
for r in "$B"/fuzz/replay_*; do
	[ -x "$r" ] || continue
	name=${r##*/replay_}
	if [ -d "tests/fuzz/corpus/$name" ] && lim "$r" tests/fuzz/corpus/"$name"/* >/dev/null 2>"$B/fuzz/$name.log"; then
		add 1 0 0
	else
		echo "FAIL fuzz corpus $name (see $B/fuzz/$name.log)"; add 0 1 0
	fi
done

# end-to-end shell tests: exit 0 pass, 77 skip, else fail
for t in tests/e2e/[0-9]*.sh; do
	[ -f "$t" ] || continue
	log="$B/e2e-$(basename "$t" .sh).log"
	t0=$(date +%s)
	lim sh "$t" >"$log" 2>&1; rc=$?
	dt=$(($(date +%s) - t0))
	case $rc in
	0) add 1 0 0; echo "  ok   ${dt}s $t" ;;
	124|137) add 0 1 0; echo "FAIL $t: still running after ${TO}s (killed)"; tail -15 "$log" | sed 's/^/  | /' ;;
	77) add 0 0 1; echo "skip $t: $(tail -1 "$log")" ;;
	*) add 0 1 0; echo "FAIL $t (exit $rc)"; tail -15 "$log" | sed 's/^/  | /' ;;
	esac
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
