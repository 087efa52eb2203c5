/* collector/tickrt.c - see tickrt.h. The marks are taken in time order as
 * the model reads them; per CPU only the runtime event still waiting for
 * its CPU's next runtime-or-switch event is held, and the lone ones kept. */
#include "tickrt.h"
#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

/* sched_switch fires just after the update_curr that goes with it (the
 * dequeue or put_prev_task of __schedule, or yield_task_fair); sched_wakeup
 * just after the enqueue's update_curr (ttwu_do_activate: activate_task,
 * wakeup_preempt, then the event), sched_waking up to some microseconds
 * before it (a remote wakeup's enqueue follows through the wakelist). */
#define TM_SWITCH_BEFORE_NS 1000ULL
#define TM_AIMED_BEFORE_NS 20000ULL
#define TM_AIMED_AFTER_NS 5000ULL
/* a task reading its CPU clock in a loop: lone runtime events this close
 * together are its reads, not ticks (a tick is 1-10 ms from the next) */
#define TM_STORM_NS 100000ULL

static void grow_cpus(struct sl_tickrt *t, size_t cpu)
{
	size_t i, n = t->ncpu;
	if (cpu < n)
		return;
	SL_GROW(t->c, t->ccap, cpu + 1);
	for (i = n; i <= cpu; i++) {
		memset(&t->c[i], 0, sizeof(t->c[i]));
		t->c[i].last_sw = t->c[i].last_aim = UINT64_MAX;
	}
	t->ncpu = cpu + 1;
}

static void keep(struct sl_tickrt *t, uint64_t ts, int cpu)
{
	SL_GROW(t->end, t->cap, t->n + 1);
	SL_GROW(t->cpu, t->cap2, t->n + 1);
	t->end[t->n] = ts;
	t->cpu[t->n++] = cpu;
}

/* an event aimed at cpu at ts: the kept lone events of cpu in the 5 us
 * before it were the enqueue's update_curr (kept ones are the last ones of
 * their CPU, at the tail) */
static void aimed(struct sl_tickrt *t, size_t cpu, uint64_t ts)
{
	struct sl_tickcpu *c = &t->c[cpu];
	size_t j;
	c->last_aim = ts;
	if (c->have_pend && c->pend + TM_AIMED_AFTER_NS >= ts)
		c->have_pend = 0;
	for (j = t->n; j-- > 0 && t->end[j] + TM_AIMED_AFTER_NS >= ts;)
		if ((size_t)t->cpu[j] == cpu)
			t->cpu[j] = -1; /* dropped */
}

void sl_tickrt_add(struct sl_tickrt *t, uint64_t ts, int cpu, int kind)
{
	struct sl_tickcpu *c;
	if (kind == SL_TM_AIMED && cpu < 0) {
		size_t i;
		for (i = 0; i < t->ncpu; i++)
			aimed(t, i, ts);
		return;
	}
	if (cpu < 0 || cpu >= SL_TICKRT_MAXCPU)
		return;
	grow_cpus(t, (size_t)cpu);
	c = &t->c[cpu];
	switch (kind) {
	case SL_TM_RUNTIME:
		t->nrt++;
		/* the one held: not the last before a switch, so lone */
		if (c->have_pend)
			keep(t, c->pend, cpu);
		c->have_pend = !(c->last_sw != UINT64_MAX && c->last_sw + TM_SWITCH_BEFORE_NS >= ts) &&
			       !(c->last_aim != UINT64_MAX && c->last_aim + TM_AIMED_BEFORE_NS >= ts);
		c->pend = ts;
		break;
	case SL_TM_SWITCH:
		c->have_pend = 0; /* it went with this switch */
		c->last_sw = ts;
		break;
	default:
		aimed(t, (size_t)cpu, ts);
		break;
	}
}

int sl_tickrt_estimate(struct sl_tickrt *t, struct sl_ticks *out, size_t *lone)
{
	uint64_t *prev;
	size_t *prev_i, j, m = 0;
	int *storm, rc;
	memset(out, 0, sizeof(*out));
	*lone = 0;
	/* the runtime events still held at the trace's end: their CPU's next
	 * event is not in the trace; left out */
	/* the storms: a lone event with another of its CPU within TM_STORM_NS */
	prev = xcalloc(t->ncpu ? t->ncpu : 1, sizeof(*prev));
	prev_i = xcalloc(t->ncpu ? t->ncpu : 1, sizeof(*prev_i));
	storm = xcalloc(t->n ? t->n : 1, sizeof(*storm));
	for (j = 0; j < t->ncpu; j++)
		prev[j] = UINT64_MAX;
	for (j = 0; j < t->n; j++) {
		int c = t->cpu[j];
		if (c < 0)
			continue;
		if (prev[c] != UINT64_MAX && prev[c] + TM_STORM_NS > t->end[j])
			storm[j] = storm[prev_i[c]] = 1;
		prev[c] = t->end[j];
		prev_i[c] = j;
	}
	for (j = 0; j < t->n; j++)
		if (t->cpu[j] >= 0 && !storm[j]) {
			t->end[m] = t->end[j];
			t->cpu[m++] = t->cpu[j];
		}
	t->n = m;
	*lone = m;
	rc = sl_ticks_from_ends(t->end, t->cpu, m, out);
	free(prev);
	free(prev_i);
	free(storm);
	return rc;
}

void sl_tickrt_free(struct sl_tickrt *t)
{
	free(t->c);
	free(t->end);
	free(t->cpu);
	memset(t, 0, sizeof(*t));
}
