/* analyze/claims.c - the claims of seeds 001-004, their scenarios and their
 * verdicts (see claims.h and docs/claims.md). Every figure shown is either
 * quoted from the seeds (published), derived from the announcement's rules
 * (consistent), or measured here by running the scenario; the verdict is
 * computed from those numbers by the claim's rule. */
#include "claims.h"
#include "../replay/engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS SL_NS_PER_MS
#define RR_NS (6 * MS)

int sl_claim_model_available(int m)
{
	return m >= 0 && m < SL_CLAIM_NMODELS && (size_t)m < sl_npolicies;
}

const char *sl_claim_model_name(int m)
{
	return sl_claim_model_available(m) ? sl_policies[m]->name : "?";
}

int sl_claim_model_index(const char *name)
{
	int m;
	for (m = 0; sl_claim_model_available(m); m++)
		if (!strcmp(sl_policies[m]->name, name))
			return m;
	return -1;
}

const char *sl_verdict_name(int v)
{
	switch (v) {
	case SL_VERDICT_HOLDS: return "holds";
	case SL_VERDICT_CORRECTED: return "holds (with the corrected figure)";
	case SL_VERDICT_FAILS: return "does not hold";
	default: return "not checkable here";
	}
}

int sl_claim_verdict(const struct sl_claim *c)
{
	double m = SL_CLAIM_RSDL >= 0 ? c->meas[SL_CLAIM_RSDL] : NAN;
	if (c->rule == SL_RULE_NONE || isnan(m))
		return SL_VERDICT_UNCHECKABLE;
	if (c->rule == SL_RULE_NEAR) {
		if (!isnan(c->published) && fabs(m - c->published) <= c->tol)
			return SL_VERDICT_HOLDS;
		if (!isnan(c->consistent) && fabs(m - c->consistent) <= c->tol)
			return SL_VERDICT_CORRECTED;
		return SL_VERDICT_FAILS;
	}
	/* SL_RULE_AT_MOST */
	if (!isnan(c->published) && m <= c->published + c->tol)
		return SL_VERDICT_HOLDS;
	if (!isnan(c->consistent) && m <= c->consistent + c->tol)
		return SL_VERDICT_CORRECTED;
	return SL_VERDICT_FAILS;
}

/* ---- the claims table (static parts) ---- */

struct claim_def {
	const char *id, *claim, *source, *quote;
	int rule;
	const char *unit;
	double published, consistent, tol;
	const char *why;  /* what the published figure got wrong (shown when the
			   * verdict is not "holds"), or NULL */
};

