/* collector/release.c - see release.h. */
#include "release.h"
#include "tracedat_hdr.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* keep a printable token: the release has no spaces */
static int put(char *out, size_t len, const char *s, size_t n)
{
	size_t i, k = 0;
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	for (i = 0; i < n && k + 1 < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c <= ' ' || c > 126)
			break;
		out[k++] = (char)c;
	}
	out[k] = 0;
	return k > 0;
}

/* "sysname nodename release version ..." -> release */
static int from_uname(const char *u, char *out, size_t len)
{
	const char *p = u;
	int field;
	for (field = 0; field < 2; field++) {
		p = strchr(p, ' ');
		if (!p)
			return 0;
		p++;
	}
	return put(out, len, p, strcspn(p, " "));
}

static int tracedat(const char *path, char *out, size_t len)
{
	struct sl_tdhdr *h = calloc(1, sizeof(*h));
	int fd = open(path, O_RDONLY), rc = 0;
	if (h && fd >= 0 && sl_tdhdr_check(fd, h) == 0 && h->uname[0])
		rc = from_uname(h->uname, out, len);
	if (fd >= 0)
		close(fd);
	free(h);
	return rc;
}

static uint64_t le64(const unsigned char *b)
{
	uint64_t v = 0;
	int i;
	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/* perf string: u32 length, then the NUL-padded text */
static int perf_string(const unsigned char *p, size_t size, char *out, size_t len)
{
	uint32_t n;
	if (size < 5)
		return 0;
	n = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	if (n > size - 4)
		return 0;
	return put(out, len, (const char *)p + 4, strnlen((const char *)p + 4, n));
}

/* pipe-mode perf.data: the features come as PERF_RECORD_HEADER_FEATURE
 * records (type 80: header, u64 feature id, the feature's data) at the
 * start of the stream; look through the first records for OSRELEASE. */
static int pipe_mode(int fd, char *out, size_t len)
{
	unsigned char rec[8 + 8 + 260];
	uint64_t off = 16;
	int i;
	for (i = 0; i < 4096; i++) {
		unsigned type, size;
		if (pread(fd, rec, 8, (off_t)off) != 8)
			return 0;
		type = (unsigned)rec[0] | (unsigned)rec[1] << 8 | (unsigned)rec[2] << 16 | (unsigned)rec[3] << 24;
		size = (unsigned)rec[6] | (unsigned)rec[7] << 8;
		if (size < 8)
			return 0;
		if (type == 80 && size >= 16 + 5 && size <= sizeof(rec) &&
		    pread(fd, rec, size, (off_t)off) == (ssize_t)size && le64(rec + 8) == 4)
			return perf_string(rec + 16, size - 16, out, len);
		off += size;
	}
	return 0;
}

/* perf.data (file mode, little-endian): the feature bitmap at 72 (256
 * bits), one {offset, size} per set bit after the data section, in bit
 * order; HEADER_OSRELEASE (bit 4) is a perf string: u32 length, then the
 * NUL-padded text (tools/perf/util/header.c, write_osrelease). */
static int perfdata(const char *path, char *out, size_t len)
{
	unsigned char h[104], sec[16], str[260];
	char sub[4096];
	struct stat sb;
	uint64_t doff, dsize, off, size;
	int fd, b, before = 0, rc = 0;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		snprintf(sub, sizeof(sub), "%s/data", path);
		path = sub;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	if (pread(fd, h, 16, 0) == 16 && !memcmp(h, "PERFILE2", 8) && le64(h + 8) == 16) {
		rc = pipe_mode(fd, out, len);
		goto out;
	}
	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) || memcmp(h, "PERFILE2", 8) ||
	    le64(h + 8) < sizeof(h) || !((h[72] >> 4) & 1))
		goto out; /* not a file-mode perf.data, or no OSRELEASE */
	doff = le64(h + 40);
	dsize = le64(h + 48);
	for (b = 0; b < 4; b++)
		before += (h[72] >> b) & 1;
	if (doff > (uint64_t)sb.st_size || dsize > UINT64_MAX - doff - 16 * 5)
		goto out;
	if (pread(fd, sec, 16, (off_t)(doff + dsize + 16 * (uint64_t)before)) != 16)
		goto out;
	off = le64(sec);
	size = le64(sec + 8);
	if (size < 5 || size > sizeof(str) || pread(fd, str, (size_t)size, (off_t)off) != (ssize_t)size)
		goto out;
	rc = perf_string(str, (size_t)size, out, len);
out:
	close(fd);
	return rc;
}

/* perf script --header: "# os release : 6.1.0-18-amd64" near the top */
static int perfscript(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int n, rc = 0;
	if (!f)
		return 0;
	for (n = 0; n < 200 && fgets(line, sizeof(line), f); n++) {
		if (line[0] != '#')
			break;
		if (!strncmp(line, "# os release : ", 15)) {
			rc = put(out, len, line + 15, strcspn(line + 15, "\r\n"));
			break;
		}
	}
	fclose(f);
	return rc;
}

