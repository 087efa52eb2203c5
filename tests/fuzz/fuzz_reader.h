/* tests/fuzz/fuzz_reader.h - the body shared by the reader fuzz targets:
 * probe the bytes and read them (sl_read_mem, collector/import.h) with a
 * callback that aborts on events out of time order or of an unknown type. */
#ifndef SL_FUZZ_READER_H
#define SL_FUZZ_READER_H

#include "../../collector/event.h"
#include "../../collector/import.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct fuzz_chk {
	uint64_t last, n;
	int cut;
};

/* events in time order; SL_EV_CUT (its ts is no time) only once, last */
static int fuzz_on_event(void *ctx, const struct sl_event *ev)
{
	struct fuzz_chk *c = ctx;
	if (c->cut)
		abort();
	if (ev->type == SL_EV_CUT) {
		c->cut = 1;
		return 0;
	}
	if (ev->ts < c->last || ev->type == SL_EV_NONE || ev->type >= SL_EV_NTYPES)
		abort();
	c->last = ev->ts;
	c->n++;
	return 0;
}

static int fuzz_reader(const struct sl_reader *r, const uint8_t *data, size_t size)
{
	struct fuzz_chk c = { 0, 0, 0 };
	struct sl_diag d = { { 0 }, NULL, NULL };
	(void)r->probe(data, size);
	(void)sl_read_mem(r, data, size, fuzz_on_event, &c, &d);
	return 0;
}

#endif
