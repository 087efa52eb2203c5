/* collector/tracedat_state.h - sched_switch prev_state letters from the
 * trace file's own print fmt (bit values differ between kernels). */
#ifndef SL_TRACEDAT_STATE_H
#define SL_TRACEDAT_STATE_H

#include <stdint.h>
#include <traceevent/event-parse.h>

/* The __print_flags table of prev_state and its masks. */
struct sl_tdstate {
	int n;
	uint64_t val[24];
	char str[24][4];
	uint64_t preempt; /* the "+" bit (preempted), 0 unknown */
	uint64_t mask;    /* bits that name a sleep state, 0 unknown */
};

/* Fill st from sched_switch's print args: `prev_state & M ?
 * __print_flags(...) : "R"` and `prev_state & P ? "+" : ""`, evaluating
 * the constant expressions M and P. Nothing to free. */
void sl_tdstate_load(struct sl_tdstate *st, struct tep_event *ev);

/* The normalised letter (see event.h) of prev_state value v: 'R' if the
 * preempt bit or no state bit is set, else the printed flags ("D|K")
 * through sl_state_from_text; without a table, sl_state_from_bits. */
char sl_tdstate_letter(const struct sl_tdstate *st, uint64_t v);

#endif
