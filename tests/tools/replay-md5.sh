#!/bin/sh
# tests/tools/replay-md5.sh - fingerprints of every model's replay of every
# bundled trace, to show a refactoring of replay/ changes no result.
#
#   sh tests/tools/replay-md5.sh SCHEDLAB OUT [WORKLOAD...]
#
# Imports each bundled trace (traces/, traces/corpus/, ../shared/traces/)
# once into OUT/db/ (kept between calls), then replays it through all five
# models with the default options, and rsdl, cfs and eevdf again causal with
# --overhead none --cpus 4; each WORKLOAD file is replayed through the five
# models on 1 and 2 CPUs at HZ 1000, 300 and 100. For each replay it writes
# one line: the replay's summary lines, then the md5 of the run's
# sched_slice, wakeup, staircase, vlag, rotation and task_stat rows (in
# rowid order, run id left out). OUT/md5.txt holds the lines; compare two
# binaries' files with diff.
set -u
BIN=$1 OUT=$2
shift 2
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${SHARED:-$(cd "$TOP/.." && pwd)/shared}
mkdir -p "$OUT/db"
: >"$OUT/md5.txt"

tables='sched_slice wakeup staircase vlag rotation task_stat'
fingerprint() { # db label summary-file
	for id in $(sqlite3 "$1" 'SELECT id FROM run WHERE mode <> '"'recorded'"' ORDER BY id'); do
		line="$2 run$id $(sqlite3 "$1" "SELECT scheduler, cpus, mode, params FROM run WHERE id = $id" | md5sum | cut -c1-8)"
		for t in $tables; do
			cols=$(sqlite3 "$1" "SELECT group_concat(name) FROM pragma_table_info('$t') WHERE name <> 'run_id'")
			order=rowid
			[ $t = task_stat ] && order=utid # WITHOUT ROWID
			h=$(sqlite3 "$1" "SELECT $cols FROM $t WHERE run_id = $id ORDER BY $order" | md5sum | cut -c1-12)
			line="$line $t=$h"
		done
		echo "$line" >>"$OUT/md5.txt"
	done
	sed "s/^/$2 summary: /" "$3" >>"$OUT/md5.txt"
}

n=0
for f in "$TOP"/traces/*.dat "$TOP"/traces/*.txt "$TOP"/traces/*.perf.data "$TOP"/traces/corpus/*.dat "$TOP"/traces/corpus-quiet/*.dat \
	"$SHARED"/traces/*/*; do
	case $f in *README.md | *.ledger) continue ;; esac
	[ -f "$f" ] || continue
	n=$((n + 1))
	key=$(echo "$f" | sed 's|.*/traces/||; s|/|_|g')
	src="$OUT/db/$key.db"
	if [ ! -f "$src" ]; then
		"$BIN" -q --db "$src.tmp" import "$f" >/dev/null 2>"$OUT/db/$key.err" && mv "$src.tmp" "$src" || {
			echo "$key import failed: $(head -1 "$OUT/db/$key.err")" >>"$OUT/md5.txt"
			rm -f "$src.tmp"
			continue
		}
	fi
	db="$OUT/run.db"
	cp "$src" "$db"
	"$BIN" -q --db "$db" replay --trace 1 --sched rsdl,o1,sd,cfs,eevdf >"$OUT/sum.txt" 2>&1
	"$BIN" -q --db "$db" replay --trace 1 --sched rsdl,cfs,eevdf --mode causal --overhead none --cpus 4 \
		>>"$OUT/sum.txt" 2>&1
	fingerprint "$db" "$key" "$OUT/sum.txt"
done
for w in "$@"; do
	for cpus in 1 2; do
		for hz in 1000 300 100; do
			db="$OUT/run.db"
			rm -f "$db"
			"$BIN" -q --db "$db" replay --workload "$w" --sched rsdl,o1,sd,cfs,eevdf --duration 3s \
				--cpus $cpus --hz $hz >"$OUT/sum.txt" 2>&1
			fingerprint "$db" "$(basename "$w")-$cpus-$hz" "$OUT/sum.txt"
		done
	done
done
rm -f "$OUT/run.db" "$OUT/sum.txt"
echo "$n traces, $(wc -l <"$OUT/md5.txt") lines in $OUT/md5.txt"
