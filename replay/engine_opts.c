/* replay/engine_opts.c - a replay's options: their defaults, the models'
 * NAME=VALUE parameters, the names of the modes and the run's params JSON
 * (run.params, docs/schema.md). */
#include "engine_priv.h"
#include "choices.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sl_replay_opts_init(struct sl_replay_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->hz = 1000;
	o->rr_interval_ns = 6 * SL_NS_PER_MS;
	o->mode = SL_MODE_TIMED;
	o->sync_mode = SL_SYNC_BLOCK;
	o->sync_window_ns = SL_SYNC_WINDOW_NS;
	o->wake_cpu_mode = SL_WAKE_CPU_RUNNING;
	o->irq_cpu_mode = SL_IRQ_CPU_AUTO;
	o->tick_phase_ns = -1;
}

const char *sl_preempt_name(int model)
{
	static const char *const names[] = { "none", "voluntary", "full", "lazy" };
	return model >= 0 && model < 4 ? names[model] : "none";
}

int sl_eng_parse_policy_opts(const struct sl_policy_ops *ops, const char *opts, long long *vals,
			     struct sl_diag *d)
{
	const struct sl_policy_param *pp = ops->params;
	size_t n = 0, i;
	char buf[512], *save = NULL, *tok;
	int k;

	for (; pp && pp[n].name && n < SL_ENGINE_MAX_PARAMS; n++)
		vals[n] = pp[n].def;
	if (!opts || !*opts)
		return 0;
	if (strlen(opts) >= sizeof(buf))
		return sl_fail(d, "policy options too long");
	memcpy(buf, opts, strlen(opts) + 1);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		long long v;
		if (!eq)
			return sl_fail(d, "policy option '%s': expected NAME=VALUE", tok);
		*eq = 0;
		k = sl_policy_param_index(ops, tok, strlen(tok));
		if (k < 0 || (size_t)k >= n)
			return sl_fail(d, "%s has no option '%s'", ops->name, tok);
		i = (size_t)k;
		if (sl_parse_int(eq + 1, pp[i].min, pp[i].max, &v))
			return sl_fail(d, "%s option %s: '%s' is not an integer in %lld..%lld", ops->name,
				       tok, eq + 1, pp[i].min, pp[i].max);
		vals[i] = v;
	}
	return 0;
}

int sl_irq_cpu_mode_of(int mode)
{
	/* auto: relative for every model (docs/replay.md "Wakeup CPU") */
	return mode == SL_IRQ_CPU_AUTO ? SL_IRQ_CPU_RELATIVE : mode;
}

const char *sl_irq_cpu_name(int mode)
{
	switch (mode) {
	case SL_IRQ_CPU_SLEEPER:
		return "sleeper";
	case SL_IRQ_CPU_RECORDED:
		return "recorded";
	case SL_IRQ_CPU_RELATIVE:
		return "relative";
	case SL_IRQ_CPU_REMOTE:
		return "remote";
	default:
		return "auto";
	}
}

/* printf into buf at *off (len bytes in all); -1 when it does not fit. */
static int appendf(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int appendf(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *off)
		return -1;
	*off += (size_t)n;
	return 0;
}

