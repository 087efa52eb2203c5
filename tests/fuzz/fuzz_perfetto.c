/* tests/fuzz/fuzz_perfetto.c - libFuzzer target for the Perfetto reader.
 * The input goes to a memfd and the reader reads it by /proc/self/fd/N; the
 * callback checks the reader's promises (time order, sane cpu and type) and
 * aborts when one is broken, so the fuzzer reports it.
 *
 * Seeds in tests/fuzz/corpus/perfetto/ are prefixes of
 * ../shared/traces/systing-perfetto-22cpu/trace.pb (cut at and between
 * packets) and a byte-patched copy: see tests/fuzz/mkcorpus-perf.sh. */
#include "fuzz_reader.h"

extern const struct sl_reader sl_reader_perfetto;

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
	return fuzz_reader(&sl_reader_perfetto, data, size);
}
