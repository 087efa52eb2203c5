/* analyze/claims_int.h - what analyze/claims.c and analyze/claims_trace.c
 * share (not exported). */
#ifndef SL_CLAIMS_INT_H
#define SL_CLAIMS_INT_H

#include "claims.h"

struct sl_claims_cx {
	const struct sl_claims_opts *o;
	int on[SL_CLAIM_MAXMODELS];          /* models run */
	struct sl_starve sv[SL_CLAIM_MAXMODELS];  /* scenario runs (claim 2) */
	struct sl_starve svr[SL_CLAIM_MAXMODELS]; /* real-trace replays (claim 2r) */
	int svr_any;
	struct sl_claim *c;
	size_t n;
	struct sl_diag *d;
};

/* The claim with that id (added from the definitions table on first use). */
struct sl_claim *sl_claims_get(struct sl_claims_cx *x, const char *id);
/* Mark c untestable for every model with the reason (copied into note). */
void sl_claims_untestable(struct sl_claim *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Chart helpers. */
void sl_chart_series(struct sl_claim_chart *ch, size_t s, const char *name);
void sl_chart_point(struct sl_claim_chart *ch, size_t s, double x, double y);
/* Groups of bars at p50, p90, p99 and max (a delay distribution per model). */
void sl_chart_percentiles(struct sl_claim_chart *ch);

/* The real-trace claims of the bundled traces (claims_trace.c). */
int sl_claims_bundled(struct sl_claims_cx *x);
/* The trace claims on b (claims_trace.c). */
int sl_claims_on_trace(struct sl_claims_cx *x, const struct sl_behaviour *b, const char *name,
		       struct sl_rec_rows *rec);

#endif
