/* analyze/claims.c - the claims of seeds 001-004 and the LWN article, their
 * scenarios and their verdicts (see claims.h and docs/claims.md). Every
 * figure shown is either quoted from the seeds (published), derived from
 * the announcement's rules (consistent), or measured here by running a
 * scenario or replaying a real trace (claims_trace.c); the verdict is
 * computed from those numbers by the claim's rule, for every model. */
#include "claims_int.h"
#include "../replay/engine.h"
#include "../replay/workload.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS SL_NS_PER_MS
#define RR_NS (6 * MS)

/* ---- the models: the policy table's, in its order ---- */

static int nmodels = -1;
static char model_names[SL_CLAIM_MAXMODELS][24];

static void models_init(void)
{
	const char *p;
	if (nmodels >= 0)
		return;
	nmodels = 0;
	for (p = sl_policy_names(); *p && nmodels < SL_CLAIM_MAXMODELS;) {
		size_t len = strcspn(p, ", ");
		if (len && len < sizeof(model_names[0])) {
			memcpy(model_names[nmodels], p, len);
			model_names[nmodels][len] = 0;
			nmodels++;
		}
		p += len;
		p += strspn(p, ", ");
	}
}

int sl_claim_nmodels(void)
{
	models_init();
	return nmodels;
}

const char *sl_claim_model_name(int m)
{
	models_init();
	if (m >= 0 && m == sl_claim_recorded())
		return "recorded";
	return m >= 0 && m < nmodels ? model_names[m] : "?";
}

int sl_claim_recorded(void)
{
	models_init();
	return nmodels < SL_CLAIM_MAXMODELS ? nmodels : -1;
}

int sl_claim_ncols(void)
{
	return sl_claim_recorded() >= 0 ? nmodels + 1 : nmodels;
}

int sl_claim_model_index(const char *name)
{
	int m;
	models_init();
	for (m = 0; m < nmodels; m++)
		if (!strcmp(model_names[m], name))
			return m;
	return -1;
}

int sl_claim_model_available(int m)
{
	models_init();
	return m >= 0 && m < nmodels && sl_policy_find(model_names[m]) != NULL;
}

/* ---- verdicts ---- */

const char *sl_verdict_name(int v)
{
	switch (v) {
	case SL_VERDICT_HOLDS: return "holds";
	case SL_VERDICT_PARTLY: return "partly";
	case SL_VERDICT_FAILS: return "fails";
	default: return "untestable";
	}
}

int sl_claim_rule_verdict(const struct sl_claim *c, double m)
{
	if (c->rule == SL_RULE_NONE || isnan(m))
		return SL_VERDICT_UNTESTABLE;
	switch (c->rule) {
	case SL_RULE_NEAR:
		if (!isnan(c->published) && fabs(m - c->published) <= c->tol)
			return SL_VERDICT_HOLDS;
		if (!isnan(c->consistent) && fabs(m - c->consistent) <= c->tol)
			return SL_VERDICT_PARTLY;
		return SL_VERDICT_FAILS;
	case SL_RULE_AT_MOST:
		if (!isnan(c->published) && m <= c->published + c->tol)
			return SL_VERDICT_HOLDS;
		if (!isnan(c->consistent) && m <= c->consistent + c->tol)
			return SL_VERDICT_PARTLY;
		return SL_VERDICT_FAILS;
	default: /* SL_RULE_AT_LEAST */
		if (!isnan(c->published) && m >= c->published - c->tol)
			return SL_VERDICT_HOLDS;
		if (!isnan(c->consistent) && m >= c->consistent - c->tol)
			return SL_VERDICT_PARTLY;
		return SL_VERDICT_FAILS;
	}
}

int sl_claim_verdict(const struct sl_claim *c)
{
	if (c->subject < 0 || c->subject >= SL_CLAIM_MAXMODELS)
		return SL_VERDICT_UNTESTABLE;
	return sl_claim_rule_verdict(c, c->meas[c->subject]);
}

/* The rule in words with the numbers: "120 ms is 6 from the published 114
 * (tolerance 1) and within 1 of the corrected 120". */
static void rule_words(const struct sl_claim *c, double m, int v, char *buf, size_t n)
{
	const char *u = c->unit;
	switch (c->rule) {
	case SL_RULE_NEAR:
		if (v == SL_VERDICT_HOLDS)
			snprintf(buf, n, "%.4g %s is within %.4g of the published %.4g", m, u, c->tol, c->published);
		else if (v == SL_VERDICT_PARTLY)
			snprintf(buf, n, "%.4g %s is %.4g from the published %.4g (tolerance %.4g) but within it of the corrected %.4g",
				 m, u, fabs(m - c->published), c->published, c->tol, c->consistent);
		else
			snprintf(buf, n, "%.4g %s is more than %.4g from the published %.4g%s%.4g", m, u, c->tol,
				 c->published, isnan(c->consistent) ? "" : " and from the corrected ",
				 isnan(c->consistent) ? 0.0 : c->consistent);
		break;
	case SL_RULE_AT_MOST:
		if (v == SL_VERDICT_HOLDS)
			snprintf(buf, n, "%.4g %s <= %.4g%s", m, u, c->published + c->tol, "");
		else if (v == SL_VERDICT_PARTLY)
			snprintf(buf, n, "%.4g %s > %.4g but <= %.4g", m, u, c->published + c->tol,
				 c->consistent + c->tol);
		else
			snprintf(buf, n, "%.4g %s > %.4g", m, u,
				 (isnan(c->consistent) ? c->published : c->consistent) + c->tol);
		break;
	case SL_RULE_AT_LEAST:
		if (v == SL_VERDICT_HOLDS)
			snprintf(buf, n, "%.4g %s >= %.4g", m, u, c->published - c->tol);
		else if (v == SL_VERDICT_PARTLY)
			snprintf(buf, n, "%.4g %s < %.4g but >= %.4g", m, u, c->published - c->tol,
				 c->consistent - c->tol);
		else
			snprintf(buf, n, "%.4g %s < %.4g", m, u,
				 (isnan(c->consistent) ? c->published : c->consistent) - c->tol);
		break;
	default:
		buf[0] = 0;
	}
}

