/* tests/tools/pf_repeat.c - make a long Perfetto trace from a short one, for
 * size tests: the input's TracePackets written N times, copy k with every
 * ftrace timestamp moved by k * SHIFT ns (FtraceEvent.timestamp, field 1,
 * and the first element of compact_sched's delta-encoded switch_timestamp 1
 * and waking_timestamp 7 arrays). system_info (field 45) is kept once.
 *
 *   pf_repeat IN N SHIFT_NS OUT
 * A wire-format rewriter of its own (lengths are re-encoded); it knows
 * nothing of the reader under test. Exit 0, or 1 with a message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			exit(1);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void put_varint(struct buf *b, uint64_t v)
{
	unsigned char c[10];
	int n = 0;
	do {
		c[n] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			c[n] |= 0x80;
		n++;
	} while (v);
	put(b, c, (size_t)n);
}

static int get_varint(const unsigned char **p, const unsigned char *e, uint64_t *v)
{
	int s = 0;
	*v = 0;
	while (*p < e && s < 64) {
		unsigned char c = *(*p)++;
		*v |= (uint64_t)(c & 0x7f) << s;
		s += 7;
		if (c < 0x80)
			return 0;
	}
	return -1;
}

/* One field: number, wire type, varint value or [vp, ve) bytes. */
struct field {
	uint32_t num;
	int wt;
	uint64_t v;
	const unsigned char *vp, *ve;
};

static int next(const unsigned char **p, const unsigned char *e, struct field *f)
{
	uint64_t k, l;
	if (*p >= e || get_varint(p, e, &k))
		return -1;
	f->num = (uint32_t)(k >> 3);
	f->wt = (int)(k & 7);
	f->vp = *p;
	switch (f->wt) {
	case 0:
		return get_varint(p, e, &f->v);
	case 1:
		l = 8;
		break;
	case 5:
		l = 4;
		break;
	case 2:
		if (get_varint(p, e, &l))
			return -1;
		f->vp = *p;
		break;
	default:
		return -1;
	}
	if (l > (uint64_t)(e - *p))
		return -1;
	*p += l;
	f->ve = *p;
	return 0;
}

static void put_field(struct buf *b, const struct field *f, const struct buf *inner)
{
	put_varint(b, (uint64_t)f->num << 3 | (uint64_t)f->wt);
	if (f->wt == 0) {
		put_varint(b, f->v);
	} else if (f->wt == 2) {
		const void *p = inner ? inner->p : f->vp;
		size_t n = inner ? inner->n : (size_t)(f->ve - f->vp);
		put_varint(b, n);
		put(b, p, n);
	} else {
		put(b, f->vp, (size_t)(f->ve - f->vp));
	}
}

/* A message whose fields are copied, with rewrite(field, out) deciding. */
typedef int (*rewrite_fn)(const struct field *f, struct buf *out, uint64_t shift);

static int walk(const unsigned char *p, const unsigned char *e, struct buf *out, uint64_t shift,
		rewrite_fn fn)
{
	struct field f;
	while (p < e) {
		if (next(&p, e, &f))
			return -1;
		if (fn(&f, out, shift) < 0)
			return -1;
	}
	return 0;
}

static int copy_field(const struct field *f, struct buf *out, uint64_t shift)
{
	(void)shift;
	put_field(out, f, NULL);
	return 0;
}

static int rw_event(const struct field *f, struct buf *out, uint64_t shift)
{
	struct field g = *f;
	if (f->num == 1 && f->wt == 0)
		g.v += shift;
	put_field(out, &g, NULL);
	return 0;
}

static int rw_compact(const struct field *f, struct buf *out, uint64_t shift)
{
	if ((f->num == 1 || f->num == 7) && f->wt == 2) {
		struct buf in = { 0 };
		const unsigned char *p = f->vp;
		uint64_t v;
		int first = 1;
		while (p < f->ve) {
			if (get_varint(&p, f->ve, &v))
				return -1;
			put_varint(&in, first ? v + shift : v);
			first = 0;
		}
		put_field(out, f, &in);
		free(in.p);
		return 0;
	}
	put_field(out, f, NULL);
	return 0;
}

static int rw_bundle(const struct field *f, struct buf *out, uint64_t shift)
{
	struct buf in = { 0 };
	int rc = 0;
	if (f->wt == 2 && f->num == 2)
		rc = walk(f->vp, f->ve, &in, shift, rw_event);
	else if (f->wt == 2 && f->num == 4)
		rc = walk(f->vp, f->ve, &in, shift, rw_compact);
	else
		return copy_field(f, out, shift);
	put_field(out, f, &in);
	free(in.p);
	return rc;
}

static int rw_packet(const struct field *f, struct buf *out, uint64_t shift)
{
	struct buf in = { 0 };
	int rc;
	if (f->num == 45 && shift)
		return 0; /* system_info once */
	if (f->num != 1 || f->wt != 2)
		return copy_field(f, out, shift);
	rc = walk(f->vp, f->ve, &in, shift, rw_bundle);
	put_field(out, f, &in);
	free(in.p);
	return rc;
}

static int rw_top(const struct field *f, struct buf *out, uint64_t shift)
{
	struct buf in = { 0 };
	int rc;
	if (f->num != 1 || f->wt != 2)
		return copy_field(f, out, shift);
	rc = walk(f->vp, f->ve, &in, shift, rw_packet);
	put_field(out, f, &in);
	free(in.p);
	return rc;
}

int main(int argc, char **argv)
{
	FILE *in, *outf;
	unsigned char *data;
	long size;
	long n, k;
	uint64_t shift;
	if (argc != 5 || (n = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: pf_repeat IN N SHIFT_NS OUT\n");
		return 1;
	}
	shift = strtoull(argv[3], NULL, 10);
	in = fopen(argv[1], "rb");
	if (!in || fseek(in, 0, SEEK_END) || (size = ftell(in)) <= 0 || fseek(in, 0, SEEK_SET)) {
		fprintf(stderr, "pf_repeat: cannot read %s\n", argv[1]);
		return 1;
	}
	data = malloc((size_t)size);
	if (!data || fread(data, 1, (size_t)size, in) != (size_t)size) {
		fprintf(stderr, "pf_repeat: cannot read %s\n", argv[1]);
		return 1;
	}
	fclose(in);
	outf = fopen(argv[4], "wb");
	if (!outf) {
		fprintf(stderr, "pf_repeat: cannot write %s\n", argv[4]);
		return 1;
	}
	for (k = 0; k < n; k++) {
		struct buf out = { 0 };
		if (walk(data, data + size, &out, (uint64_t)k * shift, rw_top) < 0) {
			fprintf(stderr, "pf_repeat: %s is not a Perfetto trace this tool can rewrite\n",
				argv[1]);
			return 1;
		}
		if (fwrite(out.p, 1, out.n, outf) != out.n)
			return 1;
		free(out.p);
	}
	free(data);
	return fclose(outf) ? 1 : 0;
}
