/* collector/perfetto.c - the Perfetto protobuf trace reader (ftrace data,
 * including the compact_sched encoding), with a small protobuf wire decoder
 * of its own (no protobuf library).
 *
 * What is read (protos/perfetto/trace/...):
 *   Trace { repeated TracePacket packet = 1 }
 *   TracePacket { ftrace_events = 1 (FtraceEventBundle), process_tree = 2,
 *                 system_info = 45 }
 *   ProcessTree { processes = 1 (Process { pid = 1, ppid = 2, cmdline = 3 }),
 *                 threads = 2 (Thread { tid = 1, tgid = 5 }) }: which tasks are
 *     kernel threads (process_tree below)
 *   FtraceEventBundle { cpu = 1, event = 2 (FtraceEvent), lost_events = 3,
 *                       compact_sched = 4 }
 *   CompactSched: packed arrays, one entry per event. Switches: timestamp
 *     deltas (1; the first from 0), prev_state (2), next_pid (3), next_prio
 *     (4), next_comm_index (6) into intern_table (5). Wakings: timestamp
 *     deltas (7), pid (8), target_cpu (9), prio (10), comm_index (11),
 *     common_flags (12).
 *   FtraceEvent { timestamp = 1, pid = 2 (common_pid), common_flags = 5,
 *     sched_switch = 4, sched_wakeup = 17, sched_waking = 20,
 *     sched_wakeup_new = 114, sched_process_exec = 237, _exit = 238,
 *     _fork = 239, sched_migrate_task = 491 }, field numbers of each event
 *     as the kernel's format fields in order.
 * A compact switch does not carry the previous task: it is the task the
 * previous switch on that CPU put on (unknown, pid -1, for a CPU's first
 * switch, which Perfetto's own trace processor drops). A compact waking
 * does not carry the waker: it is the task running on that CPU then.
 * prev_state is the tracepoint's value ("preempted" is 0x100 unless
 * system_info says the kernel is older than 4.14) or, from some producers,
 * the task's raw __state (see sl_state_from_raw, prev_state.c).
 *
 * Bundles of different CPUs are not in time order, so the whole trace's
 * events are sorted before delivery (memory grows with the trace: a
 * known limit of this reader). */
#include "event.h"
#include "evsort.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- protobuf wire format ---- */

struct pb {
	const uint8_t *p, *e;
};

static int pb_varint(struct pb *b, uint64_t *v)
{
	uint64_t r = 0;
	int s;
	for (s = 0; s < 70 && b->p < b->e; s += 7) {
		uint8_t c = *b->p++;
		if (s < 64)
			r |= (uint64_t)(c & 0x7f) << s;
		if (!(c & 0x80)) {
			*v = r;
			return 0;
		}
	}
	return -1;
}

/* Next field of b: number, wire type, value (varint/fixed) or bytes in sub.
 * Returns 1, 0 at the end, -1 when malformed. */
static int pb_next(struct pb *b, uint32_t *num, int *wt, uint64_t *v, struct pb *sub)
{
	uint64_t key, len;
	if (b->p >= b->e)
		return 0;
	if (pb_varint(b, &key) || (key >> 3) == 0 || (key >> 3) > 0x1fffffff)
		return -1;
	*num = (uint32_t)(key >> 3);
	*wt = (int)(key & 7);
	switch (*wt) {
	case 0:
		return pb_varint(b, v) ? -1 : 1;
	case 1:
		if (b->e - b->p < 8)
			return -1;
		memcpy(v, b->p, 8);
		b->p += 8;
		return 1;
	case 5: {
		uint32_t x;
		if (b->e - b->p < 4)
			return -1;
		memcpy(&x, b->p, 4);
		*v = x;
		b->p += 4;
		return 1;
	}
	case 2:
		if (pb_varint(b, &len) || len > (uint64_t)(b->e - b->p))
			return -1;
		sub->p = b->p;
		sub->e = b->p + len;
		b->p += len;
		*v = len;
		return 1;
	default:
		return -1;
	}
}

/* A growable array of u64 values (a repeated scalar field, packed or not). */
struct u64s {
	uint64_t *v;
	size_t n, cap;
};

