/* cmd/cmd-validate.c - `schedlab validate`: replay a trace through the model
 * of the kernel that recorded it and print how far the replay is from the
 * recorded run, against the thresholds of docs/validate.md. */
#include "cmd.h"
#include "../analyze/fidelity.h"
#include "../analyze/metrics.h"
#include "../analyze/store.h"
#include "../collector/release.h"
#include "../replay/choices.h"
#include "../replay/engine.h"
#include "../replay/interference.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char synopsis[] =
	"schedlab [--db FILE] validate --trace ID [--sched MODEL] [--mode timed|causal]\n"
	"                [--hz N] [--overhead auto|none|WAKE[,SWITCH]] [--seeds N]\n"
	"                [--interference recorded|none]\n"
	"                [--format table|csv|json]";

static const char about[] =
	"Replay a trace through the model of the kernel that recorded it (from the\n"
	"kernel release the file carries: 6.6 and later eevdf, 2.6.23 to 6.5 cfs,\n"
	"older o1) and compare the replay with the recorded run: CPU time of every\n"
	"task, switches, migrations, wakeup-delay KS distance and p50/p95/p99/max\n"
	"errors overall, for the 10 busiest and the 10 most-woken tasks, and a\n"
	"verdict against the thresholds of docs/validate.md. The trace is replayed\n"
	"--seeds times and each replay figure is their median; the seed-0 replay is\n"
	"stored as a run, the figures go into the metric table (fidelity_*). Exit\n"
	"status 0 for PASS, 1 for FAIL (the table printed either way), 2 on an error.\n";

static void more_help(FILE *f)
{
	fprintf(f, "\nModels (--sched): %s\n", sl_policy_names());
}

struct vopts {
	int64_t trace;
	const char *sched, *overhead;
	int fmt, mode, interference;
	long long hz, seeds;
};

static int parse(int argc, char **argv, struct vopts *v)
{
	int rc;
	const struct sl_opt opts[] = {
		SL_OPT_ID(0, "trace", &v->trace, "an imported trace with a recorded run"),
		SL_OPT_STRING(0, "sched", &v->sched, "MODEL",
			      "validate this model instead of the recording kernel's\n"
			      "(required when the file does not carry its release)"),
		SL_OPT_STRING(0, "overhead", &v->overhead, "O",
			      "the replay's kernel overheads (default auto; see\n"
			      "'schedlab replay -h')"),
		SL_OPT_CHOICE(0, "mode", &v->mode, sl_mode_choices,
			      "how sleeps end in the replay (docs/validate.md):"),
		SL_OPT_INT(0, "hz", &v->hz, 10, 100000, "N",
			   "the recording kernel's CONFIG_HZ (its tick: when a slice\n"
			   "is found used up); default: estimated from the phase of\n"
			   "the recorded run's tick preemptions, else 1000"),
		SL_OPT_INT(0, "seeds", &v->seeds, 1, 64, "N",
			   "replay N times, --seed 0 to N-1 (the draws of the\n"
			   "kernel overheads), and compare the median of each figure\n"
			   "(default 5; one replay's tail percentiles are a draw:\n"
			   "docs/validate.md); the seed-0 replay is stored"),
		SL_OPT_CHOICE(0, "interference", &v->interference, sl_interference_choices,
			      "the replay's bursts with their recorded interference\n"
			      "(recorded keeps the CPU time validate holds exact; see\n"
			      "'schedlab replay -h'):"),
		SL_OPT_CHOICE(0, "format", &v->fmt, sl_format_choices, "the output:"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "validate", synopsis, about, opts, 0, more_help };
	memset(v, 0, sizeof(*v));
	v->fmt = SL_FMT_TABLE;
	v->mode = SL_MODE_CAUSAL;
	v->interference = SL_INTERFERENCE_RECORDED;
	v->hz = 0; /* estimated */
	v->seeds = 5;
	if ((rc = sl_opts_parse(&spec, argc, argv, NULL)) != SL_OPTS_GO)
		return rc == 0 ? 1 : rc;
	if (!v->trace) {
		sl_err("validate: --trace ID is required");
		return 2;
	}
	return 0;
}

/* value in the row's unit for the table: us for ns, plain otherwise */
static void cell(char *buf, size_t n, double v, int unit)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (unit == 1)
		snprintf(buf, n, "%.1f", v / 1000.0);
	else if (unit == 4)
		snprintf(buf, n, "%.3f", v);
	else
		snprintf(buf, n, "%.0f", v);
}

