/* cmd/cmd-bound.c - `schedlab bound [--rr-interval T] NICE...`: RSDL's
 * predicted worst-case wait of each of a set of CPU-bound tasks. */
#include "cmd.h"
#include "../common/util.h"
#include "../replay/bound.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: schedlab bound [--rr-interval T] [--] NICE...\n"
		   "  For CPU-bound tasks of these nice values, print each task's worst-case\n"
		   "  wait under RSDL: bound(i) = sum over j != i of q_j * (L_j + max(0, n_i - n_j)),\n"
		   "  L = 20 - nice levels, q = RR (nice >= 0) or RR*(1 - nice) (nice < 0).\n"
		   "  --rr-interval T   RR_INTERVAL (default 6ms)\n");
}

int cmd_bound(int argc, char **argv, const struct sl_globals *g)
{
	uint64_t rr = 6 * SL_NS_PER_MS, *out;
	int *nice, n = 0, i, opts = 1;

	(void)g;
	nice = xcalloc((size_t)argc, sizeof(*nice));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		long long v;
		if (opts && !strcmp(a, "--")) {
			opts = 0;
		} else if (opts && sl_is_help(a)) {
			usage(stdout);
			free(nice);
			return 0;
		} else if (opts && (!strcmp(a, "--rr-interval") || !strncmp(a, "--rr-interval=", 14))) {
			const char *v2 = a[13] == '=' ? a + 14 : (i + 1 < argc ? argv[++i] : NULL);
			if (!v2 || sl_parse_duration(v2, SL_NS_PER_MS, &rr) || rr == 0 ||
			    rr > 10 * SL_NS_PER_SEC) {
				sl_err("--rr-interval: expected a duration like 6ms (up to 10s)");
				free(nice);
				return 2;
			}
		} else if (!sl_parse_int(a, -20, 19, &v)) {
			nice[n++] = (int)v;
		} else if (opts && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9')) {
			sl_err("bound: unknown option '%s' (see 'schedlab bound -h')", a);
			free(nice);
			return 2;
		} else {
			sl_err("bound: nice '%s': expected an integer in -20..19", a);
			free(nice);
			return 2;
		}
	}
	if (!n) {
		usage(stderr);
		free(nice);
		return 2;
	}
	out = xcalloc((size_t)n, sizeof(*out));
	sl_bound_ns(nice, (size_t)n, rr, out);
	for (i = 0; i < n; i++)
		printf("nice=%d bound_ms=%llu.%03llu\n", nice[i],
		       (unsigned long long)(out[i] / SL_NS_PER_MS),
		       (unsigned long long)(out[i] % SL_NS_PER_MS / 1000));
	free(out);
	free(nice);
	return 0;
}
