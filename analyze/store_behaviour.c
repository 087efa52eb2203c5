/* analyze/store_behaviour.c - a trace's behaviour in the store: threads,
 * task models, and each task's phases as JSON text (written and parsed
 * here, without a JSON library: the database may have been edited, so
 * anything unexpected is an error, never a crash). */
#include "store_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* enum values <-> the names stored in the database (index 0 = default) */
static const char *const policy_names[] = { [SL_SCHED_NORMAL] = "normal", [SL_SCHED_FIFO] = "fifo",
					    [SL_SCHED_RR] = "rr", [SL_SCHED_BATCH] = "batch" };
static const char *const waker_names[] = { [SL_WAKER_NONE] = "none", [SL_WAKER_TASK] = "task",
					   [SL_WAKER_IRQ] = "irq", [SL_WAKER_IDLE] = "idle" };

static const char *name_of(const char *const *tab, size_t n, int v)
{
	return v >= 0 && (size_t)v < n ? tab[v] : tab[0];
}

static int index_of(const char *const *tab, size_t n, const char *name)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!strcmp(tab[i], name))
			return (int)i;
	return 0;
}

/* SQLite integers are signed 64-bit: SL_INF is stored as -1 */
static void bind_dur(sqlite3_stmt *q, int i, uint64_t v)
{
	sqlite3_bind_int64(q, i, v == SL_INF ? -1 : (sqlite3_int64)v);
}

static uint64_t col_dur(sqlite3_stmt *q, int i)
{
	sqlite3_int64 v = sqlite3_column_int64(q, i);
	return v < 0 ? SL_INF : (uint64_t)v;
}

/* index of utid in the sorted utid array, -1 if absent */
static int32_t utid_index(const int64_t *utids, size_t n, int64_t utid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (utids[mid] < utid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && utids[lo] == utid ? (int32_t)lo : -1;
}

/* A growing text buffer for the phases JSON. */
struct jbuf {
	char *p;
	size_t n, cap;
};

static void jb_need(struct jbuf *j, size_t more)
{
	if (j->n + more + 1 > j->cap) {
		j->cap = (j->n + more + 1) * 2;
		j->p = xrealloc(j->p, j->cap);
	}
}

/* v in decimal at o, without printf (a burst table has ~10^5 phases of 11
 * numbers); returns the end */
static char *put_dec(char *o, int64_t v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	char tmp[24], *e = tmp + sizeof(tmp), *p = e;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	if (v < 0)
		*o++ = '-';
	if (u < 10) { /* pipe, lost, CPUs: most are one digit */
		*o++ = (char)('0' + u);
		return o;
	}
	while (u >= 100) { /* two digits at a time, from the right */
		p -= 2;
		memcpy(p, pairs + 2 * (u % 100), 2);
		u /= 100;
	}
	if (u >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * u, 2);
	} else {
		*--p = (char)('0' + u);
	}
	memcpy(o, p, (size_t)(e - p));
	return o + (e - p);
}

/* a decimal, or null when absent */
static char *put_opt(char *o, int present, int64_t v)
{
	if (present)
		return put_dec(o, v);
	memcpy(o, "null", 4);
	return o + 4;
}

static char *put_lit(char *o, const char *s)
{
	size_t l = strlen(s);
	memcpy(o, s, l);
	return o + l;
}

/* the most one phase takes: 11 numbers of up to 20 digits and a sign, two
 * names, the punctuation */
enum { PHASE_MAX = 11 * 21 + 2 * 8 + 32 };

/* The phases of t as JSON: [[run_ns, sleep_ns, "end", "waker_kind",
 * waker_utid|null, waker_progress_ns, pipe, lost, wake_cpu|null,
 * sleep_cpu|null, irq_ns, tick_n, wake_at], ...]; SL_INF is -1; wake_cpu (schema 8) is the
 * CPU an interrupt or idle wakeup fired on, sleep_cpu (schema 9) the CPU the
 * task slept on before it, irq_ns (schema 12) the burst's interference,
 * tick_n (schema 15) the ticks of a sleep a timer ended at the tick, wake_at
 * (schema 16) an absolute timer's recorded wakeup time (trace clock; 0 for
 * every other phase: analyze/abstimer.h).
 * Room for a phase is made once, then it is written in place. */
