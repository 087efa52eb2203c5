/* tests/unit/main.c - runs every registered unit test. */
#include "harness.h"

#include <stdlib.h>

static struct sl_test *head;
int sl_test_failed;
int sl_test_skipped;

void sl_test_register(struct sl_test *t)
{
	t->next = head;
	head = t;
}

int main(int argc, char **argv)
{
	struct sl_test *t, *rev = NULL;
	int pass = 0, fail = 0, skip = 0;

	while (head) { /* run in registration (file) order */
		t = head;
		head = t->next;
		t->next = rev;
		rev = t;
	}
	for (t = rev; t; t = t->next) {
		if (argc > 1 && !strstr(t->name, argv[1]))
			continue;
		sl_test_failed = sl_test_skipped = 0;
		t->fn();
		if (sl_test_failed) {
			fail++;
			fprintf(stderr, "FAIL %s\n", t->name);
		} else if (sl_test_skipped) {
			skip++;
			fprintf(stderr, "skip %s\n", t->name);
		} else {
			pass++;
		}
	}
	printf("unit: %d passed, %d failed, %d skipped\n", pass, fail, skip);
	return fail ? 1 : 0;
}
