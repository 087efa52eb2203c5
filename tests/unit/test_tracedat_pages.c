/* tests/unit/test_tracedat_pages.c - the direct page reader of plain
 * trace.dat files (collector/tracedat_pages.c) against libtracecmd's own
 * iteration (tracecmd_iterate_events) on the same files: every record the
 * same, in the same order, with the same ts, cpu, file offset, size,
 * missed-event count and data. The files: the v6 recording of the fuzz
 * corpus (2 CPUs), and when ../shared is there the trappy v6 file (8 CPUs,
 * 32-bit long); the v7 zstd conversion is not plain (libtracecmd reads it). */
#include "harness.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "../../collector/tracedat_pages.h"
#include "../../common/util.h"

struct rec {
	unsigned long long ts, offset;
	int cpu, size, missed;
	uint64_t sum; /* of the record's bytes */
};

struct recs {
	struct rec *r;
	size_t n, cap;
};

static void add(struct recs *v, const struct tep_record *r)
{
	struct rec *x;
	int i;
	SL_GROW(v->r, v->cap, v->n + 1);
	x = &v->r[v->n++];
	x->ts = r->ts;
	x->offset = r->offset;
	x->cpu = r->cpu;
	x->size = r->size;
	x->missed = r->missed_events;
	x->sum = 0;
	for (i = 0; i < r->size; i++)
		x->sum = x->sum * 31 + ((const unsigned char *)r->data)[i];
}

static int by_lib(struct tracecmd_input *h, struct tep_record *r, int cpu, void *arg)
{
	(void)h;
	(void)cpu;
	add(arg, r);
	return 0;
}

static int by_pages(struct tep_record *r, void *arg)
{
	add(arg, r);
	return 0;
}

/* Both readings of path; 1 when they agree record for record (n records). */
static int same_records(const char *path, size_t *n, int *plain)
{
	struct sl_tdhdr *hd = xcalloc(1, sizeof(*hd));
	struct recs a = { 0 }, b = { 0 };
	struct tracecmd_input *h;
	int fd = open(path, O_RDONLY), fd2 = open(path, O_RDONLY), ok = 0, rc = -3;
	size_t i;
	*n = 0;
	*plain = 0;
	if (fd < 0 || fd2 < 0 || sl_tdhdr_check(fd, hd) || !(h = tracecmd_open_fd(fd2, 0)))
		goto out;
	*plain = sl_tdpages_plain(hd, tracecmd_get_tep(h));
	tracecmd_iterate_events(h, NULL, 0, by_lib, &a);
	rc = sl_tdpages_iterate(fd, hd, tracecmd_get_tep(h), by_pages, &b);
	tracecmd_close(h);
	fd2 = -1;
	ok = rc == (*plain ? 0 : -2) && (!*plain || a.n == b.n);
	for (i = 0; ok && *plain && i < a.n; i++)
		ok = a.r[i].ts == b.r[i].ts && a.r[i].offset == b.r[i].offset &&
		     a.r[i].cpu == b.r[i].cpu && a.r[i].size == b.r[i].size &&
		     a.r[i].missed == b.r[i].missed && a.r[i].sum == b.r[i].sum;
	*n = a.n;
out:
	if (fd >= 0)
		close(fd);
	if (fd2 >= 0)
		close(fd2);
	free(a.r);
	free(b.r);
	free(hd);
	return ok;
}

SL_TEST(tracedat_pages_same_records_as_libtracecmd)
{
	/* rec-v6.dat: 2 CPUs, options CPUSTAT, TRACECLOCK, UNAME only (plain);
	 * `trace-cmd report` lists 74 records (its 75 lines less "cpus=2") */
	const char *sh = getenv("SHARED");
	char p[512];
	size_t n;
	int plain;
	CHECK(same_records("tests/fuzz/corpus/tracedat/rec-v6.dat", &n, &plain));
	CHECK(plain);
	CHECK_EQ_INT(n, 74);
	/* the v7 zstd conversion of the same recording: not plain, -2 */
	CHECK(same_records("tests/fuzz/corpus/tracedat/rec-v7-zstd.dat", &n, &plain));
	CHECK(!plain);
	snprintf(p, sizeof(p), "%s/traces/trappy-hmp-8cpu-dat/trace.dat", sh ? sh : "../shared");
	if (access(p, R_OK))
		SKIP("trappy trace.dat not found");
	CHECK(same_records(p, &n, &plain));
	CHECK(plain);
	CHECK(n > 1000);
}
