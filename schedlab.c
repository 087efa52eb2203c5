/* schedlab.c - main(): global options and the command table. */
#include "cmd/cmd.h"
#include "common/util.h"
#include "analyze/pass.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

struct cmd_entry {
	const char *name;
	sl_cmd_fn fn;
	const char *help;
};

/* every command, in the order of `schedlab -h` */
static const struct cmd_entry commands[] = {
	{ "import", cmd_import, "import trace files (ftrace text, trace.dat, perf.data, perf script, systrace)" },
	{ "record", cmd_record, "record a live trace of this machine or of a command" },
	{ "ledger", cmd_ledger, "the kernel's per-thread accounting around another recorder" },
	{ "replay", cmd_replay, "re-schedule a trace or a workload through scheduler models" },
	{ "analyze", cmd_analyze, "compute metrics; per-run and per-task tables" },
	{ "compare", cmd_compare, "side-by-side metrics of runs of the same trace" },
	{ "plot", cmd_plot, "draw a chart of runs (staircase, latency, timeline, ...)" },
	{ "report", cmd_report, "one HTML page with every chart and table of a trace" },
	{ "bound", cmd_bound, "RSDL's predicted worst-case wait of CPU-bound tasks" },
	{ "claims", cmd_claims, "re-run the claims of the 2007 RSDL announcement" },
	{ "export", cmd_export, "Chrome/Perfetto JSON trace of a run" },
	{ "validate", cmd_validate, "replay a trace through its own kernel's model; fidelity table" },
	{ "sweep", cmd_sweep, "a grid of replays (models x parameters x traces) as jobs; GNU parallel, Slurm" },
	{ "merge", cmd_merge, "one database from many (a sweep's jobs, several machines)" },
};

static void commands_help(FILE *f)
{
	size_t i;
	fprintf(f, "\nCommands:\n");
	for (i = 0; i < SL_ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "Run 'schedlab COMMAND -h' for a command's options.\n");
}

static const char about[] =
	"How would this workload have been scheduled by RSDL, and by Linux 2.6.20?\n"
	"Usage errors exit with status 2, other errors with status 1.\n";

static const char synopsis[] =
	"schedlab [--db FILE] [-q] COMMAND [ARGS]";

#ifdef __GLIBC__
/* after each run a report, plot or compare has read: its rows freed, give
 * the memory back before the next run is read */
static void trim_heap(void)
{
	malloc_trim(0);
}
#endif

/* The process's allocator policy (the program's, not the library's): blocks
 * of a MiB and more are mapped of their own, so the arrays that grow (a
 * task's delays while runs are read) are moved by mremap, not copied, and
 * given back when freed, not left in the heap. The heap's free top is
 * kept up to 64 MiB instead of 128 KiB: SQLite's buffer for each run_pack
 * chunk a replay reads, freed and taken again, otherwise gave its pages
 * back and faulted fresh ones in each time (3 600 of a replay's 12 600
 * page faults, 10-16 us each on a VM, for a 592k-event trace.dat);
 * report and plot still give each run's memory back (trim_heap). */
/* SQLite's page cache (an import's or replay's 8 MiB, a reading pass's
 * 4 MiB) in one block that faults in by 2 MiB pages (sl_big_grow), not
 * page by page as SQLite mallocs them (10-20 us a 4 KiB fault on a VM).
 * Configured before SQLite starts; more pages than the block holds are
 * malloc'd as before. 2048 slots: the 8 MiB cache holds 1984 pages of 4 KiB
 * and SQLite's header (sqlite3_status PAGECACHE_USED's high-water mark in
 * an import and a replay of a 592k-event trace.dat, 1727 in analyze), and
 * SQLite writes into every slot of the block when it starts: a slot more
 * is memory faulted in for nothing. */
