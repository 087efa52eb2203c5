/* replay/sync.h - which wakeups of a behaviour were sync wakeups (the
 * waker promised to leave its CPU at once: 2.6.20's __wake_up_sync, the
 * kernel's WF_SYNC). A trace records who woke whom, not the syscall, so the
 * replay infers it from what the waker did next (docs/replay.md "Sync
 * wakeups"). */
#ifndef SL_SYNC_H
#define SL_SYNC_H

#include <stddef.h>
#include <stdint.h>
#include "../common/behaviour.h"

/* replay --sync */
enum sl_sync_mode {
	SL_SYNC_BLOCK = 0, /* default: the waker blocks (S, D) or exits within the
			    * window of its own CPU time after the wakeup, waking
			    * nobody else meanwhile */
	SL_SYNC_EXIT = 1,  /* only an exiting child waking its parent within the
			    * window (do_notify_parent: __wake_up_parent) */
	SL_SYNC_NONE = 2,  /* no sync wakeups */
	SL_SYNC_GROUP = 3, /* 5.x and later: the call decides, not what the waker
			    * does next: a user task waking a user task of another
			    * thread group (pipes, sockets, epoll) is sync, a futex's
			    * (one thread group) and a kernel thread's are not, nor an
			    * exiting waker's (select_task_rq_fair drops WF_SYNC under
			    * PF_EXITING) */
};

/* the default window: the exit path's own length on the recordings
 * (docs/replay.md "Sync wakeups") */
#define SL_SYNC_WINDOW_NS 50000ULL

/* The sync flags of every wakeup of a behaviour: flag[off[t] + k] is 1 when
 * the wakeup that ends phase k's sleep of task t is sync. */
struct sl_sync_map {
	uint8_t *flag;
	size_t *off; /* ntasks + 1 offsets */
	size_t ntasks;
	size_t nsync; /* how many flags are set */
};

/* Name of a mode ("block", "exit", "none", "group"), and the mode of a name (-1 if
 * unknown). */
const char *sl_sync_mode_name(int mode);
int sl_sync_mode_parse(const char *name);

/* Infer the flags of b under mode with window_ns (m is cleared first;
 * release with sl_sync_release). */
void sl_sync_infer(const struct sl_behaviour *b, int mode, uint64_t window_ns, struct sl_sync_map *m);
void sl_sync_release(struct sl_sync_map *m);
/* to = a copy of from (to is overwritten; release both) */
void sl_sync_copy(const struct sl_sync_map *from, struct sl_sync_map *to);

/* 1 if the wakeup ending phase k's sleep of task t is sync */
static inline int sl_sync_of(const struct sl_sync_map *m, size_t t, size_t k)
{
	return m->flag && t < m->ntasks && m->off[t] + k < m->off[t + 1] && m->flag[m->off[t] + k];
}

#endif
