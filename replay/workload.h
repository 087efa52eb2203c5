/* replay/workload.h - the workload file (docs/replay.md, "Workload files"): one task per line,
 *   NAME NICE run=T|inf [sleep=T] [count=N] [start=T] [cpus=LIST]
 *             [policy=normal|batch|fifo|rr] [rtprio=1..99]
 * ('#' starts a comment; durations take units: 6ms, 1.5s, 250us, 100ns).
 * Extensions: cpus=LIST (e.g. 0,2-3) pins the task; policy/rtprio make it
 * a real-time task (rtprio defaults to 1). */
#ifndef SL_WORKLOAD_H
#define SL_WORKLOAD_H

#include <stddef.h>
#include "../common/behaviour.h"
#include "../common/util.h"

/* Parse text (len bytes, need not be NUL-terminated) named `name` in
 * messages ("NAME:LINE: what") into b (cleared first; b->cpus = 1). On
 * error b is left empty. The caller releases b with sl_behaviour_release. */
int sl_workload_parse_text(const char *text, size_t len, const char *name,
			   struct sl_behaviour *b, struct sl_diag *d);
/* Read and parse the file at path (at most 16 MiB). */
int sl_workload_load(const char *path, struct sl_behaviour *b, struct sl_diag *d);

#endif
