/* cmd/cmd-bound.c - `schedlab bound [--rr-interval T] NICE...`: RSDL's
 * predicted worst-case wait of each of a set of CPU-bound tasks. */
#include "cmd.h"
#include "../common/util.h"
#include "../replay/bound.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char synopsis[] =
	"schedlab bound [--rr-interval T] [--] NICE...";

static const char about[] =
	"For CPU-bound tasks of these nice values, print each task's worst-case\n"
	"wait under RSDL: bound(i) = sum over j != i of q_j * (L_j + max(0, n_i - n_j)),\n"
	"L = 20 - nice levels, q = RR (nice >= 0) or RR*(1 - nice) (nice < 0).\n";

int cmd_bound(int argc, char **argv, const struct sl_globals *g)
{
	uint64_t rr = 6 * SL_NS_PER_MS, *out;
	int *nice, n, i, rc;
	const struct sl_opt opts[] = {
		SL_OPT_DURATION(0, "rr-interval", &rr, 1, 10 * SL_NS_PER_SEC, SL_NS_PER_MS, "RR_INTERVAL"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "bound", synopsis, about, opts,
					   SL_OPTS_OPERANDS | SL_OPTS_NUMBERS, NULL };

	(void)g;
	if ((rc = sl_opts_parse(&spec, argc, argv, &n)) != SL_OPTS_GO)
		return rc;
	if (!n) {
		sl_opts_usage(&spec, stderr);
		return 2;
	}
	nice = xcalloc((size_t)n, sizeof(*nice));
	for (i = 0; i < n; i++) {
		long long v;
		if (sl_parse_int(argv[1 + i], -20, 19, &v)) {
			sl_err("bound: nice '%s': expected an integer in -20..19", argv[1 + i]);
			free(nice);
			return 2;
		}
		nice[i] = (int)v;
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