int sl_trace_release(const char *path, const char *format, char *out, size_t len)
{
	int rc = 0;
	if (!len)
		return 0;
	out[0] = 0;
	if (!strcmp(format, "tracedat"))
		rc = tracedat(path, out, len);
	else if (!strcmp(format, "perfdata"))
		rc = perfdata(path, out, len);
	else if (!strcmp(format, "perfscript"))
		rc = perfscript(path, out, len);
	if (!rc)
		out[0] = 0;
	return rc;
}

/* MAJOR.MINOR of a release string; 0 if it does not start with one */
static int release_version(const char *r, long *maj, long *min, long *sub)
{
	char *end;
	*sub = 0;
	if (!r || *r < '0' || *r > '9')
		return 0;
	*maj = strtol(r, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return 0;
	*min = strtol(end + 1, &end, 10);
	if (*end == '.' && end[1] >= '0' && end[1] <= '9')
		*sub = strtol(end + 1, &end, 10);
	return 1;
}

const char *sl_release_eevdf_opts(const char *r)
{
	long maj, min, sub;
	if (!release_version(r, &maj, &min, &sub) || maj != 6 || min < 6)
		return NULL;
	/* v6.12: DELAY_DEQUEUE ("sched/fair: Implement delayed dequeue") and
	 * PLACE_REL_DEADLINE; v6.15: the normalized base
	 * slice 0.75 -> 0.70 ms (kernel/sched/fair.c,
	 * normalized_sysctl_sched_base_slice; docs/eevdf.md) */
	/* v6.18: yield_task_fair forfeits the rest of the request, and
	 * update_curr asks for a pick once curr's protection has lapsed
	 * (resched_lapsed); NI_RANDOM ("sched/fair: Proportional newidle
	 * balance", v7.0) came to the stable branches in v6.18.5 and
	 * v6.12.65; the lag clamp of max_slice (v7.0) is in this machine's
	 * v6.18.44 (docs/eevdf.md): taken for every v6.18; so is v6.19's
	 * check_preempt_wakeup_fair, which lets no new task preempt
	 * (fork_preempt=0, measured on this machine's v6.18.44: docs/eevdf.md
	 * "Forks do not preempt") */
	if (min < 12)
		return "slice_norm_us=750,delay_dequeue=0,rel_deadline=0,yield_forfeit=0,resched_lapsed=0,"
		       "ni_random=0,lag_clamp=0,fork_preempt=1";
	if (min == 12 && sub >= 65)
		return "slice_norm_us=750,yield_forfeit=0,resched_lapsed=0,lag_clamp=0,fork_preempt=1";
	if (min < 15)
		return "slice_norm_us=750,yield_forfeit=0,resched_lapsed=0,ni_random=0,lag_clamp=0,fork_preempt=1";
	if (min < 18)
		return "yield_forfeit=0,resched_lapsed=0,ni_random=0,lag_clamp=0,fork_preempt=1";
	if (min == 18 && sub < 5)
		return "ni_random=0";
	return NULL;
}

const char *sl_release_model(const char *r)
{
	long maj, min, sub;
	if (!release_version(r, &maj, &min, &sub))
		return NULL;
	/* EEVDF replaced CFS's pick in 6.6 (kernel/sched/fair.c, commit
	 * 147f3efaa241, "sched/fair: Implement an EEVDF-like scheduling
	 * policy"); CFS replaced O(1) in 2.6.23 (kernel/sched_fair.c) */
	if (maj > 6 || (maj == 6 && min >= 6))
		return "eevdf";
	if (maj > 2 || (maj == 2 && min > 6) || (maj == 2 && min == 6 && sub >= 23))
		return "cfs";
	return "o1";
}

/* The eevdf model's options that a kernel's sched_feat() bits set: the
 * feature and the option named for it (docs/eevdf.md, "Options"). */
static const struct {
	const char *feat, *opt;
} feat_opts[] = {
	{ "PLACE_LAG", "place_lag" },
	{ "PLACE_DEADLINE_INITIAL", "deadline_initial" },
	{ "PLACE_REL_DEADLINE", "rel_deadline" },
	{ "RUN_TO_PARITY", "run_to_parity" },
	{ "WAKEUP_PREEMPTION", "wakeup_preemption" },
	{ "DELAY_DEQUEUE", "delay_dequeue" },
	{ "SIS_UTIL", "sis_util" },
	{ "UTIL_EST", "util_est" },
	{ "NI_RANDOM", "ni_random" },
};

int sl_features_eevdf_opts(const char *features, char *out, size_t len)
{
	size_t o = 0, i, n;
	const char *p;
	if (!len)
		return -1;
	out[0] = 0;
	for (i = 0; i < sizeof(feat_opts) / sizeof(feat_opts[0]); i++) {
		n = strlen(feat_opts[i].feat);
		/* "NAME=0" or "NAME=1" at the start or after a comma */
		for (p = features; (p = strstr(p, feat_opts[i].feat)) != NULL; p += n)
			if ((p == features || p[-1] == ',') && p[n] == '=' && (p[n + 1] == '0' || p[n + 1] == '1') &&
			    (p[n + 2] == ',' || !p[n + 2]))
				break;
		if (p) {
			int k = snprintf(out + o, len - o, "%s%s=%c", o ? "," : "", feat_opts[i].opt, p[n + 1]);
			if (k < 0 || (size_t)k >= len - o)
				return -1;
			o += (size_t)k;
		}
	}
	return 0;
}
