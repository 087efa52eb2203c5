/* collector/ledger.h - the recording's ledger: the kernel's own per-thread
 * accounting (/proc/PID/task/TID/schedstat: sum_exec_runtime, run_delay,
 * pcount) with each thread's nice, policy, RT priority, affinity,
 * autogroup and cgroup, and per-CPU interrupt and steal time (/proc/stat),
 * taken at the start and at the end of a recording, beside the kernel's
 * release, CONFIG_HZ and preemption model. Written as FILE.ledger beside
 * the trace by `schedlab record` and `schedlab ledger -- CMD`; import holds
 * the trace to it (docs/ledger.md has the format). */
#ifndef SL_LEDGER_H
#define SL_LEDGER_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "../common/util.h"

#define SL_LEDGER_VERSION 5

struct sl_ledger_thread {
	int tid, tgid, nice, policy, rt_prio;
	uint64_t affinity;          /* CPUs 0..63 (Cpus_allowed) */
	uint64_t exec_ns, delay_ns, pcount; /* schedstat */
	int64_t autogroup;          /* /proc/PID/autogroup id, -1 unknown */
	int autogroup_nice;
	char cgroup[128];           /* the cpu controller's path ("/" root) */
	uint64_t cgroup_weight;     /* cpu.weight (v2) or cpu.shares * 100 / 1024 (v1); 0 unknown */
	char comm[24];
	uint64_t at_ns;             /* CLOCK_MONOTONIC when its schedstat was read */
	/* version 5: its load tracking (/proc/PID/task/TID/sched: se.avg.*,
	 * util_est without its UTIL_AVG_UNCHANGED flag) as of its
	 * last_update_time (the CPU's PELT clock, ns), and the CPU it last ran
	 * on (stat's processor); pelt_known 0 where the kernel did not show them */
	int pelt_known, pelt_cpu;
	uint64_t load_avg, runnable_avg, util_avg, util_est, last_update_ns;
};

struct sl_ledger_cpu {
	uint64_t irq_ns, softirq_ns, steal_ns;
	/* version 5: the root cfs_rq's load tracking and the CPU's clock_task
	 * (ns) from debugfs sched/debug, read at CLOCK_MONOTONIC pelt_mono_ns;
	 * pelt_known 0 where debugfs does not show them */
	int pelt_known;
	uint64_t pelt_mono_ns, clock_task_ns, load_avg, runnable_avg, util_avg, util_est;
};

struct sl_ledger_snap {
	uint64_t mono_ns;           /* CLOCK_MONOTONIC when the snapshot began */
	uint64_t read_ns;           /* how long reading it took */
	struct sl_ledger_thread *t; /* sorted by tid */
	size_t nt;
	struct sl_ledger_cpu *cpu;
	size_t ncpu;
};

struct sl_ledger {
	int version;
	char release[128];
	int hz;                     /* CONFIG_HZ, 0 unknown */
	char preempt[32];           /* none, voluntary, full, lazy, dynamic-none, ... or "" */
	char clock[16];             /* the trace's clock: "mono" (schedlab record) or "" unknown */
	int vcpu_pack;              /* /proc/sys/kernel/sched_vcpu_pack, -1 not there (docs/ledger.md) */
	/* version 4: the kernel's scheduler features (debugfs sched/features)
	 * as "NAME=1,NAME=0,...", "" where the kernel did not show them */
	char features[1024];
	struct sl_ledger_snap start, end;
	int have_start, have_end;
	/* version 2: the threads born during the recording, each read once
	 * while it lived (no CPU lines; its counters are those of that moment) */
	struct sl_ledger_snap seen;
	int have_seen;
};

/* Write the header (release, HZ, preemption model, clock) to f. */
void sl_ledger_write_header(FILE *f, const char *clock);
/* Take a snapshot of every thread now and write it as "snapshot LABEL". */
int sl_ledger_write_snapshot(FILE *f, const char *label, struct sl_diag *d);

/* Threads born while a recording runs (docs/ledger.md, "seen"): begin
 * marks every thread alive now (the start snapshot holds them); each pass
 * notes the new ones and writes a thread line for each the second time it
 * sees it (after it had time to move into its cgroup); write puts them in
 * f as snapshot "seen". */
struct sl_ledger_seen {
	unsigned char *written, *pending; /* bitmaps by tid */
	size_t n;
	FILE *f;                    /* the lines, in memory */
	char *mem;
	size_t len;
	uint64_t t0;
};
int sl_ledger_seen_begin(struct sl_ledger_seen *s);
void sl_ledger_seen_pass(struct sl_ledger_seen *s);
int sl_ledger_seen_write(struct sl_ledger_seen *s, FILE *f, struct sl_diag *d);
void sl_ledger_seen_release(struct sl_ledger_seen *s);

/* Read a ledger file; 0, or -1 with d->msg "FILE:LINE: what". Release with
 * sl_ledger_release. */
int sl_ledger_read(const char *path, struct sl_ledger *l, struct sl_diag *d);
void sl_ledger_release(struct sl_ledger *l);
/* A thread of a snapshot by tid, NULL if absent. */
const struct sl_ledger_thread *sl_ledger_find(const struct sl_ledger_snap *s, int tid);

#endif
