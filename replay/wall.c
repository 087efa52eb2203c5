/* replay/wall.c - bursts that end on a wall-clock deadline (docs/model.md
 * "Wall-clock bursts"; the tasks are found at import, analyze/wall.h).
 *
 * A wall phase of a marked task (a burst between two sleeps, neither its
 * first nor its last) runs until wall_ns after its first switch-in, then
 * wall_tail_ns more: switched in before its deadline, it may run to the
 * deadline plus the tail; switched in after it, the tail alone. Its wall
 * phases together never run past their recorded CPU time (a phase that
 * finds it used up ends at its switch-in), and its last phase runs its
 * recorded time plus what they left, so the task's CPU time is the
 * recorded one. (Keeping each phase within a band around the recorded
 * progress instead, so that the last phase takes less, was measured
 * worse: docs/model.md.) */
#include "engine_priv.h"

static int is_wall_phase(const struct sl_task_spec *s, size_t i)
{
	return (s->flags & SL_TASK_WALL) && s->wall_ns && i >= 1 && i + 1 < s->nphases &&
	       sl_end_sleeps(s->phases[i - 1].end) && sl_end_sleeps(s->phases[i].end) &&
	       s->phases[i].run_ns && s->phases[i].run_ns != SL_INF;
}

void sl_eng_wall_init(struct sl_task *p)
{
	const struct sl_task_spec *s = p->spec;
	struct sl_task_eng *x = p->eng;
	size_t i;
	x->wall_total = x->wall_done = 0;
	if (!(s->flags & SL_TASK_WALL))
		return;
	for (i = 1; i < s->nphases; i++)
		if (is_wall_phase(s, i))
			x->wall_total += s->phases[i].run_ns;
}

void sl_eng_phase_run(struct sl_engine *e, struct sl_task *p)
{
	struct sl_task_eng *x = p->eng;
	x->run_left = x->ph.run_ns;
	if (!e->priv->wall || !(p->flags & SL_TASK_WALL))
		return;
	if (x->wall_ph) /* the wall phase that ended: what it used */
		x->wall_done += p->sum_exec_ns - x->wall_exec0;
	x->wall_ph = is_wall_phase(p->spec, x->phase);
	x->wall_exec0 = p->sum_exec_ns;
	x->wall_start = SL_INF;
	if (!x->wall_ph && x->phase + 1 == p->spec->nphases && x->run_left != SL_INF) {
		/* the last phase: what the wall phases left */
		x->run_left += x->wall_total - x->wall_done;
		x->wall_done = x->wall_total;
	}
}

void sl_eng_wall_resume(struct sl_engine *e, struct sl_task *p)
{
	struct sl_task_eng *x = p->eng;
	uint64_t so_far = x->wall_done + (p->sum_exec_ns - x->wall_exec0), target;
	if (x->wall_start == SL_INF)
		x->wall_start = e->now;
	/* to the deadline (nothing when it has passed), then the tail */
	target = x->wall_start + p->spec->wall_ns > e->now ? x->wall_start + p->spec->wall_ns - e->now : 0;
	target += so_far + p->spec->wall_tail_ns;
	if (target > x->wall_total)
		target = x->wall_total;
	x->run_left = target > so_far ? target - so_far : 0;
}
