/* collector/ftrace.h - the ftrace text line parser, shared by the ftrace
 * text reader and the systrace reader (which finds ftrace text in HTML).
 *
 * Understands the raw /sys/kernel/tracing/trace format (with or without the
 * tgid column, with or without the irq-flags column) and `trace-cmd report`
 * text (including its "comm:pid [prio] S ==> comm:pid [prio]" switch form). */
#ifndef SL_FTRACE_H
#define SL_FTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "event.h"

struct sl_ftrace_parser;

/* New parser; free with sl_ftrace_parser_free (NULL is fine). */
struct sl_ftrace_parser *sl_ftrace_parser_new(void);
void sl_ftrace_parser_free(struct sl_ftrace_parser *p);

/* Parse one text line (without its newline).
 * Returns 1 with *ev filled (ev->pos is left to the caller), 0 for a line
 * that is not a sched event (header, comment, another event), -1 for a line
 * that is not ftrace text at all or a malformed sched event (d->msg says
 * what, without any file or line prefix). */
int sl_ftrace_parse_line(struct sl_ftrace_parser *p, const char *line, size_t len,
			 struct sl_event *ev, struct sl_diag *d);

/* The next line of a text trace (ftrace text, perf script) from f into
 * *line, *len its length without the newline, *last 1 if it had none (a
 * last line, maybe cut off); counts *lineno. Returns 1, 0 at the end of the
 * file, or -1 with d->msg "FILE:LINE: binary data in a text trace". */
int sl_text_line(FILE *f, char **line, size_t *cap, size_t *len, int *last, uint64_t *lineno,
		 const char *path, struct sl_diag *d);

/* CPUs the header announced ("#P:N" or "cpus=N"), 0 if none yet. */
unsigned sl_ftrace_cpus(const struct sl_ftrace_parser *p);

/* Number of event lines seen so far that were not sched events. */
unsigned long sl_ftrace_other_events(const struct sl_ftrace_parser *p);

#endif