#define NA NAN
static const struct claim_def defs[] = {
	{ "1a", "strict fairness by nice: 2 nice-0 hogs share 50/50",
	  "001 Features", "\"fairness at all costs determined by nice level\"", SL_RULE_NEAR, "%", 50, 50, 0.5, NULL },
	{ "1b", "nice 0 vs nice 10 hog: CPU by levels (share of nice 0)",
	  "001 Modelling", "\"Nice 0 ... 19 different priority levels ... Nice 10 ... 9\"", SL_RULE_NEAR, "%",
	  100.0 * 19 / 28, 100.0 * 20 / 30, 0.5, "the announcement counts 19 levels for nice 0 and 9 for nice 10; its rule (static level and every level below) gives 20 and 10" },
	{ "2", "starvation free: no task waits longer than its bound",
	  "001 Features", "\"A starvation free ... design\"", SL_RULE_AT_MOST, "ms over bound", 0, NA, 1, NULL },
	{ "3a", "worst wait, 2 nice-0 hogs",
	  "001 Modelling", "\"1 * 19 * RR_INTERVAL + 0 = 114ms\"", SL_RULE_NEAR, "ms", 114, 120, 1, "off by one level: the printed figure counts 19 levels for nice 0, the rule gives 20 (20 x 6 = 120 ms)" },
	{ "3b", "worst wait of nice 0 beside nice 10",
	  "001 Modelling", "\"1 * 10 * RR_INTERVAL + 0 = 60ms\"", SL_RULE_NEAR, "ms", 60, 60, 1, NULL },
	{ "3c", "worst wait of nice 10 beside nice 0",
	  "001 Modelling", "\"1 * 19 * RR_INTERVAL + 9 * RR_INTERVAL = 168ms\"", SL_RULE_NEAR, "ms", 168, 180, 1, "off by one level twice: 19 + 9 levels printed, the rule gives 20 + 10 (30 x 6 = 180 ms)" },
	{ "4", "worst wait of nice 10 among nice -20/0/10/19 hogs",
	  "001 Modelling", "\"maximum duration a nice 10 task can wait ... is 1826*RR_INTERVAL\"", SL_RULE_NEAR,
	  "RR", 1826, 1501, 1, "1826 = 1229 + 597, but 39 x 21 = 819, so its own formula gives 839 + 597 = 1436 RR; with 40/20/1 levels and 30/10 descents 861 + 640 = 1501 RR" },
	{ "5", "a sleeper's wakeup latency is at most about one RR_INTERVAL (p99)",
	  "001 Interactivity", "\"the most latency they are likely to see is one RR_INTERVAL\"", SL_RULE_AT_MOST,
	  "ms", 6, NA, 0, NULL },
	{ "6", "hog vs 8ms/1ms sleeper get the same CPU (sleeper share)",
	  "001 Interactivity", "\"two tasks behaving completely differently ... same quota of cpu\"", SL_RULE_NEAR,
	  "%", 50, 50, 2, NULL },
	{ "7", "massive_intr, 40 tasks 8ms/1ms: no task hogs (top-4 share)",
	  "thread: massive_intr", "\"2.6.21-rc3-mm1 (enabling RSDL scheduler) works fine\" (Takeuchi, schedulers.md 9)", SL_RULE_NEAR, "%", 10, 10, 1, NULL },
	{ "8", "X-like 6ms/4ms task (wants 60%) beside 3 hogs gets its fair 25%",
	  "001 Interactivity; thread", "\"interactive tasks get the same amount of cpu as cpu bound ones\"; X under make -j (schedulers.md 6.15)",
	  SL_RULE_NEAR, "%", 25, 25, 2, NULL },
	{ "9a", "kernbench elapsed (lower is better)", "002", "Kernbench ... Elapsed: 103.058s ... 2.6.20-rsdl: Elapsed: 102.848s", SL_RULE_NONE, "s",
	  103.058, 102.848, 0, NULL },
	{ "9b", "tbench throughput, 1 proc (higher is better)", "002", "Throughput 165.5 MB/sec 1 procs ... 2.6.20-rsdl: Throughput 261.418 MB/sec", SL_RULE_NONE,
	  "MB/s", 165.5, 261.418, 0, NULL },
	{ "9c", "reaim max jobs per minute (higher is better)", "002", "Max Jobs per Minute 500727.27 ... 2.6.20-rsdl: Max Jobs per Minute 612000.00", SL_RULE_NONE,
	  "jobs/min", 500727.27, 612000.00, 0, NULL },
	{ "10", "desktop pauses of 10+ s gone (\"very small fractions of a second\")",
	  "003 Gene Heskett", "\"starved and frozen for 10+ seconds at a time ... With this patch, those pauses are very small fractions of a second\"", SL_RULE_NONE, "s", 10, NA, 0,
	  "a desktop anecdote with no recorded workload; its modelled analogue is claim 2's o1 column (massive_intr tasks starved for seconds) against rsdl's bounded waits" },
	{ "11", "behaviour can be reasoned about (\"think about behaviour a lot better\")",
	  "004 Linus Torvalds", "\"it looks like you can think about behaviour a lot better\"", SL_RULE_NONE, "", NA, NA, 0,
	  "an opinion, not a figure; the announcement's own predictions are checked in claims 3 and 4" },
};
#undef NA

enum { C1A, C1B, C2, C3A, C3B, C3C, C4, C5, C6, C7, C8, C9A, C9B, C9C, C10, C11, NCLAIMS };

struct ctx {
	const struct sl_claims_opts *o;
	int on[SL_CLAIM_NMODELS];
	struct sl_starve sv[SL_CLAIM_NMODELS];
	struct sl_claim *c;
	struct sl_diag *d;
};

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}
static double ms(uint64_t ns)
{
	return (double)ns / (double)MS;
}

/* Run text through model m and count it for claim 2. */
static int run(struct ctx *x, int m, const char *text, uint64_t dur, const char *label,
	       struct sl_scen_result *r)
{
	if (sl_scenario_run(text, sl_claim_model_name(m), dur, x->o->debug, r, x->d))
		return -1;
	sl_starve_add(&x->sv[m], r, label);
	return 0;
}