static void phases_json(struct jbuf *j, const struct sl_behaviour *b, const struct sl_task_spec *t)
{
	size_t k;
	char *o;
	jb_need(j, 2);
	j->n = 0;
	j->p[j->n++] = '[';
	for (k = 0; k < t->nphases; k++) {
		const struct sl_phase *p = &t->phases[k];
		int known = p->waker >= 0 && (size_t)p->waker < b->ntasks;
		jb_need(j, PHASE_MAX);
		o = j->p + j->n;
		if (k)
			*o++ = ',';
		*o++ = '[';
		o = put_dec(o, p->run_ns == SL_INF ? -1 : (int64_t)p->run_ns);
		*o++ = ',';
		o = put_dec(o, p->sleep_ns == SL_INF ? -1 : (int64_t)p->sleep_ns);
		o = put_lit(o, ",\"");
		*o++ = p->end >= 'A' && p->end <= 'Z' ? p->end : '?';
		o = put_lit(o, "\",\"");
		o = put_lit(o, name_of(waker_names, SL_ARRAY_SIZE(waker_names), p->waker_kind));
		o = put_lit(o, "\",");
		o = put_opt(o, known, known ? b->tasks[p->waker].utid : 0);
		*o++ = ',';
		o = put_dec(o, (int64_t)p->waker_progress_ns);
		*o++ = ',';
		o = put_dec(o, p->pipe);
		*o++ = ',';
		o = put_dec(o, p->lost);
		*o++ = ',';
		o = put_opt(o, p->wake_cpu1 != 0, (int64_t)p->wake_cpu1 - 1);
		*o++ = ',';
		o = put_opt(o, p->sleep_cpu1 != 0, (int64_t)p->sleep_cpu1 - 1);
		*o++ = ',';
		o = put_dec(o, (int64_t)p->irq_ns);
		*o++ = ',';
		o = put_dec(o, (int64_t)p->tick_n);
		*o++ = ',';
		o = put_dec(o, (t->flags & SL_TASK_ABS_TIMER) ? (int64_t)p->wake_ts : 0);
		*o++ = ']';
		j->n = (size_t)(o - j->p);
	}
	jb_need(j, 1);
	j->p[j->n++] = ']';
	j->p[j->n] = 0;
}

int sl_store_add_behaviour(struct sl_store *s, int64_t trace_id, struct sl_behaviour *b,
			   const uint64_t *first_ts, const uint64_t *last_ts, struct sl_diag *d)
{
	int64_t base = sl_store_next_utid(s);
	struct jbuf j = { 0 };
	size_t i;
	for (i = 0; i < b->ntasks; i++)
		b->tasks[i].utid = base + (int64_t)i;
	for (i = 0; i < b->ntasks; i++) {
		struct sl_task_spec *t = &b->tasks[i];
		sqlite3_stmt *q = s->st[ST_THREAD];
		sqlite3_bind_int64(q, 1, t->utid);
		sqlite3_bind_int64(q, 2, trace_id);
		sqlite3_bind_int(q, 3, t->tid);
		sqlite3_bind_int(q, 4, t->tgid);
		sqlite3_bind_text(q, 5, t->comm, -1, SQLITE_STATIC);
		sqlite3_bind_int(q, 6, t->nice);
		sqlite3_bind_text(q, 7, name_of(policy_names, SL_ARRAY_SIZE(policy_names), t->policy), -1, SQLITE_STATIC);
		sqlite3_bind_int(q, 8, t->rt_prio);
		if (first_ts)
			st_bind_u64(q, 9, first_ts[i]);
		if (last_ts)
			st_bind_u64(q, 10, last_ts[i]);
		if (st_step_done(s, q, d, "adding a thread"))
			goto fail;
		q = s->st[ST_MODEL];
		sqlite3_bind_int64(q, 1, t->utid);
		st_bind_u64(q, 2, t->start_ns);
		if (t->parent >= 0 && (size_t)t->parent < b->ntasks)
			sqlite3_bind_int64(q, 3, b->tasks[t->parent].utid);
		st_bind_u64(q, 4, t->parent_progress_ns);
		sqlite3_bind_int64(q, 5, t->flags);
		sqlite3_bind_int64(q, 6, (sqlite3_int64)t->cpumask);
		sqlite3_bind_int(q, 7, t->initially_runnable);
		bind_dur(q, 8, t->run_ns);
		bind_dur(q, 9, t->sleep_ns);
		st_bind_u64(q, 10, t->count);
		phases_json(&j, b, t);
		sqlite3_bind_text(q, 11, j.p, (int)j.n, SQLITE_STATIC);
		st_bind_u64(q, 12, t->flags & SL_TASK_WALL ? t->wall_ns : 0);
		st_bind_u64(q, 13, t->flags & SL_TASK_WALL ? t->wall_tail_ns : 0);
		if (t->start_cpu1 > 0)
			sqlite3_bind_int(q, 14, t->start_cpu1 - 1);
		if (st_step_done(s, q, d, "adding a task model"))
			goto fail;
	}
	free(j.p);
	return 0;
fail:
	free(j.p);
	return -1;
}