void sl_claim_reason(const struct sl_claim *c, int m, char *buf, size_t n)
{
	char w[240];
	int v;
	if (m < 0 || m >= SL_CLAIM_MAXMODELS || m == c->baseline || c->rule == SL_RULE_NONE || isnan(c->meas[m])) {
		snprintf(buf, n, "%s", m == c->baseline && m >= 0 ? "the baseline the others are measured against"
				       : m == c->subject || c->rule == SL_RULE_NONE ? c->note : "not measured");
		return;
	}
	if (m == c->subject) {
		snprintf(buf, n, "%s", c->note);
		return;
	}
	v = sl_claim_rule_verdict(c, c->meas[m]);
	rule_words(c, c->meas[m], v, w, sizeof(w));
	snprintf(buf, n, "%s %s -> %s (the claim is about %s)", sl_claim_model_name(m), w, sl_verdict_name(v),
		 c->subject >= 0 ? sl_claim_model_name(c->subject) : "-");
}

void sl_claim_decide(struct sl_claim *c)
{
	int m, show;
	char w[240];
	for (m = 0; m < SL_CLAIM_MAXMODELS; m++)
		c->verdicts[m] = m == c->baseline ? SL_VERDICT_UNTESTABLE : sl_claim_rule_verdict(c, c->meas[m]);
	c->verdict = sl_claim_verdict(c);
	if (c->note[0]) /* set by sl_claims_untestable */
		return;
	if (c->rule == SL_RULE_NONE || c->subject < 0 || isnan(c->meas[c->subject])) {
		snprintf(c->note, sizeof(c->note), "%s",
			 c->rule != SL_RULE_NONE ? "no measurement"
			 : c->why ? c->why
				  : "real programs on real hardware; a behaviour model has no throughput to re-run");
		return;
	}
	rule_words(c, c->meas[c->subject], c->verdict, w, sizeof(w));
	/* the why: what the figure got wrong (when it does not hold), and
	 * always what a proxy cannot say */
	show = c->why && (c->verdict != SL_VERDICT_HOLDS || !strncmp(c->why, "a proxy", 7));
	snprintf(c->note, sizeof(c->note), "%s %s -> %s%s%s%s%s", sl_claim_model_name(c->subject), w,
		 sl_verdict_name(c->verdict), show ? ": " : "", show ? c->why : "", c->extra[0] ? "; " : "", c->extra);
}

/* ---- the claims table (static parts) ---- */

struct claim_def {
	const char *id, *claim, *source, *quote;
	int rule;
	const char *unit;
	double published, consistent, tol;
	const char *subject;  /* model the claim is about */
	const char *baseline; /* model the figure is a ratio against, or NULL */
	const char *why;      /* what the published figure got wrong, why a
			       * proxy says little, or NULL */
	const char *predicted;
};

