/* replay/choices.c - the tables of replay's choice options (choices.h). */
#include "choices.h"
#include "engine.h"
#include "sync.h"

#include <stdio.h>
#include <string.h>

const struct sl_choice sl_mode_choices[] = {
	{ "timed", SL_MODE_TIMED, "sleeps last as recorded" },
	{ "causal", SL_MODE_CAUSAL,
	  "a task woken by a task wakes when that task reaches the\nrecorded point of its own CPU work" },
	SL_CHOICES_END
};

const struct sl_choice sl_sync_choices[] = {
	{ "block", SL_SYNC_BLOCK,
	  "the waker sleeps or exits within --sync-window of its\nCPU time, waking nobody else" },
	{ "exit", SL_SYNC_EXIT, "only an exiting child waking its parent" },
	{ "none", SL_SYNC_NONE, "no wakeup is sync" },
	{ "group", SL_SYNC_GROUP, "a user task waking a user task of another\nthread group, not while exiting (5.x and later)" },
	SL_CHOICES_END
};

const struct sl_choice sl_wake_cpu_choices[] = {
	{ "running", SL_WAKE_CPU_RUNNING, "the sleeper's own CPU (an interrupt's is --irq-cpu's)" },
	{ "waker", SL_WAKE_CPU_WAKER, "the CPU the waker is queued on or last ran on" },
	SL_CHOICES_END
};

const struct sl_choice sl_irq_cpu_choices[] = {
	{ "auto", SL_IRQ_CPU_AUTO, NULL }, /* its help: sl_irq_cpu_auto_help() */
	{ "relative", SL_IRQ_CPU_RELATIVE,
	  "the sleeper's CPU if it fired on the CPU the task slept\non in the trace, else another CPU at the same offset" },
	{ "remote", SL_IRQ_CPU_REMOTE,
	  "the sleeper's CPU if it fired on the CPU the task slept\non, else the CPU it fired on" },
	{ "recorded", SL_IRQ_CPU_RECORDED, "the CPU it fired on in the trace" },
	{ "sleeper", SL_IRQ_CPU_SLEEPER, "the sleeper's own CPU" },
	SL_CHOICES_END
};

const struct sl_choice sl_preempt_choices[] = {
	{ "none", SL_PREEMPT_NONE,
	  "the switch latencies of --overhead as they are (a\nrecording's embody its kernel's)" },
	{ "voluntary", SL_PREEMPT_VOLUNTARY, "as none" },
	{ "full", SL_PREEMPT_FULL, "their least" },
	{ "lazy", SL_PREEMPT_LAZY, "a fair wakee's no later than the next tick, a\nreal-time one's the least" },
	SL_CHOICES_END
};

const struct sl_choice sl_handback_choices[] = {
	{ "on", SL_HANDBACK_ON,
	  "causal: the waker of a hand-off pair does not pass the\npoint at which it wakes its partner before the partner\nhas gone to sleep (it waits, as a pipe's writer waits\nfor the reply)" },
	{ "off", SL_HANDBACK_OFF, "the waker runs on through the point" },
	SL_CHOICES_END
};

const struct sl_choice sl_wall_choices[] = {
	{ "on", SL_WALL_ON,
	  "a task found spinning to a wall-clock deadline (massive_intr)\nends each burst on it: it stops when its deadline has\npassed, however much CPU time that gave it (its total stays\nthe recorded one; docs/model.md \"Wall-clock bursts\")" },
	{ "off", SL_WALL_OFF, "every burst is its recorded CPU time" },
	SL_CHOICES_END
};

const struct sl_choice sl_tick_timer_choices[] = {
	{ "on", SL_TICK_TIMERS_ON,
	  "a trace's sleeps that a timer ended at a tick of the\nrecording (found at import) end at a tick of the replay,\nas many ticks after they begin (docs/model.md \"Timers\nthat fire at the tick\")" },
	{ "off", SL_TICK_TIMERS_OFF, "they last as recorded" },
	SL_CHOICES_END
};

const struct sl_choice sl_reap_choices[] = {
	{ "any", SL_REAP_ANY,
	  "a task that waits for any of its children (make's\njobs; found at import) wakes at the exit of whichever exits\nfirst, as wait4(-1) does (docs/replay.md \"A parent's\nwait for any child\")" },
	{ "named", SL_REAP_NAMED, "it waits for the child the recording names" },
	SL_CHOICES_END
};

const struct sl_choice sl_abs_timer_choices[] = {
	{ "on", SL_ABS_TIMERS_ON,
	  "a trace's tasks found on an absolute periodic timer (a\nframe or audio loop, cyclictest: found at import) set\neach deadline from the last, as next += period does:\ntheir sleeps take up what their bursts and waits did\nnot (docs/model.md \"Absolute timers\")" },
	{ "off", SL_ABS_TIMERS_OFF, "their sleeps last as recorded" },
	SL_CHOICES_END
};

const struct sl_choice sl_hrt_slack_choices[] = {
	{ "auto", SL_HRT_SLACK_AUTO, "on for eevdf (timer slack since 2.6.28), off for the\nmodels of older kernels" },
	{ "on", SL_HRT_SLACK_ON,
	  "a sleep ended by its own timer (an interrupt on the CPU\nit slept on) has the default 50 us of slack before its\nrecorded end: it fires with another timer of its CPU, or\nthe tick, inside it, as hrtimers do (replay/hrtimer.c)" },
	{ "off", SL_HRT_SLACK_OFF, "every timer fires alone at its recorded end" },
	SL_CHOICES_END
};

const struct sl_choice sl_late_cpus_choices[] = {
	{ "offline", SL_LATE_CPUS_OFFLINE,
	  "offline until its first event in the recording: no task\nis placed or balanced onto it before" },
	{ "online", SL_LATE_CPUS_ONLINE, "every CPU from time 0 (the late start was the tracer's)" },
	SL_CHOICES_END
};

/* "relative for rsdl, o1, sd, cfs and eevdf": the mode auto gives every
 * model of the policy table (sl_irq_cpu_mode_of) */
void sl_irq_cpu_auto_help(char *buf, size_t len)
{
	size_t off, i;
	off = (size_t)snprintf(buf, len, "%s for ",
			       sl_choice_name(sl_irq_cpu_choices, sl_irq_cpu_mode_of(SL_IRQ_CPU_AUTO), "?"));
	for (i = 0; i < sl_npolicies && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					!i ? "" : i + 1 == sl_npolicies ? " and " : ", ", sl_policies[i]->name);
}

void sl_irq_cpu_table(struct sl_choice out[8], char *auto_help, size_t len)
{
	size_t i;
	sl_irq_cpu_auto_help(auto_help, len);
	for (i = 0; sl_irq_cpu_choices[i].name && i < 7; i++) {
		out[i] = sl_irq_cpu_choices[i];
		if (out[i].value == SL_IRQ_CPU_AUTO)
			out[i].help = auto_help;
	}
	out[i] = (struct sl_choice)SL_CHOICES_END;
}
