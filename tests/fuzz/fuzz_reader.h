/* tests/fuzz/fuzz_reader.h - the body shared by the reader fuzz targets:
 * put the bytes in a memfd, probe and read it with a callback that aborts
 * on events out of time order or of an unknown type. */
#ifndef SL_FUZZ_READER_H
#define SL_FUZZ_READER_H

#include "../../collector/event.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

struct fuzz_chk {
	uint64_t last, n;
};

static int fuzz_on_event(void *ctx, const struct sl_event *ev)
{
	struct fuzz_chk *c = ctx;
	if (ev->ts < c->last || ev->type == SL_EV_NONE || ev->type >= SL_EV_NTYPES)
		abort();
	c->last = ev->ts;
	c->n++;
	return 0;
}

static int fuzz_reader(const struct sl_reader *r, const uint8_t *data, size_t size)
{
	struct fuzz_chk c = { 0, 0 };
	struct sl_diag d = { { 0 }, NULL, NULL };
	char path[64];
	int fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	(void)r->probe(data, size);
	(void)r->read(path, fuzz_on_event, &c, &d);
	close(fd);
	return 0;
}

#endif