#define NA NAN
static const struct claim_def defs[] = {
	{ "1a", "strict fairness: 2 nice-0 hogs share 50/50", "001 Features",
	  "\"fairness at all costs determined by nice level\"", SL_RULE_NEAR, "%", 50, 50, 0.5, "rsdl", NULL, NULL,
	  "50 %" },
	{ "1b", "nice 0 vs nice 10 hog: CPU by levels (share of nice 0)", "001 Modelling",
	  "\"Nice 0 ... 19 different priority levels ... Nice 10 ... 9\"", SL_RULE_NEAR, "%", 100.0 * 19 / 28,
	  100.0 * 20 / 30, 0.5, "rsdl", NULL,
	  "the announcement counts 19 levels for nice 0 and 9 for nice 10; its rule (static level and every level below) gives 20 and 10",
	  "printed 19:9 = 67.9 %; rule 20:10 = 66.7 %" },
	{ "2", "starvation free: no task waits longer than its bound (scenarios)", "001 Features",
	  "\"A starvation free ... design\"", SL_RULE_AT_MOST, "ms over bound", 0, NA, 1, "rsdl", NULL, NULL,
	  "wait <= bound + 1 tick" },
	{ "2r", "starvation free on the real-trace replays", "001 Features",
	  "\"A starvation free ... design\"", SL_RULE_AT_MOST, "ms over bound", 0, NA, 1, "rsdl", NULL,
	  "each task's bound counts its competitors, the tasks that ran on its CPU during its longest wait, as CPU-bound (every task of a trace would give tens of seconds); the longest wait is shown beside it",
	  "wait <= bound + 1 tick" },
	{ "2s", "starvation free on SMP (2 CPUs, balancing on)", "001 Features; Design details",
	  "\"A starvation free ... design\"; \"Each cpu has its own runqueue\"", SL_RULE_AT_MOST, "ms over bound", 0,
	  NA, 1, "rsdl", NULL, NULL, "wait <= bound (all tasks on one runqueue) + 1 tick" },
	{ "3a", "worst wait, 2 nice-0 hogs", "001 Modelling", "\"1 * 19 * RR_INTERVAL + 0 = 114ms\"", SL_RULE_NEAR,
	  "ms", 114, 120, 1, "rsdl", NULL,
	  "off by one level: the printed figure counts 19 levels for nice 0, the rule gives 20 (20 x 6 = 120 ms)",
	  "printed 114; rule 120 ms" },
	{ "3b", "worst wait of nice 0 beside nice 10", "001 Modelling", "\"1 * 10 * RR_INTERVAL + 0 = 60ms\"",
	  SL_RULE_NEAR, "ms", 60, 60, 1, "rsdl", NULL, NULL, "60 ms" },
	{ "3c", "worst wait of nice 10 beside nice 0", "001 Modelling",
	  "\"1 * 19 * RR_INTERVAL + 9 * RR_INTERVAL = 168ms\"", SL_RULE_NEAR, "ms", 168, 180, 1, "rsdl", NULL,
	  "off by one level twice: 19 + 9 levels printed, the rule gives 20 + 10 (30 x 6 = 180 ms)",
	  "printed 168; rule 180 ms" },
	{ "4", "worst wait of nice 10 among nice -20/0/10/19 hogs", "001 Modelling",
	  "\"maximum duration a nice 10 task can wait ... is 1826*RR_INTERVAL\"", SL_RULE_NEAR, "RR", 1826, 1501, 1,
	  "rsdl", NULL,
	  "1826 = 1229 + 597, but 39 x 21 = 819, so its own formula gives 839 + 597 = 1436 RR; with 40/20/1 levels and 30/10 descents 861 + 640 = 1501 RR",
	  "printed 1826 RR; own formula 1436; rule 1501" },
	{ "5", "a sleeper's wakeup latency is at most about one RR_INTERVAL (p99)", "001 Interactivity",
	  "\"the most latency they are likely to see is one RR_INTERVAL\"", SL_RULE_AT_MOST, "ms", 6, NA, 0, "rsdl",
	  NULL, NULL, "<= 6 ms" },
	{ "6", "hog vs 8ms/1ms sleeper get the same CPU (sleeper share)", "001 Interactivity",
	  "\"two tasks behaving completely differently ... same quota of cpu\"", SL_RULE_NEAR, "%", 50, 50, 2, "rsdl",
	  NULL, NULL, "50 %" },
	{ "7", "massive_intr, 40 tasks 8ms/1ms: no task hogs (top-4 share)", "thread: massive_intr",
	  "\"2.6.21-rc3-mm1 (enabling RSDL scheduler) works fine\" (Takeuchi)", SL_RULE_NEAR, "%", 10, 10, 1, "rsdl",
	  NULL, NULL, "40 equal shares: top 4 = 10 %" },
	{ "7r", "massive_intr, 200 procs, real trace: no task hogs (top-4 share)", "thread: massive_intr",
	  "\"2.6.21-rc3-mm1 (enabling RSDL scheduler) works fine\" (Takeuchi)", SL_RULE_AT_MOST, "%", 3, 10, 0,
	  "rsdl", NULL, "the busiest 4 of 200 equal workers take more than their 2 % (+1)",
	  "200 equal shares: top 4 = 2 %" },
	{ "7c", "complaint: on 2.6.20 a few massive_intr procs take nearly all CPU", "thread: massive_intr",
	  "\"4 processes occupy 98% of CPU time\" (Takeuchi, 2.6.20)", SL_RULE_AT_LEAST, "%", 90, 50, 0, "o1", NULL,
	  "the complaint is not reproduced in full: o1's top 4 take less than 90 %", "top 4 >= 90 % (98 % reported)" },
	{ "8", "X-like 6ms/4ms task (wants 60%) beside 3 hogs gets its fair 25%", "001 Interactivity; thread",
	  "\"interactive tasks get the same amount of cpu as cpu bound ones\"; X under make -j", SL_RULE_NEAR, "%",
	  25, 25, 2, "rsdl", NULL, NULL, "25 % (it wants 60 %)" },
	{ "9a", "kernbench proxy: compile makespan vs 2.6.20 (causal replay)", "002",
	  "Kernbench Elapsed: 103.058s (2.6.20) -> 102.848s (rsdl)", SL_RULE_AT_MOST, "x o1", 102.848 / 103.058, 1.02,
	  0.01, "rsdl", "o1",
	  "a proxy that says little: CPU-bound compile jobs finish when their work is done under any work-conserving scheduler; caches, memory and I/O are not in a behaviour model",
	  "rsdl/2.6.20 = 0.998" },
	{ "9b", "tbench proxy: messages/s vs 2.6.20 (causal replay of pipe messaging)", "002",
	  "Throughput 165.5 MB/sec (2.6.20) -> 261.418 MB/sec (rsdl)", SL_RULE_AT_LEAST, "x o1", 261.418 / 165.5, 1.05,
	  0.02, "rsdl", "o1",
	  "a proxy that says little: tbench's gain came from the network stack and context-switch costs on real caches; a replay delivers the same messages and only their timing changes",
	  "rsdl/2.6.20 = 1.580" },
	{ "9c", "reaim proxy: jobs/min vs 2.6.20 (causal replay of Ed's desktop)", "002",
	  "Max Jobs per Minute 500727.27 (2.6.20) -> 612000.00 (rsdl)", SL_RULE_AT_LEAST, "x o1",
	  612000.00 / 500727.27, 1.05, 0.02, "rsdl", "o1",
	  "a proxy that says little: reaim's jobs are fork/exec/IO mixes whose cost is not scheduling; a replay completes the same jobs",
	  "rsdl/2.6.20 = 1.222" },
	{ "10", "Gene's desktop: pauses are \"very small fractions of a second\"", "003 Gene Heskett",
	  "\"With this patch, those pauses are very small fractions of a second\"", SL_RULE_AT_MOST, "ms", 100, 1000, 0,
	  "rsdl", NULL, "the interactive tasks wait longer than a tenth of a second", "<= 100 ms" },
	{ "10c", "complaint: on 2.6.20 typing freezes for 10+ s (Gene's desktop)", "003 Gene Heskett",
	  "\"my application is starved and frozen for 10+ seconds at a time\"", SL_RULE_AT_LEAST, "ms", 10000, 1000, 0,
	  "o1", NULL, "the 10-second freezes are not reproduced by the o1 model on this desktop",
	  ">= 10 s under 2.6.20" },
	{ "11", "behaviour can be reasoned about (\"think about behaviour a lot better\")", "004 Linus Torvalds",
	  "\"it looks like you can think about behaviour a lot better\"", SL_RULE_NONE, "", NA, NA, 0, "rsdl", NULL,
	  "an opinion, not a figure; the announcement's own predictions are checked in claims 3 and 4",
	  "(an opinion)" },
	{ "12", "O(1): cost per decision flat from 10 to 1000 tasks", "001 Features; LWN",
	  "\"A starvation free, strict fairness O(1) scalable design\"; \"This is all done in O(1)\"", SL_RULE_AT_MOST,
	  "exponent", 0, 0.5, 0.1, "rsdl", NULL,
	  "the cost per decision grows with the number of tasks (k > 0.1 in cost ~ N^k; O(n) gives 1); measured in CPU time, so it varies a little from run to run",
	  "cost ~ N^0 (flat)" },
	{ "13", "lowest latencies for the least CPU-bound tasks", "001 Interactivity",
	  "\"the lowest latencies for the least cpu bound tasks\"", SL_RULE_AT_MOST, "inversions", 0, 1, 0, "rsdl",
	  NULL, "mean wakeup delay does not rise with the CPU share of the task", "delay rises with CPU share" },
	{ "14", "sleepers \"often\" preempt the running hog", "001 Interactivity",
	  "\"often they will preempt the current task if it is not of a sleeping nature\"", SL_RULE_AT_LEAST, "%", 50,
	  20, 0, "rsdl", NULL, "fewer than half of the sleeper's wakeups run at once", ">= 50 % of wakeups run at once" },
	{ "15", "nice -20 vs nice 0 hog: CPU by quota x levels (share of -20)", "001 Modelling",
	  "\"quota = RR_INTERVAL + 20*RR_INTERVAL = 21*RR_INTERVAL. It can run at 39 priority levels\"",
	  SL_RULE_NEAR, "%", 100.0 * 819 / 838, 100.0 * 840 / 860, 0.5, "rsdl", NULL,
	  "the printed 39 levels x 21 RR against 19 for nice 0 gives 97.7 %; 40 x 21 against 20 gives 97.7 % as well",
	  "printed 819:19 = 97.73 %; rule 840:20 = 97.67 %" },
	{ "16", "worst waits \"only seen by fully cpu bound tasks\" (sleeper/hog)", "001 Modelling",
	  "\"this size latencies will only be seen by fully cpu bound tasks\"", SL_RULE_AT_MOST, "%", 10, 100, 0,
	  "rsdl", NULL, "a sleeper beside the four hogs waits more than a tenth of the hogs' worst wait",
	  "sleeper's longest wait <= 10 % of the hogs'" },
	{ "17", "a task sleeping through a major rotation keeps its high-priority quota", "LWN; 001 Interactivity",
	  "\"If a process sleeps through a major rotation ... it will be able to run at high priority\"",
	  SL_RULE_AT_MOST, "ms", 6, NA, 0, "rsdl", NULL,
	  "after sleeping through a major rotation it waits longer than one RR_INTERVAL behind the hogs",
	  "wakeup delay <= 1 RR = 6 ms" },
	{ "18", "per-CPU epochs on SMP: rotations follow each runqueue's load", "001 Design details",
	  "\"Each cpu has its own runqueue which micromanages its own epochs\"", SL_RULE_NEAR, "ratio", 2, NA, 0.1,
	  "rsdl", NULL, "the two runqueues do not rotate at their own pace",
	  "CPU 0 (2 hogs, 240 ms epochs) : CPU 1 (4 hogs, 480 ms) = 2" },
	{ "19", "glxgears \"loses maybe 4 or 5 frames\" per mail burst", "003 Gene Heskett",
	  "\"glxgears runs about 1190 fps here, and loses maybe 4 or 5 frames when the system beeps\"",
	  SL_RULE_AT_MOST, "frames", 5, 10, 0, "rsdl", NULL,
	  "glxgears loses more frames per burst than Gene saw; our mail burst is CPU-bound (spamc) on one CPU",
	  "<= 5 frames per burst" },
	{ "20", "Ed's desktop \"much smoother\": reader delay p99 vs 2.6.20", "004 (Ed Tomlinson)",
	  "\"reading mail with freenet working hard ... and gentoo's emerge triggering compiles ... is much smoother\"",
	  SL_RULE_AT_MOST, "x o1", 0.5, 1, 0, "rsdl", "o1", "the reader's p99 delay is not halved against 2.6.20",
	  "p99 <= half of 2.6.20's" },
};
#undef NA