static int u64s_add(struct u64s *a, int wt, uint64_t v, struct pb *sub)
{
	if (wt == 0) {
		SL_GROW(a->v, a->cap, a->n + 1);
		a->v[a->n++] = v;
		return 0;
	}
	if (wt != 2)
		return -1;
	while (sub->p < sub->e) {
		uint64_t x;
		if (pb_varint(sub, &x))
			return -1;
		SL_GROW(a->v, a->cap, a->n + 1);
		a->v[a->n++] = x;
	}
	return 0;
}

/* ---- reader state ---- */

struct cpust {
	int known;
	int32_t pid, prio;
	char comm[SL_COMM_LEN];
};

struct pev {
	struct sl_event ev;
	uint8_t need; /* 1 = fill prev from the cpu (compact switch), 2 = fill cur */
	size_t seq;   /* order of decoding, for ties */
};

/* One ftrace bundle found by the first pass: where it is, its CPU, the
 * report_max in force when it came, its time range, and the next bundle of
 * the same CPU (index, or SIZE_MAX). */
struct bref {
	struct pb b;
	uint64_t pos, tmin, tmax;
	int64_t report_max;
	int32_t cpu;
	size_t next;
};

struct pf {
	const char *path;
	struct sl_diag *d;
	const uint8_t *map;  /* the file */
	size_t fsize;
	uint64_t dropped;    /* drop_pages: first pass up to here */
	unsigned opened;     /* bundles decoded by the second pass */
	struct bref *br;     /* the good ftrace bundles, file order */
	size_t nbr, brcap;
	uint64_t nev;        /* events in them */
	struct pev *loc;     /* one bundle's events */
	size_t nloc, locap;
	struct cpust *cpu;
	size_t ncpu;
	int64_t report_max;
	uint64_t nbad, nlost_flags;
	struct u64s a[13];   /* compact_sched arrays by field number */
	struct pb *intern;
	size_t nintern, intcap;
	struct sl_event *kinds; /* SL_EV_TASKINFO of the process tree */
	size_t nkinds, kcap;
};

static void str_to(char *dst, struct pb *s)
{
	size_t n = (size_t)(s->e - s->p);
	const uint8_t *z = memchr(s->p, 0, n);
	if (z)
		n = (size_t)(z - s->p);
	sl_copy_comm(dst, SL_COMM_LEN, (const char *)s->p, n);
}

static struct cpust *cpu_at(struct pf *f, int32_t cpu)
{
	if (cpu < 0 || cpu >= 4096)
		return NULL;
	if ((size_t)cpu >= f->ncpu) {
		size_t old = f->ncpu;
		f->cpu = xrealloc(f->cpu, ((size_t)cpu + 1) * sizeof(*f->cpu));
		memset(f->cpu + old, 0, ((size_t)cpu + 1 - old) * sizeof(*f->cpu));
		f->ncpu = (size_t)cpu + 1;
	}
	return &f->cpu[cpu];
}

static struct pev *loc_new(struct pf *f, uint64_t pos, int32_t cpu)
{
	struct pev *e;
	SL_GROW(f->loc, f->locap, f->nloc + 1);
	e = &f->loc[f->nloc++];
	sl_event_clear(&e->ev);
	e->ev.pos = pos;
	e->ev.cpu = cpu;
	e->need = 0;
	e->seq = f->nloc - 1;
	return e;
}

static uint8_t ctx_of(uint64_t flags)
{
	uint8_t c = SL_CTX_KNOWN;
	if (flags & 0x08) /* TRACE_FLAG_HARDIRQ */
		c |= SL_CTX_HARDIRQ;
	if (flags & 0x10) /* TRACE_FLAG_SOFTIRQ */
		c |= SL_CTX_SOFTIRQ;
	if (flags & 0x40) /* TRACE_FLAG_NMI */
		c |= SL_CTX_NMI;
	return c;
}

static int32_t i32(uint64_t v)
{
	return (int32_t)(int64_t)v;
}

