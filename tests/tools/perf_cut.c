/* tests/tools/perf_cut.c - make a small valid perf.data from a big one, for
 * fuzz seeds and unit fixtures: keep the header, attributes and feature
 * sections, and only the first N records of the data section.
 *
 *   perf_cut IN OUT N [SKIP [t]]
 * keeps records SKIP .. SKIP+N-1 (SKIP defaults to 0); with "t" only the
 * tracing-data feature section is kept (smaller seeds). The data section's size in the header and every feature section's offset
 * are rewritten to match. Exit 0, or 1 with a message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

int main(int argc, char **argv)
{
	FILE *f;
	unsigned char *b;
	long len;
	uint64_t doff, dsize, pos, end, delta, tab, start;
	long n, i, nfeat = 0, skip = 0;
	int bit;

	if (argc < 4 || argc > 6) {
		fprintf(stderr, "usage: perf_cut IN OUT N [SKIP [t]]\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 104 || fseek(f, 0, SEEK_SET))
		return fprintf(stderr, "perf_cut: cannot read %s\n", argv[1]), 1;
	b = malloc((size_t)len);
	if (!b || fread(b, 1, (size_t)len, f) != (size_t)len)
		return fprintf(stderr, "perf_cut: read error\n"), 1;
	fclose(f);
	if (memcmp(b, "PERFILE2", 8))
		return fprintf(stderr, "perf_cut: not a perf.data file\n"), 1;
	doff = get64(b + 40);
	dsize = get64(b + 48);
	end = doff + dsize;
	if (end > (uint64_t)len)
		return fprintf(stderr, "perf_cut: data section past the end\n"), 1;
	n = atol(argv[3]);
	if (argc >= 5)
		skip = atol(argv[4]);
	for (pos = doff, i = 0; pos + 8 <= end && i < skip; i++) {
		uint16_t sz;
		memcpy(&sz, b + pos + 6, 2);
		if (sz < 8 || pos + sz > end)
			break;
		pos += sz;
	}
	start = pos;
	for (i = 0; pos + 8 <= end && i < n; i++) {
		uint16_t sz;
		memcpy(&sz, b + pos + 6, 2);
		if (sz < 8 || pos + sz > end)
			break;
		pos += sz;
	}
	delta = end - pos + (start - doff);
	for (bit = 0; bit < 256; bit++)
		nfeat += (b[72 + bit / 8] >> (bit % 8)) & 1;
	for (i = 0, tab = end; i < nfeat; i++, tab += 16)
		if (tab + 16 <= (uint64_t)len)
			put64(b + tab, get64(b + tab) - delta);
	put64(b + 48, pos - start);
	if (argc == 6 && !strcmp(argv[5], "t") && (b[72] & 2)) {
		/* keep the tracing data only: entry 0 of the table is bit 1 when
		 * bit 0 is clear (it always is) */
		uint64_t toff = get64(b + end), tsz = get64(b + end + 8);
		if (toff + delta + tsz > (uint64_t)len)
			return fprintf(stderr, "perf_cut: bad tracing section\n"), 1;
		memset(b + 72, 0, 32);
		b[72] = 2;
		f = fopen(argv[2], "wb");
		put64(b + end, pos - start + doff + 16);
		if (!f || fwrite(b, 1, (size_t)doff, f) != (size_t)doff ||
		    fwrite(b + start, 1, (size_t)(pos - start), f) != (size_t)(pos - start) ||
		    fwrite(b + end, 1, 16, f) != 16 ||
		    fwrite(b + toff + delta, 1, (size_t)tsz, f) != (size_t)tsz || fclose(f))
			return fprintf(stderr, "perf_cut: cannot write %s\n", argv[2]), 1;
		free(b);
		return 0;
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(b, 1, (size_t)doff, f) != (size_t)doff ||
	    fwrite(b + start, 1, (size_t)(pos - start), f) != (size_t)(pos - start) ||
	    fwrite(b + end, 1, (size_t)((uint64_t)len - end), f) != (size_t)((uint64_t)len - end) ||
	    fclose(f))
		return fprintf(stderr, "perf_cut: cannot write %s\n", argv[2]), 1;
	free(b);
	return 0;
}
