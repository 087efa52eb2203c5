/* analyze/store.h - the SQLite store. Only the store's files (store*.c,
 * see store_int.h) include sqlite3.h and hold SQL text; everything else
 * goes through these functions. Schema: analyze/schema.sql (documented in
 * docs/schema.md).
 *
 * Every function returns 0 (or a documented positive value) on success and
 * -1 with d->msg set on error. An import or a replay is one transaction:
 * sl_store_begin() ... sl_store_commit(), or sl_store_rollback() on any
 * error, so the database is exactly as before. */
#ifndef SL_STORE_H
#define SL_STORE_H

#include <stdint.h>
#include <stddef.h>
#include "../common/util.h"
#include "../common/sink.h"
#include "../common/behaviour.h"

#define SL_SCHEMA_VERSION 18

struct sl_store;

/* Open (create = 1: create the file and schema if missing). Refuses a
 * database whose user_version is newer than this program's. */
int sl_store_open(const char *path, int create, struct sl_store **out, struct sl_diag *d);
/* The page cache: reading = 1 for a pass that reads each run once (4 MiB,
 * a report of a big trace), 0 the default (8 MiB). */
void sl_store_cache(struct sl_store *s, int reading);
/* Read the file through a memory map (up to 256 MiB of it) instead of a
 * read() per page: for a command that reads much of an existing database
 * before it writes (replay). Not for an import: its file grows from
 * nothing, and the map is redone as it grows. */
void sl_store_map_reads(struct sl_store *s);
/* The file s was opened on (another connection may open it too: a
 * reading thread's). */
const char *sl_store_path(const struct sl_store *s);
/* Close; NULL is fine. */
void sl_store_close(struct sl_store *s);

int sl_store_begin(struct sl_store *s, struct sl_diag *d);
int sl_store_commit(struct sl_store *s, struct sl_diag *d);
void sl_store_rollback(struct sl_store *s);

struct sl_trace_info {
	int64_t id;
	char path[1024];
	char sha256[65];
	char format[24];
	int cpus;
	uint64_t first_ts, last_ts;
	uint64_t events, lost_events;
	char kernel_release[64];     /* the recording kernel's release, "" unknown */
	uint64_t missed_switches; /* switches the importer placed (docs/model.md) */
	int cut;                  /* the file was cut short, at cut_at */
	uint64_t cut_at;          /* byte offset (binary formats) or line (text) */
	char ledger[1024];        /* the ledger the trace was held to, "" none (version 10) */
	double completeness_cpu;  /* trace / kernel CPU time over its threads, NAN unknown */
	double completeness_wait; /* trace / kernel run_delay, NAN unknown */
	/* the trace's charges (sched_stat_runtime) / the kernel's CPU time over
	 * the counted threads when each has them (ledger_thread), else NAN:
	 * what says whether it is complete (analyze/completeness.h) */
	double completeness_work;
};

/* What says whether trace t is complete (analyze/completeness.h, the
 * import's complete_share): its charges' share where every counted thread
 * has them (*by_work 1), else its CPU time's (NAN: no ledger figures). */
static inline double sl_trace_complete_share(const struct sl_trace_info *t, int *by_work)
{
	*by_work = !(t->completeness_work != t->completeness_work); /* not NAN */
	return *by_work ? t->completeness_work : t->completeness_cpu;
}

/* A thread of the ledger alive across its window (analyze/completeness.h). */
struct sl_ledger_row {
	int tid;
	char comm[24];
	uint64_t kernel_exec_ns, kernel_delay_ns; /* the snapshots' deltas */
	uint64_t trace_exec_ns, trace_wait_ns;    /* the recorded run, in the window (its
						   * waits as the kernel counts them) */
	uint64_t trace_work_ns;  /* the work the kernel charged in the window
				  * (sched_stat_runtime; version 12) */
	int have_work;           /* 0: no sched_stat_runtime for it (NULL) */
};
/* Store what holding trace_id to its ledger found (table ledger_thread and
 * the trace's ledger, completeness_cpu, completeness_wait). In the caller's
 * transaction. */
struct sl_ledger;
/* Each thread's task group from the ledger l into the thread rows of
 * trace_id (schema 11), and an affinity that keeps it off some CPUs into
 * its task_model.cpumask (inside the caller's transaction). */
int sl_store_thread_groups(struct sl_store *s, int64_t trace_id, const struct sl_ledger *l,
			   struct sl_diag *d);
/* The kernel's load tracking at the ledger's start snapshot (version 5)
 * into table start_pelt for trace_id: each CPU's root cfs_rq and each
 * thread of the trace the snapshot holds (inside the caller's transaction;
 * nothing for an older ledger). */