struct sl_claim *sl_claims_get(struct sl_claims_cx *x, const char *id)
{
	size_t i;
	int m;
	for (i = 0; i < x->n; i++)
		if (!strcmp(x->c[i].id, id))
			return &x->c[i];
	for (i = 0; i < SL_ARRAY_SIZE(defs); i++)
		if (!strcmp(defs[i].id, id))
			break;
	if (i == SL_ARRAY_SIZE(defs))
		abort(); /* programming error: an id not in defs[] */
	{
		const struct claim_def *f = &defs[i];
		struct sl_claim *c;
		/* x->c holds room for every claim from the start: pointers to
		 * claims stay valid while others are added */
		if (!x->c)
			x->c = xcalloc(SL_ARRAY_SIZE(defs), sizeof(*x->c));
		c = &x->c[x->n++];
		memset(c, 0, sizeof(*c));
		c->id = f->id;
		c->claim = f->claim;
		c->source = f->source;
		c->quote = f->quote;
		c->rule = f->rule;
		c->unit = f->unit;
		c->published = f->published;
		c->consistent = f->consistent;
		c->tol = f->tol;
		c->why = f->why;
		c->subject = sl_claim_model_index(f->subject);
		c->baseline = f->baseline ? sl_claim_model_index(f->baseline) : -1;
		snprintf(c->predicted, sizeof(c->predicted), "%s", f->predicted);
		snprintf(c->from, sizeof(c->from), "scenario");
		for (m = 0; m < SL_CLAIM_MAXMODELS; m++)
			c->meas[m] = NAN;
		if (f->baseline && c->baseline < 0)
			sl_claims_untestable(c, "the %s model it is compared with is not linked in", f->baseline);
		return c;
	}
}

void sl_claims_untestable(struct sl_claim *c, const char *fmt, ...)
{
	va_list ap;
	int m;
	va_start(ap, fmt);
	vsnprintf(c->note, sizeof(c->note), fmt, ap);
	va_end(ap);
	for (m = 0; m < SL_CLAIM_MAXMODELS; m++) {
		c->meas[m] = NAN;
		c->measured[m][0] = 0;
	}
}

void sl_chart_series(struct sl_claim_chart *ch, size_t s, const char *name)
{
	if (s >= SL_CHART_MAXSERIES)
		return;
	snprintf(ch->s[s].name, sizeof(ch->s[s].name), "%.31s", name);
	if (s + 1 > ch->nseries)
		ch->nseries = s + 1;
}

void sl_chart_point(struct sl_claim_chart *ch, size_t s, double x, double y)
{
	if (s >= SL_CHART_MAXSERIES || ch->s[s].n >= SL_CHART_MAXX)
		return;
	ch->s[s].x[ch->s[s].n] = x;
	ch->s[s].y[ch->s[s].n++] = y;
	if (s + 1 > ch->nseries)
		ch->nseries = s + 1;
}

