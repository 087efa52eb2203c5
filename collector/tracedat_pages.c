/* collector/tracedat_pages.c - the records of a plain trace.dat straight
 * from its CPU pages: see tracedat_pages.h.
 *
 * What libtracecmd 3.1 does per record (lib/trace-cmd/trace-input.c:
 * tracecmd_iterate_events, tracecmd_peek_data, get_next_page, get_page,
 * update_page_info), done here without its allocation of each record,
 * its reference counts and its page maps:
 * - each CPU's data is a run of pages from the flyrecord section; a page
 *   is loaded into a kbuffer, and a page whose commit size is larger than
 *   the page ends that CPU's records ("bad page read");
 * - a CPU's next record is the kbuffer's next event, else the first of the
 *   next page, until the last page (less than a page left from the current
 *   one);
 * - the record's ts is the kbuffer's (no ts offset, TSC or host sync for
 *   the files read here), size kbuffer_event_size, offset the page's file
 *   offset plus kbuffer_curr_offset, missed_events kbuffer_missed_events;
 * - the CPUs are merged by ts, the lowest CPU first among equal ones; a
 *   record with missed events whose event id the file does not describe
 *   ends the iteration with -1 (call_missed_events). */
#include "tracedat_pages.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <traceevent/kbuffer.h>

struct pcpu {
	struct kbuffer *kb;
	uint64_t page;   /* file offset of the page loaded */
	uint64_t end;    /* end of the CPU's data */
	struct tep_record r; /* its next record (r.data NULL: none) */
};

/* Load the page at file offset off: 0, or -1 when its commit size is
 * larger than a page (the CPU ends there). */
static int load(struct pcpu *c, const unsigned char *map, uint64_t off, uint32_t page_size)
{
	c->page = off;
	kbuffer_load_subbuffer(c->kb, (void *)(map + off));
	return kbuffer_subbuffer_size(c->kb) > (int)page_size ? -1 : 0;
}

/* The CPU's next record into c->r (r.data NULL when there is none). */
static void peek(struct pcpu *c, const unsigned char *map, uint32_t page_size, int cpu)
{
	unsigned long long ts;
	void *data;
	c->r.data = NULL;
	if (!c->kb)
		return;
	while (!(data = kbuffer_read_event(c->kb, &ts))) {
		if (c->end - c->page <= page_size || load(c, map, c->page + page_size, page_size)) {
			kbuffer_free(c->kb);
			c->kb = NULL;
			return;
		}
	}
	c->r.ts = ts;
	c->r.size = kbuffer_event_size(c->kb);
	c->r.cpu = cpu;
	c->r.data = data;
	c->r.offset = c->page + (uint64_t)kbuffer_curr_offset(c->kb);
	c->r.missed_events = kbuffer_missed_events(c->kb);
	c->r.record_size = kbuffer_curr_size(c->kb);
	kbuffer_next_event(c->kb, NULL);
}

int sl_tdpages_plain(const struct sl_tdhdr *h, struct tep_handle *tep)
{
	return h->version == 6 && !h->compressed && h->plain_ts && h->ncpus >= 1 &&
	       h->ncpus <= SL_TDHDR_MAXSTAT && tep_get_header_timestamp_size(tep) == 8;
}

int sl_tdpages_iterate(int fd, const struct sl_tdhdr *h, struct tep_handle *tep,
		       int (*fn)(struct tep_record *r, void *arg), void *arg)
{
	struct pcpu *c;
	unsigned char *map;
	int i, n = h->ncpus, ret = 0;

	if (!sl_tdpages_plain(h, tep) || !h->file_size)
		return -2;
	map = mmap(NULL, h->file_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return -2;
	c = calloc((size_t)n, sizeof(*c));
	if (!c) {
		munmap(map, h->file_size);
		return -2;
	}
	for (i = 0; i < n; i++) {
		uint64_t off = h->cpu_off[i], size = h->cpu_size[i];
		if (!size || off > h->file_size || size > h->file_size - off ||
		    size < h->page_size)
			continue; /* no data (libtracecmd: "CPU is empty") */
		c[i].kb = kbuffer_alloc(h->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					h->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
		if (!c[i].kb) {
			ret = -2;
			goto out;
		}
		if (tep_is_old_format(tep))
			kbuffer_set_old_format(c[i].kb);
		c[i].end = off + size;
		if (load(&c[i], map, off, h->page_size)) {
			kbuffer_free(c[i].kb);
			c[i].kb = NULL;
		}
	}
	for (i = 0; i < n; i++)
		peek(&c[i], map, h->page_size, i);
	for (;;) {
		int next = -1;
		for (i = 0; i < n; i++)
			if (c[i].r.data && (next < 0 || c[i].r.ts < c[next].r.ts))
				next = i;
		if (next < 0)
			break;
		if (c[next].r.missed_events && !tep_find_event_by_record(tep, &c[next].r)) {
			ret = -1;
			break;
		}
		ret = fn(&c[next].r, arg);
		if (ret)
			break;
		peek(&c[next], map, h->page_size, next);
	}
out:
	for (i = 0; i < n; i++)
		if (c[i].kb)
			kbuffer_free(c[i].kb);
	free(c);
	munmap(map, h->file_size);
	return ret;
}
