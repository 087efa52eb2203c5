/* analyze/merge.h - schedlab merge: one database from many (the databases
 * of a sweep's jobs, of several machines). ATTACH each input; ids
 * renumbered; a trace present in several (same sha256) kept once, with the
 * runs of every input joined under it; all inputs in one transaction (the
 * output gets all or nothing); inputs of another schema version refused
 * with a clear message. */
#ifndef SL_MERGE_H
#define SL_MERGE_H

#include <stddef.h>
#include "../common/util.h"

struct sl_merge_stats {
	size_t inputs;  /* databases merged */
	size_t traces;  /* traces new to the output */
	size_t runs;    /* runs added */
};

/* Merge in[0..nin) into out (created with the schema when missing). 0, or
 * -1 with d->msg (out unchanged). */
int sl_merge(const char *out, const char *const *in, size_t nin, struct sl_merge_stats *st,
	     struct sl_diag *d);

#endif
