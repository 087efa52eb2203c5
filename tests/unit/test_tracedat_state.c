/* tests/unit/test_tracedat_state.c - prev_state letters from a
 * sched_switch print fmt, on two real format files embedded here: Linux
 * 6.18 (this machine's /sys/kernel/tracing/events/sched/sched_switch/format:
 * TASK_REPORT bits S=1 D=2 T=4 t=8 X=0x10 Z=0x20 P=0x40 I=0x80, "+" =
 * TASK_REPORT_MAX 0x100, written as a constant expression) and the Arm Juno
 * kernel of lisa-juno-rtapp-dat (raw task state: S=1 D=2 T=4 t=8 Z=16 X=32
 * x=64 K=128 W=256 P=512 N=1024, "+" = 2048). Expected letters are what
 * the kernel would print (first flag of the set), normalised as event.h
 * says: "x" (TASK_DEAD) -> X, "D|K" -> D, "R+" -> R. */
#include "harness.h"

#include <traceevent/event-parse.h>

#include "../../collector/tracedat_state.h"

static const char new_fmt[] =
	"name: sched_switch\n"
	"ID: 98\n"
	"format:\n"
	"	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
	"	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
	"	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
	"	field:int common_pid;	offset:4;	size:4;	signed:1;\n"
	"\n"
	"	field:char prev_comm[16];	offset:8;	size:16;	signed:0;\n"
	"	field:pid_t prev_pid;	offset:24;	size:4;	signed:1;\n"
	"	field:int prev_prio;	offset:28;	size:4;	signed:1;\n"
	"	field:long prev_state;	offset:32;	size:8;	signed:1;\n"
	"	field:char next_comm[16];	offset:40;	size:16;	signed:0;\n"
	"	field:pid_t next_pid;	offset:56;	size:4;	signed:1;\n"
	"	field:int next_prio;	offset:60;	size:4;	signed:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio\n"
	"\n";

static const char old_fmt[] =
	"name: sched_switch\n"
	"ID: 98\n"
	"format:\n"
	"	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
	"	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
	"	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
	"	field:int common_pid;	offset:4;	size:4;	signed:1;\n"
	"\n"
	"	field:char prev_comm[16];	offset:8;	size:16;	signed:0;\n"
	"	field:pid_t prev_pid;	offset:24;	size:4;	signed:1;\n"
	"	field:int prev_prio;	offset:28;	size:4;	signed:1;\n"
	"	field:long prev_state;	offset:32;	size:8;	signed:1;\n"
	"	field:char next_comm[16];	offset:40;	size:16;	signed:0;\n"
	"	field:pid_t next_pid;	offset:56;	size:4;	signed:1;\n"
	"	field:int next_prio;	offset:60;	size:4;	signed:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, REC->prev_state & (2048-1) ? __print_flags(REC->prev_state & (2048-1), \"|\", { 1, \"S\"} , { 2, \"D\" }, { 4, \"T\" }, { 8, \"t\" }, { 16, \"Z\" }, { 32, \"X\" }, { 64, \"x\" }, { 128, \"K\" }, { 256, \"W\" }, { 512, \"P\" }, { 1024, \"N\" }) : \"R\", REC->prev_state & 2048 ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio\n"
	"\n";

static int load(const char *text, struct sl_tdstate *st, struct tep_handle **tep)
{
	struct tep_event *ev = NULL;
	*tep = tep_alloc();
	tep_set_loglevel(TEP_LOG_NONE);
	if (!*tep || tep_parse_format(*tep, &ev, text, strlen(text), "sched") != 0 || !ev)
		return -1;
	sl_tdstate_load(st, ev);
	return 0;
}

SL_TEST(tdstate_linux_6_18)
{
	struct sl_tdstate st;
	struct tep_handle *tep;
	CHECK_EQ_INT(load(new_fmt, &st, &tep), 0);
	CHECK_EQ_INT(st.preempt, 0x100); /* ((0x7f) + 1) << 1 */
	CHECK_EQ_INT(st.mask, 0xff);
	CHECK_EQ_INT(sl_tdstate_letter(&st, 0), 'R');
	CHECK_EQ_INT(sl_tdstate_letter(&st, 0x100), 'R');
	CHECK_EQ_INT(sl_tdstate_letter(&st, 0x1), 'S');
	CHECK_EQ_INT(sl_tdstate_letter(&st, 0x2), 'D');
	CHECK_EQ_INT(sl_tdstate_letter(&st, 0x10), 'X');
	CHECK_EQ_INT(sl_tdstate_letter(&st, 0x20), 'Z');
	CHECK_EQ_INT(sl_tdstate_letter(&st, 0x40), 'P');
	CHECK_EQ_INT(sl_tdstate_letter(&st, 0x80), 'I');
	tep_free(tep);
}

SL_TEST(tdstate_old_arm_kernel)
{
	struct sl_tdstate st;
	struct tep_handle *tep;
	CHECK_EQ_INT(load(old_fmt, &st, &tep), 0);
	CHECK_EQ_INT(st.preempt, 2048);
	CHECK_EQ_INT(st.mask, 2047);
	CHECK_EQ_INT(sl_tdstate_letter(&st, 2048), 'R');
	CHECK_EQ_INT(sl_tdstate_letter(&st, 2048 | 1), 'R'); /* "S+": preempted */
	CHECK_EQ_INT(sl_tdstate_letter(&st, 1), 'S');
	CHECK_EQ_INT(sl_tdstate_letter(&st, 16), 'Z');
	CHECK_EQ_INT(sl_tdstate_letter(&st, 32), 'X');
	CHECK_EQ_INT(sl_tdstate_letter(&st, 64), 'X');      /* "x" */
	CHECK_EQ_INT(sl_tdstate_letter(&st, 2 | 128), 'D'); /* "D|K" */
	CHECK_EQ_INT(sl_tdstate_letter(&st, 2 | 256), 'D'); /* "D|W" */
	CHECK_EQ_INT(sl_tdstate_letter(&st, 512), 'P');
	tep_free(tep);
}
