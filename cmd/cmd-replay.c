/* cmd/cmd-replay.c - `schedlab replay`: re-schedule a trace's behaviour or a
 * synthetic workload through one or more scheduler models; each model's
 * run is stored in one transaction. */
#include "cmd.h"
#include "../analyze/fidelity.h"
#include "../analyze/store.h"
#include "../common/sha256.h"
#include "../common/util.h"
#include "../replay/choices.h"
#include "../replay/engine.h"
#include "../replay/interference.h"
#include "../replay/sync.h"
#include "../replay/workload.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The models' parameters (--opt), with defaults and ranges. */
static void list_params(FILE *f)
{
	size_t k, i;
	for (k = 0; k < sl_npolicies; k++) {
		const struct sl_policy_ops *ops = sl_policies[k];
		if (!ops->params || !ops->params[0].name)
			continue;
		fprintf(f, "\nParameters of %s (--opt NAME=VALUE):\n", ops->name);
		for (i = 0; ops->params[i].name; i++) {
			const char *al = ops->param_aliases ? ops->param_aliases[i] : NULL;
			char nm[64];
			if (al)
				snprintf(nm, sizeof(nm), "%s (%s)", ops->params[i].name, al);
			else
				snprintf(nm, sizeof(nm), "%s", ops->params[i].name);
			fprintf(f, "  %-23s %lld (%lld..%lld) %s\n", nm, ops->params[i].def,
				ops->params[i].min, ops->params[i].max, ops->params[i].doc ? ops->params[i].doc : "");
		}
	}
}

static const char synopsis[] =
	"schedlab [--db FILE] replay (--trace ID | --workload FILE) --sched NAME[,NAME...]\n"
	"                [--duration T] [--cpus N] [--hz N] [--rr-interval T]\n"
	"                [--mode auto|timed|causal] [--overhead auto|none|WAKE[,SWITCH]] [--seed N]\n"
	"                [--sync block|exit|none|group] [--sync-window T]\n"
	"                [--wake-cpu running|waker]\n"
	"                [--irq-cpu auto|relative|remote|recorded|sleeper]\n"
	"                [--preempt none|voluntary|full|lazy] [--groups ledger|none]\n"
	"                [--interference recorded|none] [--late-cpus offline|online]\n"
	"                [--handback on|off] [--wall-clock on|off] [--tick-timers on|off]\n"
	"                [--reap any|named]\n"
	"                [--hrtimer-slack auto|on|off] [--abs-timers on|off]\n"
	"                [--opt NAME=VALUE]... [--debug] [--dry-run]";

static const char about[] =
	"Re-schedule the recorded behaviour of a trace (until every task has done all\n"
	"its recorded work) or a workload file (for --duration) through each model.\n"
	"Prints one line per run: its id, the model and a summary.\n";

/* after the options: the models and their parameters (--opt) */
static void more_help(FILE *f)
{
	fprintf(f, "\nModels (--sched): %s; or all\n", sl_policy_names());
	list_params(f);
}

struct ropts {
	char exclude[512];      /* --exclude patterns, comma-joined */
	struct sl_strlist excl; /* the option's list (the table releases it) */
	const char *excl_v[32]; /* the same patterns (they point into argv) */
	size_t excl_n;
	int64_t trace_id;
	const char *workload, *sched, *overhead;
	int interference;         /* --interference: SL_INTERFERENCE_* */
	int dry;
	int hz_auto;            /* no --hz: a trace's recorded HZ (estimated) */
	char popts[512];
	struct sl_replay_opts o;
};

/* No --hz for a trace: the recording kernel's CONFIG_HZ, estimated from the
 * recorded run's tick preemptions (rec, NULL when the trace has none) as
 * validate does (docs/validate.md, "Which model"); 1000 when it cannot
 * tell. */
static void trace_hz(const struct sl_run_data *rec, struct sl_replay_opts *o, int quiet)
{
	size_t samples = 0;
	double conc = 0;
	const char *from;
	int est;
	if (!rec)
		return;
	if (sl_recording_hz(rec, &est, &samples, &conc, &from) == 0)
		o->hz = est;
	else if (!quiet)
		printf("HZ: could not tell from %zu %s of the recording: %d (--hz N)\n", samples, from,
		       o->hz);
}

/* The recording's tick phase for o->hz (o->tick_phase_ns; -1 when the
 * recorded run's params do not give it for that HZ), from rec when it is
 * loaded (NULL: its params are read). 0, or -1 with d set. */
static int trace_tick_phase(struct sl_store *st, int64_t trace_id, const struct sl_run_data *rec,
			    struct sl_replay_opts *o, struct sl_diag *d)
{
	struct sl_run_info ri;
	int64_t rec_id = 0;
	o->tick_phase_ns = -1;
	if (rec) {
		o->tick_phase_ns = sl_recording_tick_phase(rec->run.params, o->hz);
		return 0;
	}
	if (sl_store_recorded_run(st, trace_id, &rec_id, d))
		return -1;
	if (!rec_id)
		return 0;
	if (sl_store_get_run(st, rec_id, &ri, d))
		return -1;
	o->tick_phase_ns = sl_recording_tick_phase(ri.params, o->hz);
	return 0;
}

