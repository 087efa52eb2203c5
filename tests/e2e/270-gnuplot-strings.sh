#!/bin/sh
# Strings that reach gnuplot (issue 24, item 1). gnuplot runs `command` found
# in a double-quoted string or outside quotes, expands backslash escapes in
# double quotes and ends a command at a newline; schedlab writes every title,
# label, key entry and file name as a single-quoted string (sl_gp_str,
# sl_gp_path in plots/gnuplot.c), where only the apostrophe is special.
# Before that fix a trace FILE NAME with a backquoted command ran the command
# when `plot latency` drew the trace's title in double quotes.
#
# Here the trace's file name and its tasks' comms carry every character that
# means something to gnuplot or to a shell: ` $ ( ) @ \ " ' ; { } & | # ! ~ ^ %
# and each backquoted command would create a file INJ* in the working folder.
# Every chart kind is drawn (kept scripts too), report and claims --trace run;
# no INJ* file may appear, every chart must be made, and the titles keep the
# apostrophe.
. "$(dirname "$0")/lib.sh"
command -v gnuplot > /dev/null || skip "no gnuplot"
cd "$T" || fail "cd"
C1='`touch${IFS}INJ1`'
C2="a'b\"c\\d\$(touch INJ2)@;"
C3='{f}&g|h#i!~^%$HOME'
NAME='tr`touch INJ3`$(touch INJ4)@x;{y}&z|w#q!~^%'"'"'"\.txt'
# three tasks taking turns on CPU 0 (comms are kept to 23 characters)
{
	echo '# tracer: nop'
	t=1000
	for i in 1 2 3 4 5 6 7 8; do
		for k in 0 1 2; do
			case $k in
			0) a=$C1 pa=6 b=$C2 pb=7 ;;
			1) a=$C2 pa=7 b=$C3 pb=8 ;;
			2) a=$C3 pa=8 b=$C1 pb=6 ;;
			esac
			printf '  %s-%d [000] d..2 1.%06d: sched_wakeup: comm=%s pid=%d prio=120 target_cpu=000\n' "$a" $pa $t "$b" $pb
			printf '  %s-%d [000] d..2 1.%06d: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=%s next_pid=%d next_prio=120\n' "$a" $pa $((t + 100)) "$a" $pa "$b" $pb
			t=$((t + 2000))
		done
	done
} > "$NAME"
DB="$T/g.db"
"$SCHEDLAB" --db "$DB" import "$NAME" > /dev/null 2>&1 || fail "import of the hostile file name"
expect_eq "$(sq "$DB" "SELECT comm FROM thread ORDER BY tid" | tr '\n' '|')" "$C1|$C2|$C3|" "comms stored as written"
"$SCHEDLAB" --db "$DB" replay --trace 1 --sched rsdl,cfs > /dev/null 2>&1 || fail "replay"
mkdir out
for kind in latency histogram share compare staircase timeline; do
	for ext in png svg; do
		"$SCHEDLAB" --db "$DB" plot $kind --trace 1 -o "out/$kind.$ext" --keep > /dev/null 2> err \
			|| fail "plot $kind .$ext: $(cat err)"
		[ -s "out/$kind.$ext" ] || fail "plot $kind .$ext: empty chart"
	done
done
# a chart named like the trace, in a folder named like it: kept scripts name
# their data files, which must stay one string
mkdir "$NAME.d"
"$SCHEDLAB" --db "$DB" plot latency --trace 1 -o "$NAME.d/$NAME.svg" --keep > /dev/null 2> err \
	|| fail "plot into a hostile folder: $(cat err)"
[ -s "$NAME.d/$NAME.svg" ] || fail "chart with a hostile name not made"
"$SCHEDLAB" --db "$DB" report --trace 1 -o rep > /dev/null 2> err || fail "report: $(cat err)"
"$SCHEDLAB" --db "$DB" claims --trace 1 -o claims > /dev/null 2>&1
ran=$(find . -name 'INJ*')
[ -z "$ran" ] || fail "a backquoted command ran: $ran"
# the titles are written as single-quoted strings with the apostrophe doubled
# and nothing in double quotes but the line break
grep -q "^set title 'trace 1: tr\`touch INJ3\`" out/latency.svg.gp || fail "latency title not single-quoted"
grep -h '"' out/*.gp | grep -v "^set datafile\|\"\\\\n\"" && fail "a double-quoted string in a script"
# the SVG shows the comm with its apostrophe (the double quote is a data-file
# quote and becomes '?' in the share's task labels)
grep -q "a'b?c" out/share.svg.task.dat || fail "share label lost the apostrophe"
# a chart file name with a newline is refused in one line, exit 1
"$SCHEDLAB" --db "$DB" plot latency --trace 1 -o "$(printf 'bad\nname.png')" > /dev/null 2> err
expect_eq $? 1 "newline in the chart's name: exit"
expect_eq "$(wc -l < err)" 1 "newline in the chart's name: one line"
[ -z "$(find . -name 'INJ*')" ] || fail "a command ran"
echo "gnuplot strings: 12 charts, report and claims with hostile names, no command ran"
