/* analyze/claims.h - the claims of the RSDL announcement (seed 001) and its
 * thread (seeds 002-004) re-run as scenarios through the scheduler models,
 * in memory, deterministically (docs/claims.md lists each claim, its
 * quote, its scenario and its verdict rule). No printing here: the command
 * (cmd/cmd-claims.c) formats the results.
 *
 * Two layers:
 *  - sl_scenario_*: run a workload text through one policy on 1 CPU and
 *    reduce the rows to per-task figures (runtime, longest runnable wait,
 *    wakeup delays, bound), or sweep a second task's start time;
 *  - sl_claims_run: every claim, its predicted and measured figures per
 *    model and its verdict, computed by the rule the claim carries. */
#ifndef SL_CLAIMS_H
#define SL_CLAIMS_H

#include <stddef.h>
#include <stdint.h>
#include "../common/util.h"
#include "../common/behaviour.h"

/* ---- scenarios ---- */

struct sl_scen_task {
	int nice;
	int tid;                 /* the behaviour's tid (0: a workload's task) */
	char comm[24];
	uint64_t start_ns;
	uint64_t runtime_ns;     /* CPU time in the run */
	uint64_t max_slice_ns;   /* longest on-CPU interval */
	uint64_t max_wait_from;  /* when that wait began */
	int max_wait_cpu;        /* the CPU it ended on (-1: open at the end) */
	uint64_t max_wait_ns;    /* longest runnable wait: start, wakeup or
				  * preemption until it ran (open waits count to
				  * the end of the run) */
	uint64_t later_wait_ns;  /* the same counting only waits that began
				  * after its first slice (start-up placement
				  * left out: cfs's START_DEBIT) */
	uint64_t bound_ns;       /* replay/bound.h bound of this task, every
				  * task of the scenario counted as CPU-bound */
	uint64_t *delays;        /* wakeup delays (ts_run - ts), in row order */
	uint64_t *woke_at;       /* when each of those wakeups ran (ts_run) */
	size_t ndelays;
	uint64_t first_run_ns;   /* start of its first slice (UINT64_MAX: never ran) */
	uint64_t last_end_ns;    /* end of its last slice (0: never ran) */
	uint64_t done_ns;        /* when its recorded work was done (0: not in the run) */
};

struct sl_scen_result {
	size_t ntasks;
	struct sl_scen_task *t;
	uint64_t end_ns;         /* simulated end (the duration) */
	uint64_t decisions;      /* pick_next calls */
	uint64_t cpu_ns;         /* CPU time this process spent in the replay */
	size_t ncpus;
	uint64_t *major_rotations; /* per CPU: "major" rotation rows (rsdl, sd) */
	struct sl_scen_slice {
		uint64_t ts, end;
		int cpu, task;
	} *slices;               /* every slice, in the order they came */
	size_t nslices, capslices;
};

/* Run workload text (replay/workload.h syntax) through policy pol on one
 * CPU for dur ns (RR 6 ms, HZ 1000; debug = 1 turns the engine's invariant
 * checks on). Fills r (caller releases with sl_scen_result_release).
 * Returns 0, or -1 with d set (unknown policy, bad text, engine error). */
int sl_scenario_run(const char *text, const char *pol, uint64_t dur, int debug,
		    struct sl_scen_result *r, struct sl_diag *d);
void sl_scen_result_release(struct sl_scen_result *r);
/* Replay the behaviour b through pol on cpus CPUs in mode (enum
 * sl_replay_mode) until dur ns (0: until all recorded work is done) and
 * reduce it as sl_scenario_run does. Bounds count every task of b. */
int sl_scenario_replay(const struct sl_behaviour *b, const char *pol, int cpus, int mode, uint64_t dur,
		       int debug, struct sl_scen_result *r, struct sl_diag *d);

/* The recorded run of a trace (the schedule the trace itself shows), as
 * rows to reduce the way a replay's are: task is the behaviour's index,
 * times are absolute as recorded (the behaviour's t0 is subtracted). */
struct sl_rec_row {
	uint64_t ts;
	uint64_t t2;   /* a slice's duration; a wakeup's ts_run (UINT64_MAX: never ran) */
	int task;
	int cpu;       /* a slice's CPU */
	char kind;     /* 's' slice, 'w' wakeup */
	char end;      /* a slice's end state */
};
struct sl_rec_rows {
	struct sl_rec_row *v;
	size_t n, cap;
};
void sl_rec_slice(struct sl_rec_rows *rr, int task, int cpu, uint64_t ts, uint64_t dur, char end);
void sl_rec_wakeup(struct sl_rec_rows *rr, int task, uint64_t ts, uint64_t ts_run);
void sl_rec_release(struct sl_rec_rows *rr);
/* Reduce the recorded rows (sorted here) of behaviour b into r as
 * sl_scenario_replay reduces a replay's, up to b->span_ns (or the last
 * slice's end): the same longest waits, delays and first and last
 * slices, so a claim measures the recording and the models alike. */
