/* collector/tracedat_hdr.h - our own walk of a trace.dat's header sections
 * (file versions 6 and 7), done before libtracecmd reads the file. */
#ifndef SL_TRACEDAT_HDR_H
#define SL_TRACEDAT_HDR_H

#include <stdint.h>

#define SL_TDHDR_MAXSTAT 256

struct sl_tdhdr {
	int version;         /* 6 or 7 */
	int long_size;       /* 4 or 8 */
	int big_endian;
	uint32_t page_size;
	int ncpus;
	uint64_t file_size;
	uint64_t bad_off;    /* where msg / warn applies */
	char msg[160];       /* why the file is refused */
	char warn[160];      /* why the file is read only in part ("" if whole) */
	int compressed;      /* v7 with a compression algorithm */
	uint64_t overrun[SL_TDHDR_MAXSTAT]; /* per cpu, from the CPUSTAT options */
	char uname[256];     /* the UNAME option ("Linux host 6.8.0 #1 ..."), "" if none */
	/* size fields to rewrite (in a copy of the file) so that no CPU's data
	 * reaches past the end of a truncated file */
	int npatch;
	struct { uint64_t off, val; } patch[SL_TDHDR_MAXSTAT];
	/* version 6: each CPU's data as libtracecmd reads it (offset, size
	 * after the patches), and whether every option leaves the timestamps
	 * as recorded (none of DATE, OFFSET, TIME_SHIFT, GUEST, TSC2NSEC or an
	 * unknown one): such a file is read by tracedat_pages.c */
	uint64_t cpu_off[SL_TDHDR_MAXSTAT], cpu_size[SL_TDHDR_MAXSTAT];
	int plain_ts;
};

/* Check the header sections of the trace.dat open on fd (any file
 * position; pread only). Returns 0 (h filled, maybe h->warn), or -1 with
 * h->msg and h->bad_off. */
int sl_tdhdr_check(int fd, struct sl_tdhdr *h);

#endif
