/* replay/bound.h - RSDL's predicted worst-case wait of CPU-bound tasks
 * (the announcement's model, counted consistently; docs/rsdl.md, "The
 * announcement's figures"):
 *   bound(i) = Σ_{j≠i} q_j · (L_j + max(0, n_i − n_j))
 * with n the nice value, L = 20 − nice the levels a task may use and q its
 * quota: RR for nice 0..19, RR·(1 − nice) below 0. */
#ifndef SL_BOUND_H
#define SL_BOUND_H

#include <stddef.h>
#include <stdint.h>

/* RSDL quota of a nice level (ns). */
uint64_t sl_rsdl_quota(int nice, uint64_t rr_ns);
/* bound(i) in ns for each of the n tasks (nice -20..19) into out[i].
 * Returns 0, or -1 if a nice value is out of range. */
int sl_bound_ns(const int *nice, size_t n, uint64_t rr_ns, uint64_t *out);

#endif
