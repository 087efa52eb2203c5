/* tests/tools/perf_load.c - a small, repeatable CPU load for recording the
 * traces in traces/ (perf sched record -- perf_load ...).
 *
 *   perf_load [-d MS] [-h HOGS] [-p PERIODIC]
 * forks HOGS processes that spin for MS milliseconds of wall time (default
 * 3 hogs, 400 ms) and PERIODIC processes (default 1) that alternate 1 ms of
 * spinning with 4 ms of sleep for the same time, then waits for them all.
 * Each child names itself (prctl) "hog-N" or "tick-N", one with a space in
 * its name ("tick 0") so readers are tested on comms with spaces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
}

static void spin_until(unsigned long long end)
{
	volatile unsigned long x = 0;
	while (now_ns() < end)
		for (int i = 0; i < 1000; i++)
			x++;
}

int main(int argc, char **argv)
{
	long ms = 400, hogs = 3, per = 1;
	int opt, i;
	unsigned long long end;
	char name[32];

	while ((opt = getopt(argc, argv, "d:h:p:")) != -1) {
		switch (opt) {
		case 'd': ms = atol(optarg); break;
		case 'h': hogs = atol(optarg); break;
		case 'p': per = atol(optarg); break;
		default:
			fprintf(stderr, "usage: perf_load [-d MS] [-h HOGS] [-p PERIODIC]\n");
			return 2;
		}
	}
	end = now_ns() + (unsigned long long)ms * 1000000ULL;
	for (i = 0; i < hogs + per; i++) {
		pid_t p = fork();
		if (p < 0)
			return 1;
		if (p)
			continue;
		if (i < hogs) {
			snprintf(name, sizeof(name), "hog-%d", i);
			prctl(PR_SET_NAME, name, 0, 0, 0);
			spin_until(end);
		} else {
			struct timespec s = { 0, 4000000 };
			snprintf(name, sizeof(name), "tick %d", i - (int)hogs);
			prctl(PR_SET_NAME, name, 0, 0, 0);
			while (now_ns() < end) {
				spin_until(now_ns() + 1000000ULL);
				nanosleep(&s, NULL);
			}
		}
		_exit(0);
	}
	while (wait(NULL) > 0)
		;
	return 0;
}
