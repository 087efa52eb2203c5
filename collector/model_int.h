/* collector/model_int.h - the model builder's state (collector/model.c),
 * shared with its end (collector/model_finish.c). */
#ifndef SL_MODEL_INT_H
#define SL_MODEL_INT_H

#include <string.h>

#include "model.h"
#include "kacct.h"
#include "yields.h"
#include "tickrt.h"

enum tstate { T_UNKNOWN = 0, T_RUNNING, T_RUNNABLE, T_SLEEPING, T_DEAD };

struct mtask {
	int32_t tid, tgid;
	char comm[SL_COMM_LEN];
	int prio;
	uint64_t first_ts, last_ts;
	int state;
	int cpu;            /* CPU it runs on when T_RUNNING */
	int started;
	int exiting;
	uint64_t kid_exit_ts; /* the last exit of a child of it while it slept (0: none) */
	uint32_t kid_wakes;   /* its sleeps a child's exit ended */
	/* a sched_waking while it ran with no sched_wakeup after it: the task
	 * (-1 none) and its progress, and when (0: none) */
	int32_t ew_waker;
	uint64_t ew_prog, ew_ts;
	int kid_named;        /* one of them after another child's exit in the same sleep */
	uint64_t cum_ns;    /* CPU time of completed slices */
	uint64_t burst_ns;  /* CPU time of the current burst */
	uint64_t burst_cut; /* CPU time of the open slice already in a phase
			     * (an exec point inside it) */
	/* work and interference (docs/model.md): runtime the kernel charged
	 * (sched_stat_runtime) in the open slice, work of the current burst,
	 * 1 when a slice of the burst has no known work, 1 once a runtime
	 * event named the task; its wall and work ns per CPU */
	uint64_t slice_charged, burst_work;
	int burst_work_bad, charged_any;
	struct sl_work_row *cw;
	size_t ncw, cwcap;
	uint64_t sleep_ts;
	int wake_pending;   /* 1: woken (2: by sched_waking), not run since */
	uint32_t nstrong;   /* its yield candidates so far that no wakeup came near */
	uint64_t wake_ts;
	int32_t waker;
	int wake_cpu;
	int last_cpu;         /* the CPU it last ran on, -1 none yet */
	int wide_pend;        /* woken from an interrupt on another busy CPU, its own busy */
	uint32_t wide_stay, wide_move; /* ... then run where it slept, or not */
	uint64_t cpus_seen;
	uint64_t uncertain_ns; /* time that could be this task's or another's */
	int missed_out;     /* taken off its CPU by a switch we did not see */
	int out_unsure;     /* switched out runnable by a raw __state 0 (SL_CTX_RAW_RUNNING) */
	/* the slice that switch ended, its row held back until the task's next
	 * event says how it ended: a wakeup (asleep: S) or running again (R) */
	int pend;
	uint64_t pend_ts, pend_dur;
	int pend_cpu, pend_prio;
	struct sl_task_spec spec; /* start, parent, flags */
	int kthread;        /* forked by kthreadd */
	struct sl_phase *ph;
	size_t nph, cap;
};

/* What is known of a CPU: nothing yet (trace start); who runs on it but
 * not since when (its switch-in came before the trace); who and since when
 * (a slice is open); or, after lost events or after its task was seen on
 * another CPU, only that someone may have started running at gap_lo. */
enum { C_NONE = 0, C_CURR, C_SLICE, C_GAP };


struct mcpu {
	int32_t curr;      /* task index, -1 idle */
	int mode;          /* C_* */
	uint64_t since;    /* C_SLICE: start of the open slice */
	uint64_t last_ev;  /* C_CURR, C_SLICE: last evidence that curr runs here */
	uint64_t gap_lo;   /* C_GAP: earliest start of whoever runs next */
	int32_t gap_old;   /* C_GAP: task whose slice the gap cut (-1 none) */
	int gap_lost;      /* C_GAP: the gap hides lost events */
	int32_t prev_out;  /* prev of the last switch seen here (-1 idle) */
	int fresh;         /* no evidence of curr since that switch */
	int guessed;       /* the open slice began at a placed (not seen) switch */
	uint64_t idle_lo, idle_hi; /* the last idle stretch seen of >= IDLE_PROOF_NS */
	uint64_t wake_to;  /* last wakeup or move aimed at this CPU, + 1 (0: none) */
	int wake_early;    /* that was a sched_waking: the enqueue follows it */
	int weak_yield;    /* the switch-out closing the open slice is a weak yield candidate */
	struct sl_event last;      /* the last event of this CPU (exact duplicates) */
	int have_last;
};

/* A CPU seen idle this long proves that no task allowed there was waiting
 * to run meanwhile: an idle CPU pulls a waiting task at once (newidle
 * balancing) or within its idle balance interval (a few ms: the domain's
 * weight in ms, kernel/sched/topology.c sd_init(), since 2.6 times). */
#define IDLE_PROOF_NS 10000000ULL
/* How long after a switch an event may still show prev as current (the
 * tail of the switch: trace_sched_switch fires in __schedule() before
 * context_switch() is done, with interrupts off, kernel/sched/core.c): the
 * longest seen is 84 us (the 3.4 Android trace of catapult). An event of
 * prev later than this shows prev running again: a switch back was missed. */
#define TAIL_MAX_NS 100000ULL
#define MAX_CPUS 4096 /* the CPUs an event may name */

