/* tests/unit/test_ftrace.c - the ftrace text line parser on each variant
 * of the format. Expected values are read off the lines by eye. */
#include "harness.h"
#include "../../collector/ftrace.h"

static int parse(const char *line, struct sl_event *ev, struct sl_diag *d)
{
	struct sl_ftrace_parser *p = sl_ftrace_parser_new();
	int r = sl_ftrace_parse_line(p, line, strlen(line), ev, d);
	sl_ftrace_parser_free(p);
	return r;
}

SL_TEST(ftrace_raw_switch_with_tgid_and_flags)
{
	struct sl_event ev;
	struct sl_diag d = { { 0 }, NULL, NULL };
	/* record-tgid column "(  10236)", 5-char flags, hardirq 'h' in column 3 */
	CHECK_EQ_INT(parse("            bash-10236   (  10236) [001] d.h2.  1257.741513: sched_switch: "
			   "prev_comm=bash prev_pid=10236 prev_prio=120 prev_state=R+ ==> "
			   "next_comm=Web Content next_pid=10239 next_prio=139",
			   &ev, &d),
		     1);
	CHECK_EQ_INT(ev.type, SL_EV_SWITCH);
	CHECK_EQ_INT(ev.ts, 1257741513000ULL); /* 1257 s + 741513 us */
	CHECK_EQ_INT(ev.cpu, 1);
	CHECK_EQ_INT(ev.cur_pid, 10236);
	CHECK_EQ_INT(ev.cur_tgid, 10236);
	CHECK_STR(ev.cur_comm, "bash");
	CHECK_EQ_INT(ev.pid, 10236);
	CHECK_EQ_INT(ev.pid2, 10239);
	CHECK_STR(ev.comm2, "Web Content"); /* a comm with a space */
	CHECK_EQ_INT(ev.prio2, 139);
	CHECK_EQ_INT(ev.state, 'R');
	CHECK_EQ_INT(ev.ctx, SL_CTX_KNOWN | SL_CTX_HARDIRQ);
}

SL_TEST(ftrace_task_comm_with_spaces_and_no_flags)
{
	struct sl_event ev;
	/* trace-cmd report without the flags column; "tmux: server" has ': ' */
	CHECK_EQ_INT(parse(" tmux: server-1613  [002]    76.211513: sched_wakeup:          comm=sh "
			   "pid=1642 prio=120 success=1 target_cpu=2",
			   &ev, NULL),
		     1);
	CHECK_EQ_INT(ev.type, SL_EV_WAKEUP);
	CHECK_STR(ev.cur_comm, "tmux: server");
	CHECK_EQ_INT(ev.cur_pid, 1613);
	CHECK_EQ_INT(ev.pid, 1642);
	CHECK_EQ_INT(ev.target_cpu, 2);
	CHECK_EQ_INT(ev.ctx, 0); /* unknown context */
}

SL_TEST(ftrace_trace_cmd_report_switch_form)
{
	struct sl_event ev;
	/* trace-cmd report's "comm:pid [prio] S ==> comm:pid [prio]", ns times */
	CHECK_EQ_INT(parse("       trace-cmd-1701  [001]    76.211513123: sched_switch:  "
			   "trace:cmd:1701 [120] D ==> swapper/1:0 [120]",
			   &ev, NULL),
		     1);
	CHECK_EQ_INT(ev.ts, 76211513123ULL);
	CHECK_STR(ev.comm, "trace:cmd"); /* comm with a colon: pid after the last one */
	CHECK_EQ_INT(ev.pid, 1701);
	CHECK_EQ_INT(ev.prio, 120);
	CHECK_EQ_INT(ev.state, 'D');
	CHECK_STR(ev.comm2, "swapper/1");
	CHECK_EQ_INT(ev.pid2, 0);
}