void sl_chart_percentiles(struct sl_claim_chart *ch)
{
	static const char *const xt[] = { "p50", "p90", "p99", "max" };
	size_t i;
	ch->kind = SL_CHART_GROUPS;
	ch->nx = SL_ARRAY_SIZE(xt);
	for (i = 0; i < SL_ARRAY_SIZE(xt); i++)
		snprintf(ch->xt[i], sizeof(ch->xt[i]), "%s", xt[i]);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}
static double ms(uint64_t ns)
{
	return (double)ns / (double)MS;
}

/* Run text through model m on cpus CPUs and count it for claim 2 (or 2s). */
static int run_on(struct sl_claims_cx *x, int m, const char *text, int cpus, uint64_t dur,
		  const char *label, struct sl_starve *sv, struct sl_scen_result *r)
{
	struct sl_behaviour b;
	int rc;
	if (sl_workload_parse_text(text, strlen(text), "scenario", &b, x->d))
		return -1;
	rc = sl_scenario_replay(&b, sl_claim_model_name(m), cpus, SL_MODE_TIMED, dur, x->o->debug, r, x->d);
	sl_behaviour_release(&b);
	if (!rc && sv)
		sl_starve_add(sv, r, label);
	return rc;
}

static int run(struct sl_claims_cx *x, int m, const char *text, uint64_t dur, const char *label,
	       struct sl_scen_result *r)
{
	return run_on(x, m, text, 1, dur, label, &x->sv[m], r);
}

/* 1a, 1b, 6, 8, 15: share of task 0 (and of task 1) of a run, shown as
 * la <share 0> lb <share 1> %. */
static int share_claim(struct sl_claims_cx *x, const char *id, const char *text, uint64_t dur,
		       const char *label, const char *la, const char *lb)
{
	struct sl_claim *c = sl_claims_get(x, id);
	int m;
	for (m = 0; m < nmodels; m++) {
		struct sl_scen_result r;
		double a, b;
		if (!x->on[m])
			continue;
		if (run(x, m, text, dur, label, &r))
			return -1;
		a = pct(r.t[0].runtime_ns, r.end_ns);
		b = pct(r.t[1].runtime_ns, r.end_ns);
		c->meas[m] = a;
		snprintf(c->measured[m], sizeof(c->measured[m]), "%s%.1f%s%.1f %%", la, a, lb, b);
		if (!strcmp(id, "1b")) { /* show the slices behind the split (o1: 100:50 ms) */
			size_t l = strlen(c->measured[m]);
			snprintf(c->measured[m] + l, sizeof(c->measured[m]) - l, " (longest slices %.0f : %.0f ms)",
				 ms(r.t[0].max_slice_ns), ms(r.t[1].max_slice_ns));
		}
		sl_scen_result_release(&r);
	}
	return 0;
}

/* 3a-3c, 4: worst wait of task 0 over start times of the others; the chart
 * is the worst wait against the start time s of the others. When the worst
 * is task 0's wait for its first slice (cfs: START_DEBIT places the first
 * task of an empty runqueue a whole period scaled by its own weight
 * behind, 2.6.24 sched_vslice_add), the measured text says so and gives
 * the worst wait after its first slice, the steady state (issue 25). */
static int sweep_claim(struct sl_claims_cx *x, const char *id, const char *first, const char *second,
		       uint64_t max_s, uint64_t tail, const char *label, double unit_ns)
{
	struct sl_claim *c = sl_claims_get(x, id);
	int m;
	for (m = 0; m < nmodels; m++) {
		uint64_t worst, at, later;
		size_t l;
		if (!x->on[m])
			continue;
		if (sl_scenario_sweep(first, second, sl_claim_model_name(m), max_s, MS, tail, x->o->debug, &worst,
				      &at, &later, &x->sv[m], label, x->d))
			return -1;
		c->meas[m] = (double)worst / unit_ns;
		if (unit_ns == (double)MS)
			snprintf(c->measured[m], sizeof(c->measured[m]), "%.0f ms (others start at %.0f)", ms(worst),
				 ms(at));
		else
			snprintf(c->measured[m], sizeof(c->measured[m]), "%.0f RR = %.3f s (others start at %.0f)",
				 (double)worst / unit_ns, (double)worst / 1e9, ms(at));
		l = strlen(c->measured[m]);
		if (later < worst)
			snprintf(c->measured[m] + l, sizeof(c->measured[m]) - l,
				 later ? "; start-up wait, after its first slice at most %.0f ms" :
					 "; start-up wait: it never ran",
				 ms(later));
	}
	return 0;
}

/* 5 and 14: the 1 ms / 9 ms sleeper beside a hog. */
static int claim5(struct sl_claims_cx *x)
{
	struct sl_claim *c5 = sl_claims_get(x, "5"), *c14 = sl_claims_get(x, "14");
	int m;
	for (m = 0; m < nmodels; m++) {
		struct sl_scen_result r;
		uint64_t p99, mx;
		size_t i, zero = 0;
		if (!x->on[m])
			continue;
		if (run(x, m, "s 0 run=1ms sleep=9ms\nh 0 run=inf\n", 10000 * MS, "1ms/9ms sleeper + hog", &r))
			return -1;
		p99 = sl_scen_delay_pct(&r.t[0], 99);
		mx = sl_scen_delay_pct(&r.t[0], 100);
		c5->meas[m] = ms(p99);
		snprintf(c5->measured[m], sizeof(c5->measured[m]), "p99 %.1f ms, max %.1f ms (%zu wakeups)", ms(p99),
			 ms(mx), r.t[0].ndelays);
		for (i = 0; i < r.t[0].ndelays; i++)
			zero += r.t[0].delays[i] == 0;
		c14->meas[m] = pct(zero, r.t[0].ndelays);
		snprintf(c14->measured[m], sizeof(c14->measured[m]), "%.1f %% of %zu wakeups ran at once",
			 c14->meas[m], r.t[0].ndelays);
		sl_chart_series(&c5->chart, (size_t)m, sl_claim_model_name(m));
		sl_chart_point(&c5->chart, (size_t)m, 0, ms(sl_scen_delay_pct(&r.t[0], 50)));
		sl_chart_point(&c5->chart, (size_t)m, 1, ms(sl_scen_delay_pct(&r.t[0], 90)));
		sl_chart_point(&c5->chart, (size_t)m, 2, ms(p99));
		sl_chart_point(&c5->chart, (size_t)m, 3, ms(mx));
		sl_scen_result_release(&r);
	}
	sl_chart_percentiles(&c5->chart);
	c5->chart.ref = 1;
	snprintf(c5->chart.ylabel, sizeof(c5->chart.ylabel), "sleeper's wakeup delay (ms)");
	return 0;
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x > y ? -1 : x < y;
}