/* One FtraceEvent (non-compact). Returns 0, -1 when malformed. */
static int full_event(struct pf *f, struct pb *b, uint64_t pos, int32_t cpu)
{
	struct sl_event ev;
	struct pb sub, body = { NULL, NULL };
	uint32_t num, kind = 0;
	uint64_t v;
	int wt, r, have_ts = 0;

	sl_event_clear(&ev);
	while ((r = pb_next(b, &num, &wt, &v, &sub)) > 0) {
		if (num == 1 && wt == 0) {
			ev.ts = v;
			have_ts = 1;
		} else if (num == 2 && wt == 0) {
			ev.cur_pid = i32(v);
		} else if (num == 5 && wt == 0) {
			ev.ctx |= ctx_of(v);
		} else if (wt == 2 && (num == 4 || num == 17 || num == 20 || num == 114 ||
				       num == 237 || num == 238 || num == 239 || num == 491)) {
			kind = num;
			body = sub;
		}
	}
	if (r < 0)
		return -1;
	if (!kind || !have_ts)
		return 0;
	switch (kind) {
	case 4: ev.type = SL_EV_SWITCH; break;
	case 17: ev.type = SL_EV_WAKEUP; break;
	case 20: ev.type = SL_EV_WAKING; break;
	case 114: ev.type = SL_EV_WAKEUP_NEW; break;
	case 237: ev.type = SL_EV_EXEC; break;
	case 238: ev.type = SL_EV_EXIT; break;
	case 239: ev.type = SL_EV_FORK; break;
	default: ev.type = SL_EV_MIGRATE; break;
	}
	while ((r = pb_next(&body, &num, &wt, &v, &sub)) > 0) {
		if (wt == 2) {
			if (num == 1 && kind == 237) {
				/* filename: its basename, 15 chars as the kernel */
				const uint8_t *s = sub.p;
				while (sub.e > s && memchr(s, '/', (size_t)(sub.e - s)))
					s = (const uint8_t *)memchr(s, '/', (size_t)(sub.e - s)) + 1;
				sub.p = s;
				if (sub.e - sub.p > 15)
					sub.e = sub.p + 15;
				str_to(ev.comm, &sub);
			} else if (num == 1) {
				str_to(ev.comm, &sub);
			} else if ((num == 5 && kind == 4) || (num == 3 && kind == 239)) {
				str_to(ev.comm2, &sub);
			}
			continue;
		}
		if (wt != 0)
			continue;
		if (kind == 4) {
			switch (num) {
			case 2: ev.pid = i32(v); break;
			case 3: ev.prio = i32(v); break;
			case 4:
				ev.state = sl_state_from_raw((int64_t)v, f->report_max);
				ev.ctx |= v == 0 || v == 0x200 ? SL_CTX_RAW_RUNNING : 0;
				break;
			case 6: ev.pid2 = i32(v); break;
			case 7: ev.prio2 = i32(v); break;
			}
		} else if (kind == 239) {
			if (num == 2)
				ev.pid = i32(v);
			else if (num == 4)
				ev.pid2 = i32(v);
		} else if (kind == 491) {
			switch (num) {
			case 2: ev.pid = i32(v); break;
			case 3: ev.prio = i32(v); break;
			case 4: ev.orig_cpu = i32(v); break;
			case 5: ev.target_cpu = i32(v); break;
			}
		} else if (kind == 238) {
			if (num == 2)
				ev.pid = i32(v);
			else if (num == 4)
				ev.prio = i32(v);
		} else if (kind == 237) {
			if (num == 2)
				ev.pid = i32(v);
		} else {
			switch (num) {
			case 2: ev.pid = i32(v); break;
			case 3: ev.prio = i32(v); break;
			case 5: ev.target_cpu = i32(v); break;
			}
		}
	}
	if (r < 0)
		return -1;
	{
		struct pev *e = loc_new(f, pos, cpu);
		ev.pos = pos;
		ev.cpu = cpu;
		e->ev = ev;
		e->need = 0;
		if (ev.type != SL_EV_SWITCH && ev.cur_pid < 0)
			e->need = 2;
	}
	return 0;
}

