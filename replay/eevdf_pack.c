/* replay/eevdf_pack.c - sched_vcpu_pack, a scheduler patch of the kernels
 * this machine's recordings come from (6.18.44-fc: Firecracker guests; the
 * kernel command line sets sched_vcpu_pack=15, /proc/sys/kernel/
 * sched_vcpu_pack). It is not in mainline and its source is not public:
 * what it does was read off the recording kernel's own code
 * (select_task_rq_fair and vcpu_pack_room, through bpftrace) and checked
 * against its decisions (docs/eevdf.md "vCPU packing"). It keeps work on
 * vCPUs that are running already, so that an idle vCPU stays halted on the
 * host. At the top of select_task_rq_fair, for a fair task that may run on
 * more than one CPU:
 *   bit 1: a wakeup run from the idle task (an interrupt on an idle CPU)
 *          stays on that CPU;
 *   bit 2: a sync wakeup takes the waker's CPU if it has room;
 *   bit 4: a wakeup takes its previous CPU if busy with room, else the
 *          waker's CPU with room, else the first busy CPU with room;
 *   bit 8: a fork or an exec stays on its CPU with room.
 * Room on a CPU (vcpu_pack_room): the task may run there, no RT task is
 * there (rq->nr_running == cfs.h_nr_queued), at most one runnable fair task
 * besides the task itself (cfs.h_nr_runnable <= 1, or 2 when the task is
 * queued there), and the CPU's utilisation, plus the task's estimate when
 * it comes from another CPU, under 70 % of its capacity. Nothing else
 * (mainline's placement, balancing) changes. */
#include "eevdf_priv.h"

int sl_eevdf_pack_room(int allowed, unsigned nr_rt, unsigned nr_fair, int local, unsigned long util,
		       unsigned long capacity)
{
	return allowed && !nr_rt && nr_fair <= (unsigned)local + 1 && util * 100 < 70 * capacity;
}

/* vcpu_pack_room(p, c): local, p is queued on c (an exec); own, c is
 * task_cpu(p) (p's estimate is not added: a fork's child is set to its
 * parent's CPU first, sched_fork) */
static int room(struct ev_run *r, const struct sl_task *p, int c, int local, int own)
{
	const struct sl_engine *e = r->e;
	const struct ev_task *t = ev_T(r, p);
	const struct sl_cpu *cpu = &e->cpus[c];
	unsigned nr_rt = (unsigned)r->rq[c].rtq.nr_active;
	unsigned long u = ev_cpu_util(r, c);
	if (cpu->wake_pending)
		return 0; /* rq->ttwu_pending: a wakee on its way to an idle c */
	if (!own) /* task_util_est(p): its average or its estimate */
		u += t->avg.util_avg > t->util_est ? t->avg.util_avg : t->util_est;
	/* the wakees on their way to a busy c are queued there in the kernel */
	return sl_eevdf_pack_room(sl_task_allowed(p, c), nr_rt, cpu->nr_running + cpu->wake_queued - nr_rt,
				  local, u, 1024);
}

int ev_pack_wake(struct ev_run *r, struct sl_task *p, int prev, int this_cpu, int sync)
{
	const struct sl_engine *e = r->e;
	long bits = sl_engine_param(e, EV_P_VCPU_PACK);
	int c;
	if (!bits || ev_task_pinned(e, p) || this_cpu < 0 || this_cpu >= e->ncpus)
		return -1;
	if ((bits & 1) && ev_cpu_idle(e, this_cpu) && sl_task_allowed(p, this_cpu))
		return this_cpu;
	if ((bits & 2) && sync && room(r, p, this_cpu, 0, this_cpu == p->cpu))
		return this_cpu;
	if (!(bits & 4))
		return -1;
	if (!ev_cpu_idle(e, prev) && room(r, p, prev, 0, prev == p->cpu))
		return prev;
	if (room(r, p, this_cpu, 0, this_cpu == p->cpu))
		return this_cpu;
	for (c = 0; c < e->ncpus; c++)
		if (!ev_cpu_idle(e, c) && room(r, p, c, 0, c == p->cpu))
			return c;
	return -1;
}

int ev_pack_fork_exec(struct ev_run *r, struct sl_task *p, int cpu, int exec)
{
	const struct sl_engine *e = r->e;
	if (!(sl_engine_param(e, EV_P_VCPU_PACK) & 8) || ev_task_pinned(e, p) || cpu < 0 || cpu >= e->ncpus)
		return -1;
	return room(r, p, cpu, !!exec, 1) ? cpu : -1;
}