static int claim7(struct sl_claims_cx *x)
{
	struct sl_claim *c = sl_claims_get(x, "7");
	char text[40 * 32];
	size_t off = 0, i;
	int m;
	for (i = 0; i < 40; i++)
		off += (size_t)snprintf(text + off, sizeof(text) - off, "t%zu 0 run=8ms sleep=1ms\n", i);
	for (m = 0; m < nmodels; m++) {
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
		c->meas[m] = pct(top, r.end_ns);
		snprintf(c->measured[m], sizeof(c->measured[m]), "top 4 %.1f %%, least %.2f %%", pct(top, r.end_ns),
			 pct(rt[39], r.end_ns));
		sl_chart_series(&c->chart, (size_t)m, sl_claim_model_name(m));
		for (i = 0; i < 40; i += 3)
			sl_chart_point(&c->chart, (size_t)m, (double)(i + 1), pct(rt[i], r.end_ns));
		sl_scen_result_release(&r);
	}
	c->chart.kind = SL_CHART_LINES;
	snprintf(c->chart.xlabel, sizeof(c->chart.xlabel), "task rank (busiest first)");
	snprintf(c->chart.ylabel, sizeof(c->chart.ylabel), "CPU share (%%)");
	return 0;
}

/* 12: O(1). Timing the replay measured this program's models (eevdf's
 * picks by a scan of its tree's tasks, rsdl's and o1's by a bitmap), not
 * the kernel's algorithms, and was the one figure that changed from run
 * to run; the models keep no count of the algorithm's operations, so the
 * claim is untestable here (issue 25; docs/claims.md). */
static int claim12(struct sl_claims_cx *x)
{
	struct sl_claim *c = sl_claims_get(x, "12");
	sl_claims_untestable(c, "the models are simulators: their CPU time per decision is this "
			     "program's, not the kernel algorithm's, and they count no operations");
	return 0;
}

/* 13: four sleepers of rising CPU share beside 2 hogs. */
static int claim13(struct sl_claims_cx *x)
{
	static const double duty[] = { 1, 5, 20, 50 };
	struct sl_claim *c = sl_claims_get(x, "13");
	int m;
	for (m = 0; m < nmodels; m++) {
		struct sl_scen_result r;
		double mean[4];
		int k, inv = 0;
		if (!x->on[m])
			continue;
		if (run(x, m,
			"s1 0 run=100us sleep=9900us\ns5 0 run=500us sleep=9500us\ns20 0 run=2ms sleep=8ms\n"
			"s50 0 run=5ms sleep=5ms\nh1 0 run=inf\nh2 0 run=inf\n",
			10000 * MS, "4 sleepers + 2 hogs", &r))
			return -1;
		sl_chart_series(&c->chart, (size_t)m, sl_claim_model_name(m));
		for (k = 0; k < 4; k++) {
			size_t i;
			uint64_t sum = 0;
			for (i = 0; i < r.t[k].ndelays; i++)
				sum += r.t[k].delays[i];
			mean[k] = r.t[k].ndelays ? ms(sum) / (double)r.t[k].ndelays : 0;
			sl_chart_point(&c->chart, (size_t)m, duty[k], mean[k]);
			if (k && mean[k - 1] > mean[k])
				inv++;
		}
		c->meas[m] = inv;
		snprintf(c->measured[m], sizeof(c->measured[m]), "mean delay %.2f / %.2f / %.2f / %.2f ms", mean[0],
			 mean[1], mean[2], mean[3]);
		sl_scen_result_release(&r);
	}
	c->chart.kind = SL_CHART_LINES;
	c->chart.logx = 1;
	snprintf(c->chart.xlabel, sizeof(c->chart.xlabel), "sleeper's CPU share (%%) beside 2 hogs");
	snprintf(c->chart.ylabel, sizeof(c->chart.ylabel), "mean wakeup delay (ms)");
	return 0;
}

/* 16: a sleeper among the four hogs of claim 4. */
static int claim16(struct sl_claims_cx *x)
{
	struct sl_claim *c = sl_claims_get(x, "16");
	int m;
	for (m = 0; m < nmodels; m++) {
		struct sl_scen_result r;
		uint64_t hog = 0;
		size_t i;
		if (!x->on[m])
			continue;
		if (run(x, m, "s 0 run=1ms sleep=9ms\nc 10 run=inf\na -20 run=inf\nb 0 run=inf\nd 19 run=inf\n",
			12000 * MS, "sleeper + 4 hogs", &r))
			return -1;
		for (i = 1; i < r.ntasks; i++)
			if (r.t[i].max_wait_ns > hog)
				hog = r.t[i].max_wait_ns;
		c->meas[m] = pct(r.t[0].max_wait_ns, hog);
		snprintf(c->measured[m], sizeof(c->measured[m]), "sleeper %.0f ms, hogs %.0f ms: %.1f %%",
			 ms(r.t[0].max_wait_ns), ms(hog), c->meas[m]);
		sl_chart_series(&c->chart, (size_t)m, sl_claim_model_name(m));
		sl_chart_point(&c->chart, (size_t)m, 0, ms(r.t[0].max_wait_ns));
		sl_chart_point(&c->chart, (size_t)m, 1, ms(hog));
		sl_scen_result_release(&r);
	}
	c->chart.kind = SL_CHART_GROUPS;
	c->chart.nx = 2;
	c->chart.logy = 1;
	snprintf(c->chart.xt[0], sizeof(c->chart.xt[0]), "sleeper 1ms/9ms");
	snprintf(c->chart.xt[1], sizeof(c->chart.xt[1]), "worst hog");
	snprintf(c->chart.ylabel, sizeof(c->chart.ylabel), "longest wait (ms, log)");
	return 0;
}

