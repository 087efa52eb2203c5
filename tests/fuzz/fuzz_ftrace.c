/* tests/fuzz/fuzz_ftrace.c - libFuzzer target: the ftrace text reader and
 * the behaviour model on arbitrary bytes, through the import's own path
 * (sl_import_model_mem, collector/import.h). */
#include "../../collector/event.h"
#include "../../collector/import.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int s_slice(void *c, uint64_t ts, uint64_t dur, int cpu, int task, char st, int prio)
{
	(void)c, (void)ts, (void)dur, (void)cpu, (void)task, (void)st, (void)prio;
	return 0;
}

static int s_wake(void *c, int task, uint64_t ts, uint64_t ts_run, int waker, int cpu)
{
	(void)c, (void)task, (void)ts, (void)ts_run, (void)waker, (void)cpu;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct sl_reader *r = sl_reader_find("ftrace");
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_run_sink sink = { NULL, s_slice, s_wake, NULL, NULL, NULL };
	struct sl_imported im;

	r->probe(data, size);
	if (sl_import_model_mem(r, data, size, &sink, &im, &d) == 0)
		sl_imported_release(&im);
	return 0;
}
