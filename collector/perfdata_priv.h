/* collector/perfdata_priv.h - shared between the perf.data reader's files:
 * perfdata.c (file layout, records, ordering) and perfdata_tp.c (the
 * tracing-data section and decoding of sched tracepoint raw data). */
#ifndef SL_PERFDATA_PRIV_H
#define SL_PERFDATA_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include "event.h"

/* Up to 8 fields of one tracepoint, by role (meaning depends on type). */
enum { PD_F0, PD_F1, PD_F2, PD_F3, PD_F4, PD_F5, PD_F6, PD_NF = 7 };

struct pd_field {
	int32_t off;   /* byte offset in the raw data, -1 = absent */
	int32_t size;  /* 1, 2, 4, 8 for numbers; array length for char[] */
	uint8_t sign;  /* signed number */
	uint8_t kind;  /* 0 number, 1 char array, 2 __data_loc string, 3 __rel_loc */
};

/* One scheduler tracepoint of the file. */
struct pd_tp {
	int id;                 /* kernel event id (attr.config) */
	uint16_t type;          /* SL_EV_* */
	uint32_t min_size;      /* raw data must hold at least this many bytes */
	struct pd_field f[PD_NF];
};

/* What the tracing-data section told us. */
struct pd_trace {
	struct pd_tp *tp;       /* the sched tracepoints found (array of ntp) */
	size_t ntp;
	struct pd_field common_flags, common_pid;
	int64_t report_max;     /* sched_switch's "preempted" bit, 0 unknown */
	int long_size;
	char err[160];          /* why parsing failed (no file prefix) */
};

/* Parse a HEADER_TRACING_DATA blob of n bytes. Returns 0, or -1 with t->err
 * set and *bad_at = offset inside the blob where it went wrong. Release
 * with pd_trace_release. */
int pd_trace_parse(struct pd_trace *t, const unsigned char *buf, size_t n, size_t *bad_at);
void pd_trace_release(struct pd_trace *t);
/* The tracepoint with kernel id, NULL if it is not a sched event we read. */
const struct pd_tp *pd_trace_find(const struct pd_trace *t, int id);
/* Decode raw tracepoint data of tp into ev (type, pid..., ctx, cur_pid from
 * common_pid when ev->cur_pid < 0). Returns 0, or -1 when the data is too
 * short for the format. */
int pd_tp_decode(const struct pd_trace *t, const struct pd_tp *tp, const unsigned char *raw,
		 size_t n, struct sl_event *ev);
/* Evaluate the "preempted" bit from sched_switch's print fmt text (the
 * expression tested before `? "+"`), 0 when not found. Exposed for tests. */
int64_t pd_report_max_from_fmt(const char *fmt, size_t n);

#endif
