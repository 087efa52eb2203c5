/* cmd/cmd-common.c - helpers shared by the command files. */
#include "cmd.h"
#include "../common/util.h"
#include "../replay/engine.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

const struct sl_choice sl_format_choices[] = {
	{ "table", SL_FMT_TABLE, "aligned columns for reading" },
	{ "csv", SL_FMT_CSV, "comma-separated values with a header line" },
	{ "json", SL_FMT_JSON, "a JSON document" },
	SL_CHOICES_END
};

int sl_db_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

void sl_db_discard(const char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
	char buf[4096];
	size_t i;
	for (i = 0; i < SL_ARRAY_SIZE(suffix); i++)
		if (snprintf(buf, sizeof(buf), "%s%s", path, suffix[i]) < (int)sizeof(buf))
			unlink(buf);
}

int sl_overhead_parse(const char *s, struct sl_replay_opts *o)
{
	char buf[64], *comma;
	uint64_t w, sw;
	if (!strcmp(s, "none")) {
		o->nq = 0;
		o->overhead = "none";
		return 0;
	}
	if (!strcmp(s, "auto")) {
		o->nq = 0;
		o->overhead = "auto";
		return 0;
	}
	if (strlen(s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, strlen(s) + 1);
	comma = strchr(buf, ',');
	if (comma)
		*comma++ = 0;
	if (sl_parse_duration(buf, 1000, &w) || w > SL_NS_PER_SEC)
		return -1;
	sw = w;
	if (comma && (sl_parse_duration(comma, 1000, &sw) || sw > SL_NS_PER_SEC))
		return -1;
	o->nq = 1;
	o->wake_lat_ns[0] = w;
	o->switch_lat_ns[0] = sw;
	o->overhead = "fixed";
	return 0;
}
