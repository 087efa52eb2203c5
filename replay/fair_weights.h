/* replay/fair_weights.h - the load weights of the fair classes (CFS as
 * merged in 2.6.23, EEVDF from 6.6): one nice level is ~10 % of CPU, each
 * step a factor of ~1.25, nice 0 = 1024 (NICE_0_LOAD). The values are the
 * kernel's table prio_to_weight[] (kernel/sched.c, v2.6.23; unchanged as
 * sched_prio_to_weight[] in kernel/sched/core.c, v6.6) and its inverse
 * 2^32 / weight (prio_to_wmult[], sched_prio_to_wmult[]). */
#ifndef SL_FAIR_WEIGHTS_H
#define SL_FAIR_WEIGHTS_H

#include <stdint.h>

#define SL_NICE_0_LOAD 1024UL

/* Weight of a nice level, nice clamped to -20..19. */
unsigned long sl_fair_weight(int nice);
/* 2^32 / sl_fair_weight(nice), as the kernel's table rounds it. */
uint32_t sl_fair_wmult(int nice);

#endif
