/* analyze/store_groups.c - each thread's task group and affinity, from the
 * recording's ledger (docs/ledger.md), into the store (thread.autogroup ...,
 * schema version 11; task_model.cpumask), and back into a behaviour's
 * groups (docs/groups.md).
 *
 * The kernel's group of a fair task (kernel/sched/autogroup.h,
 * task_wants_autogroup / autogroup_task_group, v6.18): the task's cgroup of
 * the cpu controller when that is not the root group, else its session's
 * autogroup when autogroup is on and it has one (kernel threads have
 * none), else the root group. A group's share of each CPU is tg->shares:
 * a cgroup's cpu.weight (100 = 1024, scale_load of sched_weight_from_cgroup)
 * or cpu.shares, an autogroup's sched_prio_to_weight[nice + 20]. */
#include "store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collector/ledger.h"
#include "../replay/fair_weights.h"

/* A thread's affinity from the ledger into its task model, where it keeps
 * the thread off some of the trace's CPUs (taskset, a pinned benchmark
 * thread): the replay may only place it there. */
static int store_affinity(struct sl_store *s, sqlite3_stmt *q, int64_t trace_id, int cpus,
			  const struct sl_ledger_thread *t, struct sl_diag *d)
{
	uint64_t all = cpus >= 64 ? UINT64_MAX : (1ULL << cpus) - 1, mask = t->affinity & all;
	if (cpus <= 0 || cpus > 64 || !mask || mask == all)
		return 0;
	sqlite3_reset(q);
	sqlite3_bind_int64(q, 1, (int64_t)mask);
	sqlite3_bind_int64(q, 2, trace_id);
	sqlite3_bind_int(q, 3, t->tid);
	return sqlite3_step(q) == SQLITE_DONE ? 0 : st_dberr(s, d, "storing the threads' affinity");
}

/* A thread's policy, nice and RT priority from the ledger: the kernel's own
 * values (p->policy, static_prio, rt_priority), where a trace has only the
 * effective prio of each switch (sched_switch's prio, __task_prio,
 * kernel/sched/core.c, v6.18): 120 + nice for both SCHED_NORMAL and
 * SCHED_BATCH, 99 - RT priority for both FIFO and RR, and a priority
 * inheritance boost shows as the donor's prio (rt_mutex_setprio). The
 * class the trace shows the thread in (fair or real-time) stays: a thread
 * the ledger has in another class was moved between the trace and the
 * snapshot. SCHED_IDLE (5) and deadline (6) have no model here and are
 * left as the trace has them. */
static int store_policy(struct sl_store *s, sqlite3_stmt *q, int64_t trace_id,
			const struct sl_ledger_thread *t, struct sl_diag *d)
{
	int fair = t->policy == 0 || t->policy == 3;
	if (!fair && !((t->policy == 1 || t->policy == 2) && t->rt_prio >= 1 && t->rt_prio <= 99))
		return 0;
	if (fair && (t->nice < -20 || t->nice > 19))
		return 0;
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, t->policy == 3 ? "batch" : t->policy == 2 ? "rr" :
				t->policy == 1 ? "fifo" : "normal", -1, SQLITE_STATIC);
	if (fair)
		sqlite3_bind_int(q, 2, t->nice);
	else
		sqlite3_bind_null(q, 2);
	sqlite3_bind_int(q, 3, fair ? 0 : t->rt_prio);
	sqlite3_bind_int64(q, 4, trace_id);
	sqlite3_bind_int(q, 5, t->tid);
	sqlite3_bind_text(q, 6, fair ? "normal" : "fifo", -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 7, fair ? "batch" : "rr", -1, SQLITE_STATIC);
	return sqlite3_step(q) == SQLITE_DONE ? 0 : st_dberr(s, d, "storing the threads' policy");
}