/* The recorded run of trace_id, loaded once for what needs all of it
 * (--overhead auto, HZ estimation, the late CPUs): 1 with *rec filled, 0
 * when the trace has none or nothing needs it, -1 with d set. */
static int load_recorded(struct sl_store *st, int64_t trace_id, const struct ropts *r,
			 struct sl_run_data *rec, struct sl_diag *d)
{
	int64_t rec_id = 0;
	memset(rec, 0, sizeof(*rec));
	if (!r->trace_id || (!r->hz_auto && r->overhead && strcmp(r->overhead, "auto")))
		return 0;
	if (sl_store_recorded_run(st, trace_id, &rec_id, d))
		return -1;
	if (!rec_id)
		return 0;
	return sl_store_load_run(st, rec_id, rec, d) ? -1 : 1;
}

/* Keep the NAME=VALUE items of all that ops knows. */
static void filter_opts(const struct sl_policy_ops *ops, const char *all, char *out, size_t len)
{
	char buf[512], *save = NULL, *tok;
	size_t off = 0;
	out[0] = 0;
	snprintf(buf, sizeof(buf), "%s", all);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char *eq = strchr(tok, '=');
		size_t n = eq ? (size_t)(eq - tok) : strlen(tok);
		if (sl_policy_param_index(ops, tok, n) >= 0) {
			int k = snprintf(out + off, len - off, "%s%s", off ? "," : "", tok);
			if (k > 0 && (size_t)k < len - off)
				off += (size_t)k;
		}
	}
}

static int known_somewhere(const struct sl_policy_ops **pols, size_t np, const char *item)
{
	const char *eq = strchr(item, '=');
	size_t j, n = eq ? (size_t)(eq - item) : strlen(item);
	for (j = 0; j < np; j++)
		if (sl_policy_param_index(pols[j], item, n) >= 0)
			return 1;
	return 0;
}

/* Store (or find) the workload as a trace with its threads. */
static int workload_trace(struct sl_store *st, const char *path, struct sl_behaviour *b, int cpus,
			  uint64_t duration, int64_t *trace_id, struct sl_diag *d)
{
	struct sl_trace_info tr;
	int rc;

	memset(&tr, 0, sizeof(tr));
	if (sl_sha256_file(path, tr.sha256, d))
		return -1;
	rc = sl_store_trace_by_sha(st, tr.sha256, trace_id, d);
	if (rc < 0)
		return -1;
	if (rc == 1) {
		int64_t *utids;
		size_t n, i;
		if (sl_store_trace_utids(st, *trace_id, &utids, &n, d))
			return -1;
		if (n != b->ntasks) {
			free(utids);
			return sl_fail(d, "%s: trace %" PRId64 " has %zu threads, the file %zu tasks", path,
				       *trace_id, n, b->ntasks);
		}
		for (i = 0; i < n; i++)
			b->tasks[i].utid = utids[i];
		free(utids);
		return 0;
	}
	snprintf(tr.path, sizeof(tr.path), "%s", path);
	snprintf(tr.format, sizeof(tr.format), "workload");
	tr.cpus = cpus;
	tr.first_ts = 0;
	tr.last_ts = duration;
	if (sl_store_begin(st, d))
		return -1;
	if (sl_store_add_trace(st, &tr, trace_id, d) ||
	    sl_store_add_behaviour(st, *trace_id, b, NULL, NULL, d) || sl_store_commit(st, d)) {
		sl_store_rollback(st);
		return -1;
	}
	return 0;
}

static void summary(int64_t run_id, const char *name, const struct sl_behaviour *b, int cpus,
		    int mode, int is_trace, const struct sl_replay_stats *s, uint64_t rows)
{
	double span = (double)s->end_ns / 1e9;
	double busy = s->end_ns ? 100.0 * (double)s->busy_ns / ((double)s->end_ns * cpus) : 0.0;
	printf("run %" PRId64 " %s: %zu tasks on %d CPU%s, %.3f s simulated, %" PRIu64 " switches, %" PRIu64
	       " wakeups",
	       run_id, name, b->ntasks, cpus, cpus == 1 ? "" : "s", span, s->switches, s->wakeups);
	if (s->sync_inferred)
		printf(" (%" PRIu64 " sync of %" PRIu64 " inferred)", s->sync_wakeups, s->sync_inferred);
	printf(", %" PRIu64 " migrations", s->migrations);
	if (s->active_balances)
		printf(" (%" PRIu64 " by active balancing)", s->active_balances);
	if (s->execs)
		printf(", %" PRIu64 " execs (%" PRIu64 " moved)", s->execs, s->exec_moves);
	printf(", %.1f%% busy, %" PRIu64 " rows", busy, rows);
	if (mode == SL_MODE_CAUSAL)
		printf(", %" PRIu64 " causal wakeups (%" PRIu64 " fell back to timed), %" PRIu64
		       " hand-backs", s->causal_waits, s->causal_fallbacks, s->handbacks);
	if (s->tick_timers)
		printf(", %" PRIu64 " sleeps ended at a tick (timers)", s->tick_timers);
	if (s->hrt_early)
		printf(", %" PRIu64 " timers fired early (slack)", s->hrt_early);
	if (s->reap_any)
		printf(", %" PRIu64 " waits ended by another child than recorded", s->reap_any);
	if (cpus > 1 && s->end_ns)
		printf(", a CPU idle beside a waiting task %.2f%% of the time (longest %.1f ms, "
		       "%.2f%% beyond the balancing intervals)",
		       100.0 * (double)s->idle_wait_ns / (double)s->end_ns, (double)s->idle_wait_max_ns / 1e6,
		       100.0 * (double)s->idle_wait_beyond_ns / (double)s->end_ns);
	if (is_trace && s->unfinished)
		printf(", %" PRIu64 " tasks unfinished", s->unfinished);
	printf("\n");
}