int sl_scenario_recorded(const struct sl_behaviour *b, struct sl_rec_rows *rows, struct sl_scen_result *r);

/* Starvation tally over runs: the task whose longest wait came closest to
 * (or went furthest past) its bound. */
struct sl_starve {
	int64_t excess_ns;       /* max over tasks of max_wait - bound (INT64_MIN: none yet) */
	double ratio;            /* max over tasks of max_wait / bound */
	char where[128];         /* scenario label and task of the excess (its tid and
				  * name, or a workload's task by name) */
	size_t tasks;            /* tasks counted */
};
/* Empty tally. */
void sl_starve_init(struct sl_starve *s);
/* Task i's bound counting only its competitors: the tasks with a slice on
 * the CPU its longest wait ended on (any CPU for a wait open at the end)
 * during that wait, each as CPU-bound (replay/bound.h, RR 6 ms). On a
 * real trace's replay, bound_ns counts every task of the trace: tens of
 * seconds, which no wait comes near (issue 25: claim 2r was vacuous). */
uint64_t sl_scen_competing_bound(const struct sl_scen_result *r, size_t i);
/* sl_starve_add with each task's competing bound instead of bound_ns. */
void sl_starve_add_competing(struct sl_starve *s, const struct sl_scen_result *r, const char *label);
/* Count every task of r (label names the scenario in s->where). */
void sl_starve_add(struct sl_starve *s, const struct sl_scen_result *r, const char *label);

/* Sweep: for s = 0, step, 2*step, ... <= max_s, run `first` (one or more
 * task lines) with every line of `second` given start=s, for s + tail ns;
 * return in *worst the largest max_wait_ns of task 0 over all runs and in
 * *at the s where it was first reached, in *later (may be NULL) the
 * largest later_wait_ns (waits after task 0's first slice). Every run is
 * added to sv (may be NULL) under label. Returns 0 or -1 (d set). */
int sl_scenario_sweep(const char *first, const char *second, const char *pol,
		      uint64_t max_s, uint64_t step, uint64_t tail, int debug,
		      uint64_t *worst, uint64_t *at, uint64_t *later, struct sl_starve *sv,
		      const char *label, struct sl_diag *d);

/* Percentile p (0..100, nearest rank) of task's wakeup delays; 0 if none. */
uint64_t sl_scen_delay_pct(const struct sl_scen_task *t, double p);

/* ---- claims ---- */

enum sl_verdict {
	SL_VERDICT_HOLDS = 0,
	SL_VERDICT_PARTLY,       /* only with the corrected figure, or only half */
	SL_VERDICT_FAILS,
	SL_VERDICT_UNTESTABLE,
};

/* How a claim's verdict is decided from a measurement m (docs/claims.md
 * "Verdict rules"); "published" is the figure as printed, "consistent" the
 * corrected figure or the looser half of the claim. */
enum sl_claim_rule {
	SL_RULE_NEAR = 0,   /* |m - published| <= tol: holds; else |m - consistent|
			     * <= tol: partly; else fails */
	SL_RULE_AT_MOST,    /* m <= published + tol: holds; else m <= consistent
			     * + tol: partly; else fails */
	SL_RULE_AT_LEAST,   /* m >= published - tol: holds; else m >= consistent
			     * - tol: partly; else fails */
	SL_RULE_NONE,       /* nothing here can produce the figure: untestable */
};

/* The models are the policy table's (sl_policy_names()), in its order;
 * rsdl is always the first. */
#define SL_CLAIM_MAXMODELS 8
#define SL_CLAIM_RSDL 0

/* The chart behind a verdict (plots/claims_chart.c draws it). */
enum { SL_CHART_BARS = 0,  /* meas[] per model, published/consistent as lines */
       SL_CHART_LINES,     /* series of (x, y) points */
       SL_CHART_GROUPS };  /* series as clustered bars over the labels xt[] */
#define SL_CHART_MAXSERIES (SL_CLAIM_MAXMODELS + 2)
#define SL_CHART_MAXX 16
struct sl_claim_series {
	char name[32];
	size_t n;
	double x[SL_CHART_MAXX], y[SL_CHART_MAXX];
};
struct sl_claim_chart {
	int kind;
	char xlabel[64], ylabel[64];
	int logx, logy;
	int ref;                        /* 1: published/consistent lines on the y axis */
	size_t nseries;
	struct sl_claim_series s[SL_CHART_MAXSERIES];
	size_t nx;                      /* GROUPS: labels of the x groups */
	char xt[SL_CHART_MAXX][24];
};