/* A reader of the phases JSON (ours, but the database may have been edited:
 * anything unexpected is an error, never a crash). */
struct jrd {
	const char *p, *start;
};

static void jr_ws(struct jrd *r)
{
	while (*r->p == ' ' || *r->p == '\n' || *r->p == '\t' || *r->p == '\r')
		r->p++;
}

static int jr_ch(struct jrd *r, char c)
{
	jr_ws(r);
	if (*r->p != c)
		return -1;
	r->p++;
	return 0;
}

/* an integer (null gives *isnull = 1 when isnull is given) */
static int jr_int(struct jrd *r, int64_t *v, int *isnull)
{
	uint64_t u = 0;
	int neg = 0, digits = 0;
	jr_ws(r);
	if (isnull) {
		*isnull = 0;
		if (!strncmp(r->p, "null", 4)) {
			r->p += 4;
			*isnull = 1;
			*v = 0;
			return 0;
		}
	}
	if (*r->p == '-') {
		neg = 1;
		r->p++;
	}
	while (*r->p >= '0' && *r->p <= '9') {
		if (u > (UINT64_MAX - 9) / 10)
			return -1;
		u = u * 10 + (uint64_t)(*r->p++ - '0');
		digits++;
	}
	if (!digits || u > (uint64_t)INT64_MAX)
		return -1;
	*v = neg ? -(int64_t)u : (int64_t)u;
	return 0;
}

static int jr_str(struct jrd *r, char *out, size_t n)
{
	size_t k = 0;
	if (jr_ch(r, '"'))
		return -1;
	while (*r->p && *r->p != '"') {
		if (*r->p == '\\' || k + 1 >= n)
			return -1;
		out[k++] = *r->p++;
	}
	if (*r->p != '"')
		return -1;
	r->p++;
	out[k] = 0;
	return 0;
}

/* Parse a task's phases (waker utids mapped to task indexes). 0, or -1
 * with *off the byte offset where it went wrong. */
