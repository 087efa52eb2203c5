/* collector/import.h - a trace, in a file or in memory, through a format
 * reader into the behaviour model and the recorded run: the one path that
 * `schedlab import` (through sl_import(), analyze/import.h), the unit tests
 * and the fuzz targets take. Knows nothing of SQLite: the recorded rows go
 * to a run sink (common/sink.h). */
#ifndef SL_IMPORT_MODEL_H
#define SL_IMPORT_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "event.h"
#include "model.h"

/* Called every 2^20 events with the count so far (a progress line). */
typedef void (*sl_progress_fn)(void *ctx, uint64_t events);

/* What a file became. */
struct sl_imported {
	struct sl_behaviour b;      /* every task's behaviour (sl_behaviour_release) */
	uint64_t *first, *last;     /* [b.ntasks] each task's first and last ts */
	struct sl_model_stats ms;   /* counts, CPUs, span, losses (arrays owned) */
	uint64_t events;            /* events the reader delivered */
};

/* Read path with r, feeding the behaviour model; the recorded run's rows go
 * to rec (its callbacks may be NULL). A file without scheduler events is an
 * error ("FILE: no scheduler events found"). Returns 0 with *out filled
 * (release it with sl_imported_release), or -1 with d->msg set. */
int sl_import_model(const struct sl_reader *r, const char *path, const struct sl_run_sink *rec,
		    sl_progress_fn progress, void *pctx, struct sl_imported *out, struct sl_diag *d);
/* What a recording's ledger gives the model: the kernel's mean slices of
 * threads (sl_model_set_slice_hints) and their windows
 * (sl_model_set_windows); either may be empty. */
struct sl_ledger_hints {
	const struct sl_slice_hint *hint;
	size_t nhint;
	const struct sl_ledger_window *win;
	size_t nwin;
};
/* The same with a ledger's hints (NULL: none). */
int sl_import_model_hinted(const struct sl_reader *r, const char *path, const struct sl_run_sink *rec,
			   const struct sl_ledger_hints *h, sl_progress_fn progress, void *pctx,
			   struct sl_imported *out, struct sl_diag *d);
/* The same for n bytes in memory (what a file would hold). */
int sl_import_model_mem(const struct sl_reader *r, const void *buf, size_t n,
			const struct sl_run_sink *rec, struct sl_imported *out, struct sl_diag *d);
void sl_imported_release(struct sl_imported *im);

/* A reader on n bytes in memory: r->read() on an anonymous in-memory file
 * (memfd, named /proc/self/fd/N in messages), so that every reader, even
 * those that need a file (libtracecmd), reads from bytes. Returns what
 * r->read returns, or -1 (d->msg set) if no memory file can be made. */
int sl_read_mem(const struct sl_reader *r, const void *buf, size_t n, sl_event_fn fn, void *ctx,
		struct sl_diag *d);

/* An input that cannot be read more than once (standard input as "-", a
 * pipe, a FIFO, /dev/stdin, a process substitution) is read to its end,
 * once, into an unlinked temporary file in $TMPDIR (default /tmp); every
 * later pass (the format probe, the hash, the reader, the release) reads
 * that. sl_input_open: if path needs it, spools it and returns the spool's
 * fd with its name (/proc/self/fd/N) in spath; returns -2 when path is a
 * regular file to be read in place (spath = path); -1 with d->msg set
 * ("PATH: what") on a read or write error. Close the fd when done. */
int sl_input_open(const char *path, char *spath, size_t len, struct sl_diag *d);
/* The name a user gave for path: "standard input" for "-". */
const char *sl_input_name(const char *path);

#endif
