/* tests/tools/perf_topipe.c - rewrite a perf.data file in pipe mode (the
 * layout `perf record -o -` writes), for tests and fuzz seeds:
 *
 *   perf_topipe IN OUT
 * OUT = "PERFILE2" with header size 16, one PERF_RECORD_HEADER_ATTR (type
 * 64: the attr, then its ids) per attribute, PERF_RECORD_HEADER_TRACING_DATA
 * (type 66: header, u32 size, u32 pad, then the tracing data padded to 8),
 * then IN's data records unchanged. Exit 0, or 1 with a message. */
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

static void rec_header(FILE *f, uint32_t type, uint16_t size)
{
	uint16_t misc = 0;
	fwrite(&type, 4, 1, f);
	fwrite(&misc, 2, 1, f);
	fwrite(&size, 2, 1, f);
}

int main(int argc, char **argv)
{
	FILE *f;
	unsigned char *b, zero[8] = { 0 };
	long len;
	uint64_t asz, aoff, an, doff, dsize, i, toff, tsize, pad, hsz = 16;
	uint32_t tsz32;

	if (argc != 3)
		return fprintf(stderr, "usage: perf_topipe IN OUT\n"), 2;
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 104 || fseek(f, 0, SEEK_SET))
		return fprintf(stderr, "perf_topipe: cannot read %s\n", argv[1]), 1;
	b = malloc((size_t)len);
	if (!b || fread(b, 1, (size_t)len, f) != (size_t)len)
		return fprintf(stderr, "perf_topipe: read error\n"), 1;
	fclose(f);
	asz = get64(b + 16);
	aoff = get64(b + 24);
	an = get64(b + 32) / asz;
	doff = get64(b + 40);
	dsize = get64(b + 48);
	if (memcmp(b, "PERFILE2", 8) || !(b[72] & 2) || doff + dsize + 16 > (uint64_t)len)
		return fprintf(stderr, "perf_topipe: not a perf.data file with tracing data\n"), 1;
	/* bit 0 is never set, so the first feature entry is the tracing data */
	toff = get64(b + doff + dsize);
	tsize = get64(b + doff + dsize + 8);
	if (toff + tsize > (uint64_t)len)
		return fprintf(stderr, "perf_topipe: tracing data past the end\n"), 1;
	f = fopen(argv[2], "wb");
	if (!f)
		return fprintf(stderr, "perf_topipe: cannot write %s\n", argv[2]), 1;
	fwrite("PERFILE2", 8, 1, f);
	fwrite(&hsz, 8, 1, f);
	for (i = 0; i < an; i++) {
		const unsigned char *a = b + aoff + i * asz;
		uint64_t ioff = get64(a + asz - 16), isz = get64(a + asz - 8);
		rec_header(f, 64, (uint16_t)(8 + asz - 16 + isz));
		fwrite(a, asz - 16, 1, f);
		fwrite(b + ioff, isz, 1, f);
	}
	pad = (8 - tsize % 8) % 8;
	rec_header(f, 66, 16);
	tsz32 = (uint32_t)(tsize + pad);
	fwrite(&tsz32, 4, 1, f);
	fwrite(zero, 4, 1, f);
	fwrite(b + toff, tsize, 1, f);
	fwrite(zero, pad, 1, f);
	fwrite(b + doff, dsize, 1, f);
	if (fclose(f))
		return fprintf(stderr, "perf_topipe: write error\n"), 1;
	free(b);
	return 0;
}