/* --mode: auto, then the replay modes' table */
enum { MODE_AUTO = 2 };
static const struct sl_choice groups_choices[] = {
	{ "ledger", 0, "each thread's autogroup or cgroup from the recording's\nledger" },
	{ "none", 1, "every task in the root group" },
	SL_CHOICES_END
};

/* --mode: auto and the modes' table (4 entries); --irq-cpu: its table (8)
 * with auto's help made from the policy table (sl_irq_cpu_mode_of) in
 * irq_auto. */
static void choice_tables(struct sl_choice *modes, struct sl_choice *irqs, char *irq_auto, size_t len)
{
	size_t i;
	modes[0] = (struct sl_choice){ "auto", MODE_AUTO,
				       "causal for a trace (it validates best: docs/replay.md),\n"
				       "timed for a workload" };
	for (i = 0; sl_mode_choices[i].name && i < 2; i++)
		modes[i + 1] = sl_mode_choices[i];
	modes[i + 1] = (struct sl_choice)SL_CHOICES_END;
	sl_irq_cpu_table(irqs, irq_auto, len);
}

/* v appended to the comma-separated list in buf (len bytes, *off used):
 * 0, or 2 with "too many OPTION" printed. */
static int append_item(char *buf, size_t len, size_t *off, const char *v, const char *option)
{
	int k = snprintf(buf + *off, len - *off, "%s%s", *off ? "," : "", v);
	if (k < 0 || (size_t)k >= len - *off) {
		sl_err("replay: too many %s", option);
		return 2;
	}
	*off += (size_t)k;
	return 0;
}

/* The --opt values, checked, as one "NAME=VALUE,..." list in r->popts:
 * 0, or 2 with the error printed. */
static int join_opts(struct ropts *r, const struct sl_strlist *popts)
{
	size_t i, off = 0;
	for (i = 0; i < popts->n; i++) {
		const char *v = popts->v[i];
		if (!strchr(v, '=') || strchr(v, ',')) {
			sl_err("replay: --opt '%s': expected NAME=VALUE", v);
			return 2;
		}
		if (append_item(r->popts, sizeof(r->popts), &off, v, "--opt"))
			return 2;
	}
	return 0;
}

/* The --exclude patterns, checked, in r->excl_v and as one list in
 * r->exclude: 0, or 2 with the error printed. */
static int join_excludes(struct ropts *r)
{
	size_t i, off = 0;
	for (i = 0; i < r->excl.n; i++) {
		const char *v = r->excl.v[i];
		if (i == SL_ARRAY_SIZE(r->excl_v) || !*v || strpbrk(v, ",\"\\")) {
			sl_err("replay: --exclude '%s': expected a comm pattern without , \" or \\", v);
			return 2;
		}
		if (append_item(r->exclude, sizeof(r->exclude), &off, v, "--exclude"))
			return 2;
		r->excl_v[r->excl_n++] = v;
	}
	return 0;
}

