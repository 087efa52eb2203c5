/* tests/fuzz/fuzz_ftrace.c - libFuzzer target: the ftrace text reader and
 * the behaviour model on arbitrary bytes. */
#include "../../collector/event.h"
#include "../../collector/model.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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
	char path[] = "/tmp/fuzz-ftrace-XXXXXX";
	int fd = mkstemp(path);
	const struct sl_reader *r = sl_reader_find("ftrace");
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_run_sink sink = { NULL, s_slice, s_wake, NULL, NULL, NULL };
	struct sl_model *m;
	struct sl_behaviour b;
	struct sl_model_stats st;
	uint64_t *f = NULL, *l = NULL;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	r->probe(data, size);
	m = sl_model_new(&sink, &d);
	if (r->read(path, sl_model_event, m, &d) == 0 &&
	    sl_model_finish(m, &b, &f, &l, &st) == 0) {
		free(st.lost_per_cpu);
		free(st.uncertain_ns);
		free(f);
		free(l);
		sl_behaviour_release(&b);
	}
	sl_model_free(m);
	unlink(path);
	return 0;
}