/* 17: a task sleeping 300 ms (longer than the 240 ms epoch of 2 hogs). */
static int claim17(struct sl_claims_cx *x)
{
	struct sl_claim *c = sl_claims_get(x, "17");
	int m;
	for (m = 0; m < nmodels; m++) {
		struct sl_scen_result r;
		uint64_t mx;
		if (!x->on[m])
			continue;
		if (run(x, m, "s 0 run=2ms sleep=300ms\nh1 0 run=inf\nh2 0 run=inf\n", 30000 * MS,
			"long sleeper + 2 hogs", &r))
			return -1;
		mx = sl_scen_delay_pct(&r.t[0], 100);
		c->meas[m] = ms(mx);
		snprintf(c->measured[m], sizeof(c->measured[m]), "max %.1f ms, p50 %.1f ms (%zu wakeups)", ms(mx),
			 ms(sl_scen_delay_pct(&r.t[0], 50)), r.t[0].ndelays);
		sl_scen_result_release(&r);
	}
	snprintf(c->chart.ylabel, sizeof(c->chart.ylabel), "longest wakeup delay after a 300 ms sleep (ms)");
	return 0;
}

/* 18 and 2s: two CPUs. */
static int claim18(struct sl_claims_cx *x)
{
	struct sl_claim *c = sl_claims_get(x, "18"), *s = sl_claims_get(x, "2s");
	char text[2048];
	size_t off = 0;
	int m, i;
	struct sl_starve sv[SL_CLAIM_MAXMODELS];
	for (i = 0; i < 20; i++)
		off += (size_t)snprintf(text + off, sizeof(text) - off, "m%d 0 run=8ms sleep=1ms\n", i);
	snprintf(text + off, sizeof(text) - off, "h1 0 run=inf\nh2 0 run=inf\n");
	for (m = 0; m < nmodels; m++) {
		struct sl_scen_result r;
		if (!x->on[m])
			continue;
		/* 9.6 s = 40 epochs of 2 x 120 ms on CPU 0, 20 of 4 x 120 ms on CPU 1 */
		if (run_on(x, m,
			   "a 0 run=inf cpus=0\nb 0 run=inf cpus=0\nc 0 run=inf cpus=1\nd 0 run=inf cpus=1\n"
			   "e 0 run=inf cpus=1\nf 0 run=inf cpus=1\n",
			   2, 9600 * MS, "pinned hogs, 2 CPUs", NULL, &r))
			return -1;
		sl_chart_series(&c->chart, (size_t)m, sl_claim_model_name(m));
		sl_chart_point(&c->chart, (size_t)m, 0, (double)r.major_rotations[0]);
		sl_chart_point(&c->chart, (size_t)m, 1, (double)r.major_rotations[1]);
		if (r.major_rotations[1]) {
			c->meas[m] = (double)r.major_rotations[0] / (double)r.major_rotations[1];
			snprintf(c->measured[m], sizeof(c->measured[m]), "%llu : %llu major rotations",
				 (unsigned long long)r.major_rotations[0], (unsigned long long)r.major_rotations[1]);
		} else {
			snprintf(c->measured[m], sizeof(c->measured[m]), "no rotations (the model has no epochs)");
		}
		sl_scen_result_release(&r);
		sl_starve_init(&sv[m]);
		if (run_on(x, m, text, 2, 9600 * MS, "20 x 8ms/1ms + 2 hogs, 2 CPUs", &sv[m], &r))
			return -1;
		sl_scen_result_release(&r);
		s->meas[m] = (double)sv[m].excess_ns / (double)MS;
		snprintf(s->measured[m], sizeof(s->measured[m]), "max wait/bound %.0f %%, %+.0f ms", 100.0 * sv[m].ratio,
			 s->meas[m]);
	}
	c->chart.kind = SL_CHART_GROUPS;
	c->chart.nx = 2;
	snprintf(c->chart.xt[0], sizeof(c->chart.xt[0]), "CPU 0: 2 hogs");
	snprintf(c->chart.xt[1], sizeof(c->chart.xt[1]), "CPU 1: 4 hogs");
	snprintf(c->chart.ylabel, sizeof(c->chart.ylabel), "major rotations in 9.6 s");
	return 0;
}

static void claim2(struct sl_claims_cx *x, const char *id, const struct sl_starve *sv)
{
	struct sl_claim *c = sl_claims_get(x, id);
	int m;
	for (m = 0; m < nmodels; m++) {
		const struct sl_starve *s = &sv[m];
		if (!x->on[m] || !s->tasks)
			continue;
		c->meas[m] = (double)s->excess_ns / (double)MS;
		snprintf(c->measured[m], sizeof(c->measured[m]), "max wait/bound %.0f %%, %+.0f ms (%s)",
			 100.0 * s->ratio, (double)s->excess_ns / (double)MS, s->where);
	}
}

static int scenario_claims(struct sl_claims_cx *x)
{
	/* 1a: 4.8 s = 20 RSDL epochs of 2 x 20 x 6 ms; 1b: 9 s = 50 epochs of
	 * 20 + 10 quotas. 6: 28.8 s = 120 epochs of 2 x 120 ms; 8: 28.8 s =
	 * 60 epochs of 4 x 120 ms (long enough for o1's bonus to settle);
	 * 15: 25.8 s = 5 epochs of 40 x 21 + 20 RR. */
	if (share_claim(x, "1a", "a 0 run=inf\nb 0 run=inf\n", 4800 * MS, "2 nice-0 hogs", "", " / ") ||
	    share_claim(x, "1b", "a 0 run=inf\nc 10 run=inf\n", 9000 * MS, "nice 0 + nice 10 hogs", "", " : "))
		return -1;
	sl_claims_get(x, "2");
	sl_claims_get(x, "2r");
	sl_claims_get(x, "2s");
	if (sweep_claim(x, "3a", "a 0 run=inf", "b 0 run=inf", 240 * MS, 800 * MS, "sweep 0 vs 0", (double)MS) ||
	    sweep_claim(x, "3b", "a 0 run=inf", "c 10 run=inf", 240 * MS, 800 * MS, "sweep 0 vs 10", (double)MS) ||
	    sweep_claim(x, "3c", "c 10 run=inf", "a 0 run=inf", 240 * MS, 800 * MS, "sweep 10 vs 0", (double)MS))
		return -1;
	/* the nice 10 task alone expires after 10 x 6 = 60 ms: sweep the
	 * others' arrival over 0..66 ms; 12 s covers two 871-RR epochs */
	if (sweep_claim(x, "4", "c 10 run=inf", "a -20 run=inf\nb 0 run=inf\nd 19 run=inf", 66 * MS, 12000 * MS,
			"sweep 4 hogs", (double)RR_NS) ||
	    claim5(x) ||
	    share_claim(x, "6", "s 0 run=8ms sleep=1ms\nh 0 run=inf\n", 28800 * MS, "8ms/1ms sleeper + hog",
			"sleeper ", " %, hog ") ||
	    claim7(x))
		return -1;
	sl_claims_get(x, "7r");
	sl_claims_get(x, "7c");
	if (share_claim(x, "8", "x 0 run=6ms sleep=4ms\nh1 0 run=inf\nh2 0 run=inf\nh3 0 run=inf\n", 28800 * MS,
			"X 6ms/4ms + 3 hogs", "X ", " %, a hog "))
		return -1;
	sl_claims_get(x, "9a");
	sl_claims_get(x, "9b");
	sl_claims_get(x, "9c");
	sl_claims_get(x, "10");
	sl_claims_get(x, "10c");
	sl_claims_get(x, "11");
	if (claim12(x) || claim13(x) || claim16(x) || claim17(x) || claim18(x))
		return -1;
	if (share_claim(x, "15", "a -20 run=inf\nb 0 run=inf\n", 25800 * MS, "nice -20 + nice 0 hogs", "", " : "))
		return -1;
	sl_claims_get(x, "19");
	sl_claims_get(x, "20");
	return 0;
}

