/* collector/prev_state.c - a switch's prev_state as one letter (event.h):
 * from the tracepoint's bits (the kernel's TASK_REPORT or an older raw
 * state), from its printed form, or from a task's raw __state. The readers
 * find the "preempted" bit their own way (a trace.dat's print fmt through
 * libtraceevent, tracedat_state.c; a perf.data's print fmt text,
 * perfdata_tp.c; a Perfetto trace's kernel release, perfetto.c) and decode
 * here. */
#include "event.h"

#include <ctype.h>
#include <stdlib.h>

char sl_state_from_bits(int64_t bits, int64_t report_max)
{
	/* Bit meanings differ by kernel. Since 4.14 the tracepoint reports
	 * TASK_REPORT: S=1 D=2 T=4 t=8 X=16 Z=32 P=64 I=128 and "preempted"
	 * is TASK_REPORT_MAX (0x100). Before, it reported the raw state with
	 * TASK_STATE_MAX (0x400..0x1000) for preempted, 16 = EXIT_ZOMBIE,
	 * 32 = EXIT_DEAD and 64 = TASK_DEAD (printed Z, X, x). */
	static const char modern[] = { 'S', 'D', 'T', 't', 'X', 'Z', 'P', 'I' };
	static const char old[] = { 'S', 'D', 'T', 't', 'Z', 'X', 'X', 'D', 'R', 'P', 'D' };
	int i;

	if (bits < 0)
		return '?';
	if (report_max > 0 && (bits & report_max))
		return 'R';
	if (report_max <= 0 && bits >= 0x400)
		return 'R'; /* TASK_STATE_MAX of some pre-4.14 kernel */
	if (bits == 0)
		return 'R';
	for (i = 0; i < 11; i++)
		if (bits & (1LL << i))
			break;
	if (report_max == 0x100 || report_max == 0x80)
		return i < 8 ? modern[i] : '?';
	return i < 11 ? old[i] : '?';
}

char sl_state_from_text(const char *s, size_t n)
{
	size_t i;
	if (!n)
		return '?';
	/* numbers: trace-cmd prints the raw value when it cannot decode */
	if (isdigit((unsigned char)s[0])) {
		long long v = 0;
		for (i = 0; i < n && isdigit((unsigned char)s[i]) && v < (1LL << 40); i++)
			v = v * 10 + (s[i] - '0');
		return sl_state_from_bits(v, 0);
	}
	if (s[0] == '0' && n > 1 && (s[1] == 'x' || s[1] == 'X'))
		return sl_state_from_bits(strtoll(s, NULL, 16), 0);
	switch (s[0]) {
	case 'R':
		return 'R'; /* "R" or "R+" (preempted) */
	case 'S':
	case 'D':
	case 'T':
	case 't':
	case 'X':
	case 'Z':
	case 'P':
	case 'I':
		return s[0];
	case 'x':
		return 'X'; /* TASK_DEAD on old kernels */
	case 'K':
	case 'W':
	case 'N':
		return 'D';
	default:
		return '?';
	}
}

/* prev_state: the sched_switch tracepoint reports 0, one TASK_REPORT bit
 * (<= 0x80) or the "preempted" bit alone; some producers (systing) store
 * the task's raw __state instead, recognisable by other values (several
 * bits, TASK_WAKING 0x200, TASK_NOLOAD 0x400, TASK_FREEZABLE 0x2000...). */
char sl_state_from_raw(int64_t v, int64_t report_max)
{
	if (v < 0)
		return '?';
	if (v == 0 || ((v & (v - 1)) == 0 && v <= 0x100))
		return sl_state_from_bits(v, report_max);
	if ((v & 0x402) == 0x402)
		return 'I'; /* TASK_IDLE = UNINTERRUPTIBLE | NOLOAD */
	if (v & 2)
		return 'D';
	if (v & 1)
		return 'S';
	if (v & 4)
		return 'T';
	if (v & 8)
		return 't';
	if (v & 0x30)
		return v & 0x10 ? 'X' : 'Z';
	if (v & 0x40)
		return 'P';
	if (v & 0x80)
		return 'X'; /* TASK_DEAD */
	if (v & 0x200)
		return 'R'; /* TASK_WAKING: on its way to a runqueue */
	return '?';
}
