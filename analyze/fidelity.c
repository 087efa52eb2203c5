/* analyze/fidelity.c - see fidelity.h. */
#include "fidelity.h"
#include "metrics.h"

#include <stdlib.h>
#include <string.h>

int sl_recorded_run(struct sl_store *s, int64_t trace_id, int64_t *run_id, struct sl_diag *d)
{
	int64_t *ids;
	size_t n, i;
	struct sl_run_info ri;
	*run_id = 0;
	if (sl_store_list_runs(s, trace_id, &ids, &n, d))
		return -1;
	for (i = 0; i < n && !*run_id; i++) {
		if (sl_store_get_run(s, ids[i], &ri, d)) {
			free(ids);
			return -1;
		}
		if (!strcmp(ri.scheduler, "recorded"))
			*run_id = ids[i];
	}
	free(ids);
	return 0;
}

/* Index of the last slice in the CPU's list (ascending ts) starting
 * before t, or n if none. */
static size_t last_before(const struct sl_slice_row *sl, const size_t *idx, size_t n,
				uint64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (sl[idx[mid]].ts < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : n;
}

void sl_overheads_calibrate(const struct sl_run_data *r, struct sl_overheads *o)
{
	size_t *off, *idx, *fill, i, nw = 0, ns = 0;
	uint64_t *wv, *sv;
	int ncpu = 0;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < r->nslices; i++)
		if (r->slices[i].cpu >= ncpu)
			ncpu = r->slices[i].cpu + 1;
	if (!ncpu || !r->nwakeups)
		return;
	/* the slices of each CPU in ts order (the run's rows are by ts) */
	off = xcalloc((size_t)ncpu + 1, sizeof(*off));
	fill = xcalloc((size_t)ncpu, sizeof(*fill));
	idx = xmalloc(r->nslices * sizeof(*idx));
	for (i = 0; i < r->nslices; i++)
		if (r->slices[i].cpu >= 0)
			off[r->slices[i].cpu + 1]++;
	for (i = 0; i < (size_t)ncpu; i++)
		off[i + 1] += off[i];
	for (i = 0; i < r->nslices; i++) {
		int c = r->slices[i].cpu;
		if (c >= 0)
			idx[off[c] + fill[c]++] = i;
	}
	wv = xmalloc(r->nwakeups * sizeof(*wv));
	sv = xmalloc(r->nwakeups * sizeof(*sv));
	for (i = 0; i < r->nwakeups; i++) {
		const struct sl_wakeup_row *w = &r->wakeups[i];
		const size_t *ci;
		size_t n, k;
		const struct sl_slice_row *next;
		if (w->ts_run == UINT64_MAX || w->ts_run < w->ts || w->cpu < 0 || w->cpu >= ncpu)
			continue;
		ci = idx + off[w->cpu];
		n = off[w->cpu + 1] - off[w->cpu];
		k = last_before(r->slices, ci, n, w->ts);
		/* the slice that follows on that CPU must be the woken task's,
		 * starting at ts_run: nothing else ran in between */
		next = k == n ? (n ? &r->slices[ci[0]] : NULL) : (k + 1 < n ? &r->slices[ci[k + 1]] : NULL);
		if (!next || next->utid != w->utid || next->ts != w->ts_run)
			continue;
		if (k == n || r->slices[ci[k]].ts + r->slices[ci[k]].dur <= w->ts) {
			wv[nw++] = w->ts_run - w->ts; /* the CPU was idle */
		} else {
			const struct sl_slice_row *prev = &r->slices[ci[k]];
			if (prev->end_state == 'R' && prev->ts + prev->dur == w->ts_run &&
			    prev->utid != w->utid)
				sv[ns++] = w->ts_run - w->ts; /* preempted for it */
		}
	}
	sl_sort_u64(wv, nw);
	sl_sort_u64(sv, ns);
	o->nwake = nw;
	o->nswitch = ns;
	o->wake_ns = sl_percentile(wv, nw, 50);
	o->switch_ns = sl_percentile(sv, ns, 50);
	for (i = 0; i < SL_OVERHEAD_Q; i++) {
		double p = 100.0 * (double)(2 * i + 1) / (2.0 * SL_OVERHEAD_Q);
		o->wake_q[i] = sl_percentile(wv, nw, p);
		o->switch_q[i] = sl_percentile(sv, ns, p);
	}
	free(wv);
	free(sv);
	free(idx);
	free(off);
	free(fill);
}

int sl_overhead_parse(const char *s, struct sl_replay_opts *o)
{
	char buf[64], *comma;
	uint64_t w, sw;
	if (!strcmp(s, "none")) {
		o->nq = 0;
		o->overhead = "none";
		return 0;
	}
	if (!strcmp(s, "auto")) {
		o->nq = 0;
		o->overhead = "auto";
		return 0;
	}
	if (strlen(s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, strlen(s) + 1);
	comma = strchr(buf, ',');
	if (comma)
		*comma++ = 0;
	if (sl_parse_duration(buf, 1000, &w) || w > SL_NS_PER_SEC)
		return -1;
	sw = w;
	if (comma && (sl_parse_duration(comma, 1000, &sw) || sw > SL_NS_PER_SEC))
		return -1;
	o->nq = 1;
	o->wake_lat_ns[0] = w;
	o->switch_lat_ns[0] = sw;
	o->overhead = "fixed";
	return 0;
}

int sl_overhead_auto(struct sl_store *s, int64_t trace_id, struct sl_replay_opts *o,
		     struct sl_overheads *out, struct sl_diag *d)
{
	struct sl_run_data r;
	struct sl_overheads ov;
	int64_t rec;
	o->overhead = "auto";
	o->nq = 0;
	memset(&ov, 0, sizeof(ov));
	if (out)
		*out = ov;
	if (sl_recorded_run(s, trace_id, &rec, d))
		return -1;
	if (!rec)
		return 0;
	if (sl_store_load_run(s, rec, &r, d))
		return -1;
	sl_overheads_calibrate(&r, &ov);
	sl_run_data_release(&r);
	if (out)
		*out = ov;
	if (!ov.nwake && !ov.nswitch)
		return 0;
	o->nq = SL_OVERHEAD_Q;
	memcpy(o->wake_lat_ns, ov.wake_q, sizeof(ov.wake_q));
	memcpy(o->switch_lat_ns, ov.switch_q, sizeof(ov.switch_q));
	return 0;
}
