/* replay/policies.c - the table of scheduler models. A model not linked
 * into the program (weak symbol left NULL) is simply absent. */
#include "engine.h"

#include <stdio.h>
#include <string.h>

static const struct sl_policy_ops *const *table(size_t *n)
{
	static const struct sl_policy_ops *tab[8];
	static size_t cnt;
	if (!cnt) {
		tab[cnt++] = &sl_policy_rsdl;
		if (&sl_policy_o1)
			tab[cnt++] = &sl_policy_o1;
		if (&sl_policy_sd)
			tab[cnt++] = &sl_policy_sd;
	}
	*n = cnt;
	return tab;
}

const struct sl_policy_ops *sl_policy_find(const char *name)
{
	size_t i, n;
	const struct sl_policy_ops *const *tab = table(&n);
	for (i = 0; i < n; i++)
		if (!strcmp(tab[i]->name, name))
			return tab[i];
	return NULL;
}

const char *sl_policy_names(void)
{
	static char buf[128];
	size_t i, n, off = 0;
	const struct sl_policy_ops *const *tab = table(&n);
	if (buf[0])
		return buf;
	for (i = 0; i < n; i++) {
		int k = snprintf(buf + off, sizeof(buf) - off, "%s%s", i ? ", " : "", tab[i]->name);
		if (k < 0 || (size_t)k >= sizeof(buf) - off)
			break;
		off += (size_t)k;
	}
	return buf;
}
