/* common/util.c - see util.h */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static _Noreturn void oom(size_t n)
{
	fprintf(stderr, "schedlab: error: out of memory (%zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *xcalloc_aligned(size_t align, size_t n, size_t size)
{
	size_t bytes;
	void *p;
	if (!n)
		n = 1;
	if (size && n > SIZE_MAX / size)
		oom(SIZE_MAX);
	bytes = n * size;
	bytes = (bytes + align - 1) & ~(align - 1); /* aligned_alloc wants a multiple */
	p = aligned_alloc(align, bytes ? bytes : align);
	if (!p)
		oom(bytes);
	memset(p, 0, bytes);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);
	memcpy(p, s, n);
	return p;
}

/* A capacity c (at least min) doubled until it holds need elements of sz. */
static size_t doubled(size_t c, size_t min, size_t need, size_t sz)
{
	if (c < min)
		c = min;
	while (c < need) {
		if (c > SIZE_MAX / 2 / sz)
			oom(SIZE_MAX);
		c *= 2;
	}
	return c;
}

void sl_grow(void **arr, size_t *cap, size_t need, size_t sz)
{
	size_t c;
	if (need <= *cap)
		return;
	c = doubled(*cap, 16, need, sz);
	*arr = xrealloc(*arr, c * sz);
	*cap = c;
}

#if defined(__SANITIZE_ADDRESS__)
#define SL_BIG_MALLOC 1 /* ASan sees the accesses of malloc'd memory only */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SL_BIG_MALLOC 1
#endif
#endif

#ifndef SL_BIG_MALLOC
/* The bytes of a big array's mapping: cap elements, in whole 4 KiB pages,
 * and from 2 MiB on in whole 2 MiB pages (a grown array's new part then
 * starts on a 2 MiB page nothing has touched yet: only such a page can be
 * a huge one). */
static size_t big_bytes(size_t cap, size_t sz)
{
	const size_t hp = (size_t)2 << 20;
	size_t n = (cap * sz + 4095) & ~(size_t)4095;
	return n < hp ? n : (n + hp - 1) & ~(hp - 1);
}

/* n bytes of address space at a 2 MiB boundary (huge pages fit only
 * there), reserved, not yet usable; MAP_FAILED when there is none. */
static void *big_reserve(size_t n)
{
	const size_t hp = (size_t)2 << 20;
	char *r = mmap(NULL, n + hp, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0), *a;
	if (r == MAP_FAILED)
		return r;
	a = (char *)(((uintptr_t)r + hp - 1) & ~(uintptr_t)(hp - 1));
	if (a > r)
		munmap(r, (size_t)(a - r));
	munmap(a + n, (size_t)(r + n + hp - (a + n)));
	return a;
}

#endif

void *xmalloc_huge(size_t n)
{
#ifndef SL_BIG_MALLOC
	const size_t hp = (size_t)2 << 20;
	if (n >= hp) {
		size_t r = (n + hp - 1) & ~(hp - 1);
		void *p;
		if (r < n || posix_memalign(&p, hp, r))
			oom(n);
		/* [p, p + r) is the block's own: glibc maps a block this big
		 * alone (the program's M_MMAP_THRESHOLD), else it is heap
		 * memory of this block only */
		madvise(p, r, MADV_HUGEPAGE);
		return p;
	}
#endif
	return xmalloc(n);
}

void sl_grow_huge(void **arr, size_t *cap, size_t need, size_t sz)
{
	const size_t hp = (size_t)2 << 20;
	size_t c;
	void *p;
	if (need <= *cap)
		return;
	c = doubled(*cap, 16, need, sz);
	if (c * sz < hp) {
		sl_grow(arr, cap, need, sz);
		return;
	}
	/* a new block, its size in whole 2 MiB pages: realloc's mremap
	 * would move the pages to a place of another 2 MiB alignment */
	c = ((c * sz + hp - 1) & ~(hp - 1)) / sz;
	p = xmalloc_huge(c * sz);
	if (*cap)
		memcpy(p, *arr, *cap * sz);
	free(*arr);
	*arr = p;
	*cap = c;
}

void sl_big_grow(void **arr, size_t *cap, size_t need, size_t sz)
{
#ifdef SL_BIG_MALLOC
	sl_grow(arr, cap, need, sz);
#else
	size_t c, old = *cap ? big_bytes(*cap, sz) : 0, n;
	void *p;
	if (need <= *cap)
		return;
	c = doubled(*cap, 4096, need, sz);
	n = big_bytes(c, sz);
	c = n / sz;
	/* a new place at a 2 MiB boundary: mremap moves the pages there (huge
	 * ones whole) and the advice with them */
	p = big_reserve(n);
	if (p != MAP_FAILED)
		p = old ? mremap(*arr, old, n, MREMAP_MAYMOVE | MREMAP_FIXED, p)
			: mmap(p, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED)
		oom(n);
	madvise(p, n, MADV_HUGEPAGE);
	*arr = p;
	*cap = c;
#endif
}

void sl_big_dontfork(void *arr, size_t cap, size_t sz)
{
#ifdef SL_BIG_MALLOC
	(void)arr;
	(void)cap;
	(void)sz;
#else
	if (arr)
		madvise(arr, big_bytes(cap, sz), MADV_DONTFORK);
#endif
}

void sl_big_free(void *arr, size_t cap, size_t sz)
{
#ifdef SL_BIG_MALLOC
	(void)cap;
	(void)sz;
	free(arr);
#else
	if (arr)
		munmap(arr, big_bytes(cap, sz));
#endif
}

int sl_fail(struct sl_diag *d, const char *fmt, ...)
{
	if (d) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

void sl_warn(struct sl_diag *d, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	if (!d || !d->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	d->warn(d->warn_ctx, buf);
}

int sl_parse_duration(const char *s, uint64_t default_unit, uint64_t *out)
{
	static const struct {
		const char *sfx;
		uint64_t mul;
	} units[] = { { "ns", 1 },           { "us", 1000ULL },
		      { "ms", 1000000ULL },  { "s", 1000000000ULL },
		      { "m", 60000000000ULL } };
	char *end;
	double whole;
	uint64_t mul = default_unit;
	size_t i;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	whole = strtod(s, &end);
	if (errno || end == s || whole < 0)
		return -1;
	if (*end) {
		for (i = 0; i < SL_ARRAY_SIZE(units); i++)
			if (!strcmp(end, units[i].sfx))
				break;
		if (i == SL_ARRAY_SIZE(units))
			return -1;
		mul = units[i].mul;
	}
	if (whole * (double)mul > 1.8e19)
		return -1;
	*out = (uint64_t)(whole * (double)mul + 0.5);
	return 0;
}

int sl_parse_int(const char *s, long long min, long long max, long long *out)
{
	char *end;
	long long v;
	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

void sl_copy_comm(char *dst, size_t dstlen, const char *src, size_t srclen)
{
	size_t i, o = 0;
	if (!dstlen)
		return;
	for (i = 0; i < srclen && src[i] && o + 1 < dstlen; i++) {
		unsigned char c = (unsigned char)src[i];
		dst[o++] = (c < 0x20 || c == 0x7f || c >= 0x80) ? '?' : (char)c;
	}
	dst[o] = 0;
}

static void vreport(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "schedlab: %s: ", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void sl_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error", fmt, ap);
	va_end(ap);
}

void sl_warnx(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning", fmt, ap);
	va_end(ap);
}

void sl_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error", fmt, ap);
	va_end(ap);
	exit(1);
}

void sl_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void sl_fix_mode(int fd)
{
	static int um = -1;
	if (um < 0) {
		char buf[2048], *p;
		FILE *f = fopen("/proc/self/status", "r");
		um = 022;
		if (f) {
			size_t n = fread(buf, 1, sizeof(buf) - 1, f);
			buf[n] = 0;
			fclose(f);
			if ((p = strstr(buf, "\nUmask:")))
				um = (int)strtol(p + 8, NULL, 8) & 0777;
		}
	}
	(void)!fchmod(fd, (mode_t)(0666 & ~um));
}

int sl_atomic_begin(const char *path, char *tmp, size_t len, struct sl_diag *d)
{
	int fd;
	if ((size_t)snprintf(tmp, len, "%s.tmp-XXXXXX", path) >= len)
		return sl_fail(d, "%s: name too long", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return sl_fail(d, "%s: %s", path, strerror(errno));
	sl_fix_mode(fd);
	return fd;
}

FILE *sl_atomic_fopen(const char *path, char *tmp, size_t len, struct sl_diag *d)
{
	int fd = sl_atomic_begin(path, tmp, len, d);
	FILE *f;
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		sl_fail(d, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
	}
	return f;
}

int sl_atomic_commit(const char *tmp, const char *path, struct sl_diag *d)
{
	if (rename(tmp, path)) {
		int e = errno;
		unlink(tmp);
		return sl_fail(d, "%s: %s", path, strerror(e));
	}
	return 0;
}

int sl_atomic_fclose_commit(FILE *f, const char *tmp, const char *path, struct sl_diag *d)
{
	errno = 0;
	if (ferror(f) | fclose(f)) {
		int e = errno;
		unlink(tmp);
		return sl_fail(d, "%s: %s", path, e ? strerror(e) : "write error");
	}
	return sl_atomic_commit(tmp, path, d);
}

/* A plain decimal number ("-5", "+1.5e3"): written as it is. */
static int csv_number(const char *s)
{
	char *end;
	if (!*s)
		return 0;
	errno = 0;
	(void)strtod(s, &end);
	return *end == 0 && !errno && strspn(s, "+-0123456789.eE") == strlen(s);
}

void sl_csv_str(FILE *f, const char *s)
{
	/* a spreadsheet takes a field that starts with = + - @ (or a tab or a
	 * CR) as a formula (=cmd|' /C calc'!A0 runs a program): such a field,
	 * unless it is a plain number, is written quoted with a leading
	 * apostrophe, as OWASP's CSV-injection advice has it */
	int formula = strchr("=+-@\t\r", s[0]) && s[0] && !csv_number(s);
	if (!formula && !strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Sort n values ascending: LSD radix, 16 bits a pass, passes whose digit
 * is the same in every value skipped (delays fit in 32 bits: 2 passes).
 * Linear, where qsort was a third of `analyze` on a 15M-event trace. */
void sl_sort_u64(uint64_t *v, size_t n)
{
	uint64_t *tmp, *src = v, *dst, all_or = 0, all_and = ~(uint64_t)0;
	size_t *cnt, i;
	int shift;
	if (n < 64) {
		for (i = 1; i < n; i++) { /* insertion sort */
			uint64_t x = v[i];
			size_t j = i;
			for (; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	for (i = 0; i < n; i++) {
		all_or |= v[i];
		all_and &= v[i];
	}
	tmp = xmalloc_huge(n * sizeof(*tmp));
	cnt = xmalloc(65536 * sizeof(*cnt));
	dst = tmp;
	for (shift = 0; shift < 64; shift += 16) {
		size_t sum = 0;
		if (((all_or ^ all_and) >> shift & 0xffff) == 0)
			continue; /* the same digit everywhere: order unchanged */
		memset(cnt, 0, 65536 * sizeof(*cnt));
		for (i = 0; i < n; i++)
			cnt[src[i] >> shift & 0xffff]++;
		for (i = 0; i < 65536; i++) {
			size_t c = cnt[i];
			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[cnt[src[i] >> shift & 0xffff]++] = src[i];
		{
			uint64_t *t = src;
			src = dst;
			dst = t;
		}
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	free(cnt);
}

void sl_label_clean(char *dst, size_t len, const char *s)
{
	size_t i = 0;
	if (!len)
		return;
	for (; *s && i + 1 < len; s++) {
		unsigned char c = (unsigned char)*s;
		dst[i++] = (c < 0x20 || c >= 0x7f || c == '"') ? '?' : (char)c;
	}
	dst[i] = 0;
}