static int parse_phases(const char *json, struct sl_task_spec *t, const int64_t *utids, size_t n,
			size_t *off)
{
	struct jrd r = { json, json };
	size_t cap = 0;
	const char *c;
	/* room for them at once: a phase is one '[' (more in a document
	 * edited by hand only makes the room larger) */
	for (c = strchr(json, '['); c; c = strchr(c + 1, '['))
		cap++;
	if (cap > 1) {
		cap--;
		t->phases = xmalloc_huge(cap * sizeof(*t->phases));
	} else {
		cap = 0;
	}
	if (jr_ch(&r, '['))
		goto bad;
	jr_ws(&r);
	if (*r.p == ']') {
		r.p++;
		goto done;
	}
	for (;;) {
		struct sl_phase *p;
		int64_t run, sleep, waker, prog, pipe, lost, wcpu = 0, scpu = 0, irq = 0, tickn = 0, wakeat = 0;
		char end[4], wk[8];
		int wnull, cnull = 1, snull = 1;
		if (jr_ch(&r, '[') || jr_int(&r, &run, NULL) || jr_ch(&r, ',') ||
		    jr_int(&r, &sleep, NULL) || jr_ch(&r, ',') || jr_str(&r, end, sizeof(end)) ||
		    jr_ch(&r, ',') || jr_str(&r, wk, sizeof(wk)) || jr_ch(&r, ',') ||
		    jr_int(&r, &waker, &wnull) || jr_ch(&r, ',') || jr_int(&r, &prog, NULL) ||
		    jr_ch(&r, ',') || jr_int(&r, &pipe, NULL) || jr_ch(&r, ',') ||
		    jr_int(&r, &lost, NULL))
			goto bad;
		/* the wakeup's CPU: a ninth element since schema 8 (a version 7
		 * document has eight: unknown); the CPU it slept on, a tenth
		 * since schema 9 */
		jr_ws(&r);
		if (*r.p == ',' && (r.p++, jr_int(&r, &wcpu, &cnull)))
			goto bad;
		jr_ws(&r);
		if (*r.p == ',' && (r.p++, jr_int(&r, &scpu, &snull)))
			goto bad;
		jr_ws(&r); /* its interference, an eleventh since schema 12 */
		if (*r.p == ',' && (r.p++, jr_int(&r, &irq, NULL)))
			goto bad;
		jr_ws(&r); /* a timer's ticks at the tick, a twelfth since schema 15 */
		if (*r.p == ',' && (r.p++, jr_int(&r, &tickn, NULL)))
			goto bad;
		jr_ws(&r); /* an absolute timer's wakeup time, a thirteenth since schema 16 */
		if (*r.p == ',' && (r.p++, jr_int(&r, &wakeat, NULL)))
			goto bad;
		if (jr_ch(&r, ']'))
			goto bad;
		if (run < -1 || sleep < -1 || prog < 0 || strlen(end) != 1 || (!cnull && (wcpu < 0 || wcpu >= 4096)) ||
		    (!snull && (scpu < 0 || scpu >= 4096)) || irq < 0 || (run >= 0 && irq > run) ||
		    tickn < 0 || tickn > UINT32_MAX || wakeat < 0)
			goto bad;
		SL_GROW_HUGE(t->phases, cap, t->nphases + 1);
		p = &t->phases[t->nphases++];
		memset(p, 0, sizeof(*p));
		p->run_ns = run < 0 ? SL_INF : (uint64_t)run;
		p->sleep_ns = sleep < 0 ? SL_INF : (uint64_t)sleep;
		p->end = end[0];
		p->waker_kind = (uint8_t)index_of(waker_names, SL_ARRAY_SIZE(waker_names), wk);
		p->waker = wnull ? -1 : utid_index(utids, n, waker);
		p->waker_progress_ns = (uint64_t)prog;
		p->pipe = pipe != 0;
		p->lost = lost != 0;
		p->wake_cpu1 = cnull ? 0 : (uint32_t)wcpu + 1;
		p->sleep_cpu1 = snull ? 0 : (uint32_t)scpu + 1;
		p->irq_ns = run < 0 ? 0 : (uint64_t)irq;
		p->tick_n = (uint32_t)tickn;
		p->wake_ts = (uint64_t)wakeat;
		jr_ws(&r);
		if (*r.p == ',') {
			r.p++;
			continue;
		}
		if (jr_ch(&r, ']'))
			goto bad;
		break;
	}
done:
	jr_ws(&r);
	if (*r.p)
		goto bad;
	return 0;
bad:
	*off = (size_t)(r.p - r.start);
	return -1;
}

/* The kernel's load tracking at the trace's start (table start_pelt,
 * schema 17): each CPU's into b->cpu_pelt, each task's into its spec (the
 * tasks are b's in the order of utids[0..nu)). */
static int start_pelt(struct sl_store *s, int64_t trace_id, struct sl_behaviour *b, const int64_t *utids,
		      size_t nu, struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(s,
				  "SELECT cpu, utid, load_avg, runnable_avg, util_avg, util_est, age_ns FROM start_pelt"
				  " WHERE trace_id = ? AND cpu >= 0 AND load_avg >= 0 AND runnable_avg >= 0"
				  " AND util_avg >= 0 AND util_est >= 0 AND age_ns >= 0",
				  d);
	int rc;
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, trace_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int cpu = sqlite3_column_int(q, 0);
		unsigned long v[4];
		int k;
		if (cpu >= b->cpus)
			continue;
		for (k = 0; k < 4; k++) /* an edited database's absurd values: capped */
			v[k] = (unsigned long)(sqlite3_column_int64(q, 2 + k) > 1 << 20 ? 1 << 20
											 : sqlite3_column_int64(q, 2 + k));
		if (sqlite3_column_type(q, 1) == SQLITE_NULL) {
			if (!b->cpu_pelt)
				b->cpu_pelt = xcalloc((size_t)b->cpus, sizeof(*b->cpu_pelt));
			b->cpu_pelt[cpu] = (struct sl_cpu_pelt){ 1, v[0], v[1], v[2], v[3] };
		} else {
			int32_t ti = utid_index(utids, nu, sqlite3_column_int64(q, 1));
			if (ti >= 0) {
				struct sl_task_spec *t = &b->tasks[ti];
				t->pelt_known = 1;
				t->pelt_cpu = cpu;
				t->pelt_load = v[0];
				t->pelt_runnable = v[1];
				t->pelt_util = v[2];
				t->pelt_util_est = v[3];
				t->pelt_age_ns = (uint64_t)sqlite3_column_int64(q, 6);
			}
		}
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : st_dberr(s, d, "loading start_pelt");
}