int sl_store_thread_groups(struct sl_store *s, int64_t trace_id, const struct sl_ledger *l,
			   struct sl_diag *d)
{
	/* and its thread group: a trace.dat or a perf.data without the tgids
	 * (trace-cmd's saved_tgids, perf's comm events) gives every thread its
	 * own (collector/model_finish.c), where the ledger knows the process */
	sqlite3_stmt *q = st_prep(s,
				  "UPDATE thread SET autogroup = ?1, autogroup_nice = ?2, cgroup = ?3,"
				  " cgroup_weight = ?4, tgid = ?7 WHERE trace_id = ?5 AND tid = ?6",
				  d);
	sqlite3_stmt *qa, *qp;
	const struct sl_ledger_snap *snaps[3] = { &l->end, &l->start, &l->seen };
	int have[3] = { l->have_end, l->have_start, l->have_seen }, k;
	struct sl_trace_info tr;
	size_t i;
	if (!q)
		return -1;
	qa = st_prep(s,
		     "UPDATE task_model SET cpumask = ? WHERE utid IN"
		     " (SELECT utid FROM thread WHERE trace_id = ? AND tid = ?)",
		     d);
	qp = !qa ? NULL : st_prep(s,
		     "UPDATE thread SET policy = ?1, nice = COALESCE(?2, nice), rt_priority = ?3"
		     " WHERE trace_id = ?4 AND tid = ?5 AND policy IN (?6, ?7)",
		     d);
	if (!qa || !qp || sl_store_get_trace(s, trace_id, &tr, d))
		goto fail;
	/* the threads seen while recording (version 2), then the start, then
	 * the end snapshot: the last one wins for a thread in several */
	for (k = 2; k >= 0; k--) {
		if (!have[k])
			continue;
		for (i = 0; i < snaps[k]->nt; i++) {
			const struct sl_ledger_thread *t = &snaps[k]->t[i];
			sqlite3_reset(q);
			sqlite3_bind_int64(q, 1, t->autogroup);
			sqlite3_bind_int(q, 2, t->autogroup_nice);
			sqlite3_bind_text(q, 3, t->cgroup, -1, SQLITE_TRANSIENT);
			sqlite3_bind_int64(q, 4, (int64_t)t->cgroup_weight);
			sqlite3_bind_int64(q, 5, trace_id);
			sqlite3_bind_int(q, 6, t->tid);
			sqlite3_bind_int(q, 7, t->tgid);
			if (sqlite3_step(q) != SQLITE_DONE) {
				st_dberr(s, d, "storing the threads' groups");
				goto fail;
			}
			if (store_affinity(s, qa, trace_id, tr.cpus, t, d) ||
			    store_policy(s, qp, trace_id, t, d))
				goto fail;
		}
	}
	sqlite3_finalize(q);
	sqlite3_finalize(qa);
	sqlite3_finalize(qp);
	return 0;
fail:
	sqlite3_finalize(q);
	sqlite3_finalize(qa);
	sqlite3_finalize(qp);
	return -1;
}

int sl_store_start_pelt(struct sl_store *s, int64_t trace_id, const struct sl_ledger *l, struct sl_diag *d)
{
	const struct sl_ledger_snap *sn = &l->start;
	sqlite3_stmt *q;
	size_t i;
	int rc = 0;
	if (!l->have_start || l->version < 5)
		return 0;
	q = st_prep(s,
		    "INSERT INTO start_pelt(trace_id, cpu, utid, load_avg, runnable_avg, util_avg, util_est, age_ns)"
		    " SELECT ?1, ?2, CASE WHEN ?3 < 0 THEN NULL ELSE (SELECT min(utid) FROM thread"
		    " WHERE trace_id = ?1 AND tid = ?3) END, ?4, ?5, ?6, ?7, ?8"
		    " WHERE ?3 < 0 OR EXISTS (SELECT 1 FROM thread WHERE trace_id = ?1 AND tid = ?3)",
		    d);
	if (!q)
		return -1;
	for (i = 0; i < sn->ncpu + sn->nt && !rc; i++) {
		int cpu, tid = -1;
		uint64_t v[5];
		if (i < sn->ncpu) {
			const struct sl_ledger_cpu *c = &sn->cpu[i];
			if (!c->pelt_known)
				continue;
			cpu = (int)i;
			v[0] = c->load_avg, v[1] = c->runnable_avg, v[2] = c->util_avg, v[3] = c->util_est, v[4] = 0;
		} else {
			const struct sl_ledger_thread *t = &sn->t[i - sn->ncpu];
			const struct sl_ledger_cpu *c;
			uint64_t now;
			if (!t->pelt_known || t->pelt_cpu < 0 || (size_t)t->pelt_cpu >= sn->ncpu)
				continue;
			c = &sn->cpu[t->pelt_cpu];
			cpu = t->pelt_cpu;
			tid = t->tid;
			/* its CPU's clock_task when the thread was read: the
			 * debug file's, moved by the monotonic time between */
			now = c->pelt_known ? c->clock_task_ns + (t->at_ns - c->pelt_mono_ns) : 0;
			v[0] = t->load_avg, v[1] = t->runnable_avg, v[2] = t->util_avg, v[3] = t->util_est;
			v[4] = c->pelt_known && now > t->last_update_ns ? now - t->last_update_ns : 0;
		}
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, trace_id);
		sqlite3_bind_int(q, 2, cpu);
		sqlite3_bind_int(q, 3, tid);
		sqlite3_bind_int64(q, 4, (int64_t)(v[0] > 1u << 30 ? 1u << 30 : v[0]));
		sqlite3_bind_int64(q, 5, (int64_t)(v[1] > 1u << 30 ? 1u << 30 : v[1]));
		sqlite3_bind_int64(q, 6, (int64_t)(v[2] > 1u << 30 ? 1u << 30 : v[2]));
		sqlite3_bind_int64(q, 7, (int64_t)(v[3] > 1u << 30 ? 1u << 30 : v[3]));
		sqlite3_bind_int64(q, 8, (int64_t)(v[4] > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : v[4]));
		if (sqlite3_step(q) != SQLITE_DONE)
			rc = st_dberr(s, d, "storing the start's load tracking");
	}
	sqlite3_finalize(q);
	return rc;
}

