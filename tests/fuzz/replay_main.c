/* tests/fuzz/replay_main.c - runs a libFuzzer target over corpus files,
 * so every `make test` (also under the sanitizers) replays the corpus. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int i, n = 0;
	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf;
		long len;
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		fseek(f, 0, SEEK_SET);
		buf = malloc(len > 0 ? (size_t)len : 1);
		if (!buf || fread(buf, 1, (size_t)(len > 0 ? len : 0), f) != (size_t)(len > 0 ? len : 0)) {
			fclose(f);
			free(buf);
			return 2;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)(len > 0 ? len : 0));
		free(buf);
		n++;
	}
	fprintf(stderr, "replayed %d inputs\n", n);
	return 0;
}
