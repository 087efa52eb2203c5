/* collector/tracedat_pages.c - the records of a plain trace.dat straight
 * from its CPU pages: see tracedat_pages.h.
 *
 * What libtracecmd 3.1 does per record (lib/trace-cmd/trace-input.c:
 * tracecmd_iterate_events, tracecmd_peek_data, get_next_page, get_page,
 * update_page_info), done here without its allocation of each record,
 * its reference counts and its page maps:
 * - each CPU's data is a run of pages from the flyrecord section; a page
 *   is parsed as libtraceevent 1.7's kbuffer (kbuffer-parse.c) parses it,
 *   and a page whose commit size is larger than the page ends that CPU's
 *   records ("bad page read");
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

/* The ring buffer's page and event headers, as libtraceevent 1.7's
 * kbuffer-parse.c reads them (the kernel's kernel/trace/ring_buffer.c,
 * struct buffer_data_page and struct ring_buffer_event): a page is a u64
 * timestamp, a long "commit" (its data's size, and two flags: events were
 * missed before it, and their count is stored after the data), then the
 * data; an event is a u32 of type_len (5 bits) and time_delta (27 bits),
 * then by type_len: 0 a u32 length (itself included) and the data, 1..28
 * the data of 4 * type_len bytes, 29 padding (a u32 length), 30 a time
 * extend (a u32 of the delta's upper bits), 31 an absolute time stamp
 * (the same, and the 5 top bits from the current time). */
enum { T_PADDING = 29, T_EXTEND = 30, T_STAMP = 31 };
#define COMMIT_MASK ((1u << 27) - 1)
#define MISSING_EVENTS (1ull << 31)
#define MISSING_STORED (1ull << 30)
#define TS_MSB (0xf8ull << 56)

struct fmt {
	int swap;   /* the file's byte order is not the host's */
	int be;     /* the file is big-endian: type_len is the top 5 bits */
	int long8;  /* the page header's commit is 8 bytes */
};

/* One CPU's data and, as kbuffer keeps them, the loaded page's state. */
struct pcpu {
	uint64_t page;   /* file offset of the page loaded */
	uint64_t end;    /* end of the CPU's data */
	int live;        /* a page is loaded and records may follow */
	const unsigned char *data; /* the page's data (after its header) */
	unsigned long long timestamp;
	long long lost_events;
	unsigned int index, curr, next, size, start;
	struct tep_record r; /* its next record (r.data NULL: none) */
};

static unsigned int rd4(const struct fmt *f, const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return f->swap ? __builtin_bswap32(v) : v;
}

static unsigned long long rd8(const struct fmt *f, const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return f->swap ? __builtin_bswap64(v) : v;
}

/* kbuffer's update_pointers: the event at curr; its type_len */
static unsigned int update(struct pcpu *c, const struct fmt *f)
{
	const unsigned char *p = c->data + c->curr;
	unsigned int tl = rd4(f, p), type = f->be ? (tl >> 27) & 31 : tl & 31;
	unsigned long long delta = f->be ? tl & ((1u << 27) - 1) : tl >> 5, ext, msb = 0;
	unsigned int length; /* kbuffer's int length, added to index unsigned */
	p += 4;
	switch (type) {
	case T_PADDING:
		length = rd4(f, p);
		break;
	case T_STAMP:
		msb = c->timestamp & TS_MSB;
		/* fall through */
	case T_EXTEND:
		ext = rd4(f, p);
		p += 4;
		ext <<= 27;
		ext += delta;
		delta = ext | msb;
		length = 0;
		break;
	case 0:
		length = rd4(f, p) - 4u;
		length = (length + 3u) & ~3u;
		p += 4;
		break;
	default:
		length = type * 4;
		break;
	}
	if (type == T_STAMP)
		c->timestamp = delta;
	else
		c->timestamp += delta;
	c->index = (unsigned int)(p - c->data);
	c->next = c->index + length;
	return type;
}

/* kbuffer's __next_event: to the next data event (-1: none on the page) */
static int next_event(struct pcpu *c, const struct fmt *f)
{
	unsigned int type;
	do {
		c->curr = c->next;
		if (c->next >= c->size)
			return -1;
		type = update(c, f);
	} while (type == T_EXTEND || type == T_STAMP || type == T_PADDING);
	return 0;
}

/* Load the page at file offset off (kbuffer_load_subbuffer): 0, or -1
 * when its commit size is larger than a page (the CPU ends there). */
static int load(struct pcpu *c, const struct fmt *f, const unsigned char *map, uint64_t off,
		uint32_t page_size)
{
	const unsigned char *p = map + off;
	unsigned long long flags;
	c->page = off;
	c->timestamp = rd8(f, p);
	c->start = f->long8 ? 16 : 12;
	c->data = p + c->start;
	flags = f->long8 ? rd8(f, p + 8) : rd4(f, p + 8);
	c->size = (unsigned int)flags & COMMIT_MASK;
	if (flags & MISSING_EVENTS)
		c->lost_events = flags & MISSING_STORED
					 ? (long long)(f->long8 ? rd8(f, c->data + c->size)
								: rd4(f, c->data + c->size))
					 : -1;
	else
		c->lost_events = 0;
	c->curr = c->index = c->next = 0;
	next_event(c, f);
	return c->size > page_size ? -1 : 0;
}

/* The CPU's next record into c->r (r.data NULL when there is none), as
 * tracecmd_peek_data makes it; then on to the event after it. */
static void peek(struct pcpu *c, const struct fmt *f, const unsigned char *map, uint32_t page_size,
		 int cpu)
{
	c->r.data = NULL;
	if (!c->live)
		return;
	while (c->curr >= c->size) { /* kbuffer_read_event: none left */
		if (c->end - c->page <= page_size || load(c, f, map, c->page + page_size, page_size)) {
			c->live = 0;
			return;
		}
	}
	c->r.ts = c->timestamp;
	c->r.size = (int)(c->next - c->index);
	c->r.cpu = cpu;
	c->r.data = (void *)(c->data + c->index);
	c->r.offset = c->page + c->curr + c->start;
	c->r.missed_events = c->curr ? 0 : (int)c->lost_events;
	c->r.record_size = (int)(c->next - c->curr);
	next_event(c, f);
}

int sl_tdpages_plain(const struct sl_tdhdr *h, struct tep_handle *tep)
{
	return h->version == 6 && !h->compressed && h->plain_ts && h->ncpus >= 1 &&
	       h->ncpus <= SL_TDHDR_MAXSTAT && tep_get_header_timestamp_size(tep) == 8 &&
	       !tep_is_old_format(tep);
}

int sl_tdpages_iterate(int fd, const struct sl_tdhdr *h, struct tep_handle *tep,
		       int (*fn)(struct tep_record *r, void *arg), void *arg)
{
	const uint16_t one = 1;
	struct fmt f;
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
	f.be = h->big_endian;
	f.swap = h->big_endian != (*(const unsigned char *)&one == 0);
	f.long8 = h->long_size == 8;
	for (i = 0; i < n; i++) {
		uint64_t off = h->cpu_off[i], size = h->cpu_size[i];
		if (!size || off > h->file_size || size > h->file_size - off ||
		    size < h->page_size)
			continue; /* no data (libtracecmd: "CPU is empty") */
		c[i].end = off + size;
		c[i].live = !load(&c[i], &f, map, off, h->page_size);
	}
	for (i = 0; i < n; i++)
		peek(&c[i], &f, map, h->page_size, i);
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
		peek(&c[next], &f, map, h->page_size, next);
	}
	free(c);
	munmap(map, h->file_size);
	return ret;
}