/* 1a, 1b, 6, 8: share of task 0 (and of task 1) of a run, shown as
 * la <share 0> lb <share 1> %. */
static int share_claim(struct ctx *x, int id, const char *text, uint64_t dur, const char *label,
		       const char *la, const char *lb)
{
	int m;
	for (m = 0; m < SL_CLAIM_NMODELS; m++) {
		struct sl_scen_result r;
		double a, b;
		if (!x->on[m])
			continue;
		if (run(x, m, text, dur, label, &r))
			return -1;
		a = pct(r.t[0].runtime_ns, r.end_ns);
		b = pct(r.t[1].runtime_ns, r.end_ns);
		x->c[id].meas[m] = a;
		snprintf(x->c[id].measured[m], sizeof(x->c[id].measured[m]), "%s%.1f%s%.1f %%", la, a, lb, b);
		if (id == C1B) { /* show the slices behind the split (o1: 100:50 ms) */
			size_t l = strlen(x->c[id].measured[m]);
			snprintf(x->c[id].measured[m] + l, sizeof(x->c[id].measured[m]) - l,
				 " (longest slices %.0f : %.0f ms)", ms(r.t[0].max_slice_ns), ms(r.t[1].max_slice_ns));
		}
		sl_scen_result_release(&r);
	}
	return 0;
}

/* 3a-3c, 4: worst wait of task 0 over start times of the others. */
static int sweep_claim(struct ctx *x, int id, const char *first, const char *second,
		       uint64_t max_s, uint64_t tail, const char *label, double unit_ns)
{
	int m;
	for (m = 0; m < SL_CLAIM_NMODELS; m++) {
		uint64_t worst, at;
		if (!x->on[m])
			continue;
		if (sl_scenario_sweep(first, second, sl_claim_model_name(m), max_s, MS, tail, x->o->debug, &worst,
				      &at, &x->sv[m], label, x->d))
			return -1;
		x->c[id].meas[m] = (double)worst / unit_ns;
		if (unit_ns == (double)MS)
			snprintf(x->c[id].measured[m], sizeof(x->c[id].measured[m]),
				 "%.0f ms (others start at %.0f)", ms(worst), ms(at));
		else
			snprintf(x->c[id].measured[m], sizeof(x->c[id].measured[m]),
				 "%.0f RR = %.3f s (others start at %.0f)", (double)worst / unit_ns,
				 (double)worst / 1e9, ms(at));
	}
	return 0;
}

static int claim5(struct ctx *x)
{
	int m;
	for (m = 0; m < SL_CLAIM_NMODELS; m++) {
		struct sl_scen_result r;
		uint64_t p99, mx;
		if (!x->on[m])
			continue;
		if (run(x, m, "s 0 run=1ms sleep=9ms\nh 0 run=inf\n", 10000 * MS, "1ms/9ms sleeper + hog", &r))
			return -1;
		p99 = sl_scen_delay_pct(&r.t[0], 99);
		mx = sl_scen_delay_pct(&r.t[0], 100);
		x->c[C5].meas[m] = ms(p99);
		snprintf(x->c[C5].measured[m], sizeof(x->c[C5].measured[m]), "p99 %.1f ms, max %.1f ms (%zu wakeups)",
			 ms(p99), ms(mx), r.t[0].ndelays);
		sl_scen_result_release(&r);
	}
	return 0;
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x > y ? -1 : x < y;
}

static int claim7(struct ctx *x)
{
	char text[40 * 32];
	size_t off = 0, i;
	int m;
	for (i = 0; i < 40; i++)
		off += (size_t)snprintf(text + off, sizeof(text) - off, "t%zu 0 run=8ms sleep=1ms\n", i);
	for (m = 0; m < SL_CLAIM_NMODELS; m++) {
		struct sl_scen_result r;
		uint64_t rt[40], top = 0;
		if (!x->on[m])
			continue;
		/* 14.4 s = 3 RSDL epochs of 40 x 20 x 6 ms */
		if (run(x, m, text, 14400 * MS, "massive_intr x40", &r))
			return -1;
		for (i = 0; i < 40; i++)
			rt[i] = r.t[i].runtime_ns;
		qsort(rt, 40, sizeof(rt[0]), cmp_desc);
		for (i = 0; i < 4; i++)
			top += rt[i];
		x->c[C7].meas[m] = pct(top, r.end_ns);
		snprintf(x->c[C7].measured[m], sizeof(x->c[C7].measured[m]), "top 4 %.1f %%, least %.2f %%",
			 pct(top, r.end_ns), pct(rt[39], r.end_ns));
		sl_scen_result_release(&r);
	}
	return 0;
}