/* the group named name, added with shares if new; its group1 */
static uint32_t group_of(struct sl_behaviour *b, size_t *cap, const char *name, unsigned long shares)
{
	size_t i;
	for (i = 0; i < b->ngroups; i++)
		if (!strcmp(b->groups[i].name, name))
			return (uint32_t)i + 1;
	SL_GROW(b->groups, *cap, b->ngroups + 1);
	snprintf(b->groups[b->ngroups].name, sizeof(b->groups[b->ngroups].name), "%s", name);
	b->groups[b->ngroups].shares = shares ? shares : 1024;
	return (uint32_t)++b->ngroups;
}

/* the group1 of a thread the ledger holds (autogroup_task_group) */
static uint32_t ledger_group(struct sl_behaviour *b, size_t *cap, const struct sl_group_raw *g)
{
	char name[64];
	if (g->cgroup[0] && strcmp(g->cgroup, "/")) {
		/* cpu.weight 100 is tg->shares 1024 (sched_weight_from_cgroup) */
		unsigned long shares = g->weight > 0 ? (unsigned long)(g->weight * 1024 / 100) : 1024;
		return group_of(b, cap, g->cgroup, shares < 2 ? 2 : shares);
	}
	if (g->autogroup < 0)
		return 0;
	snprintf(name, sizeof(name), "autogroup-%lld", (long long)g->autogroup);
	return group_of(b, cap, name, sl_fair_weight(g->autogroup_nice));
}

void sl_behaviour_set_groups(struct sl_behaviour *b, const struct sl_group_raw *raw)
{
	size_t i, j, cap = 0, known = 0;
	uint8_t *done = xcalloc(b->ntasks ? b->ntasks : 1, 1);
	for (i = 0; i < b->ntasks; i++)
		if (raw[i].known) {
			b->tasks[i].group1 = ledger_group(b, &cap, &raw[i]);
			done[i] = 1;
			known++;
		}
	b->groups_from = known ? SL_GROUPS_LEDGER : SL_GROUPS_NONE;
	b->ledger_tasks = known;
	b->groups_assumed = 0;
	if (!known) {
		free(done);
		return;
	}
	/* a thread the ledger does not hold (born and gone between its
	 * snapshots): its parent's group (fork keeps the autogroup and the
	 * cgroup; a setsid after the fork is not seen), else its thread
	 * group's, else the root group; a kernel thread is in the root group */
	for (i = 0; i < b->ntasks; i++) {
		struct sl_task_spec *t = &b->tasks[i];
		int32_t p = t->parent;
		size_t hops = 0;
		if (done[i])
			continue;
		b->groups_assumed++;
		if (t->flags & SL_TASK_KTHREAD)
			continue;
		while (p >= 0 && (size_t)p < b->ntasks && !raw[p].known && hops++ < b->ntasks)
			p = b->tasks[p].parent;
		if (p >= 0 && (size_t)p < b->ntasks && raw[p].known) {
			t->group1 = b->tasks[p].group1;
			continue;
		}
		for (j = 0; j < b->ntasks; j++)
			if (raw[j].known && b->tasks[j].tgid == t->tgid && t->tgid > 0) {
				t->group1 = b->tasks[j].group1;
				break;
			}
	}
	free(done);
}
