/* common/behaviour.c - see behaviour.h */
#include "behaviour.h"
#include "util.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

void sl_behaviour_release(struct sl_behaviour *b)
{
	size_t i;
	if (!b)
		return;
	for (i = 0; i < b->ntasks; i++)
		free(b->tasks[i].phases);
	free(b->tasks);
	b->tasks = NULL;
	b->ntasks = 0;
	free(b->groups);
	b->groups = NULL;
	b->ngroups = 0;
	free(b->cpu_up_ns);
	b->cpu_up_ns = NULL;
	free(b->cpu_pelt);
	b->cpu_pelt = NULL;
}

void sl_behaviour_copy_groups(struct sl_behaviour *out, const struct sl_behaviour *in)
{
	out->groups = NULL;
	out->ngroups = in->ngroups;
	out->groups_from = in->groups_from;
	out->groups_assumed = in->groups_assumed;
	out->ledger_tasks = in->ledger_tasks;
	if (in->ngroups) {
		out->groups = xmalloc(in->ngroups * sizeof(*out->groups));
		memcpy(out->groups, in->groups, in->ngroups * sizeof(*out->groups));
	}
	out->cpu_pelt = NULL;
	if (in->cpu_pelt && in->cpus > 0) {
		out->cpu_pelt = xmalloc((size_t)in->cpus * sizeof(*out->cpu_pelt));
		memcpy(out->cpu_pelt, in->cpu_pelt, (size_t)in->cpus * sizeof(*out->cpu_pelt));
	}
}

size_t sl_behaviour_exclude(struct sl_behaviour *b, const char *const *globs, size_t n)
{
	size_t i, k, out = 0;
	for (i = 0; i < b->ntasks; i++)
		for (k = 0; k < n; k++)
			if (!fnmatch(globs[k], b->tasks[i].comm, 0)) {
				b->tasks[i].flags |= SL_TASK_EXCLUDED;
				out++;
				break;
			}
	if (!out)
		return 0;
	for (i = 0; i < b->ntasks; i++) {
		struct sl_task_spec *t = &b->tasks[i];
		if (t->parent >= 0 && (size_t)t->parent < b->ntasks &&
		    (b->tasks[t->parent].flags & SL_TASK_EXCLUDED)) {
			t->parent = -1;
			t->parent_progress_ns = 0;
		}
		for (k = 0; k < t->nphases; k++) {
			struct sl_phase *ph = &t->phases[k];
			if (ph->waker_kind == SL_WAKER_TASK && ph->waker >= 0 &&
			    (size_t)ph->waker < b->ntasks &&
			    (b->tasks[ph->waker].flags & SL_TASK_EXCLUDED)) {
				ph->waker_kind = SL_WAKER_NONE;
				ph->waker = -1;
				ph->waker_progress_ns = 0;
			}
		}
	}
	return out;
}
