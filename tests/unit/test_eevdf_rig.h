/* tests/unit/test_eevdf_rig.h - a hand-built eevdf engine for the unit
 * tests that call the policy's hooks directly (test_eevdf.c,
 * test_rt_place.c): ncpus CPUs (1 or 2), two tasks allowed on all of them,
 * not queued; every model option at its default but `name`, set to `value`. */
#ifndef TEST_EEVDF_RIG_H
#define TEST_EEVDF_RIG_H

#include "harness.h"
#include "../../replay/eevdf.h"
#include "../../replay/engine_priv.h"

#include <string.h>

struct ev_rig {
	struct sl_engine e;
	struct sl_engine_priv priv;
	struct sl_cpu cpu[2];
	struct sl_task t[2];
};

static inline void ev_rig_init(struct ev_rig *g, int ncpus, const char *name, long long value)
{
	const struct sl_policy_ops *ops = &sl_policy_eevdf;
	int i;
	memset(g, 0, sizeof(*g));
	g->e.ops = ops;
	g->e.ncpus = ncpus;
	g->e.cpus = g->cpu;
	g->e.tasks = g->t;
	g->e.ntasks = 2;
	g->e.hz = 1000;
	g->e.tick_ns = 1000000;
	g->e.priv = &g->priv;
	for (i = 0; ops->params[i].name; i++)
		g->e.param[i] = strcmp(ops->params[i].name, name) ? ops->params[i].def : value;
	CHECK_EQ_INT(ops->init(&g->e), 0);
	for (i = 0; i < 2; i++) {
		g->t[i].idx = i;
		g->t[i].static_prio = 120;
		g->t[i].cpumask = (1ULL << ncpus) - 1;
		ops->task_init(&g->e, &g->t[i]);
	}
}

/* The rig with its two tasks A and B queued on CPU 0 at time 0 as tasks
 * that appear (SL_ENQ_START), A picked and running, and the clock at 3 ms
 * (A has run 3 ms: charged_to 0); w is left an SL_ENQ_START info. */
static inline void ev_rig_two_on_cpu0(struct ev_rig *g, int ncpus, struct sl_enq_info *w)
{
	const struct sl_policy_ops *ops = &sl_policy_eevdf;
	int i;
	ev_rig_init(g, ncpus, "slice_norm_us", 750);
	memset(w, 0, sizeof(*w));
	w->kind = SL_ENQ_START;
	w->waker = w->waker_cpu = w->src_cpu = -1;
	for (i = 0; i < 2; i++) {
		g->t[i].on_rq = 1;
		g->t[i].state = SL_TS_RUNNABLE;
		ops->enqueue(&g->e, 0, &g->t[i], w);
	}
	g->cpu[0].nr_running = 2;
	CHECK(ops->pick_next(&g->e, 0, NULL) == &g->t[0]);
	g->cpu[0].curr = &g->t[0];
	g->t[0].state = SL_TS_RUNNING;
	g->e.now = 3000000;
}

#endif