static int compact(struct pf *f, struct pb *b, uint64_t pos, int32_t cpu)
{
	struct pb sub;
	uint32_t num;
	uint64_t v, ts;
	int wt, r;
	size_t i, n;

	for (i = 0; i < SL_ARRAY_SIZE(f->a); i++)
		f->a[i].n = 0;
	f->nintern = 0;
	while ((r = pb_next(b, &num, &wt, &v, &sub)) > 0) {
		if (num == 5 && wt == 2) {
			SL_GROW(f->intern, f->intcap, f->nintern + 1);
			f->intern[f->nintern++] = sub;
		} else if (num < SL_ARRAY_SIZE(f->a) && num != 5) {
			if (u64s_add(&f->a[num], wt, v, &sub))
				return -1;
		}
	}
	if (r < 0)
		return -1;
	/* switches: arrays 1, 2, 3, 4, 6 in step */
	n = f->a[1].n;
	if (f->a[2].n != n || f->a[3].n != n || f->a[4].n != n || f->a[6].n != n)
		return -1;
	for (i = 0, ts = 0; i < n; i++) {
		struct pev *e;
		uint64_t ci = f->a[6].v[i];
		ts += f->a[1].v[i];
		if (ci >= f->nintern)
			return -1;
		e = loc_new(f, pos, cpu);
		e->ev.type = SL_EV_SWITCH;
		e->ev.ts = ts;
		e->ev.state = sl_state_from_raw((int64_t)f->a[2].v[i], f->report_max);
		e->ev.ctx |= f->a[2].v[i] == 0 || f->a[2].v[i] == 0x200 ? SL_CTX_RAW_RUNNING : 0;
		e->ev.pid2 = i32(f->a[3].v[i]);
		e->ev.prio2 = i32(f->a[4].v[i]);
		str_to(e->ev.comm2, &f->intern[ci]);
		e->need = 1;
	}
	/* wakings: 7, 8, 9, 10, 11 in step, 12 optional */
	n = f->a[7].n;
	if (f->a[8].n != n || f->a[9].n != n || f->a[10].n != n || f->a[11].n != n)
		return -1;
	for (i = 0, ts = 0; i < n; i++) {
		struct pev *e;
		uint64_t ci = f->a[11].v[i];
		ts += f->a[7].v[i];
		if (ci >= f->nintern)
			return -1;
		e = loc_new(f, pos, cpu);
		e->ev.type = SL_EV_WAKING;
		e->ev.ts = ts;
		e->ev.pid = i32(f->a[8].v[i]);
		e->ev.target_cpu = i32(f->a[9].v[i]);
		e->ev.prio = i32(f->a[10].v[i]);
		str_to(e->ev.comm, &f->intern[ci]);
		if (i < f->a[12].n)
			e->ev.ctx = ctx_of(f->a[12].v[i]);
		e->need = 2;
	}
	return 0;
}