struct sl_model {
	struct sl_run_sink rec;
	struct sl_diag *d;
	struct mtask *t;
	size_t nt, tcap;
	struct mcpu *cpu;
	size_t ncpu;
	uint64_t *lost;
	/* tid -> task index, open addressing */
	int32_t *hkey, *hval;
	size_t hcap, hused;
	struct sl_model_stats st;
	int have_first;
	int seen_wake;     /* a wakeup event seen: the trace has them */
	int seen_runtime;  /* a sched_stat_runtime seen: the trace has them */
	struct sl_yields y;
	struct sl_tickrt tr;        /* the tick from sched_stat_runtime (tickrt.h) */
	struct sl_slice_hint *hint; /* sorted by tid (sl_model_set_slice_hints) */
	size_t nhint;
	struct sl_kacct *ka;        /* NULL: no ledger windows (sl_model_set_windows) */
	/* SL_EV_TASKINFO: tid and SL_KIND_* (sorted by tid at the end) */
	struct sl_task_kind { int32_t tid, kind; } *kinds;
	size_t nkinds, kcap;
	uint64_t second_ts, prev_ts; /* the second event's ts; the one before the last */
};

/* An interrupt on CPU a woke a task that slept on CPU b: a != b and a task
 * runs on each (wake_affine_weight decides, unless wake_wide()). */
int sl_model_both_busy(const struct sl_model *m, int a, int b);
/* Waits for children (docs/model.md): t exits; a parent asleep since
 * before (exit_notify tells it) notes the time, for its wakeup. */
static inline void sl_model_kid_exit(struct sl_model *m, const struct mtask *t, uint64_t ts)
{
	int32_t p = t->spec.parent;
	if (p >= 0 && (size_t)p < m->nt && (t->spec.flags & SL_TASK_FORKED) && m->t[p].state == T_SLEEPING &&
	    m->t[p].sleep_ts < ts)
		m->t[p].kid_exit_ts = ts;
}

/* t, asleep, is woken by task waker: if that is the exit of a child of t
 * (after sched_process_exit: exit_notify), count it, and whether another
 * child had exited during the same sleep without waking t: t waits for a
 * named child then (waitpid(pid): child_wait_callback, kernel/exit.c). */
static inline void sl_model_kid_wake(struct sl_model *m, struct mtask *t, int32_t waker)
{
	const struct mtask *w = waker >= 0 ? &m->t[waker] : NULL;
	if (!w || t->state != T_SLEEPING || !w->exiting || (w->spec.flags & SL_TASK_FORKED) == 0 ||
	    w->spec.parent != (int32_t)(t - m->t))
		return;
	t->kid_wakes++;
	t->kid_named |= t->kid_exit_ts > t->sleep_ts;
}

/* Add a closed slice's wall time and charged work to task t's row of cpu. */
static inline void sl_model_add_work(struct mtask *t, int32_t idx, int cpu, uint64_t wall, uint64_t work)
{
	size_t i;
	for (i = 0; i < t->ncw && t->cw[i].cpu != cpu; i++)
		;
	if (i == t->ncw) {
		SL_GROW(t->cw, t->cwcap, t->ncw + 1);
		memset(&t->cw[t->ncw], 0, sizeof(t->cw[0]));
		t->cw[t->ncw].task = idx;
		t->cw[t->ncw++].cpu = cpu;
	}
	t->cw[i].wall_ns += wall;
	t->cw[i].work_ns += work;
}

/* Task idx shows itself on cpu (running or queued there, or the CPU a
 * wakeup names): the first such CPU is where a task present at the trace's
 * start was (spec.start_cpu1). */
static inline void sl_model_seen_on(struct sl_model *m, int32_t idx, int cpu)
{
	if (idx >= 0 && cpu >= 0 && cpu < MAX_CPUS && !m->t[idx].spec.start_cpu1)
		m->t[idx].spec.start_cpu1 = cpu + 1;
}

/* The same event twice: every field but its place in the file. */
static inline int sl_model_same_event(const struct sl_event *a, const struct sl_event *b)
{
	return a->ts == b->ts && a->type == b->type && a->cpu == b->cpu && a->state == b->state &&
	       a->ctx == b->ctx && a->cur_pid == b->cur_pid && a->pid == b->pid &&
	       a->pid2 == b->pid2 && a->prio == b->prio && a->prio2 == b->prio2 &&
	       a->target_cpu == b->target_cpu && a->orig_cpu == b->orig_cpu && a->count == b->count &&
	       !strcmp(a->comm, b->comm) && !strcmp(a->comm2, b->comm2);
}

/* a slice's end from prev_state: R, D (D or I), X (X or Z), else S */
static inline char sl_model_slice_state(char s)
{
	return s == 'R' ? 'R' : s == 'D' || s == 'I' ? 'D' : s == 'X' || s == 'Z' ? 'X' : 'S';
}

/* an event fired in interrupt context (as far as the file says) */
static inline int sl_model_in_irq(const struct sl_event *ev)
{
	return (ev->ctx & SL_CTX_KNOWN) && (ev->ctx & (SL_CTX_HARDIRQ | SL_CTX_SOFTIRQ | SL_CTX_NMI));
}

/* slice hints by tid (sl_model_set_slice_hints) */
static inline int sl_model_hint_cmp(const void *a, const void *b)
{
	const struct sl_slice_hint *x = a, *y = b;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* An SL_EV_TASKINFO: kept for sl_model_finish (collector/model_finish.c). */
int sl_model_kind_event(struct sl_model *m, const struct sl_event *ev);
/* Append a phase (a burst of run ns ending in end) to t's behaviour. */
void sl_model_add_phase(struct mtask *t, uint64_t run, char end);
/* The row of task idx's slice held back at a missed switch, if any, with
 * end state st (collector/model.c). */
int sl_model_flush_pending(struct sl_model *m, int32_t idx, char st);

#endif
