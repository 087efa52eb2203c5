/* replay/policies.c - the table of scheduler models, one static const
 * array as git's command table is: every entry is a strong reference, so a
 * model whose file is missing fails the link instead of vanishing.
 *
 * Adding a model: write replay/NAME.c defining
 *	const struct sl_policy_ops sl_policy_NAME = { .name = "NAME", ... };
 * and add one line X(NAME) to SL_POLICY_TABLE below (docs/replay.md). The
 * macro both declares sl_policy_NAME and puts it in sl_policies[], so the
 * model appears in replay, claims, report and every listing by itself. */
#include "engine.h"

#include <stdio.h>
#include <string.h>

/* One line per model, in listing order (--sched NAME, `replay -h`). */
#define SL_POLICY_TABLE(X) \
	X(rsdl) \
	X(o1) \
	X(sd) \
	X(cfs) \
	X(eevdf) \
	/* end of the table */

#define SL_POLICY_DECLARE(n) extern const struct sl_policy_ops sl_policy_##n;
#define SL_POLICY_ENTRY(n) &sl_policy_##n,

SL_POLICY_TABLE(SL_POLICY_DECLARE)

const struct sl_policy_ops *const sl_policies[] = { SL_POLICY_TABLE(SL_POLICY_ENTRY) };
const size_t sl_npolicies = sizeof(sl_policies) / sizeof(sl_policies[0]);

const struct sl_policy_ops *sl_policy_find(const char *name)
{
	size_t i;
	for (i = 0; i < sl_npolicies; i++)
		if (!strcmp(sl_policies[i]->name, name))
			return sl_policies[i];
	return NULL;
}

const char *sl_policy_names(void)
{
	static char buf[256];
	size_t i, off = 0;
	if (buf[0])
		return buf;
	for (i = 0; i < sl_npolicies; i++) {
		int k = snprintf(buf + off, sizeof(buf) - off, "%s%s", i ? ", " : "",
				 sl_policies[i]->name);
		if (k < 0 || (size_t)k >= sizeof(buf) - off)
			break;
		off += (size_t)k;
	}
	return buf;
}

int sl_policy_param_index(const struct sl_policy_ops *ops, const char *name, size_t n)
{
	int i;
	for (i = 0; ops->params && ops->params[i].name; i++) {
		const char *al = ops->param_aliases ? ops->param_aliases[i] : NULL;
		if ((strlen(ops->params[i].name) == n && !strncmp(ops->params[i].name, name, n)) ||
		    (al && strlen(al) == n && !strncmp(al, name, n)))
			return i;
	}
	return -1;
}

const char *sl_policy_param_other(const char *name)
{
	size_t k;
	int i;
	for (k = 0; k < sl_npolicies; k++) {
		const struct sl_policy_ops *ops = sl_policies[k];
		for (i = 0; ops->param_aliases && ops->params[i].name; i++) {
			const char *al = ops->param_aliases[i];
			if (!al)
				continue;
			if (!strcmp(al, name))
				return ops->params[i].name;
			if (!strcmp(ops->params[i].name, name))
				return al;
		}
	}
	return NULL;
}
