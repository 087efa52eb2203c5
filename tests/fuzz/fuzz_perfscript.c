/* tests/fuzz/fuzz_perfscript.c - libFuzzer target for the perf script text
 * reader: input to a memfd, read by /proc/self/fd/N, with a callback that
 * aborts when the reader breaks its promises (time order, event types).
 * Seeds: pieces of traces/perf-sched-load-2cpu.perfscript.txt, the -F +pid
 * and microsecond forms, and cut / mangled lines (tests/fuzz/mkcorpus-perf.sh). */
#include "fuzz_reader.h"

extern const struct sl_reader sl_reader_perfscript;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_reader(&sl_reader_perfscript, data, size);
}