static int cmp_claim(const void *a, const void *b)
{
	const struct sl_claim *x = a, *y = b;
	size_t i, j;
	for (i = 0; i < SL_ARRAY_SIZE(defs) && strcmp(defs[i].id, x->id); i++)
		;
	for (j = 0; j < SL_ARRAY_SIZE(defs) && strcmp(defs[j].id, y->id); j++)
		;
	return i < j ? -1 : i > j;
}

static int cx_init(struct sl_claims_cx *x, const struct sl_claims_opts *o, struct sl_diag *d)
{
	int m;
	memset(x, 0, sizeof(*x));
	x->o = o;
	x->d = d;
	models_init();
	for (m = 0; m < nmodels; m++) {
		x->on[m] = 1;
		if (o->models) {
			const char *p = o->models;
			size_t len = strlen(model_names[m]);
			x->on[m] = 0;
			while (*p) {
				size_t l = strcspn(p, ",");
				if (l == len && !strncmp(p, model_names[m], len))
					x->on[m] = 1;
				p += l + (p[l] == ',');
			}
		}
		sl_starve_init(&x->sv[m]);
		sl_starve_init(&x->svr[m]);
	}
	if (o->models) { /* every name must be a linked model */
		const char *p = o->models;
		while (*p) {
			size_t l = strcspn(p, ",");
			char nm[24];
			snprintf(nm, sizeof(nm), "%.*s", (int)(l < 23 ? l : 23), p);
			if (sl_claim_model_index(nm) < 0)
				return sl_fail(d, "claims: no scheduler model '%s' (linked: %s)", nm, sl_policy_names());
			p += l + (p[l] == ',');
		}
	}
	if (!x->on[SL_CLAIM_RSDL] || strcmp(model_names[SL_CLAIM_RSDL], "rsdl"))
		return sl_fail(d, "claims: the rsdl model is needed (the claims are about it)");
	return 0;
}

static void cx_finish(struct sl_claims_cx *x, struct sl_claim **out, size_t *n)
{
	size_t i;
	for (i = 0; i < x->n; i++) {
		int m;
		for (m = 0; m < SL_CLAIM_MAXMODELS; m++)
			if (m != sl_claim_recorded() && (m >= nmodels || !x->on[m])) {
				x->c[i].meas[m] = NAN;
				x->c[i].measured[m][0] = 0;
			}
		sl_claim_decide(&x->c[i]);
	}
	qsort(x->c, x->n, sizeof(*x->c), cmp_claim);
	*out = x->c;
	*n = x->n;
}

int sl_claims_run(const struct sl_claims_opts *o, struct sl_claim **out, size_t *n, struct sl_diag *d)
{
	struct sl_claims_cx x;
	*out = NULL;
	*n = 0;
	if (cx_init(&x, o, d))
		return -1;
	if (scenario_claims(&x) || sl_claims_bundled(&x)) {
		free(x.c);
		return -1;
	}
	claim2(&x, "2", x.sv);
	if (x.svr_any)
		claim2(&x, "2r", x.svr);
	cx_finish(&x, out, n);
	return 0;
}

/* On a user's trace the claims about a named desktop ("Gene's desktop",
 * "Ed's desktop": the bundled recordings) are about that trace: the
 * statement names it instead (issue 25). */
static void relabel(struct sl_claims_cx *x, const char *name)
{
	static const char *const who[] = { "Gene's desktop", "Ed's desktop" };
	/* the statements outlive the claims' array, which is sorted (moved)
	 * after: they are kept here, one per claim so named (a process runs
	 * the claims of one trace) */
	static char text[8][192];
	size_t i, k, used = 0;
	for (i = 0; i < x->n; i++)
		for (k = 0; k < SL_ARRAY_SIZE(who) && used < SL_ARRAY_SIZE(text); k++) {
			const char *at = strstr(x->c[i].claim, who[k]);
			if (!at)
				continue;
			snprintf(text[used], sizeof(text[used]), "%.*s%s%s", (int)(at - x->c[i].claim),
				 x->c[i].claim, name, at + strlen(who[k]));
			x->c[i].claim = text[used++];
			break;
		}
}

int sl_claims_trace(const struct sl_claims_opts *o, const struct sl_behaviour *b, const char *name,
		    struct sl_rec_rows *rec, struct sl_claim **out, size_t *n, struct sl_diag *d)
{
	struct sl_claims_cx x;
	*out = NULL;
	*n = 0;
	if (cx_init(&x, o, d))
		return -1;
	if (sl_claims_on_trace(&x, b, name, rec)) {
		free(x.c);
		return -1;
	}
	if (x.svr_any)
		claim2(&x, "2r", x.svr);
	relabel(&x, name);
	cx_finish(&x, out, n);
	return 0;
}
