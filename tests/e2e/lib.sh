# tests/e2e/lib.sh - helpers for end-to-end tests (sourced).
# SCHEDLAB, TOP, SHARED, B are exported by tests/run-all.sh.
set -u
: "${SCHEDLAB:=$(pwd)/schedlab}" "${TOP:=$(pwd)}" "${SHARED:=$(cd .. && pwd)/shared}"
: "${B:=$TOP/build/default}"
export LC_ALL=C TZ=UTC
T=$(mktemp -d /tmp/schedlab-e2e.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }
# expect_eq ACTUAL EXPECTED WHAT
expect_eq() { [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"; }
# golden NAME FILE: compare FILE with tests/golden/NAME (UPDATE_GOLDEN=1 rewrites)
golden() {
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then cp "$2" "$TOP/tests/golden/$1"; return 0; fi
	diff -u "$TOP/tests/golden/$1" "$2" || fail "output differs from tests/golden/$1"
}
sq() { sqlite3 -batch -noheader "$1" "$2"; }
