/* cmd/cmd-common.c - helpers shared by the command files. */
#include "cmd.h"
#include "../common/util.h"

#include <stdio.h>
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
