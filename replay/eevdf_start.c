/* replay/eevdf_start.c - the load tracking a task older than the trace
 * and each CPU start the eevdf model with: the kernel's at the ledger's
 * start snapshot (version 5, table start_pelt), or an estimate from the
 * task's first 128 ms (docs/eevdf.md "Load tracking at the start"). */
#include "eevdf_priv.h"

#include <string.h>

#define EV_CAPACITY 1024ul /* SCHED_CAPACITY_SCALE */
#define EV_HISTORY_NS 128000000ULL

static unsigned long min_ul(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

int sl_eevdf_start_share(const struct sl_task_spec *s)
{
	struct sl_phase ph;
	uint64_t run = 0, all = 0;
	size_t i;
	if (!s || (s->flags & SL_TASK_FORKED))
		return -1;
	/* asleep from the trace's start until it appears (first woken) */
	all = s->start_ns < EV_HISTORY_NS ? s->start_ns : EV_HISTORY_NS;
	for (i = 0; all < EV_HISTORY_NS && sl_task_phase(s, i, &ph) == 0; i++) {
		if (ph.run_ns == SL_INF) {
			run += EV_HISTORY_NS;
			all += EV_HISTORY_NS;
			break;
		}
		run += ph.run_ns;
		all += ph.run_ns;
		if (sl_end_sleeps(ph.end))
			all += ph.sleep_ns;
	}
	return all ? (int)(run * 1024 / all) : -1;
}

/* the averages of a task older than the trace (sl_eevdf_start_share);
 * 0 for a new one */
int ev_pelt_at_start(struct ev_run *r, struct ev_task *p)
{
	const struct sl_task_spec *s = ev_task_of(r, &p->se)->spec;
	int f;
	if (s && s->pelt_known && !(s->flags & SL_TASK_FORKED) && r->e->cpu_pelt &&
	    sl_engine_param(r->e, EV_P_START_PELT)) {
		/* the kernel's, decayed from its last update to now (a
		 * blocked entity's averages decay until it is next updated) */
		uint64_t n = sl_eevdf_pelt_periods(s->pelt_age_ns, r->e->now);
		p->avg.load_avg = (unsigned long)sl_pelt_decay(s->pelt_load, n);
		p->avg.runnable_avg = (unsigned long)sl_pelt_decay(s->pelt_runnable, n);
		p->avg.util_avg = (unsigned long)sl_pelt_decay(s->pelt_util, n);
		p->util_est = s->pelt_util_est;
		return 2;
	}
	f = sl_eevdf_start_share(s);
	if (f < 0)
		return 0;
	p->avg.load_avg = (unsigned long)((uint64_t)p->se.weight * (unsigned)f / 1024);
	p->avg.runnable_avg = (unsigned long)f;
	p->avg.util_avg = (unsigned long)f;
	p->util_est = p->avg.util_avg;
	return 1;
}

uint64_t sl_eevdf_pelt_periods(uint64_t age_ns, uint64_t now)
{
	uint64_t t = age_ns > UINT64_MAX - now ? UINT64_MAX : age_ns + now;
	return t >> 20; /* periods of 1024 x 1024 ns */
}

/* The CPUs' load tracking at the start (the ledger's root cfs_rq, version
 * 5): what the trace's own tasks had there is theirs (they attach it when
 * first queued: ev_pelt_at_start, or a fork's new-task rule); the rest, the blocked load of threads
 * the trace does not show, is in the CPU's sums from time 0 and decays. */
void ev_pelt_start(struct ev_run *r)
{
	struct sl_engine *e = r->e;
	int c;
	size_t i;
	if (!e->cpu_pelt || !sl_engine_param(e, EV_P_START_PELT))
		return;
	for (c = 0; c < e->ncpus; c++) {
		const struct sl_cpu_pelt *k = &e->cpu_pelt[c];
		unsigned long v[3];
		struct sl_pelt blob;
		if (!k->known)
			continue;
		v[0] = k->load_avg, v[1] = k->runnable_avg, v[2] = k->util_avg;
		for (i = 0; i < e->ntasks; i++) {
			const struct sl_task_spec *s = e->tasks[i].spec;
			uint64_t n;
			/* (one forked between the trace's start and the
			 * snapshot brings its own as a new task) */
			if (!s || !s->pelt_known || s->pelt_cpu != c)
				continue;
			n = sl_eevdf_pelt_periods(s->pelt_age_ns, 0);
			v[0] -= min_ul(v[0], (unsigned long)sl_pelt_decay(s->pelt_load, n));
			v[1] -= min_ul(v[1], (unsigned long)sl_pelt_decay(s->pelt_runnable, n));
			v[2] -= min_ul(v[2], (unsigned long)sl_pelt_decay(s->pelt_util, n));
		}
		memset(&blob, 0, sizeof(blob));
		blob.load_avg = v[0];
		blob.runnable_avg = v[1];
		blob.util_avg = v[2];
		sl_pelt_attach(&r->rq[c].avg, &blob, EV_CAPACITY);
	}
}
