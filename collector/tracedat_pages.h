/* collector/tracedat_pages.h - the records of a plain trace.dat (version
 * 6, uncompressed, no option that moves its timestamps) read straight from
 * its CPU pages with libtraceevent's kbuffer, in the order and with the
 * fields libtracecmd's tracecmd_iterate_events gives them, without its
 * per-record allocation and page maps (a third of the decoding's time). */
#ifndef SL_TRACEDAT_PAGES_H
#define SL_TRACEDAT_PAGES_H

#include <traceevent/event-parse.h>

#include "tracedat_hdr.h"

/* 1 if the file open on fd, whose headers h describes, is one
 * sl_tdpages_iterate reads. */
int sl_tdpages_plain(const struct sl_tdhdr *h, struct tep_handle *tep);

/* fn for each record of the top-level buffer, in time order; stops at the
 * first non-zero return and gives it. -1 as tracecmd_iterate_events gives
 * it; -2 (nothing read) when the file is not plain or cannot be mapped:
 * read it with libtracecmd. */
int sl_tdpages_iterate(int fd, const struct sl_tdhdr *h, struct tep_handle *tep,
		       int (*fn)(struct tep_record *r, void *arg), void *arg);

#endif
