/* tests/tools/mixload.c - the interactive part of the mixed load recorded
 * in traces/rec-build-mix.dat (tests/tools/rec-build-mix.sh runs it beside
 * a parallel build):
 *
 *   mixload [-d MS] [-f HZ] [-r US] [-b MS] [-n N] [-s US]
 *
 * for MS milliseconds of wall time (default 3000): a periodic task
 * "frame-60hz" that wakes on an absolute timer HZ times a second (default
 * 60) and spins for US microseconds of CPU time (default 2000), like a
 * video frame; and a task "burst" that every -b MS (default 250) wakes N
 * worker threads (default 3, "burst-K") through a condition variable, each
 * spinning -s US of CPU time (default 5000), then waits for them.
 * SIGTERM ends it early (the frame process too). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned long long ns_of(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
}

/* spin until this thread has used us microseconds of CPU time */
static void spin_cpu(long us)
{
	unsigned long long end = ns_of(CLOCK_THREAD_CPUTIME_ID) + (unsigned long long)us * 1000ULL;
	volatile unsigned long x = 0;
	while (ns_of(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 200; i++)
			x++;
}

static volatile sig_atomic_t term;
static void on_term(int sig)
{
	(void)sig;
	term = 1;
}

static void sleep_until(unsigned long long t)
{
	struct timespec ts = { (time_t)(t / 1000000000ULL), (long)(t % 1000000000ULL) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) && !term)
		;
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static long gen, finished, burst_us = 5000;
static int stop;

static void *worker(void *arg)
{
	long seen = 0;
	char name[16];
	snprintf(name, sizeof(name), "burst-%ld", (long)(size_t)arg);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	for (;;) {
		pthread_mutex_lock(&mu);
		while (gen == seen && !stop)
			pthread_cond_wait(&go, &mu);
		if (stop) {
			pthread_mutex_unlock(&mu);
			return NULL;
		}
		seen = gen;
		pthread_mutex_unlock(&mu);
		spin_cpu(burst_us);
		pthread_mutex_lock(&mu);
		finished++;
		pthread_cond_signal(&done);
		pthread_mutex_unlock(&mu);
	}
}

int main(int argc, char **argv)
{
	long ms = 3000, hz = 60, run_us = 2000, every_ms = 250, n = 3;
	unsigned long long start, end, t;
	pthread_t th[64];
	pid_t frame;
	int opt;
	long i, k;

	while ((opt = getopt(argc, argv, "d:f:r:b:n:s:")) != -1) {
		switch (opt) {
		case 'd': ms = atol(optarg); break;
		case 'f': hz = atol(optarg); break;
		case 'r': run_us = atol(optarg); break;
		case 'b': every_ms = atol(optarg); break;
		case 'n': n = atol(optarg); break;
		case 's': burst_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: mixload [-d MS] [-f HZ] [-r US] [-b MS] [-n N] [-s US]\n");
			return 2;
		}
	}
	if (ms <= 0 || hz <= 0 || every_ms <= 0 || n < 1 || n > 64 || run_us < 0 || burst_us < 0) {
		fprintf(stderr, "mixload: bad arguments\n");
		return 2;
	}
	start = ns_of(CLOCK_MONOTONIC);
	end = start + (unsigned long long)ms * 1000000ULL;
	frame = fork();
	if (frame < 0)
		return 1;
	if (frame == 0) {
		prctl(PR_SET_NAME, "frame-60hz", 0, 0, 0);
		for (k = 1;; k++) {
			t = start + (unsigned long long)k * 1000000000ULL / (unsigned long long)hz;
			if (t >= end)
				_exit(0);
			sleep_until(t);
			spin_cpu(run_us);
		}
	}
	{
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_term;
		sigaction(SIGTERM, &sa, NULL);
	}
	prctl(PR_SET_NAME, "burst", 0, 0, 0);
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(size_t)i))
			return 1;
	for (k = 1;; k++) {
		t = start + (unsigned long long)k * (unsigned long long)every_ms * 1000000ULL;
		if (t >= end || term)
			break;
		sleep_until(t);
		if (term)
			break;
		pthread_mutex_lock(&mu);
		gen++;
		finished = 0;
		pthread_cond_broadcast(&go);
		while (finished < n)
			pthread_cond_wait(&done, &mu);
		pthread_mutex_unlock(&mu);
	}
	pthread_mutex_lock(&mu);
	stop = 1;
	pthread_cond_broadcast(&go);
	pthread_mutex_unlock(&mu);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (term)
		kill(frame, SIGTERM);
	waitpid(frame, NULL, 0);
	return 0;
}
