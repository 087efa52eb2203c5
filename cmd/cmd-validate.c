/* cmd/cmd-validate.c - `schedlab validate`: replay a trace through the model
 * of the kernel that recorded it and print how far the replay is from the
 * recorded run, against the thresholds of docs/validate.md. */
#include "cmd.h"
#include "../analyze/completeness.h"
#include "../analyze/fidelity.h"
#include "../analyze/metrics.h"
#include "../analyze/store.h"
#include "../collector/release.h"
#include "../replay/choices.h"
#include "../replay/sync.h"
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
	"                [--interference recorded|none] [--late-cpus offline|online]\n"
	"                [--irq-cpu auto|relative|remote|recorded|sleeper] [--handback on|off]\n"
	"                [--wall-clock on|off] [--tick-timers on|off]\n"
	"                [--reap any|named]\n"
	"                [--hrtimer-slack auto|on|off] [--abs-timers on|off]\n"
	"                [--vcpu-pack off|ledger] [--sched-features off|ledger]\n"
	"                [--sync block|exit|none|group] [--opt NAME=VALUE]...\n"
	"                [--format table|csv|json]\n"
	"schedlab [--db FILE] validate --trace ID --against ID2 [--format table|csv|json]";

static const char about[] =
	"Replay a trace through the model of the kernel that recorded it (from the\n"
	"kernel release the file carries: 6.6 and later eevdf, 2.6.23 to 6.5 cfs,\n"
	"older o1) and compare the replay with the recorded run: CPU time of every\n"
	"task, switches, migrations, wakeup-delay KS distance and p50/p95/p99/max\n"
	"errors overall, for the 10 busiest and the 10 most-woken tasks, and a\n"
	"verdict against the thresholds of docs/validate.md. The trace is replayed\n"
	"--seeds times and each replay figure is their median; the first replay is\n"
	"stored as a run, the figures go into the metric table (fidelity_*). Exit\n"
	"status 0 for PASS, 1 for FAIL (the table printed either way), 2 on an error.\n"
	"With --against, no replay: the recorded run of ID2, another recording of\n"
	"the same workload, takes the replay's place, and the same checks say how\n"
	"far the kernel is from itself (the noise floor, docs/validate.md).\n";

static void more_help(FILE *f)
{
	fprintf(f, "\nModels (--sched): %s\n", sl_policy_names());
}

struct vopts {
	int64_t trace, against;
	const char *sched, *overhead;
	int fmt, mode, interference, irq_cpu, late, handback, vcpu_pack, wall, tick_timers, hrt_slack, reap;
	int abs_timers, features, sync;
	long long hz, seeds, first_seed;
	struct sl_strlist opt; /* --opt: model options after the release's and the ledger's */
};

enum { VP_OFF, VP_LEDGER };
enum { FEAT_OFF, FEAT_LEDGER };
static const struct sl_choice features_choices[] = {
	{ "off", FEAT_OFF, "the model's defaults and the release's options" },
	{ "ledger", FEAT_LEDGER,
	  "the options the recording kernel's scheduler features set\n(place_lag, run_to_parity, delay_dequeue, ...), where its\nledger has them (the default; docs/ledger.md)" },
	SL_CHOICES_END
};
static const struct sl_choice vcpu_pack_choices[] = {
	{ "off", VP_OFF, "mainline's placement" },
	{ "ledger", VP_LEDGER,
	  "the recording kernel's sched_vcpu_pack bits from its\nledger (docs/eevdf.md \"vCPU packing\"), where it has the\nline (the default: the corpus validates better with it,\ndocs/validate.md)" },
	SL_CHOICES_END
};