static int cmp_loc(const void *a, const void *b)
{
	const struct pev *x = a, *y = b;
	int kx = x->ev.type == SL_EV_SWITCH, ky = y->ev.type == SL_EV_SWITCH;
	if (x->ev.ts != y->ev.ts)
		return x->ev.ts < y->ev.ts ? -1 : 1;
	if (kx != ky)
		return kx - ky; /* at equal times, wakings before the switch */
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A list of events (a CPU's current bundle, or the whole trace). */
struct evlist {
	struct sl_event *ev;
	size_t n, cap, next;
};

/* Order a bundle's events, infer prev of compact switches and the current
 * task of events without one, and append them to out. A lost-events mark
 * makes the CPU's current task unknown. */
static void finish_bundle(struct pf *f, int32_t cpu, struct evlist *out)
{
	struct cpust *c = cpu_at(f, cpu);
	size_t i;
	for (i = 0; c && i < f->nloc; i++)
		if (f->loc[i].ev.type == SL_EV_LOST)
			c->known = 0;
	if (f->nloc)
		qsort(f->loc, f->nloc, sizeof(*f->loc), cmp_loc);
	for (i = 0; i < f->nloc; i++) {
		struct sl_event *ev = &f->loc[i].ev;
		if (c && f->loc[i].need == 1 && c->known) {
			ev->pid = c->pid;
			ev->prio = c->prio;
			memcpy(ev->comm, c->comm, SL_COMM_LEN);
		}
		if (c && ev->type == SL_EV_SWITCH && ev->cur_pid < 0 && ev->pid >= 0) {
			ev->cur_pid = ev->pid;
			memcpy(ev->cur_comm, ev->comm, SL_COMM_LEN);
		}
		if (c && f->loc[i].need == 2 && c->known) {
			ev->cur_pid = c->pid;
			memcpy(ev->cur_comm, c->comm, SL_COMM_LEN);
		}
		if (c && ev->type == SL_EV_SWITCH) {
			c->known = 1;
			c->pid = ev->pid2;
			c->prio = ev->prio2;
			memcpy(c->comm, ev->comm2, SL_COMM_LEN);
		}
		SL_GROW(out->ev, out->cap, out->n + 1);
		out->ev[out->n++] = *ev;
	}
	f->nloc = 0;
}

/* Decode a bundle's events into f->loc (its CPU in *cpu_out); nothing else
 * changes. */
static int decode_bundle(struct pf *f, struct pb *b, uint64_t pos, int32_t *cpu_out)
{
	struct pb sub, scan = *b;
	uint32_t num;
	uint64_t v;
	int wt, r;
	int32_t cpu = -1;

	/* the cpu first (it may follow the events) */
	while ((r = pb_next(&scan, &num, &wt, &v, &sub)) > 0)
		if (num == 1 && wt == 0)
			cpu = v < 4096 ? (int32_t)v : -1;
	if (r < 0 || cpu < 0)
		return -1;
	f->nloc = 0;
	while ((r = pb_next(b, &num, &wt, &v, &sub)) > 0) {
		if (num == 2 && wt == 2) {
			if (full_event(f, &sub, pos, cpu))
				return -1;
		} else if (num == 4 && wt == 2) {
			if (compact(f, &sub, pos, cpu))
				return -1;
		} else if (num == 3 && wt == 0 && v) {
			/* the kernel dropped events before this bundle: count
			 * unknown; the cpu's current task is no longer known */
			struct pev *e = loc_new(f, pos, cpu);
			e->ev.type = SL_EV_LOST;
			e->ev.count = 1;
		}
	}
	if (r < 0)
		return -1;
	/* a lost-events mark goes before the bundle's first event */
	{
		size_t i;
		uint64_t first = UINT64_MAX;
		for (i = 0; i < f->nloc; i++)
			if (f->loc[i].ev.type != SL_EV_LOST && f->loc[i].ev.ts < first)
				first = f->loc[i].ev.ts;
		for (i = 0; i < f->nloc; i++)
			if (f->loc[i].ev.type == SL_EV_LOST)
				f->loc[i].ev.ts = first == UINT64_MAX ? 0 : first;
	}
	*cpu_out = cpu;
	return 0;
}

/* system_info.utsname.release "X.Y..." -> report_max */
static void system_info(struct pf *f, struct pb *b)
{
	struct pb sub, u;
	uint32_t num;
	uint64_t v;
	int wt;
	while (pb_next(b, &num, &wt, &v, &sub) > 0) {
		if (num != 1 || wt != 2)
			continue;
		while (pb_next(&sub, &num, &wt, &v, &u) > 0) {
			int maj = 0, min = 0;
			const uint8_t *p = u.p;
			if (num != 3 || wt != 2)
				continue;
			while (p < u.e && *p >= '0' && *p <= '9' && maj < 1000)
				maj = maj * 10 + (*p++ - '0');
			if (p < u.e && *p == '.')
				p++;
			while (p < u.e && *p >= '0' && *p <= '9' && min < 1000)
				min = min * 10 + (*p++ - '0');
			if (maj > 0)
				f->report_max = (maj > 4 || (maj == 4 && min >= 14)) ? 0x100 : 0;
		}
	}
}

static void add_kind(struct pf *f, int64_t pid, int kind)
{
	struct sl_event *ev;
	if (pid <= 0 || pid > INT32_MAX)
		return;
	SL_GROW(f->kinds, f->kcap, f->nkinds + 1);
	ev = &f->kinds[f->nkinds++];
	sl_event_clear(ev);
	ev->type = SL_EV_TASKINFO;
	ev->pid = (int32_t)pid;
	ev->count = (uint64_t)kind;
}

/* A process tree's word on which tasks are kernel threads (the model
 * takes it before the comm patterns; collector/model_finish.c): a child of
 * kthreadd (ppid 2: every kthread_create() is carried out by kthreadd,
 * kernel/kthread.c), or with no ppid given, a process with no command line
 * (a kernel thread has no mm, so /proc/PID/cmdline is empty: get_mm_cmdline,
 * fs/proc/base.c; a zombie's is empty too, a rare confusion); a process with
 * a parent other than kthreadd (or none, pid 1), or with a command line, is
 * a user task, and so is a thread of another thread group (a kernel thread
 * is its own group: kernel_thread() has no CLONE_THREAD). */
static void process_tree(struct pf *f, struct pb *b)
{
	struct pb sub, u;
	uint32_t num, n2;
	uint64_t v;
	int wt, w2;
	while (pb_next(b, &num, &wt, &v, &sub) > 0) {
		int64_t pid = 0, ppid = -1, tgid = 0;
		int cmd = 0;
		if ((num != 1 && num != 2) || wt != 2)
			continue;
		while (pb_next(&sub, &n2, &w2, &v, &u) > 0) {
			if (n2 == 1 && w2 == 0)
				pid = (int64_t)(int32_t)v;
			else if (num == 1 && n2 == 2 && w2 == 0)
				ppid = (int64_t)(int32_t)v;
			else if (num == 1 && n2 == 3 && w2 == 2 && u.e > u.p && u.p[0])
				cmd = 1;
			else if (num == 2 && n2 == 5 && w2 == 0)
				tgid = (int64_t)(int32_t)v;
		}
		if (num == 2) {
			if (tgid > 0 && tgid != pid)
				add_kind(f, pid, SL_KIND_USER);
		} else if (pid == 2 || ppid == 2) {
			add_kind(f, pid, SL_KIND_KTHREAD);
		} else if (ppid >= 0) {
			add_kind(f, pid, SL_KIND_USER);
		} else {
			add_kind(f, pid, cmd ? SL_KIND_USER : SL_KIND_KTHREAD);
		}
	}
}

/* Decode bundle k again (second pass) into the CPU's list. */
/* The file's pages that were read are dropped now and then (the decoded
 * events are copies; nothing points into the map between decodes), so
 * that resident memory does not grow to the file's size. */
static void drop_pages(struct pf *f, size_t upto)
{
	size_t n = upto & ~(size_t)4095;
	if (n)
		madvise((void *)f->map, n, MADV_DONTNEED);
}

static int redecode(struct pf *f, size_t k, struct evlist *out)
{
	struct bref *r = &f->br[k];
	struct pb b = r->b;
	int32_t cpu;
	if ((++f->opened & 1023) == 0)
		drop_pages(f, f->fsize);
	f->report_max = r->report_max;
	f->nloc = 0;
	if (decode_bundle(f, &b, r->pos, &cpu) < 0)
		return -1; /* it decoded the first time: cannot happen */
	out->n = out->next = 0;
	finish_bundle(f, cpu, out);
	return 0;
}

/* The events of every bundle in time order, ties in file order, as if all
 * were decoded and sorted (deliver_sorted), but holding only the bundles
 * that overlap the time reached: bundles are opened (decoded, finished) in
 * the order of their first time, and the open ones merged through a heap by
 * their next event. A CPU's bundles must open in file order (the inference
 * of compact switches' prev task runs through them in that order); a trace
 * where they would not falls back to deliver_sorted. */
struct obundle {
	size_t k;              /* bundle index (file order) */
	struct evlist buf;
};

static int heap_less(struct obundle *const *h, int a, int b)
{
	const struct sl_event *x = &h[a]->buf.ev[h[a]->buf.next];
	const struct sl_event *y = &h[b]->buf.ev[h[b]->buf.next];
	if (x->ts != y->ts)
		return x->ts < y->ts;
	return h[a]->k < h[b]->k;
}

static void heap_down(struct obundle **h, int n, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i;
		struct obundle *t;
		if (l < n && heap_less(h, l, m))
			m = l;
		if (l + 1 < n && heap_less(h, l + 1, m))
			m = l + 1;
		if (m == i)
			return;
		t = h[i], h[i] = h[m], h[m] = t;
		i = m;
	}
}

static void heap_up(struct obundle **h, int i)
{
	while (i > 0 && heap_less(h, i, (i - 1) / 2)) {
		struct obundle *t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static const struct bref *sort_br;
static int cmp_open(const void *a, const void *b)
{
	const struct bref *x = &sort_br[*(const size_t *)a], *y = &sort_br[*(const size_t *)b];
	if (x->tmin != y->tmin)
		return x->tmin < y->tmin ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : *(const size_t *)a > *(const size_t *)b;
}

static int deliver_sorted(struct pf *f, sl_event_fn fn, void *ctx)
{
	struct sl_evbuf all;
	size_t i, j;
	int rc;
	sl_evbuf_init(&all);
	memset(f->cpu, 0, f->ncpu * sizeof(*f->cpu));
	for (i = 0; i < f->nbr; i++) {
		struct evlist one = { 0 };
		redecode(f, i, &one);
		for (j = 0; j < one.n; j++)
			sl_evbuf_push(&all, &one.ev[j]);
		free(one.ev);
	}
	/* time order, ties in file order */
	rc = sl_evbuf_flush(&all, UINT64_MAX, fn, ctx) ? -1 : 0;
	sl_evbuf_release(&all);
	return rc;
}

static int deliver_merged(struct pf *f, sl_event_fn fn, void *ctx)
{
	size_t *order = xmalloc((f->nbr ? f->nbr : 1) * sizeof(*order));
	size_t *lastk = xmalloc((f->ncpu ? f->ncpu : 1) * sizeof(*lastk));
	struct obundle **h = xmalloc((f->nbr ? f->nbr : 1) * sizeof(*h));
	size_t i, nexto = 0;
	int n = 0, rc = 0;

	for (i = 0; i < f->nbr; i++)
		order[i] = i;
	sort_br = f->br;
	qsort(order, f->nbr, sizeof(*order), cmp_open);
	for (i = 0; i < f->ncpu; i++)
		lastk[i] = SIZE_MAX;
	for (i = 0; i < f->nbr; i++) {
		int32_t cpu = f->br[order[i]].cpu;
		if (lastk[cpu] != SIZE_MAX && lastk[cpu] > order[i]) {
			free(order);
			free(lastk);
			free(h);
			return deliver_sorted(f, fn, ctx);
		}
		lastk[cpu] = order[i];
	}
	memset(f->cpu, 0, f->ncpu * sizeof(*f->cpu));
	for (;;) {
		while (nexto < f->nbr &&
		       (!n || f->br[order[nexto]].tmin <= h[0]->buf.ev[h[0]->buf.next].ts)) {
			struct obundle *o = xcalloc(1, sizeof(*o));
			o->k = order[nexto++];
			redecode(f, o->k, &o->buf);
			if (o->buf.n == 0) {
				free(o->buf.ev);
				free(o);
				continue;
			}
			h[n] = o;
			heap_up(h, n++);
		}
		if (!n || rc)
			break;
		if (fn(ctx, &h[0]->buf.ev[h[0]->buf.next++])) {
			rc = -1;
			break;
		}
		if (h[0]->buf.next >= h[0]->buf.n) {
			free(h[0]->buf.ev);
			free(h[0]);
			h[0] = h[--n];
		}
		heap_down(h, n, 0);
	}
	while (n > 0) {
		free(h[--n]->buf.ev);
		free(h[n]);
	}
	free(order);
	free(lastk);
	free(h);
	return rc;
}

/* Is this the start of a Perfetto trace: packets (field 1, bytes) whose
 * contents parse as protobuf? */
static int probe_perfetto(const unsigned char *head, size_t n)
{
	struct pb b = { head, head + n }, sub;
	uint32_t num;
	uint64_t v;
	int wt, r, good = 0;

	if (n < 4 || head[0] != 0x0a)
		return 0;
	while (good < 8 && (r = pb_next(&b, &num, &wt, &v, &sub)) > 0) {
		struct pb in = sub, x;
		int ir, nf = 0;
		if (num != 1 || wt != 2)
			return 0;
		while ((ir = pb_next(&in, &num, &wt, &v, &x)) > 0)
			nf++;
		if (ir < 0 || nf == 0)
			return 0;
		good++;
	}
	/* a packet cut by the end of the head is fine once others parsed */
	return good >= 2 || (good == 1 && b.p == b.e) ? 80 : 0;
}

static int read_perfetto(const char *path, sl_event_fn fn, void *ctx, struct sl_diag *d)
{
	struct pf f;
	struct stat sb;
	struct pb b, sub;
	const uint8_t *map;
	uint32_t num;
	uint64_t v;
	int fd, wt, r, rc = 0;
	size_t i, fsize;
	uint64_t cut_at = 0;

	memset(&f, 0, sizeof(f));
	f.path = path;
	f.d = d;
	f.report_max = 0x100;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sl_fail(d, "%s: %s", path, strerror(errno));
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_size == 0) {
		close(fd);
		return sl_fail(d, "%s:0: empty or not a regular file", path);
	}
	fsize = (size_t)sb.st_size;
	map = mmap(NULL, fsize, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return sl_fail(d, "%s: mmap: %s", path, strerror(errno));
	b.p = map;
	b.e = map + fsize;
	f.map = map;
	f.fsize = fsize;
	for (;;) {
		uint64_t pos = (uint64_t)(b.p - map);
		if (pos - f.dropped > (16u << 20)) {
			drop_pages(&f, (size_t)pos);
			f.dropped = pos;
		}
		r = pb_next(&b, &num, &wt, &v, &sub);
		if (r == 0)
			break;
		if (r < 0 || num != 1 || wt != 2) {
			if (f.nbr == 0) {
				rc = sl_fail(d, "%s:%llu: not a Perfetto trace packet", path,
					     (unsigned long long)pos);
				break;
			}
			sl_warn(d, "%s:%llu: trace cut short or corrupt here; imported what came "
				   "before", path, (unsigned long long)pos);
			cut_at = pos;
			break;
		}
		{
			struct pb in = sub, x;
			while (pb_next(&in, &num, &wt, &v, &x) > 0) {
				struct pb keep = x;
				int32_t cpu;
				size_t k;
				struct bref *br;
				if (num == 45 && wt == 2) {
					system_info(&f, &x);
					continue;
				}
				if (num == 2 && wt == 2) {
					process_tree(&f, &x);
					continue;
				}
				if (num != 1 || wt != 2)
					continue;
				/* first pass: decode to learn the bundle's CPU, its
				 * events and time range; keep where it is */
				f.nloc = 0;
				if (decode_bundle(&f, &x, pos, &cpu) < 0) {
					f.nbad++;
					continue;
				}
				for (k = 0; k < f.nloc; k++)
					if (f.loc[k].ev.type == SL_EV_LOST)
						f.nlost_flags++;
				if (!f.nloc)
					continue;
				SL_GROW(f.br, f.brcap, f.nbr + 1);
				br = &f.br[f.nbr++];
				br->b = keep;
				br->pos = pos;
				br->cpu = cpu;
				br->report_max = f.report_max;
				br->tmin = UINT64_MAX;
				br->tmax = 0;
				for (k = 0; k < f.nloc; k++) {
					uint64_t t = f.loc[k].ev.ts;
					br->tmin = t < br->tmin ? t : br->tmin;
					br->tmax = t > br->tmax ? t : br->tmax;
				}
				f.nev += f.nloc;
				cpu_at(&f, cpu);
			}
		}
	}
	if (f.nbad)
		sl_warn(d, "%s: %llu malformed ftrace bundles skipped", path,
			(unsigned long long)f.nbad);
	if (f.nlost_flags)
		sl_warn(d, "%s: the kernel lost events before %llu bundles (counts unknown)", path,
			(unsigned long long)f.nlost_flags);
	if (!rc && f.nev == 0)
		rc = sl_fail(d, "%s:%zu: no scheduler events (ftrace sched_switch / compact_sched) "
				"in this Perfetto trace", path, fsize);
	for (i = 0; !rc && i < f.nkinds; i++)
		rc = fn(ctx, &f.kinds[i]);
	if (!rc)
		rc = deliver_merged(&f, fn, ctx);
	if (!rc && cut_at && sl_event_cut(fn, ctx, cut_at))
		rc = -1;
	munmap((void *)map, fsize);
	free(f.br);
	free(f.loc);
	free(f.cpu);
	free(f.intern);
	free(f.kinds);
	for (i = 0; i < SL_ARRAY_SIZE(f.a); i++)
		free(f.a[i].v);
	return rc;
}

const struct sl_reader sl_reader_perfetto = { "perfetto", probe_perfetto, read_perfetto };