static void err_cell(char *buf, size_t n, const struct sl_fid_row *r)
{
	if (r->unit == 2)
		snprintf(buf, n, "%.3f", r->err);
	else if (r->unit == 3)
		snprintf(buf, n, "max %.1f us", r->err / 1000.0);
	else if (isinf(r->err))
		snprintf(buf, n, "inf");
	else
		snprintf(buf, n, "%+.1f %%", 100.0 * r->err);
}

static void limit_cell(char *buf, size_t n, const struct sl_fid_row *r)
{
	if (isnan(r->limit))
		snprintf(buf, n, "-");
	else if (r->unit == 2)
		snprintf(buf, n, "<= %.2f", r->limit);
	else if (r->unit == 3)
		snprintf(buf, n, "all exact");
	else
		snprintf(buf, n, "+-%.0f %%", 100.0 * r->limit);
}

static const char *pass_word(int pass)
{
	return pass == -2 ? "n/a" : pass < 0 ? "-" : pass ? "yes" : "NO";
}

static void print_table(const struct sl_fid_row *rows, size_t n, int verdict)
{
	size_t i, nfail = 0, ngate = 0;
	printf("%-32s %12s %12s %12s %10s  %s\n", "metric (delays in us)", "recorded", "replay",
	       "error", "threshold", "ok");
	for (i = 0; i < n; i++) {
		char a[32], b[32], e[32], l[32];
		cell(a, sizeof(a), rows[i].rec, rows[i].unit);
		cell(b, sizeof(b), rows[i].rep, rows[i].unit);
		err_cell(e, sizeof(e), &rows[i]);
		limit_cell(l, sizeof(l), &rows[i]);
		printf("%-32s %12s %12s %12s %10s  %s\n", rows[i].what, a, b, e, l, pass_word(rows[i].pass));
		if (rows[i].gating) {
			ngate++;
			nfail += rows[i].pass != 1;
		}
	}
	printf("verdict: %s (%zu of %zu checks within their thresholds; docs/validate.md)\n",
	       verdict ? "PASS" : "FAIL", ngate - nfail, ngate);
}

static void json_num(double v, int dec)
{
	if (isnan(v) || isinf(v))
		printf("null");
	else if (dec == 0)
		printf("%.0f", v);
	else
		printf("%.*f", dec, v);
}

/* The comparison of n replays (--seed 0 .. n-1) with rec, merged into *f
 * (sl_fidelity_median): the seed-0 replay is rep (stored); the others are
 * replayed in memory. 0, or -1 with d set. */
static int seeds_compare(const struct sl_behaviour *b, const struct sl_policy_ops *ops,
			 const struct sl_replay_opts *o, const struct sl_run_data *rec,
			 const struct sl_run_data *rep, size_t n, struct sl_fidelity *f,
			 struct sl_diag *d)
{
	struct sl_fidelity *each = xcalloc(n, sizeof(*each));
	size_t s;
	sl_fidelity_compute(rec, rep, &each[0]);
	for (s = 1; s < n; s++) {
		struct sl_replay_opts os = *o;
		struct sl_run_data m;
		os.seed = s;
		if (sl_cmd_replay_mem(b, ops, &os, o->policy_opts, rep, &m, d)) {
			free(each);
			return -1;
		}
		sl_fidelity_compute(rec, &m, &each[s]);
		sl_run_data_release(&m);
	}
	sl_fidelity_median(each, n, f);
	free(each);
	return 0;
}

