/* tests/fuzz/fuzz_tracedat.c - libFuzzer target for the trace.dat reader:
 * the input becomes a memfd file read through /proc/self/fd, every event is
 * counted and its fields touched; any input must end in 0 or -1 with a
 * message, without crash, leak or hang. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../collector/event.h"

extern const struct sl_reader sl_reader_tracedat;

static int count(void *ctx, const struct sl_event *ev)
{
	uint64_t *n = ctx;
	*n += ev->type + (uint64_t)strlen(ev->comm) + (uint64_t)strlen(ev->comm2) +
	      (uint64_t)strlen(ev->cur_comm);
	return 0;
}

/* libtracecmd leaks small allocations on some of its own error paths
 * (seen: 16 bytes from calloc inside libtracecmd.so when tracecmd_open_fd
 * fails); those are not ours to fix. LeakSanitizer reads this hook. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	/* sscanf("%ms") inside the libraries: their stacks end there */
	return "leak:libtracecmd.so\nleak:libtraceevent.so\nleak:__isoc99_vsscanf\n";
}

/* libtracecmd's tracecmd_init_data sometimes asks malloc for absurd sizes
 * on a corrupt file and handles the NULL it gets; let ASan return NULL like
 * glibc does instead of aborting. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	struct sl_diag d;
	uint64_t n = 0;
	int fd = memfd_create("fuzz-tracedat", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	memset(&d, 0, sizeof(d));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	sl_reader_tracedat.probe(data, size);
	if (sl_reader_tracedat.read(path, count, &n, &d) < 0 && !d.msg[0])
		__builtin_trap(); /* an error must say what */
	close(fd);
	return 0;
}
