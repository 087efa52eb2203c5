#!/bin/sh
# Bad input: one-line "schedlab: error: FILE:LINE: what", exit 1, database
# exactly as before. A cut-off last line imports with a warning naming it.
. "$TOP/tests/e2e/lib.sh"
DB="$T/db"
good="$TOP/traces/panopticon-desktop.ftrace.txt"
"$SCHEDLAB" --db "$DB" import "$good" > /dev/null || fail "good import"
dump() { sqlite3 "$DB" .dump | md5sum; }
before=$(dump)

# expect_error FILE PATTERN: import fails with one error line matching PATTERN
expect_error() {
	"$SCHEDLAB" --db "$DB" import "$1" > "$T/out" 2> "$T/err"; rc=$?
	[ $rc -eq 1 ] || fail "import $1: exit $rc, expected 1"
	[ "$(wc -l < "$T/err")" -eq 1 ] || { cat "$T/err"; fail "import $1: not one line on stderr"; }
	grep -q "^schedlab: error: $2" "$T/err" || { cat "$T/err"; fail "import $1: message"; }
	[ "$(dump)" = "$before" ] || fail "import $1 changed the database"
}

: > "$T/empty"
expect_error "$T/empty" "$T/empty:0: empty file"
head -c 3000 /dev/urandom > "$T/garbage"
printf '\0\1\2garbage' >> "$T/garbage"
expect_error "$T/garbage" "$T/garbage:1: not a trace format"
printf 'hello world\nthis is not a trace\n' > "$T/text"
expect_error "$T/text" "$T/text:1: not a trace format"
expect_error "$T/missing" "$T/missing: No such file or directory"
# ftrace header, then a malformed sched_switch on line 3
printf '# tracer: nop\n#\n  bash-1 [000] d..2 1.000000: sched_switch: prev_comm=bash\n' > "$T/bad3"
expect_error "$T/bad3" "$T/bad3:3: malformed sched_switch"
# good lines then a line that is not ftrace at all, in the middle
{ head -20 "$good"; echo "<html>nonsense</html> more"; sed -n '21,40p' "$good"; } > "$T/mid"
expect_error "$T/mid" "$T/mid:21: not an ftrace event line"
# a trace with only comments: no scheduler events
printf '# tracer: nop\n#\n' > "$T/nosched"
expect_error "$T/nosched" "$T/nosched:2: no scheduler events"

# a cut-off last line: imported with a warning that names the line
n=$(wc -l < "$good")
{ head -$((n - 1)) "$good"; tail -1 "$good" | head -c 40; } > "$T/cut"
"$SCHEDLAB" --db "$T/db2" import "$T/cut" > "$T/out" 2> "$T/err" || fail "cut file did not import"
grep -q "^schedlab: warning: $T/cut:$n: last line is cut off" "$T/err" || { cat "$T/err"; fail "no cut-off warning"; }

# importing the same file again adds nothing and prints the existing id
"$SCHEDLAB" --db "$DB" import "$good" > "$T/out" || fail "re-import"
grep -q "already imported as trace 1" "$T/out" || fail "re-import message: $(cat "$T/out")"
[ "$(dump)" = "$before" ] || fail "re-import changed the database"

# unreadable / foreign / newer databases
echo "not a database" > "$T/notdb"
"$SCHEDLAB" --db "$T/notdb" import "$good" 2> "$T/err"; [ $? -eq 1 ] || fail "text file as db"
grep -q "^schedlab: error: $T/notdb: " "$T/err" || fail "notdb message: $(cat "$T/err")"
sqlite3 "$T/other.db" "CREATE TABLE x(a); INSERT INTO x VALUES (1);"
"$SCHEDLAB" --db "$T/other.db" import "$good" 2> "$T/err"; [ $? -eq 1 ] || fail "foreign db"
grep -q "not a schedlab database" "$T/err" || fail "foreign db message: $(cat "$T/err")"
cp "$DB" "$T/newer.db"; sqlite3 "$T/newer.db" "PRAGMA user_version = 99"
"$SCHEDLAB" --db "$T/newer.db" analyze 2> "$T/err"; [ $? -eq 1 ] || fail "newer db accepted"
grep -q "schema version 99 is newer" "$T/err" || fail "newer db message: $(cat "$T/err")"
"$SCHEDLAB" --db "$T/nothere.db" analyze 2> "$T/err"; [ $? -eq 1 ] || fail "analyze without db"
[ ! -e "$T/nothere.db" ] || fail "analyze created a database"

# a failed import or workload replay into a database that did not exist
# leaves no file behind (not even the empty schema, nor -wal/-shm)
printf 'garbage\n' > "$T/garbage"
"$SCHEDLAB" --db "$T/fresh.db" import "$T/garbage" 2> "$T/err"; [ $? -eq 1 ] || fail "garbage import status"
[ -z "$(ls "$T" | grep '^fresh\.db')" ] || fail "failed import left $(ls "$T" | grep '^fresh\.db')"
printf 'a 0 run=inf\n' > "$T/w.txt"
"$SCHEDLAB" --db "$T/fresh.db" replay --workload "$T/w.txt" --sched rsdl --duration 1s --cpus 99999 2> "$T/err"
[ $? -ne 0 ] || fail "replay on 99999 CPUs accepted"
[ -z "$(ls "$T" | grep '^fresh\.db')" ] || fail "failed replay left $(ls "$T" | grep '^fresh\.db')"
# ...while a database that existed stays, unchanged
"$SCHEDLAB" --db "$T/fresh.db" import "$TOP/traces/massive-intr-10x-1cpu.ftrace.txt" > /dev/null || fail "import"
before=$(sqlite3 "$T/fresh.db" .dump | cksum)
"$SCHEDLAB" --db "$T/fresh.db" import "$T/garbage" 2> /dev/null && fail "garbage import into existing db"
expect_eq "$(sqlite3 "$T/fresh.db" .dump | cksum)" "$before" "existing database after a failed import"

# hostile comms: control characters and very long names are sanitised
printf '# tracer: nop\n' > "$T/hostile"
printf '  ev\033[31mil-5 [000] d..2 1.000000: sched_switch: prev_comm=ev\033[31mil prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=%s next_pid=6 next_prio=120\n' "$(head -c 300 /dev/zero | tr '\0' x)" >> "$T/hostile"
printf '  x-6 [000] d..2 1.000100: sched_switch: prev_comm=x prev_pid=6 prev_prio=120 prev_state=S ==> next_comm=a"b;c next_pid=7 next_prio=120\n' >> "$T/hostile"
printf '  a-7 [000] d..2 1.000200: sched_switch: prev_comm=a"b;c prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=x next_pid=6 next_prio=120\n' >> "$T/hostile"
"$SCHEDLAB" --db "$T/h.db" import "$T/hostile" > /dev/null || fail "hostile import"
comms=$(sq "$T/h.db" "SELECT comm FROM thread ORDER BY tid")
echo "$comms" | grep -q "$(printf '\033')" && fail "escape character stored"
[ "$(echo "$comms" | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 23 ] || fail "long comm kept"
"$SCHEDLAB" --db "$T/h.db" analyze --format json | grep -q '"a\\"b;c"' || fail "json escaping"
echo ok
