/* tests/tools/massive_intr.c - the workload of Satoru Takeuchi's 2007 LKML
 * report ("massive_intr.c", March 2007), written anew: N processes each loop "work
 * (spin) WORK_MS, sleep SLEEP_MS" for SECONDS, then print how many loops
 * each did. On 2.6.20 a few processes took almost all of the CPU.
 *
 *   massive_intr NPROC SECONDS [WORK_MS [SLEEP_MS]]
 */
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

static void worker(int id, double seconds, double work, double sleep_s, int fd)
{
	double end = now() + seconds;
	struct timespec sl = { 0, (long)(sleep_s * 1e9) };
	long loops = 0;
	char buf[64];
	int n;
	while (now() < end) {
		/* work is measured in wall time, as in the original (a CPU-time
		 * clock would make the kernel account on every call) */
		double start = now();
		while (now() - start < work)
			;
		nanosleep(&sl, NULL);
		loops++;
	}
	n = snprintf(buf, sizeof(buf), "%06d %ld\n", id, loops);
	if (write(fd, buf, (size_t)n) < 0)
		_exit(1);
	_exit(0);
}

int main(int argc, char **argv)
{
	int nproc, i, p[2];
	double seconds, work = 0.008, sleep_s = 0.001;
	char buf[4096];
	ssize_t n;
	if (argc < 3) {
		fprintf(stderr, "usage: massive_intr NPROC SECONDS [WORK_MS [SLEEP_MS]]\n");
		return 2;
	}
	nproc = atoi(argv[1]);
	seconds = atof(argv[2]);
	if (argc > 3)
		work = atof(argv[3]) / 1e3;
	if (argc > 4)
		sleep_s = atof(argv[4]) / 1e3;
	if (nproc < 1 || nproc > 10000 || seconds <= 0 || pipe(p))
		return 2;
	for (i = 0; i < nproc; i++) {
		pid_t pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0) {
			close(p[0]);
			worker(i, seconds, work, sleep_s, p[1]);
		}
	}
	close(p[1]);
	while ((n = read(p[0], buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	while (wait(NULL) > 0)
		;
	return 0;
}