SL_TEST(ftrace_numeric_prev_state)
{
	struct sl_event ev;
	/* lisa's trace-cmd output: numbers, no "==>"; 4096 = TASK_STATE_MAX =
	 * preempted on that 4.x kernel, 64 = TASK_DEAD, 1 = S, 2 = D */
	static const struct {
		const char *num;
		char st;
	} cases[] = { { "4096", 'R' }, { "64", 'X' }, { "1", 'S' }, { "2", 'D' }, { "0", 'R' } };
	size_t i;
	char line[512];
	for (i = 0; i < SL_ARRAY_SIZE(cases); i++) {
		snprintf(line, sizeof(line),
			 "              sh-1642  [002]    76.211701: sched_switch:          "
			 "prev_comm=sh prev_pid=1642 prev_prio=120 prev_state=%s next_comm=kworker/u12:1 "
			 "next_pid=46 next_prio=120",
			 cases[i].num);
		CHECK_EQ_INT(parse(line, &ev, NULL), 1);
		CHECK_EQ_INT(ev.state, cases[i].st);
		CHECK_EQ_INT(ev.pid2, 46);
		CHECK_STR(ev.comm2, "kworker/u12:1");
	}
}

SL_TEST(ftrace_state_bits)
{
	/* since 4.14: TASK_REPORT_MAX 0x100 = preempted; 0x80 I, 0x40 P, 0x10 X */
	CHECK_EQ_INT(sl_state_from_bits(0x100, 0x100), 'R');
	CHECK_EQ_INT(sl_state_from_bits(0x80, 0x100), 'I');
	CHECK_EQ_INT(sl_state_from_bits(0x40, 0x100), 'P');
	CHECK_EQ_INT(sl_state_from_bits(0x10, 0x100), 'X');
	CHECK_EQ_INT(sl_state_from_bits(0x2, 0x100), 'D');
	/* before: 0x10 = EXIT_ZOMBIE "Z", 0x20 = EXIT_DEAD "X", 0x40 = TASK_DEAD,
	 * 0x800 = TASK_STATE_MAX (the 4.x print fmt: {16,"Z"},{32,"X"},{64,"x"}) */
	CHECK_EQ_INT(sl_state_from_bits(0x10, 0x800), 'Z');
	CHECK_EQ_INT(sl_state_from_bits(0x20, 0x800), 'X');
	CHECK_EQ_INT(sl_state_from_bits(0x40, 0x800), 'X');
	CHECK_EQ_INT(sl_state_from_bits(0x801, 0x800), 'R');
	CHECK_EQ_INT(sl_state_from_text("R+", 2), 'R');
	CHECK_EQ_INT(sl_state_from_text("D|K", 3), 'D');
	CHECK_EQ_INT(sl_state_from_text("x", 1), 'X');
}

SL_TEST(prev_state_raw)
{
	/* a task's raw __state (include/linux/sched.h, v6.6): TASK_INTERRUPTIBLE
	 * 0x1, TASK_UNINTERRUPTIBLE 0x2, __TASK_STOPPED 0x4, __TASK_TRACED 0x8,
	 * EXIT_DEAD 0x10, EXIT_ZOMBIE 0x20, TASK_PARKED 0x40, TASK_DEAD 0x80,
	 * TASK_WAKEKILL 0x100, TASK_WAKING 0x200, TASK_NOLOAD 0x400,
	 * TASK_FREEZABLE 0x2000; TASK_IDLE = UNINTERRUPTIBLE | NOLOAD. A single
	 * bit up to 0x100 is read as the tracepoint's TASK_REPORT value. */
	CHECK_EQ_INT(sl_state_from_raw(0, 0x100), 'R');
	CHECK_EQ_INT(sl_state_from_raw(0x100, 0x100), 'R');  /* TASK_REPORT_MAX: preempted */
	CHECK_EQ_INT(sl_state_from_raw(0x80, 0x100), 'I');   /* TASK_REPORT_IDLE */
	CHECK_EQ_INT(sl_state_from_raw(0x402, 0x100), 'I');  /* TASK_IDLE */
	CHECK_EQ_INT(sl_state_from_raw(0x2001, 0x100), 'S'); /* FREEZABLE | INTERRUPTIBLE */
	CHECK_EQ_INT(sl_state_from_raw(0x102, 0x100), 'D');  /* TASK_KILLABLE */
	CHECK_EQ_INT(sl_state_from_raw(0x104, 0x100), 'T');  /* TASK_STOPPED */
	CHECK_EQ_INT(sl_state_from_raw(0x108, 0x100), 't');  /* TASK_TRACED */
	CHECK_EQ_INT(sl_state_from_raw(0x200, 0x100), 'R');  /* TASK_WAKING */
	CHECK_EQ_INT(sl_state_from_raw(0x30, 0x100), 'X');   /* EXIT_DEAD | EXIT_ZOMBIE */
	CHECK_EQ_INT(sl_state_from_raw(0x2800, 0x100), '?'); /* no state bit */
	CHECK_EQ_INT(sl_state_from_raw(-1, 0x100), '?');
}