/* b->cpu_up_ns from the recorded run's late CPUs (sl_store_late_cpus):
 * the replay keeps each offline until its first event. */
static int late_cpus(struct sl_store *s, int64_t trace_id, struct sl_behaviour *b, struct sl_diag *d)
{
	struct sl_late_cpu *v;
	size_t n, i;
	if (sl_store_late_cpus(s, trace_id, &v, &n, d)) {
		sl_behaviour_release(b);
		return -1;
	}
	if (n && b->cpus > 0) {
		b->cpu_up_ns = xcalloc((size_t)b->cpus, sizeof(*b->cpu_up_ns));
		for (i = 0; i < n; i++)
			if (v[i].cpu >= 0 && v[i].cpu < b->cpus)
				b->cpu_up_ns[v[i].cpu] = v[i].first_ns;
	}
	free(v);
	return 0;
}

/* The utids of trace_id's tasks, ascending (the order they are loaded in):
 * the phases name their wakers by utid. *n of them, or -1 with d set. */
static int load_utids(struct sl_store *s, int64_t trace_id, int64_t **out, size_t *n,
		      struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(s,
				  "SELECT t.utid FROM thread t JOIN task_model m ON m.utid = t.utid"
				  " WHERE t.trace_id = ? ORDER BY t.utid",
				  d);
	size_t cap = 0;
	int rc;
	*out = NULL;
	*n = 0;
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, trace_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		SL_GROW(*out, cap, *n + 1);
		(*out)[(*n)++] = sqlite3_column_int64(q, 0);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return st_dberr(s, d, "loading threads");
	return 0;
}

int sl_store_load_behaviour(struct sl_store *s, int64_t trace_id, struct sl_behaviour *b,
			    struct sl_diag *d)
{
	struct sl_trace_info tr;
	sqlite3_stmt *q;
	int64_t *utids = NULL, *parents = NULL;
	struct sl_group_raw *graw = NULL;
	size_t n = 0, nu, cap = 0, i, off;
	int rc;

