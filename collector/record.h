/* collector/record.h - live recording of the scheduler events of this
 * machine through libtracefs, into a trace-cmd trace.dat (file version 6)
 * that `trace-cmd report` and schedlab's trace.dat reader both read.
 *
 * A private tracefs instance is created, so the top-level tracing state is
 * never touched; it is removed again at the end (also on errors). */
#ifndef SL_RECORD_H
#define SL_RECORD_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include "../common/util.h"

struct sl_record_opts {
	const char *out;               /* trace.dat to write */
	uint64_t duration;             /* ns; 0 = until *stop or the command exits */
	char *const *argv;             /* command to start and trace until it exits; NULL = none */
	volatile sig_atomic_t *stop;   /* set by the caller (signal handler) to stop; may be NULL */
	size_t buffer_kb;              /* per-CPU ring buffer; 0 = 8192 */
	const char *ledger;            /* the ledger to write (docs/ledger.md); NULL = none */
};

struct sl_record_cpu {
	uint64_t events;   /* events read from the buffer ("read events") */
	uint64_t overrun;  /* overwritten before we read them (lost) */
	uint64_t dropped;  /* dropped because the buffer was full (lost) */
	uint64_t bytes;    /* bytes of buffer pages written to the file */
};

struct sl_record_result {
	int ncpus;
	struct sl_record_cpu *cpu;  /* ncpus entries (sl_record_result_release frees) */
	int cmd_status;             /* wait status of the command; -1 when none ran */
	uint64_t elapsed;           /* ns between tracing on and off */
	int nevents_enabled;        /* sched events the kernel had of those we ask for */
};

/* Record until o->duration has passed, *o->stop becomes non-zero or the
 * command exits; write o->out (through a temporary file renamed at the end).
 * Returns 0 with *res filled, or -1 with d->msg. Needs root. The tracing
 * instance is removed in every case. */
int sl_record_run(const struct sl_record_opts *o, struct sl_record_result *res,
		  struct sl_diag *d);

/* Free what sl_record_run put in *res. */
void sl_record_result_release(struct sl_record_result *res);

#endif