static void sqlite_page_cache(void)
{
	static void *block; /* for the process's life */
	size_t cap = 0, slot;
	int hdr = 0, n = 2048;
	if (sqlite3_config(SQLITE_CONFIG_PCACHE_HDRSZ, &hdr) != SQLITE_OK || hdr < 0)
		return;
	slot = (4096 + (size_t)hdr + 7) & ~(size_t)7;
	sl_big_grow(&block, &cap, (size_t)n * slot, 1);
	sl_big_dontfork(block, cap, 1); /* an import's children use no SQLite */
	sqlite3_config(SQLITE_CONFIG_PAGECACHE, block, (int)slot, n);
}

#ifdef __GLIBC__
/* The heap's first HEAP_HUGE bytes in transparent huge pages: the model's
 * arrays that grow by realloc (each task's phases, 48 bytes a burst) and
 * the other blocks under M_MMAP_THRESHOLD fault in by 2 MiB pages, not
 * by 4 KiB ones (10-16 us each on a VM; a 590k-event trace.dat's import
 * took 3 200 faults in its main thread). The heap is made that big at
 * once (M_TOP_PAD for one extension: address space, not memory) and
 * advised; what it grows by later is as before. */
#define HEAP_HUGE (32 << 20)
static void heap_huge(void)
{
	const uintptr_t hp = (uintptr_t)2 << 20;
	uintptr_t lo = (uintptr_t)sbrk(0), hi;
	void *volatile p; /* not a malloc/free pair the compiler drops */
	mallopt(M_TOP_PAD, HEAP_HUGE);
	p = malloc(256 << 10); /* the heap's top is smaller: it grows by HEAP_HUGE */
	mallopt(M_TOP_PAD, 128 << 10); /* glibc's default, for the trims */
	free(p);
	hi = (uintptr_t)sbrk(0);
	lo = (lo + hp - 1) & ~(hp - 1);
	hi &= ~(hp - 1);
	if (lo && hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}
#endif

static void memory_policy(void)
{
	sqlite_page_cache();
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	heap_huge();
	sl_pass_set_run_done_hook(trim_heap);
#endif
}

/* What a command printed must have reached standard output: a full disk
 * or a closed descriptor is an error (exit 1), as git's run_builtin has
 * it; a pipe's reader that went away is not (SIGPIPE, or EPIPE when it is
 * ignored, as `schedlab analyze | head` wants). */
static int check_stdout(int rc)
{
	struct stat sb;
	if (fstat(fileno(stdout), &sb))
		return rc; /* no standard output at all: nothing was expected */
	if (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode))
		return rc;
	errno = 0;
	if (fflush(stdout)) {
		sl_err("standard output: %s", strerror(errno));
		return 1;
	}
	if (ferror(stdout)) {
		sl_err("standard output: write error");
		return 1;
	}
	if (fclose(stdout)) {
		sl_err("standard output: %s", strerror(errno));
		return 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct sl_globals g = { "schedlab.db", 0 };
	size_t i;
	int version = 0, nops, rc;
	const struct sl_opt opts[] = {
		SL_OPT_STRING(0, "db", &g.db, "FILE", "the database"),
		SL_OPT_FLAG('q', NULL, &g.quiet, "fewer messages"),
		SL_OPT_FLAG(0, "version", &version, "print the version"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { NULL, synopsis, about, opts, SL_OPTS_OPERANDS | SL_OPTS_STOP,
					   commands_help };

	memory_policy();
	if ((rc = sl_opts_parse(&spec, argc, argv, &nops)) != SL_OPTS_GO)
		return check_stdout(rc);
	if (version) {
		printf("schedlab 0.1\n");
		return check_stdout(0);
	}
	if (!nops) {
		sl_opts_usage(&spec, stderr);
		return 2;
	}
	for (i = 0; i < SL_ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, argv[1]))
			return check_stdout(commands[i].fn(nops, argv + 1, &g));
	sl_err("unknown command '%s' (see 'schedlab -h')", argv[1]);
	return 2;
}