int sl_store_start_pelt(struct sl_store *s, int64_t trace_id, const struct sl_ledger *l, struct sl_diag *d);
/* A thread's group as stored (thread.autogroup ... cgroup_weight). */
struct sl_group_raw {
	int known;          /* the ledger held the thread */
	int64_t autogroup;  /* -1 none */
	int autogroup_nice;
	char cgroup[128];
	int64_t weight;     /* cpu.weight scale, 0 unknown */
};
/* The groups of b from raw[0..b->ntasks) (docs/groups.md). */
void sl_behaviour_set_groups(struct sl_behaviour *b, const struct sl_group_raw *raw);
int sl_store_add_ledger(struct sl_store *s, int64_t trace_id, const char *path, double cpu_share,
			double wait_share, const struct sl_ledger_row *rows, size_t n, struct sl_diag *d);

/* 1 and *id if a trace with this sha256 exists, 0 if not. */
int sl_store_trace_by_sha(struct sl_store *s, const char *sha, int64_t *id, struct sl_diag *d);
/* Insert a trace row (t->id ignored); returns its id in *id. */
int sl_store_add_trace(struct sl_store *s, const struct sl_trace_info *t, int64_t *id, struct sl_diag *d);
/* Update the statistics (cpus, first/last ts, events, lost) and sha256 of trace t->id. */
int sl_store_update_trace(struct sl_store *s, const struct sl_trace_info *t, struct sl_diag *d);
int sl_store_get_trace(struct sl_store *s, int64_t id, struct sl_trace_info *t, struct sl_diag *d);
/* Set trace id's kernel_release (a trace imported before version 4). */
int sl_store_set_trace_release(struct sl_store *s, int64_t id, const char *release,
			       struct sl_diag *d);
/* Lost events of one CPU of a trace. */
int sl_store_add_lost(struct sl_store *s, int64_t trace_id, int cpu, uint64_t lost, struct sl_diag *d);
struct sl_run_data;
/* Each thread of r (r->threads[j]): the share of its recorded wall time
 * that was work (table recorded_work), or -1 when not known. */
int sl_store_work_ratio(struct sl_store *s, int64_t trace_id, const struct sl_run_data *r,
			double *ratio, struct sl_diag *d);
/* The recorded run's wall and work per task and CPU (table recorded_work,
 * docs/model.md "Work and interference"); w[i].task + utid_base is the utid. */
int sl_store_add_work(struct sl_store *s, int64_t trace_id, int64_t utid_base,
		      const struct sl_work_row *w, size_t n, struct sl_diag *d);

/* The next utid that sl_store_add_behaviour would give task 0 (the import
 * writes recorded slices before threads; utid = base + task index). */
int64_t sl_store_next_utid(struct sl_store *s);

/* Write the threads, task models and phases of b for trace_id. Task i gets
 * utid base + i where base = sl_store_next_utid() at the call (also stored
 * in b->tasks[i].utid). first_ts/last_ts per task come from the arrays
 * (absolute ns; may be NULL). */
int sl_store_add_behaviour(struct sl_store *s, int64_t trace_id, struct sl_behaviour *b,
			   const uint64_t *first_ts, const uint64_t *last_ts, struct sl_diag *d);
/* Load the behaviour of a trace (threads ordered by utid; task index i
 * = i-th thread). The caller releases it with sl_behaviour_release(). */
int sl_store_load_behaviour(struct sl_store *s, int64_t trace_id, struct sl_behaviour *b,
			    struct sl_diag *d);

/* A run row. params is JSON text. */
int sl_store_add_run(struct sl_store *s, int64_t trace_id, const char *scheduler,
		     const char *params, int cpus, const char *mode, uint64_t seed,
		     int64_t *run_id, struct sl_diag *d);

/* Set the CPU count of a run (the import learns it after adding the run). */
int sl_store_set_run_cpus(struct sl_store *s, int64_t run_id, int cpus, struct sl_diag *d);
/* Set run_id's params (a JSON object). */
int sl_store_set_run_params(struct sl_store *s, int64_t run_id, const char *params, struct sl_diag *d);

/* Bind a sink to a run: task index i maps to utid_base + i when b is NULL,
 * else to b->tasks[i].utid; every ts gets ts_offset added. The binder lives
 * in *bind (caller's storage) and must outlive the sink's use. */
/* What a recorded run shows of the tasks that read their own CPU clock
 * (sl_mark_polls, hz.h): the end (ns, the run's own time), CPU and task
 * (the behaviour's index) of each slice that ended runnable (R), and the
 * time of every wakeup. */
