/* tests/fuzz/fuzz_systrace.c - libFuzzer target for the systrace HTML
 * reader: the input becomes a memfd file read through /proc/self/fd; any
 * input must end in 0 or -1 with a message, without crash, leak or hang. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../collector/event.h"

extern const struct sl_reader sl_reader_systrace;

static int count(void *ctx, const struct sl_event *ev)
{
	uint64_t *n = ctx;
	*n += ev->type + (uint64_t)strlen(ev->comm) + (uint64_t)strlen(ev->comm2);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	struct sl_diag d;
	uint64_t n = 0;
	int fd = memfd_create("fuzz-systrace", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	memset(&d, 0, sizeof(d));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	sl_reader_systrace.probe(data, size);
	if (sl_reader_systrace.read(path, count, &n, &d) < 0 && !d.msg[0])
		__builtin_trap(); /* an error must say what */
	close(fd);
	return 0;
}
