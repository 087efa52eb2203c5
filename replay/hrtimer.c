/* replay/hrtimer.c - a sleep's high-resolution timer and its slack.
 *
 * The kernel (v6.18, kernel/time/hrtimer.c): nanosleep and its kin arm an
 * hrtimer on the sleeper's CPU with a range, from its soft expiry (the time
 * asked for) to its hard expiry, the soft one plus the task's timer slack
 * (hrtimer_nanosleep: current->timer_slack_ns, 50 us by default; none for a
 * real-time or deadline task). The CPU's clock event is programmed for the
 * earliest hard expiry, and its interrupt (__hrtimer_run_queues) runs every
 * timer of the CPU, in the order of their hard expiry, until the first
 * whose soft expiry is still ahead. So a timer fires at its hard expiry
 * when it is alone, and earlier when another timer's interrupt, or the
 * tick's (tick_sched_timer is an hrtimer: a busy CPU's tick), comes
 * inside its range: timers close together fire together, and their tasks
 * wake in one interrupt and queue behind each other.
 *
 * The replay takes a sleep ended by an interrupt on the CPU it slept on
 * (its own timer, as a rule; docs/model.md "Wakeup CPU") as such a timer:
 * its hard expiry is when the sleep ends as recorded (a lone timer fires
 * there), its soft expiry the slack before. When a timer's sleep ends, or
 * a busy CPU ticks, every timer armed on that CPU whose soft expiry has come
 * fires at that instant too.
 *
 * Timer slack came in 2.6.28 (hrtimer_set_expires_range_ns): a 2.6.20 to
 * 2.6.23 kernel's nanosleep timer fired alone at its expiry, so by default
 * (--hrtimer-slack auto) only the eevdf model has it.
 *
 * An absolute periodic timer (a task the import found on one, analyze/
 * abstimer.h; docs/model.md "Absolute timers") sets each deadline from the
 * last: sl_abs_timer_end. */
#include "engine_priv.h"

#include <stdlib.h>
#include <string.h>

/* timer_slack_ns's default (init_task, include/linux/init_task.h) */
#define HRT_SLACK_NS 50000ULL

int sl_hrt_slack_on(const struct sl_replay_opts *o, const char *model)
{
	if (o->hrtimer_slack == SL_HRT_SLACK_AUTO)
		return !strcmp(model, "eevdf");
	return o->hrtimer_slack == SL_HRT_SLACK_ON;
}

void sl_hrt_init(struct sl_engine *e)
{
	if (!sl_hrt_slack_on(e->priv->o, e->ops->name))
		return;
	e->priv->hrt = xcalloc((size_t)e->ncpus, sizeof(*e->priv->hrt));
}

void sl_hrt_release(struct sl_engine *e)
{
	int c;
	if (!e->priv->hrt)
		return;
	for (c = 0; c < e->ncpus; c++)
		free(e->priv->hrt[c].idx);
	free(e->priv->hrt);
	free(e->priv->hrt_due);
	e->priv->hrt = NULL;
}

uint64_t sl_abs_timer_end(struct sl_engine *e, struct sl_task *p, const struct sl_phase *ph,
			  uint64_t end)
{
	struct sl_task_eng *x = p->eng;
	uint64_t t = end;
	if (!(p->spec->flags & SL_TASK_ABS_TIMER) || !ph->wake_ts || e->priv->o->no_abs_timers) {
		x->abs_wake_ts = 0; /* another kind of sleep: the next starts anew */
		return end;
	}
	/* its deadline: the last one (passed or not) plus the recorded
	 * interval between the two wakeups (next += period), whatever the
	 * bursts and waits between took; at once when that has passed
	 * (clock_nanosleep returns at once for a time gone by). The first is
	 * its recorded length from now. */
	if (x->abs_wake_ts && ph->wake_ts > x->abs_wake_ts)
		t = x->abs_target + (ph->wake_ts - x->abs_wake_ts);
	x->abs_wake_ts = ph->wake_ts;
	x->abs_target = t; /* the deadline, passed or not */
	return t > e->now ? t : e->now;
}

void sl_hrt_arm(struct sl_engine *e, struct sl_task *p, const struct sl_phase *ph, uint64_t hard)
{
	struct sl_hrt_list *l;
	struct sl_task_eng *x = p->eng;
	x->hrt_cpu = -1;
	if (!ph->sleep_cpu1 || ph->wake_cpu1 != ph->sleep_cpu1 ||
	    (ph->waker_kind != SL_WAKER_IRQ && ph->waker_kind != SL_WAKER_IDLE))
		return; /* a task's wakeup, or an interrupt elsewhere */
	if (!e->priv->hrt || p->cpu < 0 || p->cpu >= e->ncpus || p->sched_policy == SL_SCHED_FIFO ||
	    p->sched_policy == SL_SCHED_RR)
		return;
	x->hrt_cpu = p->cpu;
	x->hrt_hard = hard;
	x->hrt_soft = hard > HRT_SLACK_NS ? hard - HRT_SLACK_NS : 0;
	x->hrt_token = x->token;
	l = &e->priv->hrt[p->cpu];
	SL_GROW(l->idx, l->cap, l->n + 1);
	l->idx[l->n++] = (uint32_t)p->idx;
}

/* p's timer still waits to fire (its sleep goes on) */
static int armed(const struct sl_task *p)
{
	return p->eng->hrt_cpu >= 0 && p->eng->hrt_token == p->eng->token &&
	       p->state == SL_TS_SLEEPING && !p->eng->wait_on;
}

int sl_hrt_fired(struct sl_engine *e, struct sl_task *p)
{
	int c = p->eng->hrt_cpu;
	if (!e->priv->hrt || !armed(p))
		return -1;
	p->eng->hrt_cpu = -1;
	return c;
}

static int by_hard(const void *a, const void *b)
{
	const struct sl_task *x = *(struct sl_task *const *)a, *y = *(struct sl_task *const *)b;
	if (x->eng->hrt_hard != y->eng->hrt_hard)
		return x->eng->hrt_hard < y->eng->hrt_hard ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

size_t sl_hrt_due(struct sl_engine *e, int cpu, struct sl_task ***due)
{
	struct sl_engine_priv *v = e->priv;
	struct sl_hrt_list *l;
	size_t i, k = 0, n = 0;
	*due = NULL;
	if (!v->hrt || cpu < 0 || cpu >= e->ncpus)
		return 0;
	l = &v->hrt[cpu];
	for (i = 0; i < l->n; i++) {
		struct sl_task *p = &e->tasks[l->idx[i]];
		if (!armed(p) || p->eng->hrt_cpu != cpu)
			continue; /* woken otherwise, or another sleep's */
		if (p->eng->hrt_soft <= e->now) {
			SL_GROW(v->hrt_due, v->hrt_due_cap, n + 1);
			v->hrt_due[n++] = p;
			p->eng->hrt_cpu = -1;
		} else {
			l->idx[k++] = l->idx[i];
		}
	}
	l->n = k;
	if (n > 1)
		qsort(v->hrt_due, n, sizeof(*v->hrt_due), by_hard);
	*due = v->hrt_due;
	return n;
}
