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

/* ---- scenarios ---- */

struct sl_scen_task {
	int nice;
	uint64_t start_ns;
	uint64_t runtime_ns;     /* CPU time in the run */
	uint64_t max_slice_ns;   /* longest on-CPU interval */
	uint64_t max_wait_ns;    /* longest runnable wait: start, wakeup or
				  * preemption until it ran (open waits count to
				  * the end of the run) */
	uint64_t bound_ns;       /* replay/bound.h bound of this task, every
				  * task of the scenario counted as CPU-bound */
	uint64_t *delays;        /* wakeup delays (ts_run - ts), in row order */
	size_t ndelays;
};

struct sl_scen_result {
	size_t ntasks;
	struct sl_scen_task *t;
	uint64_t end_ns;         /* simulated end (the duration) */
};

/* Run workload text (replay/workload.h syntax) through policy pol on one
 * CPU for dur ns (RR 6 ms, HZ 1000; debug = 1 turns the engine's invariant
 * checks on). Fills r (caller releases with sl_scen_result_release).
 * Returns 0, or -1 with d set (unknown policy, bad text, engine error). */
int sl_scenario_run(const char *text, const char *pol, uint64_t dur, int debug,
		    struct sl_scen_result *r, struct sl_diag *d);
void sl_scen_result_release(struct sl_scen_result *r);

/* Starvation tally over runs: the task whose longest wait came closest to
 * (or went furthest past) its bound. */
struct sl_starve {
	int64_t excess_ns;       /* max over tasks of max_wait - bound (INT64_MIN: none yet) */
	double ratio;            /* max over tasks of max_wait / bound */
	char where[64];          /* scenario label and task of the excess */
	size_t tasks;            /* tasks counted */
};
/* Empty tally. */
void sl_starve_init(struct sl_starve *s);
/* Count every task of r (label names the scenario in s->where). */
void sl_starve_add(struct sl_starve *s, const struct sl_scen_result *r, const char *label);

/* Sweep: for s = 0, step, 2*step, ... <= max_s, run `first` (one or more
 * task lines) with every line of `second` given start=s, for s + tail ns;
 * return in *worst the largest max_wait_ns of task 0 over all runs and in
 * *at the s where it was first reached. Every run is added to sv (may be
 * NULL) under label. Returns 0 or -1 (d set). */
int sl_scenario_sweep(const char *first, const char *second, const char *pol,
		      uint64_t max_s, uint64_t step, uint64_t tail, int debug,
		      uint64_t *worst, uint64_t *at, struct sl_starve *sv,
		      const char *label, struct sl_diag *d);

/* Percentile p (0..100, nearest rank) of task's wakeup delays; 0 if none. */
uint64_t sl_scen_delay_pct(const struct sl_scen_task *t, double p);

/* ---- claims ---- */

enum sl_verdict {
	SL_VERDICT_HOLDS = 0,
	SL_VERDICT_CORRECTED,    /* holds with the corrected (consistent) figure */
	SL_VERDICT_FAILS,
	SL_VERDICT_UNCHECKABLE,
};

/* How a claim's verdict is decided (docs/claims.md "Verdict rules"). */
enum sl_claim_rule {
	SL_RULE_NEAR = 0,   /* |m - published| <= tol: holds; else |m - consistent|
			     * <= tol: corrected; else does not hold */
	SL_RULE_AT_MOST,    /* m <= published + tol: holds; else m <= consistent
			     * + tol: corrected; else does not hold */
	SL_RULE_NONE,       /* no scenario can produce the figure: not checkable */
};

/* A claim has a column per model of the policy table (replay/policies.c,
 * sl_policies[]), in its order, up to SL_CLAIM_NMODELS: model m is
 * sl_policies[m]. The verdict is rsdl's; o1 and sd are named for the
 * --no-sd option and the tests. */
#define SL_CLAIM_NMODELS 8
/* Index of the model called name, or -1 if the table has none. */
int sl_claim_model_index(const char *name);
#define SL_CLAIM_RSDL sl_claim_model_index("rsdl")
#define SL_CLAIM_O1 sl_claim_model_index("o1")
#define SL_CLAIM_SD sl_claim_model_index("sd")

struct sl_claim {
	const char *id;          /* "1a", "3b", ... */
	const char *claim;       /* short statement */
	const char *source;      /* seed file and section, short */
	const char *quote;       /* the words claimed, quoted from the seed */
	int rule;                /* enum sl_claim_rule */
	const char *unit;        /* unit of the numbers below ("%", "ms", "RR") */
	double published;        /* the figure as printed (NAN: none) */
	double consistent;       /* counted consistently from the rules (NAN: none) */
	double tol;              /* tolerance of the rule, in unit */
	double meas[SL_CLAIM_NMODELS]; /* the verdict's number per model (NAN: not run) */
	char predicted[160];     /* text: published / consistent figures */
	char measured[SL_CLAIM_NMODELS][112]; /* text per model; "" if model absent */
	const char *why;         /* what the announced figure got wrong, or NULL */
	char note[320];          /* one line: what the verdict means here */
	int verdict;             /* enum sl_verdict, from rule and meas[RSDL] */
};

struct sl_claims_opts {
	int debug;               /* engine invariant checks (slow; tests) */
	int no_sd;               /* 1: leave the SD model out even if linked */
};

/* Run every claim's scenarios through every model of the policy table (sd
 * left out with opts->no_sd). *out is malloc'd (*n entries); free it with
 * free(). Returns 0, or -1 with d set (rsdl missing, engine error). */
int sl_claims_run(const struct sl_claims_opts *o, struct sl_claim **out, size_t *n,
		  struct sl_diag *d);

/* The verdict of c by its rule from c->meas[SL_CLAIM_RSDL]. */
int sl_claim_verdict(const struct sl_claim *c);

/* "holds", "holds (with the corrected figure)", "does not hold",
 * "not checkable here". */
const char *sl_verdict_name(int v);

/* Model names by index (the policy table's) and whether index m is one. */
const char *sl_claim_model_name(int m);
int sl_claim_model_available(int m);

#endif
