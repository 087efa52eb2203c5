/* tests/tools/yieldloop.c - a sched_yield loop, the kind of `sysbench
 * threads`: N processes each spin WORK_US microseconds (wall time) and call
 * sched_yield(), for SECONDS; each prints how many yields it made. A yield
 * switches to another task only when one is runnable on the CPU, so with
 * more processes than CPUs most yields are switches
 * (docs/model.md, "Yields").
 *
 *   yieldloop NPROC SECONDS [WORK_US]
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void worker(int id, double seconds, double work)
{
	double end = now() + seconds;
	long yields = 0;
	while (now() < end) {
		double start = now();
		while (now() - start < work)
			;
		sched_yield();
		yields++;
	}
	printf("%06d %ld\n", id, yields);
	_exit(0);
}

int main(int argc, char **argv)
{
	int n, i;
	double seconds, work = 5e-6;
	if (argc < 3 || (n = atoi(argv[1])) <= 0 || n > 1024 || (seconds = atof(argv[2])) <= 0) {
		fprintf(stderr, "usage: yieldloop NPROC SECONDS [WORK_US]\n");
		return 2;
	}
	if (argc > 3)
		work = atof(argv[3]) / 1e6;
	fflush(stdout);
	for (i = 0; i < n; i++) {
		pid_t p = fork();
		if (p < 0) {
			perror("fork");
			return 1;
		}
		if (p == 0)
			worker(i, seconds, work);
	}
	for (i = 0; i < n; i++)
		wait(NULL);
	return 0;
}
