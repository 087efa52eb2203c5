/* cmd/cmd-common.c - helpers shared by the command files. */
#include "cmd.h"
#include "../common/util.h"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

int sl_is_help(const char *arg)
{
	return arg && (!strcmp(arg, "-h") || !strcmp(arg, "--help"));
}

int sl_opt_id(const char *cmd, const char *what, const char *val, long long *out)
{
	if (sl_parse_int(val, 1, INT64_MAX, out)) {
		sl_err("%s: bad %s id '%s'", cmd, what, val);
		return -1;
	}
	return 0;
}

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
