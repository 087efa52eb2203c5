/* collector/release.h - the kernel release a trace file was recorded on
 * ("6.8.0-45-generic"), from the file's own header: trace.dat's UNAME option,
 * perf.data's HEADER_OSRELEASE feature (a perf.data directory: its data
 * file; pipe mode: its HEADER_FEATURE record), a `perf script --header`
 * text's "# os release : X" line. Other formats carry none. schedlab validate picks the model of that kernel. */
#ifndef SL_RELEASE_H
#define SL_RELEASE_H

#include <stddef.h>

/* Write the release of the file at path (format as sl_reader names it) to
 * out. Returns 1 if found, 0 if the file does not say (out = ""). Never
 * fails: an unreadable or odd header is "does not say". */
int sl_trace_release(const char *path, const char *format, char *out, size_t len);

/* The scheduler model of a Linux release: "eevdf" from 6.6, "cfs" from
 * 2.6.23 to 6.5, "o1" before (2.6.0 .. 2.6.22; 2.4 and older too); NULL
 * if release does not start with MAJOR.MINOR. */
const char *sl_release_model(const char *release);

/* The options of the eevdf model that match the release's kernel/sched/fair.c
 * ("slice_norm_us=750,delay_dequeue=0,rel_deadline=0" for v6.6..v6.11:
 * DELAY_DEQUEUE and PLACE_REL_DEADLINE came in v6.12; "slice_norm_us=750"
 * for v6.12..v6.14: the normalized base slice became 0.70 ms in v6.15),
 * or NULL when the model's defaults are that kernel's (v6.15 and later) or
 * the release is not an EEVDF one. */
const char *sl_release_eevdf_opts(const char *release);
/* The eevdf model's options a kernel's scheduler features set (features as
 * a ledger gives them: "NAME=1,NAME=0,..."; docs/ledger.md), as
 * "place_lag=1,delay_dequeue=0,..." in out: only the features the model has
 * an option for and the list names. 0, or -1 when out is too short. */
int sl_features_eevdf_opts(const char *features, char *out, size_t len);

#endif
