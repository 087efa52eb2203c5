/* common/ticks.h - the tick of a recording, from the ends of the slices
 * its tick preempted (the collector's yield marking, collector/model.c, and
 * validate's HZ estimate, analyze/hz.c). */
#ifndef SL_TICKS_H
#define SL_TICKS_H

#include <stddef.h>
#include <stdint.h>

/* hz (0: cannot tell), and per CPU the circular mean, modulo 1e9/hz ns, of
 * its tick preemptions' ends (-1 where fewer than 10 or not bunched). */
struct sl_ticks {
	int hz, ncpu;
	double *phase_ns;
	size_t samples;
	double conc;
};

/* The estimate from n slice ends (ns) and their CPUs, slices taken for tick
 * preemptions (docs/validate.md: the lowest of 100, 250, 300, 1000 Hz whose
 * concentration is at least 0.6 times the best, if the best is at least 0.2
 * over at least 30 ends). 0, or -1 when it cannot tell; release with
 * sl_ticks_release either way. */
int sl_ticks_from_ends(const uint64_t *ends, const int *cpu, size_t n, struct sl_ticks *t);
void sl_ticks_release(struct sl_ticks *t);
/* The tick of cpu nearest ts (ns), -1 when its phase is not known. */
double sl_ticks_nearest(const struct sl_ticks *t, int cpu, uint64_t ts);
/* The machine's tick phase (ns, modulo 1e9/hz): the circular mean of the
 * CPUs' known phases (they tick together); -1 when none is known. */
double sl_ticks_phase(const struct sl_ticks *t);
/* Whether ts lies within w ns of a tick of cpu (0 when its phase is not
 * known). */
int sl_ticks_near(const struct sl_ticks *t, int cpu, uint64_t ts, double w);

#endif