struct sl_claim {
	const char *id;          /* "1a", "3b", "G1", ... */
	const char *claim;       /* short statement (a complaint is worded as one) */
	const char *source;      /* seed file and section, short */
	const char *quote;       /* the words claimed, quoted from the seed */
	int rule;                /* enum sl_claim_rule */
	const char *unit;        /* unit of the numbers below ("%", "ms", "RR") */
	double published;        /* the figure as printed (NAN: none) */
	double consistent;       /* corrected figure / looser half (NAN: none) */
	double tol;              /* tolerance of the rule, in unit */
	int subject;             /* model the headline verdict is about (-1: none) */
	int baseline;            /* model the figures are measured against (-1: none) */
	char from[128];           /* "scenario" or the trace it was measured on */
	double meas[SL_CLAIM_MAXMODELS]; /* the verdict's number per model (NAN: not run) */
	int verdicts[SL_CLAIM_MAXMODELS]; /* the rule applied to each model */
	char predicted[160];     /* text: published / consistent figures */
	char measured[SL_CLAIM_MAXMODELS][112]; /* text per model; "" if not run */
	const char *why;         /* what the announced figure got wrong, or NULL */
	char note[1024];          /* the reason: the rule applied to the numbers */
	char extra[480];         /* appended to the note: what was measured on */
	int verdict;             /* enum sl_verdict: verdicts[subject] */
	struct sl_claim_chart chart;
};

struct sl_claims_opts {
	int debug;               /* engine invariant checks (slow; tests) */
	const char *models;      /* "rsdl,o1": only these (NULL: every linked model) */
	const char *traces_dir;  /* where the bundled traces are (NULL: "traces") */
	const char *task;        /* trace claims: the interactive tasks' comm
				  * (NULL: found by behaviour) */
};

/* Every claim: the scenarios, and the real-trace claims on the bundled
 * traces (a trace that cannot be read makes its claims untestable, with
 * the reason). *out is malloc'd (*n entries); free it with free().
 * Returns 0, or -1 with d set (rsdl missing, engine error). */
int sl_claims_run(const struct sl_claims_opts *o, struct sl_claim **out, size_t *n,
		  struct sl_diag *d);

/* The trace-driven claims on the behaviour b (an imported trace, named
 * name): the interactive tasks' longest wait and p99 delay, glxgears frames
 * lost per mail burst, starvation. Replays on b->cpus CPUs for the
 * recorded span. rec (NULL: none) is the trace's recorded run: its
 * figures are shown beside the models' in the column sl_claim_recorded(). */
int sl_claims_trace(const struct sl_claims_opts *o, const struct sl_behaviour *b, const char *name,
		    struct sl_rec_rows *rec, struct sl_claim **out, size_t *n, struct sl_diag *d);

/* The verdict of c's rule for the measurement m. */
int sl_claim_rule_verdict(const struct sl_claim *c, double m);
/* The verdict of c by its rule from c->meas[c->subject]. */
int sl_claim_verdict(const struct sl_claim *c);
/* Fill c->verdicts[], c->verdict and c->note from the numbers. */
void sl_claim_decide(struct sl_claim *c);

/* The reason for model m's verdict in words ("rsdl 120 ms is ... ->
 * partly: ..."); for the subject model it is c->note. */
void sl_claim_reason(const struct sl_claim *c, int m, char *buf, size_t n);

/* "holds", "partly", "fails", "untestable". */
const char *sl_verdict_name(int v);

/* The models (policy table order), their count, and the index of a name
 * (-1: not linked). */
int sl_claim_nmodels(void);
const char *sl_claim_model_name(int m);
int sl_claim_model_index(const char *name);
int sl_claim_model_available(int m);
/* The column of the recorded run (the trace's own schedule, "recorded")
 * after the models in meas[], measured[] and verdicts[] (-1: no room), and
 * the columns to show: the models and it. */
int sl_claim_recorded(void);
int sl_claim_ncols(void);

/* Interactive tasks of b by behaviour: not a kernel thread nor a
 * recorder's own thread (schedlab, trace-cmd, perf, traced,
 * traced_probes, sched_recorder, systing, atrace), at least 20
 * sleeps, CPU under 30 % of its life, median burst under 5 ms and its
 * run+sleep cycles regular (median absolute deviation under the median).
 * comm != NULL: the tasks called comm instead. mark[i] = 1 for those
 * (caller's array of b->ntasks). Returns how many. */
size_t sl_claims_interactive(const struct sl_behaviour *b, const char *comm, int *mark);

/* Frames lost in the windows [wlo[k], whi[k]) (k < nw): frames are the
 * sorted times f[0..nf), period p; a gap g between frames that starts in a
 * window loses floor(g / p) - 1 frames. */
uint64_t sl_claims_frames_lost(const uint64_t *f, size_t nf, uint64_t p, const uint64_t *wlo,
			       const uint64_t *whi, size_t nw);

#endif
