/* collector/event.h - the one event record every format reader produces.
 *
 * Readers decode their format into struct sl_event and hand each event to an
 * sl_event_fn in non-decreasing ts order (ties keep file order). Times are
 * nanoseconds as in the trace (absolute; the model builder rebases nothing).
 */
#ifndef SL_EVENT_H
#define SL_EVENT_H

#include <stdint.h>
#include "../common/util.h"

enum sl_ev_type {
	SL_EV_NONE = 0,
	SL_EV_SWITCH,     /* pid/comm/prio = prev, pid2/comm2/prio2 = next, state = prev_state */
	SL_EV_WAKEUP,     /* pid/comm/prio = woken task, target_cpu */
	SL_EV_WAKING,     /* same fields as WAKEUP */
	SL_EV_WAKEUP_NEW, /* same fields as WAKEUP */
	SL_EV_FORK,       /* pid/comm = parent, pid2/comm2 = child */
	SL_EV_EXEC,       /* pid = task, comm = new comm (filename basename) */
	SL_EV_EXIT,       /* pid/comm/prio = exiting task (sched_process_exit) */
	SL_EV_MIGRATE,    /* pid/comm/prio, orig_cpu, target_cpu = dest_cpu */
	SL_EV_LOST,       /* count = number of events lost on cpu before ts */
	SL_EV_CUT,        /* the file was cut short: pos = where (byte offset or line); sent
			   * once, after the last event (ts is not a time) */
	SL_EV_RUNTIME,    /* sched_stat_runtime: pid/comm = the task charged, count = runtime ns
			   * (the kernel's update_curr delta, ending at ts) */
	SL_EV_TASKINFO,   /* what the file says of task pid beside its events (not an
			   * event: ts is not a time; sent before the events): count =
			   * SL_KIND_KTHREAD or SL_KIND_USER */
	SL_EV_NTYPES
};

/* SL_EV_TASKINFO's count: a kernel thread, or a user task */
enum { SL_KIND_KTHREAD = 1, SL_KIND_USER = 2 };

/* Context of the event (from irq-flags columns or common_flags). */
enum {
	SL_CTX_HARDIRQ = 1,
	SL_CTX_SOFTIRQ = 2,
	SL_CTX_NMI = 4,
	SL_CTX_RAW_RUNNING = 0x40, /* switch: prev_state 0 or TASK_WAKING (0x200): no
				    * sleeping __state and no "preempted" bit (Perfetto) */
	SL_CTX_KNOWN = 0x80, /* the format told us the context at all */
};

/* prev_state of a switch, normalised to one letter:
 * 'R' preempted (still runnable), 'S' interruptible sleep, 'D' uninterruptible
 * (also 'I' idle kernel thread sleep, kept as 'I'), 'T'/'t' stopped/traced,
 * 'X' dead, 'Z' zombie, 'P' parked, '?' unknown. */

#define SL_COMM_LEN 24

struct sl_event {
	uint64_t ts;       /* ns */
	uint64_t pos;      /* line number (text) or byte offset (binary), for messages */
	int32_t cpu;
	uint16_t type;     /* enum sl_ev_type */
	uint8_t ctx;       /* SL_CTX_* */
	char state;        /* switch: prev_state letter (see above) */
	int32_t cur_pid;   /* task current on cpu when the event fired (common_pid), -1 unknown */
	int32_t cur_tgid;  /* its tgid when the format shows it, -1 unknown */
	int32_t pid, prio; /* see enum sl_ev_type; prio is the kernel prio (0..139), -1 unknown */
	int32_t pid2, prio2;
	int32_t target_cpu, orig_cpu; /* -1 unknown */
	uint64_t count;    /* SL_EV_LOST */
	char cur_comm[SL_COMM_LEN]; /* comm of cur_pid if the format shows it, else "" */
	char comm[SL_COMM_LEN];
	char comm2[SL_COMM_LEN];
};

/* Receives events in order; returns 0 to continue, -1 to stop (the reader
 * then returns -1 with the callee's diag left as is). */
typedef int (*sl_event_fn)(void *ctx, const struct sl_event *ev);

/* event.c */
/* Reset an event to "nothing known". */
void sl_event_clear(struct sl_event *ev);
/* Tell fn the file was cut short at pos (an SL_EV_CUT event); returns fn's. */
int sl_event_cut(sl_event_fn fn, void *ctx, uint64_t pos);

/* prev_state.c */
/* Map a kernel prev_state bit value to a letter. report_max is the value the
 * kernel uses for "preempted" (TASK_REPORT_MAX, e.g. 0x1000 or 0x100 or 0x80
 * depending on the kernel), or 0 if unknown. */
char sl_state_from_bits(int64_t bits, int64_t report_max);
/* Map a printed state ("S", "R+", "D|K", "x", "I") to a letter. */
char sl_state_from_text(const char *s, size_t n);
/* A prev_state that may be a task's raw __state (some Perfetto producers
 * store it): 0 or a single bit up to 0x100 as sl_state_from_bits, else
 * the raw state's bits (TASK_IDLE, WAKING, ...) to a letter. */
char sl_state_from_raw(int64_t v, int64_t report_max);

/* A format reader. probe() looks at the first bytes of a file (n may be
 * small) and returns a confidence 0..100; read() decodes the whole file,
 * calling fn for each event in time order. read() returns 0, or -1 with
 * d->msg = "FILE:POS: what". A file cut short imports what is whole and
 * warns through d (naming the position). */
struct sl_reader {
	const char *name; /* "ftrace", "tracedat", "perfdata", "perfscript", "systrace", "perfetto" */
	int (*probe)(const unsigned char *head, size_t n);
	int (*read)(const char *path, sl_event_fn fn, void *ctx, struct sl_diag *d);
};

/* The reader of that name ("ftrace", "tracedat", ...), NULL if unknown. */
const struct sl_reader *sl_reader_find(const char *name);
/* Pick the reader for a file by content (or by name if force != NULL).
 * Returns NULL with d->msg set when nothing fits. */
const struct sl_reader *sl_reader_detect(const char *path, const char *force,
					 struct sl_diag *d);

#endif
