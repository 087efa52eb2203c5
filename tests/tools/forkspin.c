/* tests/tools/forkspin.c N - spin 0.7 ms, fork a child that spins 50 us
 * and exits, N times (default 300); children are not waited for
 * (SIGCHLD ignored). With tests/tools/fork-preempt.bt: does a new task
 * preempt its parent (docs/eevdf.md, "Forks do not preempt")? */
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static void spin(long us)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}
int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 300;
	signal(SIGCHLD, SIG_IGN);
	for (i = 0; i < n; i++) {
		spin(700);
		if (fork() == 0) {
			spin(50);
			_exit(0);
		}
	}
	return 0;
}
