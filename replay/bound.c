/* replay/bound.c - see bound.h */
#include "bound.h"

uint64_t sl_rsdl_quota(int nice, uint64_t rr_ns)
{
	return nice >= 0 ? rr_ns : rr_ns * (uint64_t)(1 - nice);
}

int sl_bound_ns(const int *nice, size_t n, uint64_t rr_ns, uint64_t *out)
{
	size_t i, j;
	for (i = 0; i < n; i++)
		if (nice[i] < -20 || nice[i] > 19)
			return -1;
	for (i = 0; i < n; i++) {
		uint64_t sum = 0;
		for (j = 0; j < n; j++) {
			uint64_t levels;
			if (j == i)
				continue;
			levels = (uint64_t)(20 - nice[j]);
			if (nice[i] > nice[j])
				levels += (uint64_t)(nice[i] - nice[j]);
			sum += sl_rsdl_quota(nice[j], rr_ns) * levels;
		}
		out[i] = sum;
	}
	return 0;
}
