#!/bin/sh
# Bench part: the replay engine with the RSDL model (and o1 when linked).
# A driver linked against the library replays, with no sink (no database):
#  hogs     N nice-0 CPU hogs, --rr-interval 1ms: one decision per tick;
#  periodic N tasks of "run 1 ms, sleep 1 us" (all runnable all the time, one
#           decision per burst end; the same shape as the o1 part);
#  parked   the periodic workload of 10 tasks plus N tasks asleep for 1000 s:
#           the same decisions with N wakeups pending in the event queue (its
#           cost with many pending events).
# For each: ns per decision (pick_next call) with N = 10, 100, 1000, 10000
# runnable tasks, decisions per second, and the largest/smallest cost ratio
# (goal <= 1.3: O(1) in the number of tasks). Best of 7 runs of CPU time (shared machine).
set -u
: "${B:=$(pwd)/build/default}" "${TOP:=$(pwd)}"
W=$(mktemp -d /tmp/schedlab-bench30.XXXXXX)
trap 'rm -rf "$W"' EXIT
cat > "$W/enginebench.c" <<'C'
#include "replay/engine.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); /* CPU time: robust on a shared machine */
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
enum { HOGS, PERIODIC, PARKED };
static void make_b(struct sl_behaviour *b, int kind, size_t n)
{
	size_t i, extra = kind == PARKED ? 10 : 0;
	memset(b, 0, sizeof(*b));
	b->tasks = xcalloc(n + extra, sizeof(*b->tasks));
	b->ntasks = n + extra;
	b->cpus = 1;
	for (i = 0; i < b->ntasks; i++) {
		struct sl_task_spec *t = &b->tasks[i];
		t->idx = (int)i;
		t->parent = -1;
		t->initially_runnable = 1;
		if (kind == HOGS) {
			t->run_ns = SL_INF;
		} else if (kind == PERIODIC || i >= n) {
			t->run_ns = 1000000;
			t->sleep_ns = 1000;
		} else { /* parked: one short burst, then asleep for 1000 s */
			t->run_ns = 1000;
			t->sleep_ns = 1000ULL * 1000000000ULL;
			t->start_ns = i * 1000;
		}
	}
}
/* ns per decision of one run */
static double run(const struct sl_policy_ops *ops, int kind, const struct sl_behaviour *b, uint64_t *dec)
{
	struct sl_replay_opts o;
	struct sl_replay_stats st;
	struct sl_diag d;
	double t0;
	memset(&d, 0, sizeof(d));
	sl_replay_opts_init(&o);
	o.cpus = 1;
	o.rr_interval_ns = 1000000;
	o.duration_ns = 1000ULL * 1000000000ULL;
	t0 = now();
	if (sl_replay_run(b, ops, &o, NULL, &st, &d) < 0) {
		fprintf(stderr, "replay failed: %s\n", d.msg);
		exit(1);
	}
	*dec = st.decisions;
	return (now() - t0) * 1e9 / (double)st.decisions;
}
int main(void)
{
	static const size_t ns[] = { 10, 100, 1000, 10000 };
	static const char *kinds[] = { "hogs", "periodic", "parked" };
	const struct sl_policy_ops *pols[2] = { &sl_policy_rsdl, &sl_policy_o1 };
	int p, kind, i, round;
	for (p = 0; p < 2; p++) {
		for (kind = 0; kind < 3; kind++) {
			struct sl_behaviour b[4];
			double best[4], lo = 1e30, hi = 0;
			uint64_t dec[4];
			if (kind == HOGS && p == 1)
				continue; /* o1 decides every 100 ms there: not a rate test */
			for (i = 0; i < 4; i++) {
				make_b(&b[i], kind, ns[i]);
				best[i] = 1e30;
			}
			/* rounds over all sizes, so a busy moment hits every size */
			for (round = 0; round < 7; round++)
				for (i = 0; i < 4; i++) {
					double c = run(pols[p], kind, &b[i], &dec[i]);
					if (c < best[i])
						best[i] = c;
				}
			for (i = 0; i < 4; i++) {
				printf("engine %s %-8s %5zu %s: %6.1f ns/decision, %6.2f M decisions/s (%llu decisions)\n",
				       pols[p]->name, kinds[kind], ns[i], kind == PARKED ? "pending" : "runnable",
				       best[i], 1e3 / best[i], (unsigned long long)dec[i]);
				if (best[i] < lo)
					lo = best[i];
				if (best[i] > hi)
					hi = best[i];
				sl_behaviour_release(&b[i]);
			}
			printf("engine %s %s: cost per decision largest/smallest ratio %.2f%s\n", pols[p]->name,
			       kinds[kind], hi / lo, kind == PARKED ? " (event queue; goal <= 1.3)" : " (goal <= 1.3)");
		}
	}
	return 0;
}
C
lib="$B/libschedlab.a"
[ -f "$lib" ] || { echo "engine bench: no $lib (run make first)"; exit 1; }
cc -std=c11 -D_GNU_SOURCE -O2 -I"$TOP" -include "$TOP/common/banned.h" -o "$W/enginebench" "$W/enginebench.c" \
	"$lib" ${SL_LDLIBS:-$(pkg-config --libs libtraceevent libtracecmd libtracefs sqlite3 cairo libcrypto libzstd zlib 2>/dev/null) -lm -lpthread} ||
	{ echo "engine bench: cannot build the driver"; exit 1; }
[ "${BENCH_BUILD_ONLY:-0}" = 1 ] && { echo "engine bench: driver built"; exit 0; }
"$W/enginebench"