/* The options that go together: 0, or 2 with the error printed. */
static int check_args(const struct ropts *r)
{
	if (!r->trace_id == !r->workload) {
		sl_err("replay: give exactly one of --trace ID and --workload FILE");
		return 2;
	}
	if (!r->sched) {
		sl_err("replay: --sched NAME[,NAME...] is required (models: %s)", sl_policy_names());
		return 2;
	}
	if (r->workload && r->overhead && !strcmp(r->overhead, "auto")) {
		sl_err("replay: --overhead auto measures a trace's recorded run: a workload has none");
		return 2;
	}
	if (r->workload && !r->o.duration_ns) {
		sl_err("replay: a workload needs --duration T");
		return 2;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct ropts *r)
{
	long long cpus = 0, hz = 0, seed = 0;
	int mode = MODE_AUTO, sync = SL_SYNC_BLOCK, wake_cpu = SL_WAKE_CPU_RUNNING, irq_cpu = SL_IRQ_CPU_AUTO;
	int preempt = SL_PREEMPT_NONE, groups = 0;
	struct sl_strlist popts = { 0 };
	struct sl_choice modes[4], irqs[8];
	char irq_auto[160];
	int rc;
	const struct sl_opt opts[] = {
		SL_OPT_ID(0, "trace", &r->trace_id, "an imported trace (see 'schedlab import')"),
		SL_OPT_STRING(0, "workload", &r->workload, "FILE", "a workload file (docs/replay.md); stored as a trace too"),
		SL_OPT_STRING(0, "sched", &r->sched, "NAMES", "models, comma-separated (listed below)"),
		SL_OPT_DURATION(0, "duration", &r->o.duration_ns, 1, 1000000 * SL_NS_PER_SEC, SL_NS_PER_SEC,
				"simulated time (required for a workload; limits a trace)"),
		SL_OPT_INT(0, "cpus", &cpus, 1, SL_ENGINE_MAX_CPUS, "N", "CPUs (default: as recorded; 1 for a workload)"),
		SL_OPT_INT(0, "hz", &hz, 10, 100000, "N",
			   "scheduler ticks per second (default: for a trace, the\n"
			   "recording kernel's, from its scheduler ticks in\n"
			   "sched_stat_runtime or its tick preemptions as validate\n"
			   "does; for a workload 1000)"),
		SL_OPT_DURATION(0, "rr-interval", &r->o.rr_interval_ns, 1000, 10 * SL_NS_PER_SEC, SL_NS_PER_MS,
				"RSDL/SD RR_INTERVAL"),
		SL_OPT_CHOICE(0, "mode", &mode, modes, "when a recorded sleep ends (docs/replay.md):"),
		SL_OPT_STRING(0, "overhead", &r->overhead, "O",
			      "the kernel's own costs (docs/replay.md): auto (default for a\n"
			      "trace) measures them on the recorded run; none (default for\n"
			      "a workload); WAKE[,SWITCH] durations (default unit us):\n"
			      "wakeup onto an idle CPU to running, and a preempting\n"
			      "wakeup to the switch (one value: both)"),
		SL_OPT_CHOICE(0, "sync", &sync, sl_sync_choices,
			      "which wakeups are sync (the waker leaves its CPU at\n"
			      "once; docs/replay.md):"),
		SL_OPT_CHOICE(0, "wake-cpu", &wake_cpu, sl_wake_cpu_choices,
			      "where a task's wakeup runs when its waker is not\n"
			      "running in the replay (docs/replay.md):"),
		SL_OPT_CHOICE(0, "irq-cpu", &irq_cpu, irqs, "where an interrupt's wakeup runs (docs/replay.md):"),
		SL_OPT_CHOICE(0, "preempt", &preempt, sl_preempt_choices,
			      "the kernel's preemption model, for the time a wakeup\n"
			      "onto a busy CPU takes to switch (docs/replay.md):"),
		SL_OPT_CHOICE(0, "late-cpus", &r->o.late_cpus_mode, sl_late_cpus_choices,
			      "a CPU of a trace with no event until late (likely\n"
			      "offline until then; docs/replay.md):"),
		SL_OPT_CHOICE(0, "handback", &r->o.no_handback, sl_handback_choices,
			      "a hand-off pair (a task that wakes one partner, woken\n"
			      "by it; docs/replay.md \"Hand-backs\"):"),
		SL_OPT_CHOICE(0, "wall-clock", &r->o.no_wall, sl_wall_choices,
			      "a trace's tasks whose bursts end on a wall-clock\n"
			      "deadline (found at import; docs/model.md):"),
		SL_OPT_CHOICE(0, "tick-timers", &r->o.no_tick_timers, sl_tick_timer_choices,
			      "a trace's timers that fired at the tick (found at\n"
			      "import; docs/model.md):"),
		SL_OPT_CHOICE(0, "reap", &r->o.reap_named, sl_reap_choices,
			      "a causal replay's parent whose children's exits end\n"
			      "its sleeps (docs/replay.md):"),
		SL_OPT_CHOICE(0, "abs-timers", &r->o.no_abs_timers, sl_abs_timer_choices,
			      "a trace's tasks on an absolute periodic timer (found\n"
			      "at import; docs/model.md):"),
		SL_OPT_CHOICE(0, "hrtimer-slack", &r->o.hrtimer_slack, sl_hrt_slack_choices,
			      "a trace's sleeps that their own timer ended (docs/model.md\n"
			      "\"Timer slack\"):"),
		SL_OPT_CHOICE(0, "groups", &groups, groups_choices,
			      "task groups, for a model that schedules them (eevdf;\n"
			      "docs/groups.md):"),
		SL_OPT_CHOICE(0, "interference", &r->interference, sl_interference_choices,
			      "a trace's bursts with the interference the recorded\n"
			      "run had in them (IRQ and steal time, from\n"
			      "sched_stat_runtime; docs/replay.md):"),
		SL_OPT_DURATION(0, "sync-window", &r->o.sync_window_ns, 0, SL_NS_PER_SEC, 1000,
				"the window of --sync (default 50us; default unit us)"),
		SL_OPT_INT(0, "seed", &seed, 0, INT64_MAX, "N", "recorded with the run (the replay itself is deterministic)"),
		SL_OPT_LIST(0, "opt", &popts, "NAME=VALUE",
			    "a model parameter (e.g. rsdl's gap-fillers, also by their\n"
			    "numbers a1..a8, and accounting; see docs/rsdl.md); given to\n"
			    "each model that has it"),
		SL_OPT_LIST(0, "exclude", &r->excl, "COMM-GLOB",
			    "leave out the tasks whose name matches (a shell pattern;\n"
			    "repeat): their wakeups of others become timed, their\n"
			    "children start on their own; stated in the run's params"),
		SL_OPT_FLAG(0, "debug", &r->o.debug, "check the engine's invariants after every model call"),
		SL_OPT_FLAG(0, "dry-run", &r->dry, "store nothing; print each run's speed (decisions per second)"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "replay", synopsis, about, opts, 0, more_help };

	choice_tables(modes, irqs, irq_auto, sizeof(irq_auto));
	sl_replay_opts_init(&r->o);
	if ((rc = sl_opts_parse(&spec, argc, argv, NULL)) != SL_OPTS_GO)
		return rc == 0 ? 1 : rc;
	r->o.cpus = (int)cpus;
	r->hz_auto = !hz;
	if (hz)
		r->o.hz = (int)hz;
	r->o.mode = mode != MODE_AUTO ? mode : r->workload ? SL_MODE_TIMED : SL_MODE_CAUSAL;
	r->o.seed = (uint64_t)seed;
	r->o.sync_mode = sync;
	r->o.wake_cpu_mode = wake_cpu;
	r->o.irq_cpu_mode = irq_cpu;
	r->o.preempt = preempt;
	r->o.no_groups = groups;
	rc = 0;
	if (r->overhead && sl_overhead_parse(r->overhead, &r->o)) {
		sl_err("replay: --overhead '%s': expected auto, none or WAKE[,SWITCH] "
		       "durations up to 1s like 20us,5us", r->overhead);
		rc = 2;
	}
	if (!rc)
		rc = join_opts(r, &popts);
	if (!rc)
		rc = join_excludes(r);
	r->o.exclude = r->exclude;
	sl_opts_release(opts);
	if (rc)
		return rc;
	return check_args(r);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* --dry-run: replay without a sink, print the speed. Releases b. */
static int dry_run(struct ropts *r, const struct sl_policy_ops **pols, size_t np,
		   struct sl_behaviour *b)
{
	size_t i;
	int rc = 0;
	if (!r->o.cpus)
		r->o.cpus = b->cpus > 0 ? b->cpus : 1;
	for (i = 0; i < np; i++) {
		struct sl_replay_opts o = r->o;
		struct sl_replay_stats s;
		struct sl_diag d = { { 0 }, 0, 0 };
		char popts[512];
		double t0, dt;
		filter_opts(pols[i], r->popts, popts, sizeof(popts));
		o.policy_opts = popts;
		t0 = now_s();
		if (sl_replay_run(b, pols[i], &o, NULL, &s, &d)) {
			sl_err("%s", d.msg);
			rc = 1;
			break;
		}
		dt = now_s() - t0;
		printf("dry run %s: %zu tasks on %d CPU%s, %.3f s simulated, %" PRIu64 " decisions, %" PRIu64
		       " events in %.3f s: %.1f ns per decision, %.2f M decisions/s\n",
		       pols[i]->name, b->ntasks, o.cpus, o.cpus == 1 ? "" : "s", (double)s.end_ns / 1e9,
		       s.decisions, s.events, dt, s.decisions ? dt * 1e9 / (double)s.decisions : 0.0,
		       dt > 0 ? (double)s.decisions / dt / 1e6 : 0.0);
	}
	sl_behaviour_release(b);
	return rc;
}

/* A CPU of the recording with no event until late was likely offline (a
 * phone's cores brought up on demand: the Android systrace's CPU 1 has no
 * slice until 3.9 s of 5.0 s): b->cpu_up_ns (sl_store_load_behaviour).
 * The replay keeps it offline until then unless --late-cpus online, and
 * each run's params keep the list: json gets [[CPU, first event ns after
 * the trace's start or null], ...] ("" when none; docs/replay.md "CPUs
 * that were offline"). */
static void late_cpus_json(const struct sl_behaviour *b, char *json, size_t len)
{
	size_t off = 0;
	int c;
	json[0] = 0;
	for (c = 0; b->cpu_up_ns && c < b->cpus && off + 48 < len; c++) {
		if (!b->cpu_up_ns[c])
			continue;
		if (b->cpu_up_ns[c] == UINT64_MAX)
			off += (size_t)snprintf(json + off, len - off, "%s[%d,null]", off ? "," : "[", c);
		else
			off += (size_t)snprintf(json + off, len - off, "%s[%d,%" PRIu64 "]", off ? "," : "[", c,
						b->cpu_up_ns[c]);
	}
	if (off)
		snprintf(json + off, len - off, "]");
}

/* The warnings of replay --trace for b's late CPUs. */
static void warn_late_cpus(int64_t trace_id, const struct sl_behaviour *b, int mode)
{
	const char *what = mode == SL_LATE_CPUS_ONLINE ? "the replay uses it from 0 (--late-cpus online)"
		: "the replay keeps it offline so long (--late-cpus online: uses it from 0)";
	int c;
	for (c = 0; b->cpu_up_ns && c < b->cpus; c++) {
		if (!b->cpu_up_ns[c])
			continue;
		if (b->cpu_up_ns[c] == UINT64_MAX)
			sl_warnx("trace %" PRId64 ": CPU %d has no event in the recording: it was likely "
				 "offline, and %s",
				 trace_id, c, mode == SL_LATE_CPUS_ONLINE ? what
				 : "the replay keeps it offline (--late-cpus online: uses it from 0)");
		else
			sl_warnx("trace %" PRId64 ": CPU %d has no event until %.3f s of %.3f s: it was "
				 "likely offline until then, and %s",
				 trace_id, c, (double)b->cpu_up_ns[c] / 1e9, (double)b->span_ns / 1e9, what);
	}
}

/* Where the tasks' class, nice and RT priority come from, for the run's
 * params (docs/ledger.md "What the replay takes from it"): the class
 * (fair or real-time) from the trace's prio (sched_switch's prio is
 * 120 + nice for a fair task, 99 - RT priority for a real-time one); the
 * policy within it (SCHED_BATCH, RR), nice and RT priority from the
 * ledger for the threads it holds, else the trace's prio. A workload's come
 * from its file. */
static void policy_from(const struct sl_behaviour *b, char *buf, size_t n)
{
	size_t i, batch = 0, rr = 0;
	for (i = 0; i < b->ntasks; i++) {
		batch += b->tasks[i].policy == SL_SCHED_BATCH;
		rr += b->tasks[i].policy == SL_SCHED_RR;
	}
	if (b->ledger_tasks)
		snprintf(buf, n,
			 "class: the trace's prio; policy, nice and RT priority: the ledger for its %zu "
			 "threads (%zu batch, %zu rr), the trace's prio for the others",
			 b->ledger_tasks, batch, rr);
	else
		snprintf(buf, n,
			 "nice, RT priority and class: the trace's prio (no ledger: SCHED_BATCH "
			 "not told from normal, RR from FIFO)");
}

/* The replay's own figures that no row holds, as metrics of the whole run
 * (docs/schema.md, "replay_*"; analyze keeps them): the simulated span; the
 * time a CPU was idle beside a waiting task (docs/replay.md), all of it,
 * its longest stretch and its part beyond the balancing intervals; the
 * wakeups --sync marks in the behaviour and those made sync. */
static int put_replay_metrics(struct sl_store *st, int64_t run_id, const struct sl_replay_stats *s,
			      struct sl_diag *d)
{
	const struct {
		const char *name;
		uint64_t v;
	} m[] = {
		{ "replay_span_ns", s->end_ns },
		{ "replay_idle_wait_ns", s->idle_wait_ns },
		{ "replay_idle_wait_max_ns", s->idle_wait_max_ns },
		{ "replay_idle_wait_beyond_ns", s->idle_wait_beyond_ns },
		{ "replay_sync_inferred", s->sync_inferred },
		{ "replay_sync_wakeups", s->sync_wakeups },
		{ "replay_handbacks", s->handbacks },
		{ "replay_tick_timers", s->tick_timers },
		{ "replay_hrtimer_early", s->hrt_early },
		{ "replay_reap_any", s->reap_any },
	};
	size_t i;
	for (i = 0; i < SL_ARRAY_SIZE(m); i++)
		if (sl_store_put_metric(st, run_id, -1, m[i].name, (double)m[i].v, d))
			return -1;
	return 0;
}

int sl_cmd_replay_store(struct sl_store *st, int64_t trace_id, const struct sl_behaviour *b,
			const struct sl_policy_ops *ops, const struct sl_replay_opts *opts,
			const char *all_popts, int64_t *run_id, struct sl_replay_stats *s, uint64_t *rows,
			struct sl_diag *d)
{
	struct sl_replay_opts o = *opts;
	struct sl_store_bind bind;
	struct sl_run_sink sink;
	char popts[512], params[4096], groups[160], policy[200], late[1024];

	filter_opts(ops, all_popts ? all_popts : opts->policy_opts ? opts->policy_opts : "", popts,
		    sizeof(popts));
	o.policy_opts = popts;
	if (b->groups_from == SL_GROUPS_LEDGER)
		snprintf(groups, sizeof(groups),
			 "ledger: %zu groups below the root; %zu tasks not in the ledger took their "
			 "parent's or thread group's",
			 b->ngroups, b->groups_assumed);
	else
		snprintf(groups, sizeof(groups), "none (no ledger: every task assumed in the root group)");
	o.groups_desc = groups;
	if (!o.policy_from) {
		policy_from(b, policy, sizeof(policy));
		o.policy_from = policy;
	}
	if (!o.late_cpus) {
		late_cpus_json(b, late, sizeof(late));
		o.late_cpus = late;
	}
	if (sl_replay_params_json(ops, &o, o.cpus, params, sizeof(params), d))
		return -1;
	if (sl_store_begin(st, d))
		return -1;
	if (sl_store_add_run(st, trace_id, ops->name, params, o.cpus,
			     o.mode == SL_MODE_CAUSAL ? "causal" : "timed", o.seed, run_id, d)) {
		sl_store_rollback(st);
		return -1;
	}
	memset(&bind, 0, sizeof(bind));
	bind.s = st;
	bind.run_id = *run_id;
	bind.b = b;
	bind.ts_offset = b->t0;
	bind.d = d;
	sl_store_run_sink(&bind, &sink);
	if (sl_replay_run(b, ops, &o, &sink, s, d) || put_replay_metrics(st, *run_id, s, d) ||
	    sl_store_commit(st, d)) {
		sl_store_rollback(st);
		return -1;
	}
	if (rows)
		*rows = bind.rows;
	return 0;
}

/* The rows of a replay kept in memory (sl_cmd_replay_mem). */
struct memrun {
	const struct sl_behaviour *b;
	struct sl_run_data *r;
	size_t scap, wcap;
};

static int64_t mem_utid(const struct memrun *m, int task)
{
	return task >= 0 && (size_t)task < m->b->ntasks ? m->b->tasks[task].utid : -1;
}

static int mem_slice(void *ctx, uint64_t ts, uint64_t dur, int cpu, int task, char end_state,
		     int priority)
{
	struct memrun *m = ctx;
	struct sl_slice_row *s;
	SL_GROW(m->r->slices, m->scap, m->r->nslices + 1);
	s = &m->r->slices[m->r->nslices++];
	s->ts = ts + m->b->t0;
	s->dur = dur;
	s->utid = (int32_t)mem_utid(m, task);
	s->cpu = cpu;
	s->end_state = (unsigned char)end_state;
	s->priority = priority;
	return 0;
}

static int mem_wakeup(void *ctx, int task, uint64_t ts, uint64_t ts_run, int waker, int cpu)
{
	struct memrun *m = ctx;
	struct sl_wakeup_row *w;
	SL_GROW(m->r->wakeups, m->wcap, m->r->nwakeups + 1);
	w = &m->r->wakeups[m->r->nwakeups++];
	w->utid = mem_utid(m, task);
	w->ts = ts + m->b->t0;
	w->ts_run = ts_run != UINT64_MAX ? ts_run + m->b->t0 : UINT64_MAX;
	w->waker_utid = waker >= 0 ? mem_utid(m, waker) : -1;
	w->cpu = cpu >= 0 ? cpu : -1;
	return 0;
}

int sl_cmd_replay_mem(const struct sl_behaviour *b, const struct sl_policy_ops *ops,
		      const struct sl_replay_opts *opts, const char *all_popts,
		      const struct sl_run_data *like, struct sl_run_data *out, struct sl_diag *d)
{
	struct sl_replay_opts o = *opts;
	struct sl_replay_stats s;
	struct sl_run_sink sink;
	struct memrun m;
	char popts[512];

	memset(out, 0, sizeof(*out));
	memset(&sink, 0, sizeof(sink));
	filter_opts(ops, all_popts ? all_popts : opts->policy_opts ? opts->policy_opts : "", popts,
		    sizeof(popts));
	o.policy_opts = popts;
	out->run = like->run;
	out->run.cpus = o.cpus;
	out->run.seed = o.seed;
	if (like->nthreads) {
		out->threads = xmalloc(like->nthreads * sizeof(*out->threads));
		memcpy(out->threads, like->threads, like->nthreads * sizeof(*out->threads));
		out->nthreads = like->nthreads;
	}
	m.b = b;
	m.r = out;
	m.scap = m.wcap = 0;
	sink.ctx = &m;
	sink.slice = mem_slice;
	sink.wakeup = mem_wakeup;
	if (sl_replay_run(b, ops, &o, &sink, &s, d)) {
		sl_run_data_release(out);
		return -1;
	}
	sl_run_data_sort(out);
	return 0;
}

/* The models of --sched ("all": every model this build has, in the policy
 * table's order) in pols (max of them), each --opt known to one of them:
 * 0, or 2 with the error printed. */
static int choose_models(const struct ropts *r, const struct sl_policy_ops **pols, size_t max, size_t *np)
{
	char names[256], buf[512], *save = NULL, *tok;
	snprintf(names, sizeof(names), "%s", strcmp(r->sched, "all") ? r->sched : sl_policy_names());
	for (tok = strtok_r(names, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		const struct sl_policy_ops *ops = sl_policy_find(tok);
		if (!ops) {
			sl_err("replay: unknown scheduler '%s' (models: %s)", tok, sl_policy_names());
			return 2;
		}
		if (*np == max) {
			sl_err("replay: too many schedulers");
			return 2;
		}
		pols[(*np)++] = ops;
	}
	if (!*np) {
		sl_err("replay: --sched names no scheduler");
		return 2;
	}
	snprintf(buf, sizeof(buf), "%s", r->popts);
	save = NULL;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!known_somewhere(pols, *np, tok)) {
			sl_err("replay: --opt '%s': no selected scheduler has this parameter", tok);
			return 2;
		}
	return 0;
}

/* The behaviour to replay into b: the workload's (stored as a trace, its
 * id in *trace_id) or the trace's; r->o.cpus set (the trace's CPUs unless
 * --cpus, at most SL_ENGINE_MAX_CPUS). 0, or -1 with d set. */
static int load_input(struct sl_store *st, struct ropts *r, struct sl_behaviour *b, int64_t *trace_id,
		      struct sl_diag *d)
{
	int cpus;
	if (r->workload) {
		cpus = r->o.cpus ? r->o.cpus : 1;
		if (workload_trace(st, r->workload, b, cpus, r->o.duration_ns, trace_id, d))
			return -1;
		r->o.cpus = cpus;
		return 0;
	}
	*trace_id = r->trace_id;
	if (sl_store_load_behaviour(st, *trace_id, b, d))
		return -1;
	if (!b->ntasks)
		return sl_fail(d, "trace %" PRId64 " has no tasks to replay", *trace_id);
	cpus = r->o.cpus ? r->o.cpus : (b->cpus > 0 ? b->cpus : 1);
	if (cpus > SL_ENGINE_MAX_CPUS) {
		sl_warnx("trace %" PRId64 " was recorded on %d CPUs; replaying on %d, the most "
			 "the models support (--cpus N to choose)",
			 *trace_id, cpus, SL_ENGINE_MAX_CPUS);
		cpus = SL_ENGINE_MAX_CPUS;
	}
	r->o.cpus = cpus;
	return 0;
}

/* The options a trace's recorded run decides (overheads, HZ, late CPUs),
 * the interference, --exclude; rec is read and released here. 0, or -1
 * with d set. */
static int prepare(struct sl_store *st, struct ropts *r, int64_t trace_id, struct sl_behaviour *b,
		   struct sl_run_data *rec, int quiet, struct sl_diag *d)
{
	int have_rec = 0;
	if (!r->workload && (have_rec = load_recorded(st, trace_id, r, rec, d)) < 0)
		return -1;
	if (!r->workload)
		warn_late_cpus(trace_id, b, r->o.late_cpus_mode);
	if (r->workload)
		r->o.policy_from = "the workload file";
	if (!r->workload) {
		r->o.interference = sl_choice_name(sl_interference_choices, r->interference, "recorded");
		if (r->interference == SL_INTERFERENCE_NONE)
			sl_behaviour_work_only(b);
	}
	if (r->excl_n) {
		size_t nx = sl_behaviour_exclude(b, r->excl_v, r->excl_n);
		if (!nx)
			sl_warnx("replay: no task matches --exclude %s: nothing left out", r->exclude);
		else if (!quiet)
			printf("left out %zu task%s matching %s (--exclude)\n", nx, nx == 1 ? "" : "s",
			       r->exclude);
	}
	if (r->trace_id && (!r->overhead || !strcmp(r->overhead, "auto")))
		sl_overhead_of_run(have_rec > 0 ? rec : NULL, &r->o, NULL);
	if (r->trace_id && r->hz_auto)
		trace_hz(have_rec > 0 ? rec : NULL, &r->o, quiet);
	/* the replay's ticks where the recording's were, at its HZ */
	if (r->trace_id && trace_tick_phase(st, trace_id, have_rec > 0 ? rec : NULL, &r->o, d)) {
		sl_run_data_release(rec);
		return -1;
	}
	sl_run_data_release(rec);
	return 0;
}

int cmd_replay(int argc, char **argv, const struct sl_globals *g)
{
	struct ropts r;
	const struct sl_policy_ops *pols[8];
	size_t np = 0, i;
	struct sl_store *st = NULL;
	struct sl_behaviour b;
	struct sl_diag d = { { 0 }, 0, 0 };
	int64_t trace_id = 0;
	struct sl_run_data rec;
	struct sl_sync_map sync;
	int rc, cpus, existed = 1;
	size_t nruns = 0;

	memset(&r, 0, sizeof(r));
	memset(&sync, 0, sizeof(sync));
	memset(&b, 0, sizeof(b));
	memset(&rec, 0, sizeof(rec));
	rc = parse_args(argc, argv, &r);
	if (rc)
		return rc == 1 ? 0 : rc;
	if ((rc = choose_models(&r, pols, SL_ARRAY_SIZE(pols), &np)))
		return rc;

	if (r.workload) {
		if (sl_workload_load(r.workload, &b, &d)) {
			sl_err("%s", d.msg);
			return 1;
		}
		b.span_ns = r.o.duration_ns;
	}
	if (r.dry && r.workload)
		return dry_run(&r, pols, np, &b);
	/* a trace must already be in the database: do not create one */
	existed = sl_db_exists(g->db);
	if (sl_store_open(g->db, r.workload != NULL, &st, &d))
		goto fail;
	if (!r.workload) /* the behaviour and the recorded run are read first */
		sl_store_map_reads(st);
	if (load_input(st, &r, &b, &trace_id, &d) || prepare(st, &r, trace_id, &b, &rec, g->quiet, &d))
		goto fail;
	cpus = r.o.cpus;
	if (r.dry) {
		sl_store_close(st);
		return dry_run(&r, pols, np, &b);
	}

	/* the sync wakeups depend on the behaviour and the options only: found
	 * once for every model */
	sl_sync_infer(&b, r.o.sync_mode, r.o.sync_window_ns, &sync);
	r.o.sync = &sync;
	for (i = 0; i < np; i++) {
		struct sl_replay_stats s;
		int64_t run_id;
		uint64_t rows;
		if (sl_cmd_replay_store(st, trace_id, &b, pols[i], &r.o, r.popts, &run_id, &s, &rows, &d))
			goto fail;
		nruns++;
		summary(run_id, pols[i]->name, &b, cpus, r.o.mode, r.trace_id != 0, &s, rows);
		fflush(stdout);
	}
	sl_sync_release(&sync);
	sl_behaviour_release(&b);
	sl_store_close(st);
	return 0;
fail:
	sl_err("%s", d.msg[0] ? d.msg : "replay failed");
	sl_sync_release(&sync);
	sl_run_data_release(&rec);
	sl_behaviour_release(&b);
	sl_store_close(st);
	if (!existed && !nruns)
		sl_db_discard(g->db);
	return 1;
}
