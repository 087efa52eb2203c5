/* tests/fuzz/fuzz_perfetto.c - libFuzzer target for the Perfetto reader.
 * The input goes to a memfd and the reader reads it by /proc/self/fd/N; the
 * callback checks the reader's promises (time order, sane cpu and type) and
 * aborts when one is broken, so the fuzzer reports it.
 *
 * Seeds in tests/fuzz/corpus/perfetto/ are prefixes of
 * ../shared/traces/systing-perfetto-22cpu/trace.pb (cut at and between
 * packets) and a byte-patched copy: see tests/fuzz/mkcorpus-perf.sh. */
#include "../../collector/event.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

extern const struct sl_reader sl_reader_perfetto;

struct chk {
	uint64_t last, n;
};

static int on_event(void *ctx, const struct sl_event *ev)
{
	struct chk *c = ctx;
	if (ev->ts < c->last || ev->type == SL_EV_NONE || ev->type >= SL_EV_NTYPES)
		abort();
	c->last = ev->ts;
	c->n++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

/* libtraceevent (Debian 1:1.7) leaks a few bytes inside tep_parse_format on
 * some malformed format texts even though we tep_free() the handle; the
 * stack is wholly inside the library, so LeakSanitizer is told to ignore
 * leaks allocated there (ours are still reported). */
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct chk c = { 0, 0 };
	struct sl_diag d = { { 0 }, NULL, NULL };
	char path[64];
	int fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	(void)sl_reader_perfetto.probe(data, size);
	(void)sl_reader_perfetto.read(path, on_event, &c, &d);
	close(fd);
	return 0;
}