int cmd_validate(int argc, char **argv, const struct sl_globals *g)
{
	struct vopts v;
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_store *st = NULL;
	struct sl_trace_info tr;
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct sl_replay_stats rs;
	struct sl_overheads ov;
	struct sl_run_data rec, rep;
	struct sl_fidelity f;
	struct sl_fid_row rows[SL_FID_MAXROWS];
	const struct sl_policy_ops *ops;
	const char *model, *why;
	int64_t rec_id, run_id;
	size_t n, i, nseeds;
	int rc, verdict, have_rec = 0, have_rep = 0;
	size_t hz_samples = 0;
	double hz_conc = 0;
	char hz_why[160] = "";

	memset(&b, 0, sizeof(b));
	rc = parse(argc, argv, &v);
	if (rc)
		return rc == 1 ? 0 : rc;
	sl_replay_opts_init(&o);
	o.mode = v.mode;
	o.origin = "validate";
	o.hz = v.hz ? (int)v.hz : 1000;
	if (v.overhead && sl_overhead_parse(v.overhead, &o)) {
		sl_err("validate: --overhead '%s': expected auto, none or WAKE[,SWITCH]", v.overhead);
		return 2;
	}
	if (v.sched && !sl_policy_find(v.sched)) {
		sl_err("validate: unknown model '%s' (models: %s)", v.sched, sl_policy_names());
		return 2;
	}
	if (sl_store_open(g->db, 0, &st, &d) || sl_store_get_trace(st, v.trace, &tr, &d))
		goto fail;
	/* a trace imported before schema 4 has no release: read it from the
	 * file if it is still there, and keep it */
	if (!tr.kernel_release[0] &&
	    sl_trace_release(tr.path, tr.format, tr.kernel_release, sizeof(tr.kernel_release)) &&
	    sl_store_set_trace_release(st, tr.id, tr.kernel_release, &d))
		goto fail;
	/* a trace its ledger found incomplete: said again (docs/ledger.md) */
	if (tr.ledger[0] && !isnan(tr.completeness_cpu) && tr.completeness_cpu < 0.98)
		sl_warnx("trace %" PRId64 " is incomplete: it accounts for %.1f %% of the CPU time the "
			 "kernel charged its threads (its ledger, %s); the recorded run misses work",
			 tr.id, 100 * tr.completeness_cpu, tr.ledger);
	model = v.sched;
	why = "--sched";
	if (!model) {
		if (!tr.kernel_release[0]) {
			sl_fail(&d, "trace %" PRId64 ": the kernel that recorded it is unknown (%s files do "
				    "not carry its release): give --sched MODEL",
				tr.id, tr.format);
			goto fail;
		}
		model = sl_release_model(tr.kernel_release);
		if (!model) {
			sl_fail(&d, "trace %" PRId64 ": kernel release '%s' is not MAJOR.MINOR...: give "
				    "--sched MODEL", tr.id, tr.kernel_release);
			goto fail;
		}
		why = "from the kernel release";
	}
	ops = sl_policy_find(model);
	if (!ops) {
		sl_fail(&d, "trace %" PRId64 " was recorded on Linux %s, whose scheduler is %s: this "
			    "build has no %s model (models: %s); give --sched MODEL",
			tr.id, tr.kernel_release, model, model, sl_policy_names());
		goto fail;
	}
	/* the eevdf model's features as that release had them (DELAY_DEQUEUE
	 * from v6.12, the 0.70 ms base slice from v6.15; docs/eevdf.md) */
	if (!strcmp(ops->name, "eevdf") && tr.kernel_release[0])
		o.policy_opts = sl_release_eevdf_opts(tr.kernel_release);
	if (sl_store_recorded_run(st, tr.id, &rec_id, &d))
		goto fail;
	if (!rec_id) {
		sl_fail(&d, "trace %" PRId64 " has no recorded run to validate against (a workload?)",
			tr.id);
		goto fail;
	}
	if (sl_store_load_behaviour(st, tr.id, &b, &d))
		goto fail;
	if (!b.ntasks) {
		sl_fail(&d, "trace %" PRId64 " has no tasks to replay", tr.id);
		goto fail;
	}
	o.cpus = b.cpus > 0 ? (b.cpus > SL_ENGINE_MAX_CPUS ? SL_ENGINE_MAX_CPUS : b.cpus) : 1;
	o.interference = sl_choice_name(sl_interference_choices, v.interference, "recorded");
	if (v.interference == SL_INTERFERENCE_NONE)
		sl_behaviour_work_only(&b);
	if (sl_store_load_run(st, rec_id, &rec, &d))
		goto fail;
	have_rec = 1;
	if (!v.hz) {
		int est;
		if (sl_estimate_hz(&rec, &est, &hz_samples, &hz_conc) == 0) {
			o.hz = est;
			snprintf(hz_why, sizeof(hz_why), "estimated from %zu tick preemptions, "
				 "concentration %.2f", hz_samples, hz_conc);
		} else {
			snprintf(hz_why, sizeof(hz_why), "could not tell from %zu tick preemptions: the "
				 "default; --hz N", hz_samples);
		}
	} else {
		snprintf(hz_why, sizeof(hz_why), "--hz");
	}
	memset(&ov, 0, sizeof(ov));
	if (!v.overhead || !strcmp(v.overhead, "auto"))
		sl_overhead_of_run(&rec, &o, &ov); /* the recorded run, loaded above */
	/* the release's options go in as --opt does (sl_cmd_replay_store keeps
	 * those the model has; o.policy_opts alone was overwritten there) */
	if (sl_cmd_replay_store(st, tr.id, &b, ops, &o, o.policy_opts, &run_id, &rs, NULL, &d))
		goto fail;
	if (sl_store_load_run(st, run_id, &rep, &d))
		goto fail;
	have_rep = 1;
	/* without overheads there is nothing to draw: every seed replays alike */
	nseeds = o.nq > 0 ? (size_t)v.seeds : 1;
	if (seeds_compare(&b, ops, &o, &rec, &rep, nseeds, &f, &d))
		goto fail;
	sl_behaviour_release(&b);
	n = sl_fidelity_rows(&f, rows, &verdict);
	if (sl_store_begin(st, &d) || sl_store_clear_fidelity(st, run_id, &d) ||
	    sl_store_put_metric(st, run_id, -1, "fidelity_recorded_run", (double)rec_id, &d) ||
	    sl_store_put_metric(st, run_id, -1, "fidelity_verdict", verdict, &d) ||
	    sl_store_put_metric(st, run_id, -1, "fidelity_seeds", (double)nseeds, &d))
		goto fail_tx;
	for (i = 0; i < n; i++) {
		char name[64];
		snprintf(name, sizeof(name), "fidelity_%.31s", rows[i].key);
		if (!isnan(rows[i].err) && !isinf(rows[i].err) &&
		    sl_store_put_metric(st, run_id, -1, name, rows[i].err, &d))
			goto fail_tx;
		snprintf(name, sizeof(name), "fidelity_%.31s_pass", rows[i].key);
		if (rows[i].pass >= 0 && sl_store_put_metric(st, run_id, -1, name, rows[i].pass, &d))
			goto fail_tx;
	}
	if (sl_store_commit(st, &d))
		goto fail_tx;

	if (v.fmt == SL_FMT_TABLE) {
		printf("trace %" PRId64 " (%s, Linux %s): %s (%s), %s, %d Hz (%s), replay run %" PRId64
		       " against recorded run %" PRId64 "\n",
		       tr.id, tr.format, tr.kernel_release[0] ? tr.kernel_release : "unknown", ops->name,
		       why, o.mode == SL_MODE_CAUSAL ? "causal" : "timed", o.hz, hz_why, run_id, rec_id);
		if (!strcmp(ops->name, "eevdf"))
			printf("model options: %s\n",
			       o.policy_opts ? o.policy_opts
					     : "the defaults (v6.18 and later: 0.70 ms normalized slice, "
					       "DELAY_DEQUEUE, PLACE_REL_DEADLINE, yield forfeits)");
		if (o.nq > 0 && o.overhead && !strcmp(o.overhead, "auto"))
			printf("overheads (auto): wake-up to idle CPU median %.1f us (%zu samples), "
			       "preemption median %.1f us (%zu samples; %zu tick preemptions left out)\n",
			       (double)ov.wake_ns / 1000.0, ov.nwake, (double)ov.switch_ns / 1000.0,
			       ov.nswitch, ov.ntick);
		else if (o.nq > 0)
			printf("overheads (fixed): wake-up to idle CPU %.1f us, preemption %.1f us\n",
			       (double)o.wake_lat_ns[0] / 1000.0, (double)o.switch_lat_ns[0] / 1000.0);
		else
			printf("overheads: none\n");
		if (nseeds > 1)
			printf("replays: %zu, --seed 0 to %zu (the overheads' draws); each replay figure "
			       "is their median, run %" PRId64 " is seed 0's\n",
			       nseeds, nseeds - 1, run_id);
		print_table(rows, n, verdict);
	} else if (v.fmt == SL_FMT_CSV) {
		printf("trace_id,run_id,recorded_run_id,model,metric,recorded,replay,error,limit,gating,pass\n");
		for (i = 0; i < n; i++) {
			printf("%" PRId64 ",%" PRId64 ",%" PRId64 ",%s,%s,", tr.id, run_id, rec_id, ops->name,
			       rows[i].key);
			if (!isnan(rows[i].rec))
				printf(rows[i].unit == 4 ? "%.6f" : "%.0f", rows[i].rec);
			printf(",");
			if (!isnan(rows[i].rep))
				printf(rows[i].unit == 4 ? "%.6f" : "%.0f", rows[i].rep);
			printf(",");
			if (!isnan(rows[i].err) && !isinf(rows[i].err))
				printf(rows[i].unit == 3 ? "%.0f" : "%.6f", rows[i].err);
			printf(",");
			if (!isnan(rows[i].limit))
				printf("%.2f", rows[i].limit);
			printf(",%d,%s\n", rows[i].gating, rows[i].pass < 0 ? "" : rows[i].pass ? "1" : "0");
		}
		printf("%" PRId64 ",%" PRId64 ",%" PRId64 ",%s,verdict,,,,,1,%d\n", tr.id, run_id, rec_id,
		       ops->name, verdict);
	} else {
		printf("{\"trace_id\":%" PRId64 ",\"run_id\":%" PRId64 ",\"recorded_run_id\":%" PRId64
		       ",\"model\":",
		       tr.id, run_id, rec_id);
		sl_json_str(stdout, ops->name);
		printf(",\"kernel_release\":");
		if (tr.kernel_release[0])
			sl_json_str(stdout, tr.kernel_release);
		else
			printf("null");
		printf(",\"overhead\":");
		sl_json_str(stdout, o.nq > 0 ? (o.overhead ? o.overhead : "fixed") : "none");
		printf(",\"wake_latency_median_ns\":%" PRIu64 ",\"switch_latency_median_ns\":%" PRIu64,
		       o.nq > 0 && o.overhead && !strcmp(o.overhead, "auto") ? ov.wake_ns
		       : o.nq > 0				      ? o.wake_lat_ns[0]
								      : 0,
		       o.nq > 0 && o.overhead && !strcmp(o.overhead, "auto") ? ov.switch_ns
		       : o.nq > 0				      ? o.switch_lat_ns[0]
								      : 0);
		printf(",\"seeds\":%zu", nseeds);
		printf(",\"verdict\":%s,\"metrics\":[", verdict ? "\"pass\"" : "\"fail\"");
		for (i = 0; i < n; i++) {
			printf("%s{\"metric\":\"%s\",\"recorded\":", i ? "," : "", rows[i].key);
			json_num(rows[i].rec, rows[i].unit == 4 ? 6 : 0);
			printf(",\"replay\":");
			json_num(rows[i].rep, rows[i].unit == 4 ? 6 : 0);
			printf(",\"error\":");
			json_num(rows[i].err, rows[i].unit == 3 ? 0 : 6);
			printf(",\"limit\":");
			json_num(rows[i].limit, 2);
			printf(",\"gating\":%s,\"pass\":%s}", rows[i].gating ? "true" : "false",
			       rows[i].pass < 0 ? "null" : rows[i].pass ? "true" : "false");
		}
		printf("]}\n");
	}
	sl_run_data_release(&rec);
	sl_run_data_release(&rep);
	sl_store_close(st);
	return verdict ? 0 : 1; /* as diff(1): 1 the answer "differs", 2 trouble */
fail_tx:
	sl_store_rollback(st);
fail:
	sl_err("%s", d.msg[0] ? d.msg : "validate failed");
	if (have_rec)
		sl_run_data_release(&rec);
	if (have_rep)
		sl_run_data_release(&rep);
	sl_behaviour_release(&b);
	sl_store_close(st);
	return 2;
}
