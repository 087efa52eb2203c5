#!/bin/sh
# Write errors are errors (issue 24, item 4).
# 1. Standard output that cannot be written (/dev/full): analyze in each
#    format, compare, bound and -h exit 1 with one line naming standard
#    output (schedlab.c check_stdout, as git's run_builtin); before, exit 0.
#    A pipe whose reader left (| head -1) is not an error.
# 2. A full disk (a 1 MiB tmpfs filled up, as root): plot of a gnuplot chart
#    and of a cairo chart in PNG, SVG and PDF, and report, exit 1 with one
#    line that names the disk's error, and leave nothing behind: no 0-byte
#    chart, no temporary file, no index.html.tmp (before: 0-byte PNG, SVG and
#    PDF files, "gnuplot failed", index.html.tmp left).
. "$(dirname "$0")/lib.sh"
DB="$T/w.db"
"$SCHEDLAB" -q --db "$DB" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1 || fail "import"
"$SCHEDLAB" -q --db "$DB" replay --trace 1 --sched rsdl > /dev/null 2>&1 || fail "replay"
n=0
for c in "analyze --run 1" "analyze --run 1 --format csv" "analyze --run 1 --format json" \
	 "compare --trace 1" "bound 0 10" "analyze -h"; do
	# shellcheck disable=SC2086
	"$SCHEDLAB" --db "$DB" $c > /dev/full 2> "$T/err"; rc=$?
	expect_eq "$rc" 1 "$c > /dev/full: exit"
	expect_eq "$(cat "$T/err")" "schedlab: error: standard output: No space left on device" "$c > /dev/full"
	n=$((n + 1))
done
"$SCHEDLAB" --db "$DB" analyze --run 1 | head -1 > /dev/null
"$SCHEDLAB" --db "$DB" analyze --run 1 > "$T/ok.txt" || fail "analyze to a file"
[ -s "$T/ok.txt" ] || fail "analyze wrote nothing"

if [ "$(id -u)" != 0 ] || ! command -v gnuplot > /dev/null; then
	echo "write errors: $n stdout cases; full-disk cases skipped (not root or no gnuplot)"
	exit 0
fi
M="$T/full"
mkdir "$M"
mount -t tmpfs -o size=1m tmpfs "$M" 2> /dev/null || { echo "write errors: $n stdout cases; no tmpfs"; exit 0; }
trap 'umount "$M" 2> /dev/null; rm -rf "$T"' EXIT
dd if=/dev/zero of="$M/fill" bs=4k > /dev/null 2>&1 # fills it: dd stops at ENOSPC
mkdir "$M/rep" 2> /dev/null # may fail: no inode or block left
for kind in latency staircase timeline; do
	for ext in png svg pdf; do
		"$SCHEDLAB" --db "$DB" plot $kind --trace 1 -o "$M/$kind.$ext" > /dev/null 2> "$T/err"; rc=$?
		expect_eq "$rc" 1 "plot $kind .$ext on a full disk: exit"
		# one line of schedlab's (under ASan, LeakSanitizer may add its
		# table of the suppressions it used: fontconfig's, tests/lsan.supp)
		expect_eq "$(grep -c '^schedlab:' "$T/err")" 1 "plot $kind .$ext on a full disk: one line"
		grep -v '^schedlab:\|^-*$\|^Suppressions used:\|^ *count *bytes template\|^ *[0-9]* *[0-9]* lib' "$T/err" &&
			fail "plot $kind .$ext on a full disk: other output"
		grep -q "^schedlab: error: $M/$kind.$ext: No space left on device" "$T/err" ||
			fail "plot $kind .$ext on a full disk: $(cat "$T/err")"
		n=$((n + 1))
	done
done
"$SCHEDLAB" --db "$DB" report --trace 1 -o "$M/rep" > /dev/null 2> "$T/err"; rc=$?
expect_eq "$rc" 1 "report on a full disk: exit"
grep -q "No space left on device" "$T/err" || fail "report on a full disk: $(cat "$T/err")"
left=$(cd "$M" && find . -type f ! -name fill | sort | tr '\n' ' ')
expect_eq "$left" "" "files left on the full disk"
# room again: the same commands write whole charts
rm -f "$M/fill"
"$SCHEDLAB" --db "$DB" plot latency --trace 1 -o "$M/latency.png" > /dev/null || fail "plot with room"
"$SCHEDLAB" --db "$DB" plot staircase --trace 1 -o "$M/staircase.svg" > /dev/null || fail "staircase with room"
[ -s "$M/latency.png" ] && [ -s "$M/staircase.svg" ] || fail "charts with room"
expect_eq "$(cd "$M" && find . -name '*.tmp*' | wc -l)" 0 "temporary files after a good plot"
# written under a temporary name (mkstemp makes it 0600), the chart still
# gets the mode the umask gives a new file
expect_eq "$(umask 022; "$SCHEDLAB" --db "$DB" plot latency --trace 1 -o "$M/mode.png" > /dev/null && stat -c %a "$M/mode.png")" 644 \
	"a chart's mode under umask 022"
echo "write errors: $n cases (stdout on /dev/full, charts and report on a full disk) fail cleanly"
