/* common/util.h - small helpers shared by every module: allocation that
 * aborts on failure, error formatting, duration and number parsing. */
#ifndef SL_UTIL_H
#define SL_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

#define SL_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* -1, 0 or 1 as a < b, a == b, a > b: a three-way comparison (qsort
 * comparators), for operands of one arithmetic type */
#define SL_CMP(a, b) (((a) > (b)) - ((a) < (b)))
/* floor(log2(n)) for n >= 1 (the kernel's ilog2()), 0 for n < 1 */
static inline int sl_ilog2(long long n)
{
	int lg = 0;
	while (n > 1) {
		n >>= 1;
		lg++;
	}
	return lg;
}

#define SL_NS_PER_MS 1000000ULL
#define SL_NS_PER_SEC 1000000000ULL

/* Allocation: abort with a message on failure (never return NULL). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/* n zeroed elements of size bytes at an `align`-byte boundary (a power of
 * two that divides size), for arrays of cache-line aligned structs; free()
 * frees it. Aborts on overflow or out of memory, as xcalloc. */
void *xcalloc_aligned(size_t align, size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* Grow *arr (of *cap elements of size sz) so that it holds at least need. */
void sl_grow(void **arr, size_t *cap, size_t need, size_t sz);
/* Sort n values ascending (LSD radix; linear). */
void sl_sort_u64(uint64_t *v, size_t n);
#define SL_GROW(arr, cap, need) sl_grow((void **)&(arr), &(cap), (need), sizeof(*(arr)))
/* sl_grow for a big array that grows and shrinks back often (an event
 * buffer): its memory is a mapping of its own, grown by mremap, and its
 * whole 2 MiB pages may be transparent huge pages (MADV_HUGEPAGE): one page
 * fault where 4 KiB pages take 512 (10-16 us each on a VM). Free it with
 * sl_big_free(arr, cap, sz), not free(). Under ASan, malloc'd as sl_grow. */
void sl_big_grow(void **arr, size_t *cap, size_t need, size_t sz);
void sl_big_free(void *arr, size_t cap, size_t sz);
/* A child forked later gets no copy of this big array (MADV_DONTFORK): for
 * memory no child touches, which the parent then writes without copying
 * the pages it shared with the child (no effect under ASan). */
void sl_big_dontfork(void *arr, size_t cap, size_t sz);
#define SL_BIG_GROW(arr, cap, need) sl_big_grow((void **)&(arr), &(cap), (need), sizeof(*(arr)))
/* xmalloc for a big array freed with free() as any: from 2 MiB on, whole
 * 2 MiB pages at a 2 MiB boundary advised into transparent huge pages (one
 * fault where 4 KiB pages take 512, 10-16 us each on a VM). sl_grow_huge:
 * sl_grow whose growth from 2 MiB on goes to such memory. Plain malloc
 * under ASan. */
void *xmalloc_huge(size_t n);
void sl_grow_huge(void **arr, size_t *cap, size_t need, size_t sz);
#define SL_GROW_HUGE(arr, cap, need) sl_grow_huge((void **)&(arr), &(cap), (need), sizeof(*(arr)))

/* Diagnostics carried from library code to the command that prints them.
 * Library code never prints; it fills an sl_diag and returns -1. */
struct sl_diag {
	char msg[512];                  /* "FILE:POS: what" of the last error */
	void (*warn)(void *ctx, const char *msg); /* optional warning sink */
	void *warn_ctx;
};
/* Format the error message into d->msg; returns -1 so callers can
 * `return sl_fail(d, ...)`. d may be NULL. */
int sl_fail(struct sl_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Send a warning to d->warn if set. */
void sl_warn(struct sl_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Parse a duration with a unit ("6ms", "1.5s", "250us", "100ns"; a bare
 * number is taken in default_unit ns). Returns 0 or -1. */
int sl_parse_duration(const char *s, uint64_t default_unit, uint64_t *out);
/* Parse a decimal integer in [min,max]. Returns 0 or -1. */
int sl_parse_int(const char *s, long long min, long long max, long long *out);

/* Copy a possibly hostile string into a fixed buffer: truncate, replace
 * control characters and invalid bytes by '?'. Always NUL-terminates. */
void sl_copy_comm(char *dst, size_t dstlen, const char *src, size_t srclen);

/* Command-level reporting (only cmd/ and schedlab.c call these). */
void sl_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sl_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void sl_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));



#include <stdio.h>
/* Write s as a JSON string literal (quotes and escapes included). */
void sl_json_str(FILE *f, const char *s);
/* Write s as a CSV field (quoted when it holds a comma, quote or newline;
 * quoted with a leading apostrophe when a spreadsheet would take it for a
 * formula: it starts with = + - @ or a tab or CR and is not a number). */
void sl_csv_str(FILE *f, const char *s);
/* Give a file made by mkstemp (0600) the mode a plain open(..., 0666)
 * would have given it under the process's umask (read from /proc, not
 * set and reset: threads may be making files). */
void sl_fix_mode(int fd);
/* An output written whole or not at all: begin makes PATH.tmp-XXXXXX
 * beside path (its name in tmp[len], the umask's mode) and returns its fd
 * (or -1, d set); commit renames it over path (or removes it, d set);
 * fclose_commit first closes f, checking every write (a full disk). */
int sl_atomic_begin(const char *path, char *tmp, size_t len, struct sl_diag *d);
FILE *sl_atomic_fopen(const char *path, char *tmp, size_t len, struct sl_diag *d);
int sl_atomic_commit(const char *tmp, const char *path, struct sl_diag *d);
int sl_atomic_fclose_commit(FILE *f, const char *tmp, const char *path, struct sl_diag *d);
/* Copy s into dst keeping only printable ASCII other than the double
 * quote (replaced by '?'): for text drawn with cairo, run titles and the
 * label columns of gnuplot data files (tab-separated; a double quote there
 * would start a quoted field). Not for a gnuplot script: that is
 * sl_gp_str (plots/). */
void sl_label_clean(char *dst, size_t len, const char *s);
#endif
