/* replay/sd.h - the Staircase Deadline model (docs/sd.md), laid out as
 * every model: its arithmetic (sd_arith.c: the pure formulas, exported for
 * the unit tests), its runqueue (sd_rq.c, sd_priv.h) and the engine
 * adapter (sd.c: the hooks and a strong reference to the policy ops). */
#ifndef SL_SD_H
#define SL_SD_H

#include <stdint.h>

struct sl_policy_ops;

/* Row of the priority matrix for a nice level: bit s set = slot s (prio
 * 100 + s) is NOT allowed (as the kernel's prio_matrix). */
uint64_t sl_sd_matrix_row(int nice);
/* rr_quota in microseconds for rr_interval rr_ms: RT rr; nice < -6
 * rr*nice^2/40 (integer ms); nice > 0 max(rr/2, 1); else rr. */
int64_t sl_sd_quota_us(int nice, int rt, int rr_ms);
/* set_load_weight: task_timeslice_ms * 40; RT rr*20*(40+rt_prio)*40. */
unsigned long sl_sd_load_weight(int nice, int rt, int rt_prio, int rr_ms);

#endif