static void claim2(struct ctx *x)
{
	int m;
	for (m = 0; m < SL_CLAIM_NMODELS; m++) {
		const struct sl_starve *s = &x->sv[m];
		if (!x->on[m] || !s->tasks)
			continue;
		x->c[C2].meas[m] = (double)s->excess_ns / (double)MS;
		snprintf(x->c[C2].measured[m], sizeof(x->c[C2].measured[m]),
			 "max wait/bound %.0f %%, %+.0f ms (%s)", 100.0 * s->ratio,
			 (double)s->excess_ns / (double)MS, s->where);
	}
}

static void predicted_text(struct sl_claim *c, int id)
{
	size_t n = sizeof(c->predicted);
	switch (id) {
	case C1A: snprintf(c->predicted, n, "50.0 / 50.0 %%"); break;
	case C1B:
		snprintf(c->predicted, n, "printed 19:9 levels = %.1f %%; rule 20:10 = %.1f %%", c->published,
			 c->consistent);
		break;
	case C2: snprintf(c->predicted, n, "wait <= bound + 1 tick, every task, every scenario"); break;
	case C3A: snprintf(c->predicted, n, "printed 114 ms (19 levels); consistent 120 ms (20 levels)"); break;
	case C3B: snprintf(c->predicted, n, "printed 60 ms; consistent 60 ms (10 levels)"); break;
	case C3C: snprintf(c->predicted, n, "printed 168 ms (19 + 9 levels); consistent 180 ms (20 + 10)"); break;
	case C4:
		snprintf(c->predicted, n, "printed 1826 RR; its own formula 1436 RR (39*21 = 819); consistent 1501 RR");
		break;
	case C5: snprintf(c->predicted, n, "<= 1 RR_INTERVAL = 6 ms"); break;
	case C6: snprintf(c->predicted, n, "50 / 50 %%"); break;
	case C7: snprintf(c->predicted, n, "40 equal shares: top 4 = 10 %%"); break;
	case C8: snprintf(c->predicted, n, "fair share 25 %% (it wants 60 %%)"); break;
	case C9A: case C9B: case C9C:
		snprintf(c->predicted, n, "2.6.20 %.3f -> rsdl %.3f %s (%+.1f %%)", c->published, c->consistent,
			 c->unit, 100.0 * (c->consistent - c->published) / c->published);
		break;
	case C10: snprintf(c->predicted, n, "10+ s pauses -> \"very small fractions of a second\""); break;
	default: snprintf(c->predicted, n, "(an opinion; claims 3-4 are its checkable part)"); break;
	}
}

static void note_text(struct sl_claim *c)
{
	size_t n = sizeof(c->note);
	double m = c->meas[SL_CLAIM_RSDL];
	switch (c->verdict) {
	case SL_VERDICT_HOLDS:
		if (c->rule == SL_RULE_AT_MOST)
			snprintf(c->note, n, "rsdl measures %.4g %s, within the announced limit %.4g (+%.4g)", m, c->unit,
				 c->published, c->tol);
		else
			snprintf(c->note, n, "rsdl measures %.4g %s, as announced: %.4g +- %.4g", m, c->unit,
				 c->published, c->tol);
		break;
	case SL_VERDICT_CORRECTED:
		snprintf(c->note, n, "rsdl measures %.4g %s = the consistent count %.4g, not the announcement's %.4g: %s",
			 m, c->unit, c->consistent, c->published, c->why ? c->why : "its figure is off");
		break;
	case SL_VERDICT_FAILS:
		snprintf(c->note, n, "rsdl measures %.4g %s; announced %.4g, consistent %.4g (tolerance %.4g)%s%s", m,
			 c->unit, c->published, c->consistent, c->tol, c->why ? ": " : "", c->why ? c->why : "");
		break;
	default:
		snprintf(c->note, n, "%s",
			 c->rule != SL_RULE_NONE ? "no measurement"
			 : c->why ? c->why
				  : "real programs on real hardware; a behaviour model has no throughput to re-run");
		break;
	}
}

