/* collector/kthread.h - kernel threads told by name (collector/model.c,
 * docs/model.md "Marks"). */
#ifndef SL_KTHREAD_H
#define SL_KTHREAD_H

#include <stdint.h>

/* The CPU a per-CPU kernel thread is pinned to, from its name (ksoftirqd/N,
 * migration/N, kworker/N:M, ...), as a mask; 0 when not pinned. */
uint64_t sl_kthread_mask(const char *comm);
/* Whether a task is a kernel thread: tid 2 (kthreadd), forked by kthreadd,
 * or named as the kernel names its threads. */
int sl_is_kthread(int32_t tid, int forked_by_kthreadd, const char *comm);

#endif