static int parse(int argc, char **argv, struct vopts *v)
{
	int rc;
	char irq_auto[128];
	struct sl_choice irqs[8];
	const struct sl_opt opts[] = {
		SL_OPT_ID(0, "trace", &v->trace, "an imported trace with a recorded run"),
		SL_OPT_ID(0, "against", &v->against,
			  "another imported recording of the same workload: its\n"
			  "recorded run is compared with --trace's by the same\n"
			  "checks, with no replay (CPU time per task is not\n"
			  "compared: other tasks); the replay options do not apply"),
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
			   "the trace's scheduler ticks (sched_stat_runtime), else\n"
			   "of the recorded run's tick preemptions, else 1000"),
		SL_OPT_INT(0, "seeds", &v->seeds, 1, 64, "N",
			   "replay N times, --seed 0 to N-1 (the draws of the\n"
			   "kernel overheads), and compare the median of each figure\n"
			   "(default 15; one replay's tail percentiles are a draw:\n"
			   "docs/validate.md); the seed-0 replay is stored"),
		SL_OPT_INT(0, "first-seed", &v->first_seed, 0, 1000000000, "S",
			   "the replays' seeds are S to S+N-1 instead (default 0),\n"
			   "and the seed-S replay is stored: how much a verdict\n"
			   "owes to the draws (docs/validate.md)"),
		SL_OPT_CHOICE(0, "interference", &v->interference, sl_interference_choices,
			      "the replay's bursts with their recorded interference\n"
			      "(recorded keeps the CPU time validate holds exact; see\n"
			      "'schedlab replay -h'):"),
		SL_OPT_CHOICE(0, "irq-cpu", &v->irq_cpu, irqs,
			      "where an interrupt's wakeup runs (docs/replay.md\n"
			      "\"Wakeup CPU\"):"),
		SL_OPT_CHOICE(0, "late-cpus", &v->late, sl_late_cpus_choices,
			      "a CPU of the trace with no event until late (see\n"
			      "'schedlab replay -h'):"),
		SL_OPT_CHOICE(0, "handback", &v->handback, sl_handback_choices,
			      "a hand-off pair in a causal replay (see 'schedlab\n"
			      "replay -h'):"),
		SL_OPT_CHOICE(0, "wall-clock", &v->wall, sl_wall_choices,
			      "tasks whose bursts end on a wall-clock deadline (see\n"
			      "'schedlab replay -h'):"),
		SL_OPT_CHOICE(0, "tick-timers", &v->tick_timers, sl_tick_timer_choices,
			      "the trace's timers that fired at the tick (see\n"
			      "'schedlab replay -h'):"),
		SL_OPT_CHOICE(0, "reap", &v->reap, sl_reap_choices,
			      "a parent whose children's exits end its sleeps (see\n"
			      "'schedlab replay -h'):"),
		SL_OPT_CHOICE(0, "abs-timers", &v->abs_timers, sl_abs_timer_choices,
			      "the trace's tasks on an absolute periodic timer (see\n"
			      "'schedlab replay -h'):"),
		SL_OPT_CHOICE(0, "hrtimer-slack", &v->hrt_slack, sl_hrt_slack_choices,
			      "the trace's sleeps that their own timer ended (see\n"
			      "'schedlab replay -h'):"),
		SL_OPT_CHOICE(0, "vcpu-pack", &v->vcpu_pack, vcpu_pack_choices,
			      "eevdf: the recording kernel's vCPU packing patch:"),
		SL_OPT_CHOICE(0, "sched-features", &v->features, features_choices,
			      "eevdf: the recording kernel's sched_feat() bits:"),
		SL_OPT_CHOICE(0, "sync", &v->sync, sl_sync_choices,
			      "which wakeups are sync (see 'schedlab replay -h';\n"
			      "docs/replay.md \"Sync wakeups\"):"),
		SL_OPT_LIST(0, "opt", &v->opt, "NAME=VALUE",
			    "a model option (their list: 'schedlab replay -h'),\n"
			    "applied after the release's and the ledger's; repeatable"),
		SL_OPT_CHOICE(0, "format", &v->fmt, sl_format_choices, "the output:"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "validate", synopsis, about, opts, SL_OPTS_OPERANDS, more_help };
	int nops = 0;
	size_t i;
	sl_irq_cpu_table(irqs, irq_auto, sizeof(irq_auto));
	memset(v, 0, sizeof(*v));
	v->vcpu_pack = VP_LEDGER;
	v->features = FEAT_LEDGER;
	v->irq_cpu = SL_IRQ_CPU_AUTO;
	v->fmt = SL_FMT_TABLE;
	v->mode = SL_MODE_CAUSAL;
	v->sync = SL_SYNC_BLOCK;
	v->interference = SL_INTERFERENCE_RECORDED;
	v->hz = 0; /* estimated */
	v->seeds = 15;
	if ((rc = sl_opts_parse(&spec, argc, argv, &nops)) != SL_OPTS_GO)
		return rc == 0 ? 1 : rc;
	if (nops) {
		/* a file or a folder where an imported trace's id goes: say how */
		sl_err("validate: '%s': validate takes an imported trace (--trace ID): 'schedlab import "
		       "%s' first; for a folder of recordings, 'make validate CORPUS=DIR' "
		       "(tests/tools/validate-corpus.sh DIR)",
		       argv[1], argv[1]);
		return 2;
	}
	if (!v->trace) {
		sl_err("validate: --trace ID is required");
		return 2;
	}
	for (i = 0; i < v->opt.n; i++) {
		const char *o = v->opt.v[i], *eq = strchr(o, '=');
		if (!eq || eq == o || strchr(o, ',')) {
			sl_err("validate: --opt '%s': expected NAME=VALUE", o);
			return 2;
		}
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

/* The checks past their thresholds, split by whether the replay's figure
 * is inside the recorded figure's own 95 % interval (sl_fid_row.noise; not
 * gating: docs/validate.md "Sampling noise"); nothing when none is past. */
static void print_noise(const struct sl_fid_row *rows, size_t n)
{
	size_t i, npast = 0;
	int side;
	for (i = 0; i < n; i++)
		npast += rows[i].gating && rows[i].pass == 0 && rows[i].noise >= 0;
	if (!npast)
		return;
	printf("sampling noise (not gating; docs/validate.md): past their thresholds");
	for (side = 1; side >= 0; side--) {
		int first = 1;
		printf(side ? " and inside the recorded figure's 95 %% interval:" : "; outside it:");
		for (i = 0; i < n; i++) {
			const struct sl_fid_row *r = &rows[i];
			char a[32], b[32];
			if (!r->gating || r->pass != 0 || r->noise != side)
				continue;
			cell(a, sizeof(a), r->noise_lo, r->unit == 2 ? 4 : r->unit);
			cell(b, sizeof(b), r->noise_hi, r->unit == 2 ? 4 : r->unit);
			printf("%s %s [%s, %s]", first ? "" : ",", r->what, a, b);
			first = 0;
		}
		if (first)
			printf(" none");
	}
	printf("\n");
}

static void print_table(const struct sl_fid_row *rows, size_t n, int verdict, const char *other)
{
	size_t i, nfail = 0, ngate = 0;
	printf("%-32s %12s %12s %12s %10s  %s\n", "metric (delays in us)", "recorded", other,
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
	print_noise(rows, n);
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

/* The comparison of n replays (--seed o->seed .. o->seed + n-1, --first-seed)
 * with rec, merged into *f (sl_fidelity_median): the first is rep (stored); the others are
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
		os.seed = o->seed + s;
		if (sl_cmd_replay_mem(b, ops, &os, NULL, rep, &m, d)) {
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

/* What a validation has: the trace, the replay's options, the recorded
 * run and the replay's, the fidelity rows. */
struct vrun {
	struct sl_trace_info tr;
	struct sl_replay_opts o;
	struct sl_overheads ov;
	const struct sl_policy_ops *ops;
	const char *why;        /* where the model comes from */
	char hz_why[160];       /* where --hz comes from */
	char popts[512];        /* the model's options: the release's, the ledger's vcpu_pack, --opt */
	int64_t rec_id, run_id;
	size_t nseeds;          /* replays compared (--seeds; 1 without overheads) */
	uint64_t tick_timers;   /* the stored replay's sleeps ended at a tick */
	uint64_t hrt_early;     /* its timers fired early, in their slack */
	uint64_t reap_any;      /* its waits for any child another child ended */
	size_t pelt_tasks, pelt_cpus; /* the ledger's load tracking at the start (start_pelt) */
	struct sl_run_data rec, rep;
	struct sl_fidelity f;   /* the median of the replays' comparisons */
	int have_rec, have_rep;
	struct sl_fid_row rows[SL_FID_MAXROWS];
	size_t n;
	int verdict;
};

/* The model: --sched, else the recording kernel's (from its release); the
 * eevdf model gets that release's features. */
static int choose_model(const struct vopts *v, struct vrun *x, struct sl_diag *d)
{
	const struct sl_trace_info *tr = &x->tr;
	const char *model = v->sched;

	x->why = "--sched";
	if (!model) {
		if (!tr->kernel_release[0])
			return sl_fail(d, "trace %" PRId64 ": the kernel that recorded it is unknown (%s "
					  "files do not carry its release): give --sched MODEL",
				       tr->id, tr->format);
		model = sl_release_model(tr->kernel_release);
		if (!model)
			return sl_fail(d, "trace %" PRId64 ": kernel release '%s' is not MAJOR.MINOR...: "
					  "give --sched MODEL", tr->id, tr->kernel_release);
		x->why = "from the kernel release";
	}
	x->ops = sl_policy_find(model);
	if (!x->ops)
		return sl_fail(d, "trace %" PRId64 " was recorded on Linux %s, whose scheduler is %s: "
				  "this build has no %s model (models: %s); give --sched MODEL",
			       tr->id, tr->kernel_release, model, model, sl_policy_names());
	/* the eevdf model's features as that release had them (DELAY_DEQUEUE
	 * from v6.12, the 0.70 ms base slice from v6.15; docs/eevdf.md) */
	if (!strcmp(x->ops->name, "eevdf") && tr->kernel_release[0])
		x->o.policy_opts = sl_release_eevdf_opts(tr->kernel_release);
	return 0;
}

/* --opt: each NAME one of the model's options (the NAME=VALUE form is
 * parse()'s) */
static int check_opts(const struct vopts *v, const struct vrun *x, struct sl_diag *d)
{
	size_t i;
	for (i = 0; i < v->opt.n; i++) {
		const char *o = v->opt.v[i];
		size_t n = (size_t)(strchr(o, '=') - o);
		if (sl_policy_param_index(x->ops, o, n) < 0)
			return sl_fail(d, "validate: --opt '%s': the %s model has no option '%.*s' "
					  "(its options: 'schedlab replay -h')",
				       o, x->ops->name, (int)n, o);
	}
	return 0;
}

/* The trace, its model and its recorded run loaded (x->rec). */
static int load_trace(struct sl_store *st, const struct vopts *v, struct vrun *x,
		      struct sl_diag *d)
{
	struct sl_trace_info *tr = &x->tr;
	double share;
	int by_work;
	if (sl_store_get_trace(st, v->trace, tr, d))
		return -1;
	/* a trace imported before schema 4 has no release: read it from the
	 * file if it is still there, and keep it */
	if (!tr->kernel_release[0] &&
	    sl_trace_release(tr->path, tr->format, tr->kernel_release, sizeof(tr->kernel_release)) &&
	    sl_store_set_trace_release(st, tr->id, tr->kernel_release, d))
		return -1;
	/* the model, and the --opt names it must have, before anything is said */
	if (choose_model(v, x, d) || check_opts(v, x, d))
		return -1;
	/* a trace its ledger found incomplete: said again (docs/ledger.md) */
	share = sl_trace_complete_share(tr, &by_work);
	if (tr->ledger[0] && !isnan(share) && share < SL_LEDGER_COMPLETE)
		sl_warnx("trace %" PRId64 " is incomplete: it %s %.1f %% of the CPU time the kernel "
			 "charged its threads (its ledger, %s); the recorded run misses work", tr->id,
			 by_work ? "holds the charges (sched_stat_runtime) of" : "accounts for", 100 * share,
			 tr->ledger);
	if (sl_store_recorded_run(st, tr->id, &x->rec_id, d))
		return -1;
	if (!x->rec_id)
		return sl_fail(d, "trace %" PRId64 " has no recorded run to validate against (a "
				  "workload?)", tr->id);
	return 0;
}

/* --hz, else the tick estimated from the recorded run (else 1000). */
static void choose_hz(const struct vopts *v, struct vrun *x)
{
	size_t samples = 0;
	double conc = 0;
	const char *from;
	int est;

	if (v->hz) {
		snprintf(x->hz_why, sizeof(x->hz_why), "--hz");
	} else if (sl_recording_hz(&x->rec, &est, &samples, &conc, &from) == 0) {
		x->o.hz = est;
		snprintf(x->hz_why, sizeof(x->hz_why), "estimated from %zu %s, concentration %.2f",
			 samples, from, conc);
	} else {
		snprintf(x->hz_why, sizeof(x->hz_why), "could not tell from %zu %s: the default; --hz N",
			 samples, from);
	}
}

/* item appended to the model's options (x->popts, after what
 * x->o.policy_opts held: the release's, the options before it; a later value
 * of a name wins); -1 when they do not fit */
static int opt_append(struct vrun *x, const char *item)
{
	char buf[sizeof(x->popts)];
	const char *was = x->o.policy_opts ? x->o.policy_opts : "";
	int n = snprintf(buf, sizeof(buf), "%s%s%s", was, *was ? "," : "", item);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return -1;
	memcpy(x->popts, buf, (size_t)n + 1);
	x->o.policy_opts = x->popts;
	return 0;
}

/* The replay stored as a run (x->run_id) and loaded (x->rep), and the
 * comparison of --seeds replays with the recorded run (x->f). */
static int replay(struct sl_store *st, const struct vopts *v, struct vrun *x, struct sl_diag *d)
{
	struct sl_behaviour b;
	struct sl_replay_stats rs;
	int rc = -1, vp;
	size_t i;

	memset(&b, 0, sizeof(b));
	if (sl_store_load_behaviour(st, x->tr.id, &b, d))
		goto out;
	if (!b.ntasks) {
		sl_fail(d, "trace %" PRId64 " has no tasks to replay", x->tr.id);
		goto out;
	}
	{
		size_t k;
		int c;
		for (k = 0; k < b.ntasks; k++)
			x->pelt_tasks += (size_t)b.tasks[k].pelt_known;
		for (c = 0; b.cpu_pelt && c < b.cpus; c++)
			x->pelt_cpus += (size_t)b.cpu_pelt[c].known;
	}
	x->o.cpus = b.cpus > 0 ? (b.cpus > SL_ENGINE_MAX_CPUS ? SL_ENGINE_MAX_CPUS : b.cpus) : 1;
	x->o.irq_cpu_mode = v->irq_cpu;
	x->o.interference = sl_choice_name(sl_interference_choices, v->interference, "recorded");
	x->o.late_cpus_mode = v->late;
	x->o.no_handback = v->handback;
	x->o.no_wall = v->wall;
	x->o.no_tick_timers = v->tick_timers;
	x->o.reap_named = v->reap;
	x->o.hrtimer_slack = v->hrt_slack;
	x->o.no_abs_timers = v->abs_timers;
	if (v->interference == SL_INTERFERENCE_NONE)
		sl_behaviour_work_only(&b);
	if (sl_store_load_run(st, x->rec_id, &x->rec, d))
		goto out;
	x->have_rec = 1;
	choose_hz(v, x);
	x->o.tick_phase_ns = sl_recording_tick_phase(x->rec.run.params, x->o.hz);
	/* --vcpu-pack ledger: the recording kernel's sched_vcpu_pack, where its
	 * ledger gave it (docs/eevdf.md "vCPU packing"): an eevdf option */
	vp = sl_recording_vcpu_pack(&x->rec);
	if (!strcmp(x->ops->name, "eevdf")) {
		char fe[1024], fo[512], vps[32];
		/* --sched-features ledger: the options the recording kernel's
		 * features set, where its ledger showed them (docs/ledger.md),
		 * after the release's (a feature says more than a release) */
		if (v->features == FEAT_LEDGER && !sl_recording_sched_features(&x->rec, fe, sizeof(fe)) &&
		    !sl_features_eevdf_opts(fe, fo, sizeof(fo)) && fo[0] && opt_append(x, fo))
			goto too_long;
		snprintf(vps, sizeof(vps), "vcpu_pack=%d", vp & 15);
		if (v->vcpu_pack == VP_LEDGER && vp >= 0 && opt_append(x, vps))
			goto too_long;
	}
	/* --opt last: it wins */
	for (i = 0; i < v->opt.n; i++)
		if (opt_append(x, v->opt.v[i]))
			goto too_long;
	if (!v->overhead || !strcmp(v->overhead, "auto"))
		sl_overhead_of_run(&x->rec, &x->o, &x->ov); /* the recorded run, loaded above */
	x->o.seed = (uint64_t)v->first_seed; /* the stored replay's; the others follow */
	/* the release's options (o.policy_opts) go in as --opt does:
	 * sl_cmd_replay_store keeps those the model has */
	if (sl_cmd_replay_store(st, x->tr.id, &b, x->ops, &x->o, NULL, &x->run_id, &rs,
				NULL, d))
		goto out;
	if (sl_store_load_run(st, x->run_id, &x->rep, d))
		goto out;
	x->have_rep = 1;
	x->tick_timers = rs.tick_timers;
	x->reap_any = rs.reap_any;
	x->hrt_early = rs.hrt_early;
	/* without overheads there is nothing to draw: every seed replays alike */
	x->nseeds = x->o.nq > 0 ? (size_t)v->seeds : 1;
	if (seeds_compare(&b, x->ops, &x->o, &x->rec, &x->rep, x->nseeds, &x->f, d))
		goto out;
	rc = 0;
	goto out;
too_long:
	sl_fail(d, "trace %" PRId64 ": the model's options are too long", x->tr.id);
out:
	sl_behaviour_release(&b);
	return rc;
}

/* The fidelity figures into the metric table (fidelity_*), in one
 * transaction. */
static int store_fidelity(struct sl_store *st, const struct vrun *x, struct sl_diag *d)
{
	size_t i;
	if (sl_store_begin(st, d))
		return -1;
	if (sl_store_clear_fidelity(st, x->run_id, d) ||
	    sl_store_put_metric(st, x->run_id, -1, "fidelity_recorded_run", (double)x->rec_id, d) ||
	    sl_store_put_metric(st, x->run_id, -1, "fidelity_verdict", x->verdict, d) ||
	    sl_store_put_metric(st, x->run_id, -1, "fidelity_seeds", (double)x->nseeds, d))
		goto fail;
	for (i = 0; i < x->n; i++) {
		const struct sl_fid_row *r = &x->rows[i];
		char name[64];
		snprintf(name, sizeof(name), "fidelity_%.31s", r->key);
		if (!isnan(r->err) && !isinf(r->err) &&
		    sl_store_put_metric(st, x->run_id, -1, name, r->err, d))
			goto fail;
		snprintf(name, sizeof(name), "fidelity_%.31s_pass", r->key);
		if (r->pass >= 0 && sl_store_put_metric(st, x->run_id, -1, name, r->pass, d))
			goto fail;
		snprintf(name, sizeof(name), "fidelity_%.31s_noise", r->key);
		if (r->noise >= 0 && sl_store_put_metric(st, x->run_id, -1, name, r->noise, d))
			goto fail;
	}
	if (sl_store_commit(st, d))
		goto fail;
	return 0;
fail:
	sl_store_rollback(st);
	return -1;
}

/* The value the model reads for its option name, from the options string
 * the replays ran with (sl_eng_parse_policy_opts: its default where the
 * string does not set it, the last value where it does); -1 when the
 * model has no such option. */
static long long model_opt(const struct sl_policy_ops *ops, const char *opts, const char *name)
{
	long long vals[SL_ENGINE_MAX_PARAMS];
	struct sl_diag d;
	int k = sl_policy_param_index(ops, name, strlen(name));
	memset(&d, 0, sizeof(d));
	if (k < 0 || sl_eng_parse_policy_opts(ops, opts, vals, &d))
		return -1;
	return vals[k];
}

static void print_text(const struct vrun *x)
{
	const struct sl_replay_opts *o = &x->o;
	printf("trace %" PRId64 " (%s, Linux %s): %s (%s), %s, %d Hz (%s), replay run %" PRId64
	       " against recorded run %" PRId64 "\n",
	       x->tr.id, x->tr.format, x->tr.kernel_release[0] ? x->tr.kernel_release : "unknown",
	       x->ops->name, x->why, o->mode == SL_MODE_CAUSAL ? "causal" : "timed", o->hz,
	       x->hz_why, x->run_id, x->rec_id);
	if (!strcmp(x->ops->name, "eevdf"))
		printf("model options: %s\n",
		       o->policy_opts ? o->policy_opts
				      : "the defaults (v6.18 and later: 0.70 ms normalized slice, "
					"DELAY_DEQUEUE, PLACE_REL_DEADLINE, yield forfeits)");
	if (!strcmp(x->ops->name, "eevdf"))
		printf("load tracking at the start: %s (%zu tasks, %zu CPUs; docs/eevdf.md)\n",
		       !x->pelt_cpus ? "estimated from the first 128 ms (no version 5 ledger)"
		       : model_opt(x->ops, o->policy_opts, "start_pelt") == 0 ? "estimated (start_pelt=0)"
								  : "the kernel's, from the ledger",
		       x->pelt_tasks, x->pelt_cpus);
	if (o->nq > 0 && o->overhead && !strcmp(o->overhead, "auto"))
		printf("overheads (auto): wake-up to idle CPU median %.1f us (%zu samples%s), "
		       "preemption median %.1f us (%zu samples; %zu tick preemptions left out), "
		       "for a wakee of the running task's own %.1f us (%zu samples%s)\n",
		       (double)x->ov.wake_ns / 1000.0, x->ov.nwake,
		       !x->ov.nwake && x->ov.nswitch ? ": none, the preemptions'" : "",
		       (double)x->ov.switch_ns / 1000.0,
		       x->ov.nswitch, x->ov.ntick, (double)x->ov.switch_own_ns / 1000.0, x->ov.nswitch_own,
		       x->ov.nswitch_own < SL_OVERHEAD_OWN_MIN ? ": too few, all preemptions'" : "");
	else if (o->nq > 0)
		printf("overheads (fixed): wake-up to idle CPU %.1f us, preemption %.1f us\n",
		       (double)o->wake_lat_ns[0] / 1000.0, (double)o->switch_lat_ns[0] / 1000.0);
	else
		printf("overheads: none\n");
	if (o->no_tick_timers)
		printf("timers at the tick: off (--tick-timers off)\n");
	else if (o->tick_phase_ns < 0)
		printf("timers at the tick: none (no recorded tick phase at %d Hz; "
		       "docs/model.md)\n", o->hz);
	else
		printf("timers at the tick: %" PRIu64 " sleeps of the stored replay end at a tick "
		       "(docs/model.md)\n", x->tick_timers);
	if (sl_hrt_slack_on(o, x->ops->name))
		printf("timer slack: %" PRIu64 " timers of the stored replay fired early, with another "
		       "timer of their CPU or its tick (docs/model.md \"Timer slack\")\n", x->hrt_early);
	else
		printf("timer slack: off (%s)\n", o->hrtimer_slack == SL_HRT_SLACK_OFF
						      ? "--hrtimer-slack off"
						      : "none before 2.6.28");
	if (o->mode == SL_MODE_CAUSAL && !o->reap_named)
		printf("waits for any child: %" PRIu64 " waits of the stored replay ended by another child "
		       "than recorded (docs/replay.md)\n", x->reap_any);
	if (x->nseeds > 1)
		printf("replays: %zu, --seed %" PRIu64 " to %" PRIu64 " (the overheads' draws); each "
		       "replay figure is their median, run %" PRId64 " is seed %" PRIu64 "'s\n",
		       x->nseeds, x->o.seed, x->o.seed + x->nseeds - 1, x->run_id, x->o.seed);
	print_table(x->rows, x->n, x->verdict, "replay");
}

/* a row's recorded,other,error,limit,gating,pass columns and the newline */
static void csv_figures(const struct sl_fid_row *r)
{
	if (!isnan(r->rec))
		printf(r->unit == 4 ? "%.6f" : "%.0f", r->rec);
	printf(",");
	if (!isnan(r->rep))
		printf(r->unit == 4 ? "%.6f" : "%.0f", r->rep);
	printf(",");
	if (!isnan(r->err) && !isinf(r->err))
		printf(r->unit == 3 ? "%.0f" : "%.6f", r->err);
	printf(",");
	if (!isnan(r->limit))
		printf("%.2f", r->limit);
	printf(",%d,%s\n", r->gating, r->pass < 0 ? "" : r->pass ? "1" : "0");
}

/* the "metrics" array of the JSON output, the second run's figure named other */
static void json_metrics(const struct sl_fid_row *rows, size_t n, const char *other)
{
	size_t i;
	printf("\"metrics\":[");
	for (i = 0; i < n; i++) {
		const struct sl_fid_row *r = &rows[i];
		printf("%s{\"metric\":\"%s\",\"recorded\":", i ? "," : "", r->key);
		json_num(r->rec, r->unit == 4 ? 6 : 0);
		printf(",\"%s\":", other);
		json_num(r->rep, r->unit == 4 ? 6 : 0);
		printf(",\"error\":");
		json_num(r->err, r->unit == 3 ? 0 : 6);
		printf(",\"limit\":");
		json_num(r->limit, 2);
		printf(",\"gating\":%s,\"pass\":%s", r->gating ? "true" : "false",
		       r->pass < 0 ? "null" : r->pass ? "true" : "false");
		/* the recorded figure's 95 % interval (docs/validate.md "Sampling noise") */
		printf(",\"noise\":%s,\"noise_interval\":", r->noise < 0 ? "null" : r->noise ? "true" : "false");
		if (r->noise < 0) {
			printf("null}");
		} else {
			printf("[");
			json_num(r->noise_lo, r->unit == 2 || r->unit == 4 ? 6 : 0);
			printf(",");
			json_num(r->noise_hi, r->unit == 2 || r->unit == 4 ? 6 : 0);
			printf("]}");
		}
	}
	printf("]}\n");
}

static void print_csv(const struct vrun *x)
{
	size_t i;
	printf("trace_id,run_id,recorded_run_id,model,metric,recorded,replay,error,limit,gating,pass\n");
	for (i = 0; i < x->n; i++) {
		const struct sl_fid_row *r = &x->rows[i];
		printf("%" PRId64 ",%" PRId64 ",%" PRId64 ",%s,%s,", x->tr.id, x->run_id, x->rec_id,
		       x->ops->name, r->key);
		csv_figures(r);
	}
	printf("%" PRId64 ",%" PRId64 ",%" PRId64 ",%s,verdict,,,,,1,%d\n", x->tr.id, x->run_id,
	       x->rec_id, x->ops->name, x->verdict);
}

static void print_json(const struct vrun *x)
{
	const struct sl_replay_opts *o = &x->o;
	int aut = o->nq > 0 && o->overhead && !strcmp(o->overhead, "auto");

	printf("{\"trace_id\":%" PRId64 ",\"run_id\":%" PRId64 ",\"recorded_run_id\":%" PRId64
	       ",\"model\":",
	       x->tr.id, x->run_id, x->rec_id);
	sl_json_str(stdout, x->ops->name);
	printf(",\"kernel_release\":");
	if (x->tr.kernel_release[0])
		sl_json_str(stdout, x->tr.kernel_release);
	else
		printf("null");
	printf(",\"overhead\":");
	sl_json_str(stdout, o->nq > 0 ? (o->overhead ? o->overhead : "fixed") : "none");
	printf(",\"wake_latency_median_ns\":%" PRIu64 ",\"switch_latency_median_ns\":%" PRIu64
	       ",\"switch_own_latency_median_ns\":%" PRIu64,
	       aut ? x->ov.wake_ns : o->nq > 0 ? o->wake_lat_ns[0] : 0,
	       aut ? x->ov.switch_ns : o->nq > 0 ? o->switch_lat_ns[0] : 0,
	       aut ? x->ov.switch_own_ns : o->nq > 0 ? o->switch_lat_ns[0] : 0);
	printf(",\"seeds\":%zu,\"first_seed\":%" PRIu64, x->nseeds, x->o.seed);
	printf(",\"verdict\":%s,", x->verdict ? "\"pass\"" : "\"fail\"");
	json_metrics(x->rows, x->n, "replay");
}

/* --against: the recorded run of trace v->against in the replay's place.
 * The per-task CPU time is of other tasks: not compared, not gating; the
 * busiest and most-woken groups are tasks of --trace (none in the other
 * recording): those rows are left out. 0, or -1 with d set. */
static int against(struct sl_store *st, const struct vopts *v, struct vrun *x, struct sl_trace_info *tb,
		   struct sl_diag *d)
{
	size_t i, k;
	if (sl_store_get_trace(st, v->trace, &x->tr, d) || sl_store_get_trace(st, v->against, tb, d) ||
	    sl_store_recorded_run(st, x->tr.id, &x->rec_id, d) ||
	    sl_store_recorded_run(st, tb->id, &x->run_id, d))
		return -1;
	if (!x->rec_id || !x->run_id)
		return sl_fail(d, "trace %" PRId64 " has no recorded run to compare (a workload?)",
			       x->rec_id ? tb->id : x->tr.id);
	if (sl_store_load_run(st, x->rec_id, &x->rec, d))
		return -1;
	x->have_rec = 1;
	if (sl_store_load_run(st, x->run_id, &x->rep, d))
		return -1;
	x->have_rep = 1;
	sl_fidelity_compute(&x->rec, &x->rep, &x->f);
	x->n = sl_fidelity_rows(&x->f, x->rows, &x->verdict);
	x->verdict = 1;
	for (i = 0, k = 0; i < x->n; i++) {
		const struct sl_fid_row *r = &x->rows[i];
		if (!strcmp(r->key, "runtime_exact") || (!r->gating && !strstr(r->key, "_all")))
			continue; /* left out */
		if (r->gating && r->pass != 1)
			x->verdict = 0;
		x->rows[k++] = *r;
	}
	x->n = k;
	return 0;
}

static void print_against(const struct vrun *x, const struct sl_trace_info *tb, int fmt)
{
	size_t i;
	if (fmt == SL_FMT_TABLE) {
		printf("trace %" PRId64 " (%s, Linux %s) recorded run %" PRId64 " against trace %" PRId64
		       " (%s, Linux %s) recorded run %" PRId64 ": two recordings, no replay (the noise "
		       "floor, docs/validate.md)\n",
		       x->tr.id, x->tr.format, x->tr.kernel_release[0] ? x->tr.kernel_release : "unknown",
		       x->rec_id, tb->id, tb->format, tb->kernel_release[0] ? tb->kernel_release : "unknown",
		       x->run_id);
		print_table(x->rows, x->n, x->verdict, "other");
		return;
	}
	if (fmt == SL_FMT_CSV) {
		printf("trace_id,recorded_run_id,against_trace_id,against_run_id,metric,recorded,other,"
		       "error,limit,gating,pass\n");
		for (i = 0; i < x->n; i++) {
			const struct sl_fid_row *r = &x->rows[i];
			printf("%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%s,", x->tr.id, x->rec_id,
			       tb->id, x->run_id, r->key);
			csv_figures(r);
		}
		printf("%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",verdict,,,,,1,%d\n", x->tr.id,
		       x->rec_id, tb->id, x->run_id, x->verdict);
		return;
	}
	printf("{\"trace_id\":%" PRId64 ",\"recorded_run_id\":%" PRId64 ",\"against_trace_id\":%" PRId64
	       ",\"against_run_id\":%" PRId64 ",\"verdict\":%s,",
	       x->tr.id, x->rec_id, tb->id, x->run_id, x->verdict ? "\"pass\"" : "\"fail\"");
	json_metrics(x->rows, x->n, "other");
}

int cmd_validate(int argc, char **argv, const struct sl_globals *g)
{
	struct vopts v;
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_store *st = NULL;
	struct vrun *x;
	int rc;

	rc = parse(argc, argv, &v);
	if (rc) {
		free(v.opt.v);
		return rc == 1 ? 0 : rc;
	}
	x = xcalloc(1, sizeof(*x));
	sl_replay_opts_init(&x->o);
	x->o.mode = v.mode;
	x->o.sync_mode = v.sync;
	x->o.origin = "validate";
	x->o.hz = v.hz ? (int)v.hz : 1000;
	rc = 2;
	if (v.overhead && sl_overhead_parse(v.overhead, &x->o)) {
		sl_err("validate: --overhead '%s': expected auto, none or WAKE[,SWITCH]", v.overhead);
		goto out;
	}
	if (v.sched && !sl_policy_find(v.sched)) {
		sl_err("validate: unknown model '%s' (models: %s)", v.sched, sl_policy_names());
		goto out;
	}
	if (v.against) {
		struct sl_trace_info tb;
		memset(&tb, 0, sizeof(tb));
		if (sl_store_open(g->db, 0, &st, &d) || against(st, &v, x, &tb, &d))
			goto fail;
		print_against(x, &tb, v.fmt);
		rc = x->verdict ? 0 : 1;
		goto out;
	}
	if (sl_store_open(g->db, 0, &st, &d) || load_trace(st, &v, x, &d) || replay(st, &v, x, &d))
		goto fail;
	x->n = sl_fidelity_rows(&x->f, x->rows, &x->verdict);
	if (store_fidelity(st, x, &d))
		goto fail;
	if (v.fmt == SL_FMT_TABLE)
		print_text(x);
	else if (v.fmt == SL_FMT_CSV)
		print_csv(x);
	else
		print_json(x);
	rc = x->verdict ? 0 : 1; /* as diff(1): 1 the answer "differs", 2 trouble */
	goto out;
fail:
	sl_err("%s", d.msg[0] ? d.msg : "validate failed");
out:
	if (x->have_rec)
		sl_run_data_release(&x->rec);
	if (x->have_rep)
		sl_run_data_release(&x->rep);
	sl_store_close(st);
	free(x);
	free(v.opt.v);
	return rc;
}
