/* common/choice.c - lookups in a choice table (choice.h). */
#include "choice.h"

#include <string.h>

const char *sl_choice_name(const struct sl_choice *t, int value, const char *dflt)
{
	for (; t && t->name; t++)
		if (t->value == value)
			return t->name;
	return dflt;
}

const struct sl_choice *sl_choice_find(const struct sl_choice *t, const char *name)
{
	for (; t && t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}
