/* cmd/cmd-common.c - helpers shared by the command files. */
#include "cmd.h"

#include <string.h>

int sl_is_help(const char *arg)
{
	return arg && (!strcmp(arg, "-h") || !strcmp(arg, "--help"));
}
