/* collector/readers.c - the table of format readers and detection by
 * content. One static const table, as git's and perf's command tables: a
 * reader named here and not built fails the link. Adding a format is one
 * file (its struct sl_reader) plus one line below; the order is the order
 * in which probes are asked, the most specific first. */
#include "event.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

extern const struct sl_reader sl_reader_ftrace, sl_reader_tracedat, sl_reader_perfdata,
	sl_reader_perfscript, sl_reader_systrace, sl_reader_perfetto;

static const struct sl_reader *const all_readers[] = {
	&sl_reader_tracedat, &sl_reader_perfdata, &sl_reader_systrace,
	&sl_reader_perfetto, &sl_reader_perfscript, &sl_reader_ftrace,
};



/* Reader by name, NULL if unknown. */
const struct sl_reader *sl_reader_find(const char *name)
{
	size_t i;
	for (i = 0; i < SL_ARRAY_SIZE(all_readers); i++)
		if (!strcmp(all_readers[i]->name, name))
			return all_readers[i];
	return NULL;
}

const struct sl_reader *sl_reader_detect(const char *path, const char *force,
					 struct sl_diag *d)
{
	unsigned char head[65536];
	const struct sl_reader *best = NULL;
	int best_score = 0;
	size_t i, n;
	struct stat sb;
	FILE *f;

	if (force) {
		best = sl_reader_find(force);
		if (!best)
			sl_fail(d, "%s: unknown format '%s'", path, force);
		return best;
	}
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		/* perf record --threads writes a directory: data (the header)
		 * and data.N; it goes to the perf.data reader, and nothing
		 * else is read from a directory */
		char sub[4096];
		const struct sl_reader *pd = sl_reader_find("perfdata");
		snprintf(sub, sizeof(sub), "%s/data", path);
		f = fopen(sub, "rb");
		n = f ? fread(head, 1, 8, f) : 0;
		if (f)
			fclose(f);
		if (pd && pd->probe && pd->probe(head, n) > 0)
			return pd;
		sl_fail(d, "%s: not a regular file (nor a perf.data directory)", path);
		return NULL;
	}
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISFIFO(sb.st_mode)) {
		sl_fail(d, "%s: not a regular file", path);
		return NULL;
	}
	f = fopen(path, "rb");
	if (!f) {
		sl_fail(d, "%s: %s", path, strerror(errno));
		return NULL;
	}
	n = fread(head, 1, sizeof(head), f);
	if (ferror(f)) {
		sl_fail(d, "%s: read error: %s", path, strerror(errno));
		fclose(f);
		return NULL;
	}
	fclose(f);
	if (n == 0) {
		sl_fail(d, "%s:0: empty file", path);
		return NULL;
	}
	for (i = 0; i < SL_ARRAY_SIZE(all_readers); i++) {
		int s;
		if (!all_readers[i]->probe)
			continue;
		s = all_readers[i]->probe(head, n);
		if (s > best_score) {
			best_score = s;
			best = all_readers[i];
		}
	}
	if (!best)
		sl_fail(d, "%s:1: not a trace format schedlab reads (ftrace text, trace.dat, "
			   "perf.data, perf script, systrace)", path);
	return best;
}
