#!/bin/sh
# Bench part: the o1 and sd models' scheduling decisions per second and cost per
# decision with 10, 100, 1 000 and 10 000 runnable tasks (goal: flat, largest
# / smallest <= 1.3), and its cost against RSDL on the same workload in the
# same run. The driver below links against the library and replays, with no
# sink (no database), N nice-0 tasks of "run 1 ms, sleep 1 us": all of them
# runnable all the time, one decision per millisecond of simulated time
# (burst end: dequeue + pick; the wake-up: enqueue + preemption test).
# Issue 16 asks o1 for >= 10 M decisions/s at every size, set against
# RSDL's 20-26 M on N CPU hogs (one decision per tick, 30-engine.sh's
# "hogs") on the machine it was measured on: the same RSDL hogs run here in
# the same run, and the ratio o1 / rsdl-hogs is printed (goal >= 0.40, that
# is 10 M against 20-26 M), which carries over to a slower or faster machine.
# Each figure is the best of 5 runs in process CPU time (the machine is shared).
set -u
: "${B:=$(pwd)/build/default}" "${TOP:=$(pwd)}"
W=$(mktemp -d /tmp/schedlab-bench40.XXXXXX)
trap 'rm -rf "$W"' EXIT
cat > "$W/o1bench.c" <<'C'
#include "replay/engine.h"
#include "replay/o1_rq.h"
#include "replay/sd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
/* best ns per decision of 5 runs of n tasks, decisions in *dec; hogs: n
 * CPU hogs with a 1 ms rr_interval (30-engine.sh's "hogs"), else the
 * periodic tasks above */
static double run(const struct sl_policy_ops *ops, size_t n, uint64_t *dec, int hogs)
{
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct sl_replay_stats st;
	struct sl_diag d;
	double best = 1e30;
	size_t i;
	int k;
	memset(&b, 0, sizeof(b));
	b.tasks = xcalloc(n, sizeof(*b.tasks));
	b.ntasks = n;
	b.cpus = 1;
	for (i = 0; i < n; i++) {
		b.tasks[i].idx = (int)i;
		b.tasks[i].parent = -1;
		b.tasks[i].initially_runnable = 1;
		b.tasks[i].run_ns = hogs ? SL_INF : 1000000;
		b.tasks[i].sleep_ns = hogs ? 0 : 1000;
	}
	for (k = 0; k < 5; k++) {
		double t0, t;
		memset(&d, 0, sizeof(d));
		sl_replay_opts_init(&o);
		o.cpus = 1;
		if (hogs)
			o.rr_interval_ns = 1000000;
		o.duration_ns = 1000ULL * 1000000000ULL; /* 1 000 000 decisions */
		t0 = now();
		if (sl_replay_run(&b, ops, &o, NULL, &st, &d) < 0) {
			fprintf(stderr, "replay failed: %s\n", d.msg);
			exit(1);
		}
		t = (now() - t0) * 1e9 / (double)st.decisions;
		if (t < best)
			best = t;
		*dec = st.decisions;
	}
	sl_behaviour_release(&b);
	return best;
}
int main(void)
{
	static const size_t ns[] = { 10, 100, 1000, 10000 };
	double c[4], r[4], d[4], h[4], lo = 1e30, hi = 0, rlo = 1e30, rhi = 0, dlo = 1e30, dhi = 0;
	double worst = 1e30;
	uint64_t dec;
	int i;
	for (i = 0; i < 4; i++) {
		c[i] = run(&sl_policy_o1, ns[i], &dec, 0);
		r[i] = run(&sl_policy_rsdl, ns[i], &dec, 0);
		d[i] = run(&sl_policy_sd, ns[i], &dec, 0);
		h[i] = run(&sl_policy_rsdl, ns[i], &dec, 1);
		printf("o1: %5zu runnable: %.1f ns/decision, %.2f M decisions/s (rsdl %.1f ns, o1/rsdl %.2f; "
		       "rsdl hogs %.2f M decisions/s, o1/rsdl-hogs rate %.2f)\n",
		       ns[i], c[i], 1e3 / c[i], r[i], c[i] / r[i], 1e3 / h[i], h[i] / c[i]);
		if (h[i] / c[i] < worst)
			worst = h[i] / c[i];
		if (c[i] < lo)
			lo = c[i];
		if (c[i] > hi)
			hi = c[i];
		printf("sd: %5zu runnable: %.1f ns/decision, %.2f M decisions/s (sd/rsdl %.2f)\n", ns[i], d[i],
		       1e3 / d[i], d[i] / r[i]);
		if (d[i] < dlo)
			dlo = d[i];
		if (d[i] > dhi)
			dhi = d[i];
		if (r[i] < rlo)
			rlo = r[i];
		if (r[i] > rhi)
			rhi = r[i];
	}
	printf("o1: cost per decision largest/smallest ratio %.2f (goal <= 1.3; rsdl in the same run %.2f)\n",
	       hi / lo, rhi / rlo);
	printf("o1: slowest size %.2f M decisions/s (goal >= 10); against rsdl hogs in the same run %.2f "
	       "(goal >= 0.40: 10 M against 20-26 M, issue 16)\n", 1e3 / hi, worst);
	printf("sd: cost per decision largest/smallest ratio %.2f (goal <= 1.3)\n", dhi / dlo);
	return 0;
}
C
lib="$B/libschedlab.a"
[ -f "$lib" ] || { echo "o1 bench: no $lib (run make first)"; exit 1; }
cc -std=c11 -D_GNU_SOURCE -O2 -I"$TOP" -include "$TOP/common/banned.h" -o "$W/o1bench" "$W/o1bench.c" \
	"$lib" \
	${SL_LDLIBS:-$(pkg-config --libs libtraceevent libtracecmd libtracefs sqlite3 cairo libcrypto libzstd zlib 2>/dev/null) -lm -lpthread} ||
	{ echo "o1 bench: cannot build the driver"; exit 1; }
[ "${BENCH_BUILD_ONLY:-0}" = 1 ] && { echo "o1 bench: driver built"; exit 0; }
"$W/o1bench"
