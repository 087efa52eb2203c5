/* cmd/cmd.h - the commands. Each lives in its own cmd/cmd-NAME.c (export
 * and report share cmd-write.c), parses its options with the table parser
 * of opt.h, prints, and returns the exit status. schedlab.c lists them in
 * one static const table: adding a command is one file plus one line
 * there and its declaration here. */
#ifndef SL_CMD_H
#define SL_CMD_H

#include "opt.h"
#include <stdint.h>

struct sl_globals {
	const char *db;  /* --db FILE (default "schedlab.db") */
	int quiet;       /* -q */
};

/* argv[0] is the command name; options follow. Return 0 on success, 1 on
 * error (after printing one "schedlab: error: ..." line), 2 on usage error. */
typedef int (*sl_cmd_fn)(int argc, char **argv, const struct sl_globals *g);

/* --format of analyze and validate (cmd-common.c); claims adds markdown */
enum { SL_FMT_TABLE = 0, SL_FMT_CSV = 1, SL_FMT_JSON = 2, SL_FMT_MARKDOWN = 3 };
extern const struct sl_choice sl_format_choices[];

int cmd_import(int argc, char **argv, const struct sl_globals *g);
int cmd_record(int argc, char **argv, const struct sl_globals *g);
int cmd_ledger(int argc, char **argv, const struct sl_globals *g);
int cmd_replay(int argc, char **argv, const struct sl_globals *g);
int cmd_analyze(int argc, char **argv, const struct sl_globals *g);
int cmd_compare(int argc, char **argv, const struct sl_globals *g);
int cmd_plot(int argc, char **argv, const struct sl_globals *g);
int cmd_report(int argc, char **argv, const struct sl_globals *g);
int cmd_bound(int argc, char **argv, const struct sl_globals *g);
int cmd_claims(int argc, char **argv, const struct sl_globals *g);
int cmd_export(int argc, char **argv, const struct sl_globals *g);
int cmd_validate(int argc, char **argv, const struct sl_globals *g);
int cmd_merge(int argc, char **argv, const struct sl_globals *g);
int cmd_sweep(int argc, char **argv, const struct sl_globals *g);

struct sl_store;
struct sl_behaviour;
struct sl_policy_ops;
struct sl_replay_opts;
struct sl_replay_stats;
struct sl_diag;
/* Replay b (trace_id's behaviour) through ops with opts (opts->cpus set;
 * all_popts: every --opt, those ops has are applied; NULL: opts->policy_opts,
 * the same way) and store the run in
 * one transaction (cmd-replay.c). *run_id, *s and *rows (may be NULL)
 * describe it. 0, or -1 with d set and nothing stored. */
int sl_cmd_replay_store(struct sl_store *st, int64_t trace_id, const struct sl_behaviour *b,
			const struct sl_policy_ops *ops, const struct sl_replay_opts *opts,
			const char *all_popts, int64_t *run_id, struct sl_replay_stats *s, uint64_t *rows,
			struct sl_diag *d);

struct sl_run_data;
/* The same replay kept in memory, not stored: its rows in *out as
 * sl_store_load_run would give them (its threads copied from like, a run of
 * the same trace). 0, or -1 with d set. */
int sl_cmd_replay_mem(const struct sl_behaviour *b, const struct sl_policy_ops *ops,
		      const struct sl_replay_opts *opts, const char *all_popts,
		      const struct sl_run_data *like, struct sl_run_data *out, struct sl_diag *d);

/* A command that may create the database (import, replay --workload) asks
 * sl_db_exists() first; if it created the file and then failed with nothing
 * committed, sl_db_discard() removes the file (and its -wal, -shm, -journal)
 * so a failed command leaves no empty database behind. */
int sl_db_exists(const char *path);
void sl_db_discard(const char *path);

/* Parse --overhead (replay, validate, sweep): "none" (nq 0), "auto"
 * (calibrated later: only o->overhead = "auto"), "WAKE" (both) or
 * "WAKE,SWITCH", durations up to 1 s, default unit us (nq 1). Sets o->nq,
 * o->wake_lat_ns[0], o->switch_lat_ns[0], o->overhead. 0, or -1 if
 * malformed. */
int sl_overhead_parse(const char *s, struct sl_replay_opts *o);

#endif
