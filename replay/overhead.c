/* replay/overhead.c - the kernel overheads' draws (docs/replay.md "Kernel
 * overheads", "Preemption model"). */
#include "engine_priv.h"

/* The next draw of an overhead distribution q (o->nq values): splitmix64
 * (Steele, Lea, Flood 2014) over a state seeded by --seed, so the same
 * options give the same draws. 0 without overheads. */
uint64_t sl_eng_draw_lat(struct sl_engine *e, const uint64_t *q)
{
	uint64_t z;
	int n = e->priv->o->nq;
	if (n <= 0)
		return 0;
	if (n == 1)
		return q[0];
	z = (e->priv->lat_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return q[z % (uint64_t)n];
}

/* How long a wakeup of p onto a busy CPU takes to reach it and preempt
 * under the preemption model (docs/replay.md "Preemption model"): with
 * none or voluntary a draw from the switch latencies (the recording's wait
 * for the running task's preemption point); full: their least (no wait
 * for a return to user space); lazy: a real-time wakee as full, a fair one
 * as none but no later than the next tick (which turns a lazy
 * need_resched into a real one: kernel/sched/core.c, sched_tick). */
uint64_t sl_eng_switch_lat(struct sl_engine *e, const struct sl_task *p, int own)
{
	const struct sl_replay_opts *o = e->priv->o;
	int rt = p->sched_policy == SL_SCHED_FIFO || p->sched_policy == SL_SCHED_RR;
	const uint64_t *q = o->switch_own && own ? o->switch_own_lat_ns : o->switch_lat_ns;
	uint64_t lat;
	if (o->nq <= 0)
		return 0;
	if (o->preempt == SL_PREEMPT_FULL || (o->preempt == SL_PREEMPT_LAZY && rt))
		return q[0];
	lat = sl_eng_draw_lat(e, q);
	if (o->preempt == SL_PREEMPT_LAZY && e->priv->next_tick > e->now &&
	    e->priv->next_tick - e->now < lat)
		lat = e->priv->next_tick - e->now;
	return lat;
}

/* The kernel puts a task woken onto a busy CPU on that CPU's runqueue at
 * once (try_to_wake_up -> ttwu_queue: a CPU that shares the waker's cache
 * is not sent the wakee through the wake list, ttwu_queue_cond, v6.18);
 * only the preemption waits for the running task's preemption point. The
 * engine sends such a wakee on its way for a switch latency (the recorded
 * wait for that preemption); if the running task blocks or yields first,
 * the kernel's pick at that switch sees the wakee. So when cpu is about to
 * pick after its task blocked or yielded (or with nothing queued), the
 * wakees on their way to it arrive now and compete (at a yield: 4
 * sysbench threads on 2 CPUs, delay KS 0.40 -> 0.26, docs/validate.md).
 * Not at a preemption (a tick's, another wakee's): the drawn latency
 * stands for the running task's way to its preemption point, which holds
 * the tick's resched back as well (PREEMPT_NONE). Not a wakee the blocking
 * task woke in this very instant: such a causal wake point is at the end
 * of the waker's burst, where the kernel's waker still returns from its
 * system call and enters schedule() (pipe ping-pong: with those too, 40 %
 * of perf bench sched pipe's wakeups ran with no delay, docs/replay.md); a
 * wakee it woke earlier in its burst arrives (a writer that blocks 13 us
 * after its write: the reader runs at the switch, not after a drawn
 * millisecond). */
void sl_eng_take_inflight(struct sl_engine *e, int cpu)
{
	const struct sl_task *curr = e->cpus[cpu].curr; /* the task blocking or yielding */
	size_t i;
	for (i = 0; i < e->priv->nreal && e->cpus[cpu].wake_queued; i++) {
		struct sl_task *p = &e->tasks[i];
		const struct sl_waking *k = &e->priv->waking[i];
		if (p->state != SL_TS_WAKING || !k->busy || k->cpu != cpu || p == curr ||
		    (curr && k->w.waker == curr->idx && k->w.now == e->now))
			continue;
		sl_eng_arrive(e, p); /* its EV_ENQUEUE is stale now */
	}
}

void sl_eng_arrive(struct sl_engine *e, struct sl_task *p)
{
	struct sl_waking *k = &e->priv->waking[p->idx];
	if (k->busy)
		e->cpus[k->cpu].wake_queued--;
	else
		e->cpus[k->cpu].wake_pending--;
	k->busy = 0;
	k->w.now = e->now;
	k->w.sleep_ns = e->now - k->w.sleep_start_ns;
	sl_eng_enqueue(e, p, k->cpu, &k->w);
}
