#!/bin/sh
# Run every test family; print one closing "N passed, N failed, N skipped".
# B is the build folder (build/default or build/san).
B=${B:-build/default}
export LC_ALL=C TZ=UTC
export SCHEDLAB="$(pwd)/schedlab" B="$(pwd)/$B" TOP="$(pwd)"
export SHARED="${SHARED:-$(cd .. && pwd)/shared}"
pass=0 fail=0 skip=0
add() { pass=$((pass + $1)); fail=$((fail + $2)); skip=$((skip + $3)); }

# unit tests
out=$("$B/unit_tests" 2>&1); rc=$?
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
	if [ -d "tests/fuzz/corpus/$name" ] && "$r" tests/fuzz/corpus/"$name"/* >/dev/null 2>"$B/fuzz/$name.log"; then
		add 1 0 0
	else
		echo "FAIL fuzz corpus $name (see $B/fuzz/$name.log)"; add 0 1 0
	fi
done

# end-to-end shell tests: exit 0 pass, 77 skip, else fail
for t in tests/e2e/[0-9]*.sh; do
	[ -f "$t" ] || continue
	log="$B/e2e-$(basename "$t" .sh).log"
	sh "$t" >"$log" 2>&1; rc=$?
	case $rc in
	0) add 1 0 0 ;;
	77) add 0 0 1; echo "skip $t: $(tail -1 "$log")" ;;
	*) add 0 1 0; echo "FAIL $t (exit $rc)"; tail -15 "$log" | sed 's/^/  | /' ;;
	esac
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