SL_TEST(ftrace_fork_exec_migrate_lost)
{
	struct sl_event ev;
	CHECK_EQ_INT(parse("           <...>-34421 [003] .... 21926.771611: sched_process_fork: "
			   "comm=trace.sh pid=34421 child_comm=trace.sh child_pid=34422",
			   &ev, NULL),
		     1);
	CHECK_EQ_INT(ev.type, SL_EV_FORK);
	CHECK_EQ_INT(ev.pid, 34421);
	CHECK_EQ_INT(ev.pid2, 34422);
	CHECK_STR(ev.cur_comm, "<...>");
	CHECK_EQ_INT(parse("  ls-34422 [000] .... 21926.772000: sched_process_exec: "
			   "filename=/usr/bin/ls pid=34422 old_pid=34422",
			   &ev, NULL),
		     1);
	CHECK_EQ_INT(ev.type, SL_EV_EXEC);
	CHECK_STR(ev.comm, "ls");
	CHECK_EQ_INT(parse("  x-1 [001] d..3 1.000001: sched_migrate_task: comm=a b pid=9 prio=120 "
			   "orig_cpu=3 dest_cpu=2",
			   &ev, NULL),
		     1);
	CHECK_EQ_INT(ev.orig_cpu, 3);
	CHECK_EQ_INT(ev.target_cpu, 2);
	CHECK_STR(ev.comm, "a b");
	CHECK_EQ_INT(parse("CPU:2 [LOST 1234 EVENTS]", &ev, NULL), 1);
	CHECK_EQ_INT(ev.type, SL_EV_LOST);
	CHECK_EQ_INT(ev.cpu, 2);
	CHECK_EQ_INT(ev.count, 1234);
}

SL_TEST(ftrace_non_sched_and_bad_lines)
{
	struct sl_event ev;
	struct sl_diag d = { { 0 }, NULL, NULL };
	CHECK_EQ_INT(parse("# tracer: nop", &ev, NULL), 0);
	CHECK_EQ_INT(parse("", &ev, NULL), 0);
	CHECK_EQ_INT(parse("  a-1 [000] d..2 1.000000: sched_wakeup_fail: comm=a pid=1", &ev, NULL), 0);
	/* sched_stat_runtime is read: pid and runtime (ns) as printed */
	CHECK_EQ_INT(parse("  a-1 [000] d..2 1.000000: sched_stat_runtime: comm=a pid=1 runtime=5 [ns] "
			   "vruntime=9 [ns]",
			   &ev, NULL),
		     1);
	CHECK_EQ_INT(ev.type, SL_EV_RUNTIME);
	CHECK_EQ_INT(ev.pid, 1);
	CHECK_EQ_INT(ev.count, 5);
	CHECK_EQ_INT(parse("  a-1 [000] d..2 1.000000: sched_stat_runtime: comm=a pid=1 runtime=x",
			   &ev, &d),
		     -1);
	CHECK_EQ_INT(parse("hello world", &ev, &d), -1);
	CHECK_STR(d.msg, "not an ftrace event line");
	CHECK_EQ_INT(parse("  a-1 [000] d..2 1.000000: sched_switch: garbage", &ev, &d), -1);
	/* a timestamp with 10 fraction digits is not a timestamp */
	CHECK_EQ_INT(parse("  a-1 [000] 1.0000000000: sched_switch: x", &ev, &d), -1);
	/* huge numbers do not overflow */
	CHECK_EQ_INT(parse("  a-99999999999 [000] 1.0: sched_switch: x", &ev, &d), -1);
}