int sl_claims_run(const struct sl_claims_opts *o, struct sl_claim **out, size_t *n, struct sl_diag *d)
{
	struct ctx x;
	size_t i;
	int m, rc = 0;

	*out = NULL;
	*n = 0;
	memset(&x, 0, sizeof(x));
	x.o = o;
	x.d = d;
	for (m = 0; m < SL_CLAIM_NMODELS; m++) {
		x.on[m] = sl_claim_model_available(m) && !(m == SL_CLAIM_SD && o->no_sd);
		sl_starve_init(&x.sv[m]);
	}
	if (SL_CLAIM_RSDL < 0)
		return sl_fail(d, "claims: the rsdl model is not linked in");
	x.c = xcalloc(NCLAIMS, sizeof(*x.c));
	for (i = 0; i < NCLAIMS; i++) {
		struct sl_claim *c = &x.c[i];
		c->id = defs[i].id;
		c->claim = defs[i].claim;
		c->source = defs[i].source;
		c->quote = defs[i].quote;
		c->rule = defs[i].rule;
		c->unit = defs[i].unit;
		c->published = defs[i].published;
		c->consistent = defs[i].consistent;
		c->tol = defs[i].tol;
		c->why = defs[i].why;
		for (m = 0; m < SL_CLAIM_NMODELS; m++)
			c->meas[m] = NAN;
		predicted_text(c, (int)i);
	}

	/* 1a: 4.8 s = 20 RSDL epochs of 2 x 20 x 6 ms; 1b: 9 s = 50 epochs of
	 * 20 + 10 quotas. 6: 28.8 s = 120 epochs of 2 x 120 ms; 8: 28.8 s =
	 * 60 epochs of 4 x 120 ms (long enough for o1's bonus to settle). */
	rc = share_claim(&x, C1A, "a 0 run=inf\nb 0 run=inf\n", 4800 * MS, "2 nice-0 hogs", "", " / ");
	if (!rc)
		rc = share_claim(&x, C1B, "a 0 run=inf\nc 10 run=inf\n", 9000 * MS, "nice 0 + nice 10 hogs",
				 "", " : ");
	if (!rc)
		rc = sweep_claim(&x, C3A, "a 0 run=inf", "b 0 run=inf", 240 * MS, 800 * MS, "sweep 0 vs 0",
				 (double)MS);
	if (!rc)
		rc = sweep_claim(&x, C3B, "a 0 run=inf", "c 10 run=inf", 240 * MS, 800 * MS, "sweep 0 vs 10",
				 (double)MS);
	if (!rc)
		rc = sweep_claim(&x, C3C, "c 10 run=inf", "a 0 run=inf", 240 * MS, 800 * MS, "sweep 10 vs 0",
				 (double)MS);
	/* the nice 10 task alone expires after 10 x 6 = 60 ms: sweep the
	 * others' arrival over 0..66 ms; 12 s covers two 871-RR epochs */
	if (!rc)
		rc = sweep_claim(&x, C4, "c 10 run=inf", "a -20 run=inf\nb 0 run=inf\nd 19 run=inf", 66 * MS,
				 12000 * MS, "sweep 4 hogs", (double)RR_NS);
	if (!rc)
		rc = claim5(&x);
	if (!rc)
		rc = share_claim(&x, C6, "s 0 run=8ms sleep=1ms\nh 0 run=inf\n", 28800 * MS, "8ms/1ms sleeper + hog",
				 "sleeper ", " %, hog ");
	if (!rc)
		rc = claim7(&x);
	if (!rc)
		rc = share_claim(&x, C8, "x 0 run=6ms sleep=4ms\nh1 0 run=inf\nh2 0 run=inf\nh3 0 run=inf\n",
				 28800 * MS, "X 6ms/4ms + 3 hogs", "X ", " %, a hog ");
	if (rc) {
		free(x.c);
		return -1;
	}
	claim2(&x);
	for (i = 0; i < NCLAIMS; i++) {
		x.c[i].verdict = sl_claim_verdict(&x.c[i]);
		note_text(&x.c[i]);
	}
	*out = x.c;
	*n = NCLAIMS;
	return 0;
}
