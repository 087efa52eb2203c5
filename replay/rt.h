/* replay/rt.h - the real-time class the models share: SCHED_FIFO and
 * SCHED_RR tasks on a priority array of FIFO lists 0..98 (the list of a
 * task is its kernel prio, 99 - rt_priority), above whatever class a model
 * schedules its other tasks with. As kernel/sched_rt.c (v2.6.23/24) and
 * kernel/sched/rt.c (6.x): enqueue_task_rt / dequeue_task_rt at the tail of
 * the task's list, requeue_task_rt, pick_next_task_rt (the head of the best
 * list), check_preempt_curr_rt (a better prio preempts), task_tick_rt (a
 * SCHED_RR task loses its slice; SCHED_FIFO runs on) and the RT lists'
 * search of load_balance_rt / pull_rt_task.
 *
 * Used by rsdl (its RT lists above the staircase), cfs (2.6.24's RT class)
 * and eevdf (6.x's, in eevdf.c and eevdf_smp.c). o1 and sd keep their RT
 * tasks on the one 140-level array of 2.6.20's O(1) scheduler (prio 0..99
 * above the normal prios, as the kernel did before scheduling classes) and
 * use the class's policy and prio rules from here (sl_rt_policy,
 * sl_rt_prio).
 *
 * The SCHED_RR slice is counted in the model's unit: ticks for cfs and eevdf
 * (the kernel's p->rt.time_slice, DEF_TIMESLICE = RR_TIMESLICE = 100 * HZ /
 * 1000 ticks: sl_rt_rr_ticks), ns for rsdl (RR_INTERVAL; one tick's worth a
 * tick unless accounting=1 charges the ns run). The links of a model's
 * tasks are those of prio_array.h (SL_PRIO_LINKS). */
#ifndef SL_RT_H
#define SL_RT_H

#include "prio_array.h"

#include <stdint.h>

/* A task's place in the RT class (sched_rt_entity). */
struct sl_rt_se {
	int64_t time_slice;      /* SCHED_RR: what is left of its slice (model's unit) */
	int8_t policy;           /* SL_SCHED_FIFO or SL_SCHED_RR; 0: not an RT task */
	int8_t queued;           /* on its CPU's RT lists */
	int16_t prio;            /* 99 - rt_priority (0..98): the list it is on */
};

/* 1 for SCHED_FIFO and SCHED_RR (rt_policy). */
int sl_rt_policy(int policy);
/* rt_priority clamped to 1..99 (sched_setscheduler's range). */
int sl_rt_priority(int rt_prio);
/* The kernel prio of an RT task: MAX_RT_PRIO - 1 - rt_priority (0..98). */
int sl_rt_prio(int rt_prio);
/* DEF_TIMESLICE / RR_TIMESLICE: 100 ms in ticks, 100 * HZ / 1000 (at least 1). */
int64_t sl_rt_rr_ticks(int hz);

/* An entity for a task of the given policy and rt_priority: not queued, prio
 * sl_rt_prio, a full slice of `slice`; policy 0 if not an RT policy. */
void sl_rt_se_init(struct sl_rt_se *se, int policy, int rt_prio, int64_t slice);

/* enqueue_task_rt: task i at the tail of its list. */
void sl_rt_enqueue(struct sl_prio_array *a, struct sl_prio_links l, int i, struct sl_rt_se *se);
/* dequeue_task_rt: task i off its list (nothing if not queued). */
void sl_rt_dequeue(struct sl_prio_array *a, struct sl_prio_links l, int i, struct sl_rt_se *se);
/* requeue_task_rt (yield, an RR slice's end): the tail of its list, if queued. */
void sl_rt_requeue(struct sl_prio_array *a, struct sl_prio_links l, int i, struct sl_rt_se *se);
/* Task i is the only one on its list (run_list.prev == run_list.next). */
int sl_rt_alone(struct sl_prio_links l, int i);

/* pick_next_task_rt: the head of the best non-empty list, -1 if none. */
int sl_rt_pick(const struct sl_prio_array *a);
/* check_preempt_curr (RT part): an RT task p preempts a non-RT curr and an
 * RT one of a worse (higher) prio; a non-RT p never preempts an RT curr.
 * Returns 1 preempt, 0 not, -1 neither is RT (the other class decides). */
int sl_rt_preempts(const struct sl_rt_se *p, const struct sl_rt_se *curr);
/* task_tick_rt's slice: a SCHED_RR task loses `used`; when none is left it
 * gets `slice` again and 1 is returned (the model requeues it). SCHED_FIFO
 * and non-RT: 0. */
int sl_rt_tick(struct sl_rt_se *se, int64_t used, int64_t slice);

/* The RT lists' search of a balancer: the first task, best list first, each
 * list from its head (head = 1: pull_rt_task's pick_highest_pushable_task)
 * or from its tail (head = 0: load_balance_rt), that ok(ctx, task) accepts,
 * on a list before `below` (SL_PRIO_MAX: all). Returns the task, -1 none;
 * *q its list. */
typedef int (*sl_rt_ok_fn)(void *ctx, int task);
int sl_rt_find(const struct sl_prio_array *a, struct sl_prio_links l, int head, int below,
	       sl_rt_ok_fn ok, void *ctx, int *q);
/* sl_rt_find for a move to CPU dst (the models' steal hook): a task that
 * is not `curr` (the source CPU's running task, -1 none) and that may
 * migrate to dst (sl_engine_may_migrate). Returns the task, -1 none; it
 * stays queued. */
struct sl_engine;
int sl_rt_movable(struct sl_engine *e, const struct sl_prio_array *a, struct sl_prio_links l, int head,
		  int curr, int dst);

#endif