struct sl_rend {
	uint64_t ts;
	int32_t cpu, task;
};
struct sl_wall_obs;
struct sl_poll_obs {
	struct sl_rend *r;
	size_t nr, rcap;
	uint64_t *wk;
	size_t nw, wcap;
};
void sl_poll_obs_release(struct sl_poll_obs *o);

struct sl_store_bind {
	struct sl_store *s;
	int64_t run_id;
	int64_t utid_base;
	const struct sl_behaviour *b;
	uint64_t ts_offset;
	struct sl_diag *d;
	uint64_t rows;
	void *pend; /* rows not yet inserted (the store's; flushed at commit) */
	/* non-NULL: the slices written are kept in keep->slices too, as the
	 * store gives them back (sl_store_load_run_parts before its sort), for
	 * a caller that reads them right after the commit (the caller frees
	 * them) */
	struct sl_run_data *keep;
	size_t keepcap;
	/* track_cpus: the first ts of a slice or wakeup written on each CPU
	 * (cpu_first[c], UINT64_MAX for none; ncpu_first of them, grown as
	 * rows come; the caller frees it), for sl_store_add_cpu_first */
	int track_cpus;
	uint64_t *cpu_first;
	size_t ncpu_first;
	/* non-NULL: the R slice ends and the wakeups go here too */
	struct sl_poll_obs *polls;
	/* non-NULL: every slice goes here too (analyze/wall.h) */
	struct sl_wall_obs *wall;
};
/* Rows go in batches: they reach the tables at sl_store_commit() (or are
 * dropped by sl_store_rollback()), so commit before reading them back. At
 * most 8 binds may be written in one transaction. */
void sl_store_run_sink(struct sl_store_bind *bind, struct sl_run_sink *sink);
/* The recorded run's uncertain time of a task (task_stat.uncertain_ns),
 * written with the bind's rows at commit. */
void sl_store_bind_uncertain(struct sl_store_bind *bind, int task, uint64_t ns);

/* Metrics: utid < 0 means the whole run. */
int sl_store_put_metric(struct sl_store *s, int64_t run_id, int64_t utid, const char *name,
			double value, struct sl_diag *d);
/* Remove run_id's metrics: those analyze computes (clear_metrics), or the
 * fidelity_* ones schedlab validate computes (clear_fidelity); each keeps
 * the other's, and both keep the replay_* ones a replay stores with its
 * run. */
int sl_store_clear_metrics(struct sl_store *s, int64_t run_id, struct sl_diag *d);
int sl_store_clear_fidelity(struct sl_store *s, int64_t run_id, struct sl_diag *d);

/* Rows of one run, loaded for analysis (ordered by ts). */
struct sl_run_info {
	int64_t id, trace_id;
	char scheduler[32];
	char mode[16];
	char params[512];
	int cpus;
	uint64_t seed;
};
/* 24 bytes: a run of a big trace has millions of slices. A utid fits 32
 * bits (a database's threads), a CPU and a kernel priority 12 (-2048..2047). */
struct sl_slice_row {
	uint64_t ts, dur;
	int32_t utid;
	signed int cpu : 12;
	unsigned int end_state : 8;
	signed int priority : 12;
};
struct sl_wakeup_row { uint64_t ts, ts_run; int64_t utid, waker_utid; int cpu; };
struct sl_thread_row {
	int64_t utid;
	int tid, tgid, nice;
	char comm[24];
	uint64_t first_ts, last_ts;
	uint64_t uncertain_ns; /* task_stat.uncertain_ns of the run loaded (recorded run) */
};
struct sl_run_data {
	struct sl_run_info run;
	struct sl_thread_row *threads; size_t nthreads;
	struct sl_slice_row *slices; size_t nslices;
	struct sl_wakeup_row *wakeups; size_t nwakeups;
};
int sl_store_get_run(struct sl_store *s, int64_t run_id, struct sl_run_info *r, struct sl_diag *d);
/* The recorded run of a trace (the schedule the trace itself shows): its id
 * in *run_id, 0 if the trace has none. Returns 0, or -1 with d set. */
int sl_store_recorded_run(struct sl_store *s, int64_t trace_id, int64_t *run_id, struct sl_diag *d);
/* Ids of all runs (of trace_id, or of every trace if trace_id <= 0), ascending.
 * *ids is malloc'd; the caller frees it. */
int sl_store_list_runs(struct sl_store *s, int64_t trace_id, int64_t **ids, size_t *n,
		       struct sl_diag *d);