int sl_replay_params_json(const struct sl_policy_ops *ops, const struct sl_replay_opts *o,
			  int cpus, char *buf, size_t len, struct sl_diag *d)
{
	long long vals[SL_ENGINE_MAX_PARAMS];
	size_t i, off = 0;
	int k, j, bad;

	if (sl_eng_parse_policy_opts(ops, o->policy_opts, vals, d))
		return -1;
	if (!len)
		return sl_fail(d, "params too long");
	buf[0] = 0;
	bad = appendf(buf, len, &off,
		      "{\"scheduler\":\"%s\",\"hz\":%d,\"rr_interval_ns\":%llu,\"mode\":\"%s\","
		      "\"cpus\":%d,\"seed\":%llu,\"duration_ns\":%llu,\"overhead\":\"%s\","
		      "\"sync\":\"%s\",\"sync_window_ns\":%llu,\"wake_cpu\":\"%s\",\"irq_cpu\":\"%s\","
		      "\"preempt\":\"%s\"",
		      ops->name, o->hz, (unsigned long long)o->rr_interval_ns,
		      o->mode == SL_MODE_CAUSAL ? "causal" : "timed", cpus,
		      (unsigned long long)o->seed, (unsigned long long)o->duration_ns,
		      o->nq > 0 ? (o->overhead ? o->overhead : "fixed") : "none",
		      sl_sync_mode_name(o->sync_mode), (unsigned long long)o->sync_window_ns,
		      o->wake_cpu_mode == SL_WAKE_CPU_RUNNING ? "running" : "waker",
		      sl_irq_cpu_name(sl_irq_cpu_mode_of(o->irq_cpu_mode)),
		      sl_preempt_name(o->preempt));
	/* the late CPUs early (a reader of the first 512 bytes, the report, sees
	 * them; docs/replay.md "CPUs that were offline") */
	if (!bad && o->late_cpus && o->late_cpus[0])
		bad = appendf(buf, len, &off, ",\"late_cpus_mode\":\"%s\",\"late_cpus\":%s",
			      sl_choice_name(sl_late_cpus_choices, o->late_cpus_mode, "?"), o->late_cpus);
	if (!bad && o->mode == SL_MODE_CAUSAL)
		bad = appendf(buf, len, &off, ",\"handback\":\"%s\"",
			      sl_choice_name(sl_handback_choices, o->no_handback, "?"));
	if (!bad && o->interference) /* a trace replay */
		bad = appendf(buf, len, &off, ",\"wall_clock\":\"%s\"",
			      sl_choice_name(sl_wall_choices, o->no_wall, "?"));
	/* the groups' source (docs/groups.md): a plain description */
	if (!bad && ops->group_sched)
		bad = appendf(buf, len, &off, ",\"groups\":\"%s\"",
			      o->no_groups ? "none (--groups none: every task in the root group)"
			      : o->groups_desc ? o->groups_desc : "none");
	if (!bad && o->policy_from)
		bad = appendf(buf, len, &off, ",\"policy_from\":\"%s\"", o->policy_from);
	if (!bad && o->interference)
		bad = appendf(buf, len, &off, ",\"interference\":\"%s\"", o->interference);
	/* the patterns of replay --exclude (comm globs: no quote or backslash
	 * reaches here, see cmd-replay.c) */
	if (!bad && o->exclude && o->exclude[0])
		bad = appendf(buf, len, &off, ",\"exclude\":\"%s\"", o->exclude);
	if (!bad && o->origin && o->origin[0])
		bad = appendf(buf, len, &off, ",\"origin\":\"%s\"", o->origin);
	/* after the origin (a reader of the first 512 bytes, the report, sees
	 * it): the timers at the tick (docs/model.md) */
	if (!bad && o->interference)
		bad = appendf(buf, len, &off, ",\"tick_timers\":\"%s\"",
			      sl_choice_name(sl_tick_timer_choices, o->no_tick_timers, "?"));
	if (!bad && o->interference)
		bad = appendf(buf, len, &off, ",\"reap\":\"%s\"",
			      sl_choice_name(sl_reap_choices, o->reap_named, "?"));
	if (!bad && o->interference)
		bad = appendf(buf, len, &off, ",\"abs_timers\":\"%s\"",
			      sl_choice_name(sl_abs_timer_choices, o->no_abs_timers, "?"));
	/* the timers' slack in effect (replay/hrtimer.c) */
	if (!bad && o->interference)
		bad = appendf(buf, len, &off, ",\"hrtimer_slack\":\"%s\"",
			      sl_hrt_slack_on(o, ops->name) ? "on" : "off");
	if (!bad && o->tick_phase_ns >= 0)
		bad = appendf(buf, len, &off, ",\"tick_phase_ns\":%lld", (long long)o->tick_phase_ns);
	for (k = 0; k < 3 && o->nq > 0 && !bad; k++) {
		const uint64_t *q = k == 2 ? o->switch_own_lat_ns : k ? o->switch_lat_ns : o->wake_lat_ns;
		if (k == 2 && !o->switch_own)
			break;
		bad = appendf(buf, len, &off, ",\"%s_latency_ns\":%s", k == 2 ? "switch_own" : k ? "switch" : "wake",
			      o->nq > 1 ? "[" : "");
		for (j = 0; j < o->nq && !bad; j++)
			bad = appendf(buf, len, &off, "%s%llu", j ? "," : "", (unsigned long long)q[j]);
		if (!bad && o->nq > 1)
			bad = appendf(buf, len, &off, "]");
	}
	for (i = 0; ops->params && ops->params[i].name && i < SL_ENGINE_MAX_PARAMS && !bad; i++)
		bad = appendf(buf, len, &off, ",\"%s\":%lld", ops->params[i].name, vals[i]);
	if (bad || appendf(buf, len, &off, "}"))
		return sl_fail(d, "params too long");
	return 0;
}