	memset(b, 0, sizeof(*b));
	if (sl_store_get_trace(s, trace_id, &tr, d) || load_utids(s, trace_id, &utids, &nu, d))
		goto fail;
	q = st_prep(s,
		 "SELECT t.utid, t.tid, t.tgid, t.comm, t.nice, t.policy, t.rt_priority,"
		 " m.start_ns, m.parent_utid, m.parent_progress_ns, m.flags, m.cpumask,"
		 " m.initially_runnable, m.run_ns, m.sleep_ns, m.count, m.phases,"
		 " t.autogroup, t.autogroup_nice, t.cgroup, t.cgroup_weight, m.wall_ns, m.wall_tail_ns,"
		 " m.start_cpu"
		 " FROM thread t JOIN task_model m ON m.utid = t.utid"
		 " WHERE t.trace_id = ? ORDER BY t.utid",
		 d);
	if (!q)
		goto fail;
	sqlite3_bind_int64(q, 1, trace_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct sl_task_spec *t;
		const unsigned char *ph;
		char pol[16];
		if (n == nu || sqlite3_column_int64(q, 0) != utids[n])
			break; /* not the rows just read: changed by another process */
		SL_GROW(b->tasks, cap, n + 1);
		parents = xrealloc(parents, cap * sizeof(*parents));
		graw = xrealloc(graw, cap * sizeof(*graw));
		t = &b->tasks[n];
		memset(t, 0, sizeof(*t));
		b->ntasks = n + 1; /* its phases are released with b */
		t->idx = (int32_t)n;
		t->utid = utids[n];
		t->tid = sqlite3_column_int(q, 1);
		t->tgid = sqlite3_column_int(q, 2);
		st_col_text(q, 3, t->comm, sizeof(t->comm));
		t->nice = sqlite3_column_int(q, 4);
		st_col_text(q, 5, pol, sizeof(pol));
		t->policy = index_of(policy_names, SL_ARRAY_SIZE(policy_names), pol);
		t->rt_prio = sqlite3_column_int(q, 6);
		t->start_ns = (uint64_t)sqlite3_column_int64(q, 7);
		/* the parent's utid is mapped to its index once all are read */
		parents[n] = sqlite3_column_type(q, 8) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, 8);
		t->parent = -1;
		t->parent_progress_ns = (uint64_t)sqlite3_column_int64(q, 9);
		t->flags = (uint32_t)sqlite3_column_int64(q, 10);
		t->cpumask = (uint64_t)sqlite3_column_int64(q, 11);
		t->initially_runnable = sqlite3_column_int(q, 12);
		t->run_ns = col_dur(q, 13);
		t->sleep_ns = col_dur(q, 14);
		t->count = (uint64_t)sqlite3_column_int64(q, 15);
		/* parsed where SQLite holds it (valid until the next step) */
		ph = sqlite3_column_text(q, 16);
		if (parse_phases(ph ? (const char *)ph : "[]", t, utids, nu, &off)) {
			sqlite3_finalize(q);
			sl_fail(d, "%s: task_model.phases of utid %" PRId64 " is malformed at offset %zu",
				s->path, utids[n], off);
			goto fail;
		}
		memset(&graw[n], 0, sizeof(graw[n]));
		graw[n].known = sqlite3_column_type(q, 17) != SQLITE_NULL;
		graw[n].autogroup = sqlite3_column_int64(q, 17);
		graw[n].autogroup_nice = sqlite3_column_int(q, 18);
		st_col_text(q, 19, graw[n].cgroup, sizeof(graw[n].cgroup));
		graw[n].weight = sqlite3_column_int64(q, 20);
		/* a wall-clock task's deadline and tail (wall.h); an edited
		 * database's negative or absurd values (over an hour) make it
		 * an ordinary task */
		if (t->flags & SL_TASK_WALL) {
			sqlite3_int64 w = sqlite3_column_int64(q, 21), tl = sqlite3_column_int64(q, 22);
			if (w > 0 && tl >= 0 && (uint64_t)w <= SL_WALL_MAX_NS && (uint64_t)tl <= SL_WALL_MAX_NS) {
				t->wall_ns = (uint64_t)w;
				t->wall_tail_ns = (uint64_t)tl;
			} else {
				t->flags &= ~(uint32_t)SL_TASK_WALL;
			}
		}
		/* an edited database's negative or absurd CPU: unknown */
		if (sqlite3_column_type(q, 23) == SQLITE_INTEGER) {
			sqlite3_int64 c = sqlite3_column_int64(q, 23);
			t->start_cpu1 = c >= 0 && c < SL_MAX_START_CPU ? (int)c + 1 : 0;
		}
		n++;
	}
	sqlite3_finalize(q);
	if (rc == SQLITE_ROW || (rc == SQLITE_DONE && n != nu)) {
		sl_fail(d, "%s: the threads of trace %" PRId64 " changed while they were loaded",
			s->path, trace_id);
		goto fail;
	}
	if (rc != SQLITE_DONE) {
		st_dberr(s, d, "loading threads");
		goto fail;
	}
	for (i = 0; i < n; i++)
		if (parents[i] >= 0)
			b->tasks[i].parent = utid_index(utids, n, parents[i]);
	sl_behaviour_set_groups(b, graw);
	b->cpus = tr.cpus;
	b->t0 = tr.first_ts;
	b->span_ns = tr.last_ts - tr.first_ts;
	if (start_pelt(s, trace_id, b, utids, n, d))
		goto fail;
	free(parents);
	free(utids);
	free(graw);
	return late_cpus(s, trace_id, b, d);
fail:
	free(parents);
	free(utids);
	free(graw);
	sl_behaviour_release(b);
	return -1;
}
