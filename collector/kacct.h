/* collector/kacct.h - each thread's CPU time and run queue wait as the
 * kernel counts them (sum_exec_runtime, run_delay), taken from a trace over
 * the windows of a recording's ledger (docs/ledger.md, "How the trace is
 * held to it").
 *
 * The kernel's counts, v6.18:
 * - sum_exec_runtime grows only in update_curr (kernel/sched/fair.c;
 *   update_curr_common for the other classes), by the delta each
 *   sched_stat_runtime event reports; /proc/PID/task/TID/schedstat reads it
 *   as it stands (proc_pid_schedstat, fs/proc/base.c, no update): the
 *   thread's work between two reads is the sum of its events between them.
 * - run_delay grows when a queued task is picked (sched_info_arrive, from
 *   sched_info_switch in prepare_task_switch, kernel/sched/stats.h) by
 *   rq_clock - last_queued; last_queued is the rq clock at the enqueue
 *   (sched_info_enqueue: in ttwu_do_activate, before sched_wakeup fires) or
 *   at the switch that took it off still runnable (sched_info_depart).
 * - The clock of a switch is the rq clock as __schedule left it: updated
 *   before the pick ("Promote REQ to ACT"; update_rq_clock), unless a
 *   wakeup onto that CPU asked to skip it (wakeup_preempt's
 *   rq_clock_skip_update, when the current task is to be rescheduled), in
 *   which case it is the clock of the last update, the wakeup's enqueue.
 *   The next task's charge starts there too (set_next_entity's exec_start),
 *   so its first sched_stat_runtime, at ts with runtime r, began at ts - r:
 *   the switch's clock is min(the switch's ts, ts - r), and not before the
 *   clock of the switch before it on the CPU. */
#ifndef SL_KACCT_H
#define SL_KACCT_H

#include <stddef.h>
#include <stdint.h>
#include "model.h"

struct sl_kacct;

/* A new accounting over the windows w[0..n) (copied), or NULL when n is 0. */
struct sl_kacct *sl_kacct_new(const struct sl_ledger_window *w, size_t n);
void sl_kacct_free(struct sl_kacct *ka);
/* A switch on cpu at ts from task p (-1 idle or unknown; tid ptid), still
 * runnable when p_runnable, to task n (-1 idle or unknown; tid ntid).
 * p_from (0: none): at the CPU's first switch, since when the trace showed
 * p running there without a slice row for it (the trace's start): an edge. */
void sl_kacct_switch(struct sl_kacct *ka, int cpu, uint64_t ts, int32_t p, int32_t ptid,
		     int p_runnable, int32_t n, int32_t ntid, uint64_t p_from);
/* Task idx (tid) ran from lo to hi as the trace shows, with no slice row of
 * the recorded run for it: before its CPU's first switch (running when the
 * trace began) or after its last (running when it ended). Its part in the
 * task's window is its edge time, which the ledger's comparison adds to the
 * slices' (docs/ledger.md). */
void sl_kacct_edge(struct sl_kacct *ka, int32_t idx, int32_t tid, uint64_t lo, uint64_t hi);
/* Task idx (tid) woken at ts by an event on cpu: a new wait begins at a
 * sched_waking (SL_KW_WAKING) or at a sched_wakeup or sched_wakeup_new with
 * no sched_waking before it (SL_KW_NEW); a sched_wakeup after the task's
 * sched_waking (SL_KW_WAKEUP) moves the wait's start to the enqueue: the
 * enqueue's charge (update_curr in enqueue_entity) when one came between
 * them on this CPU, else the sched_wakeup, which follows the enqueue
 * (ttwu_do_activate, then ttwu_do_wakeup, kernel/sched/core.c, v6.18). */
enum { SL_KW_WAKING, SL_KW_NEW, SL_KW_WAKEUP };
void sl_kacct_wake(struct sl_kacct *ka, int32_t idx, int32_t tid, uint64_t ts, int kind, int cpu);
/* sched_migrate_task of task idx (tid) at ts. A queued task's move is a
 * dequeue, which adds its wait so far to run_delay (sched_info_dequeue,
 * kernel/sched/stats.h), and an enqueue, from which it waits anew; a
 * move inside try_to_wake_up, before the enqueue, is neither. A task asleep that is moved
 * was still queued: a fair task that blocked with negative lag stays on its
 * runqueue until picked or woken (DELAY_DEQUEUE, dequeue_entity,
 * kernel/sched/fair.c), and load balancing moves it like any other
 * (detach_task, attach_task: deactivate_task, activate_task), whose enqueue
 * sets last_queued (sched_info_enqueue). Its next wakeup's enqueue keeps
 * that (sched_info_enqueue sets it only when 0): its run_delay runs from
 * the move to its next pick, through its sleep. */
void sl_kacct_migrate(struct sl_kacct *ka, int32_t idx, int32_t tid, uint64_t ts);
/* sched_stat_runtime on cpu at ts: runtime ns charged to task idx (tid). */
void sl_kacct_charge(struct sl_kacct *ka, int32_t idx, int32_t tid, uint64_t ts, uint64_t runtime,
		     int cpu);
/* The sums of tasks 0..nt-1 into malloc'd arrays (caller frees): each
 * task's charges in its window (*work; UINT64_MAX for a task no
 * sched_stat_runtime named: not known), its waits that ended in it
 * (*wait), 0 for a task outside every window; and the stretch of its
 * running that its counters cover, [*lo, *hi] (0 and 0 outside every
 * window), with its edge time in it (*edge).
 *
 * What the counters cover: a read of a running thread's counters does not
 * bring them up to date (above), so they hold its running up to its last
 * charge. Its window, from the read at the start to the read at the end,
 * covers its running from the start of its first charge after the first
 * read (before that read when it ran across it) to its last charge before
 * the second, or its last switch-in when it has run since without a
 * charge. The thread that reads the snapshots always runs across them: the
 * recorder. With no sched_stat_runtime in the trace, the window as read. */
void sl_kacct_finish(struct sl_kacct *ka, size_t nt, uint64_t **work, uint64_t **wait,
		     uint64_t **edge, uint64_t **lo, uint64_t **hi);

#endif