int sl_store_load_run(struct sl_store *s, int64_t run_id, struct sl_run_data *out, struct sl_diag *d);
/* The same, with only some of the rows (threads always): a chart of delays
 * needs no slices. */
enum { SL_LOAD_SLICES = 1, SL_LOAD_WAKEUPS = 2, SL_LOAD_ALL = 3 };
int sl_store_load_run_parts(struct sl_store *s, int64_t run_id, int parts, struct sl_run_data *out,
			    struct sl_diag *d);
void sl_run_data_release(struct sl_run_data *r);
/* Order r's slices (by ts, cpu, ...) and wakeups (by ts, utid, ...) as
 * sl_store_load_run does. */
void sl_run_data_sort(struct sl_run_data *r);
/* The thread row of utid in r (its threads are ordered by utid), or NULL. */
const struct sl_thread_row *sl_run_thread(const struct sl_run_data *r, int64_t utid);

/* A run's staircase rows (rsdl, o1, sd: a task's level over time), its
 * rotations, its vlag rows (cfs: vruntime - min_vruntime), in the order the
 * run wrote them (not sorted: a chart keeps and orders the few it draws):
 * fn is called for each; a non-zero return stops and is returned as -1. */
struct sl_stair_row { int64_t utid; uint64_t ts; int level, array; };
struct sl_rotation_row { uint64_t ts; char kind[8]; int cpu; };
struct sl_vlag_row { int64_t utid; uint64_t ts; int64_t lag; };
int sl_store_stairs(struct sl_store *s, int64_t run_id,
		    int (*fn)(void *ctx, const struct sl_stair_row *r), void *ctx, struct sl_diag *d);
int sl_store_rotations(struct sl_store *s, int64_t run_id,
		       int (*fn)(void *ctx, const struct sl_rotation_row *r), void *ctx,
		       struct sl_diag *d);
int sl_store_vlags(struct sl_store *s, int64_t run_id,
		   int (*fn)(void *ctx, const struct sl_vlag_row *r), void *ctx, struct sl_diag *d);

/* A run's slices and wakeups one by one, in the order the run wrote them
 * (not sorted; nothing kept): for what does not depend on their order (a
 * chart's pre-pass over every run, before it loads them one at a time). */
int sl_store_each_slice(struct sl_store *s, int64_t run_id,
			int (*fn)(void *ctx, const struct sl_slice_row *r), void *ctx,
			struct sl_diag *d);
int sl_store_each_wakeup(struct sl_store *s, int64_t run_id,
			 int (*fn)(void *ctx, const struct sl_wakeup_row *r), void *ctx,
			 struct sl_diag *d);
/* The total orders sl_store_load_run sorts slices and wakeups by (ts
 * first), for qsort. */
int sl_slice_row_cmp(const void *a, const void *b);
int sl_wakeup_row_cmp(const void *a, const void *b);
/* The threads of run_id's trace (ordered by utid, with the run's
 * uncertain_ns), as sl_store_load_run gives them. */
int sl_store_run_threads(struct sl_store *s, int64_t run_id, struct sl_thread_row **threads,
			 size_t *n, struct sl_diag *d);

/* CPUs of trace_id's recording with no event until late, likely offline
 * until then (a phone's cores brought up on demand): those whose first
 * slice or wakeup in the recorded run comes after a tenth of the span and
 * 100 ms (first_ns since the trace's start, UINT64_MAX: none at all).
 * *out malloc'd (NULL when none). A replay keeps each offline until then (sl_store_load_behaviour
 * puts them in the behaviour's cpu_up_ns; replay --late-cpus online: from 0). */
struct sl_late_cpu {
	int cpu;
	uint64_t first_ns, span_ns;
};
int sl_store_late_cpus(struct sl_store *st, int64_t trace_id, struct sl_late_cpu **out, size_t *nout,
		       struct sl_diag *d);
/* Keep the recorded run's first event on each CPU (a bind's cpu_first,
 * n of them) in table cpu_first, so that sl_store_late_cpus reads them
 * instead of the run's rows. */
int sl_store_add_cpu_first(struct sl_store *st, int64_t trace_id, const uint64_t *first, size_t n,
			   struct sl_diag *d);

/* The newest recording's id (the largest of the imported traces), else the
 * newest workload's; 0 in an empty database. */
int sl_store_latest_trace(struct sl_store *s, int64_t *id, struct sl_diag *d);
/* The utids of a trace's threads, ascending (*utids malloc'd). */
int sl_store_trace_utids(struct sl_store *s, int64_t trace_id, int64_t **utids, size_t *n,
			 struct sl_diag *d);

#endif
