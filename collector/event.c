/* collector/event.c - the event record's helpers (event.h). */
#include "event.h"

#include <string.h>

int sl_event_cut(sl_event_fn fn, void *ctx, uint64_t pos)
{
	struct sl_event ev;
	sl_event_clear(&ev);
	ev.type = SL_EV_CUT;
	ev.pos = pos;
	return fn(ctx, &ev);
}

void sl_event_clear(struct sl_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->cpu = -1;
	ev->cur_pid = ev->cur_tgid = -1;
	ev->pid = ev->pid2 = -1;
	ev->prio = ev->prio2 = -1;
	ev->target_cpu = ev->orig_cpu = -1;
	ev->state = '?';
}
