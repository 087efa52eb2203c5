/* tests/tools/desktop.c - the programs of the 2007 thread's desktop reports
 * that have no ready-made stand-in (tests/tools/record-claims.sh runs them
 * beside real Xvfb/glxgears and a real parallel gcc):
 *
 *   desktop keys SECONDS         "typist": one keystroke byte every 60-140 ms
 *                                (fixed pseudo-random sequence) on stdout
 *   desktop editor               reads keystrokes from stdin; each one costs
 *                                ~0.4 ms of CPU ("redraw the line") and is
 *                                echoed to stdout
 *   desktop mail SECONDS PERIOD  every PERIOD s a mail check: "fetchmail"
 *                                (80 ms CPU in 8 pieces with 2 ms waits), then
 *                                "procmail" (40 ms) and "spamc" (150 ms), each
 *                                a child process run after the previous one,
 *                                as Gene Heskett's fetchmail/procmail/spamc loop
 *   desktop reader SECONDS       Ed Tomlinson's mail reader: wakes every 10 ms,
 *                                1 ms of CPU (scroll, render), sleeps again
 *   desktop threads N SECONDS    "freenet": a threaded CPU-hungry program, N
 *                                threads each looping 40 ms CPU / 2 ms sleep
 *
 * Each process names itself (prctl PR_SET_NAME) so the trace shows the part
 * it plays. CPU work is spun on the wall clock, as tests/tools/massive_intr.c. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void spin(double s)
{
	double start = now();
	while (now() - start < s)
		;
}

static void nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	nanosleep(&ts, NULL);
}

static void name(const char *n)
{
	prctl(PR_SET_NAME, n, 0, 0, 0);
}

static int keys(double secs)
{
	double end = now() + secs;
	unsigned x = 12345;
	name("typist");
	while (now() < end) {
		char c = (char)('a' + x % 26);
		x = x * 1103515245u + 12345u;
		if (write(1, &c, 1) != 1)
			return 1;
		nap(0.060 + (double)(x >> 16 & 0xff) / 255.0 * 0.080);
	}
	return 0;
}

static int editor(void)
{
	char c;
	name("editor");
	while (read(0, &c, 1) == 1) {
		spin(0.0004);
		if (write(1, &c, 1) != 1)
			return 1;
	}
	return 0;
}

/* Run fn(arg) in a child named n and wait for it. */
static void child(const char *n, double cpu, int pieces)
{
	pid_t p = fork();
	int i;
	if (p == 0) {
		name(n);
		for (i = 0; i < pieces; i++) {
			spin(cpu / pieces);
			if (i + 1 < pieces)
				nap(0.002);
		}
		_exit(0);
	}
	if (p > 0)
		waitpid(p, NULL, 0);
}

static int mail(double secs, double period)
{
	double end = now() + secs;
	name("mailcheck");
	nap(period / 2);
	while (now() < end) {
		double t = now();
		child("fetchmail", 0.080, 8);
		child("procmail", 0.040, 1);
		child("spamc", 0.150, 1);
		t = period - (now() - t);
		if (t > 0)
			nap(t);
	}
	return 0;
}

static int reader(double secs)
{
	double end = now() + secs;
	name("reader");
	while (now() < end) {
		spin(0.001);
		nap(0.010);
	}
	return 0;
}

static double thr_end;
static void *thr(void *arg)
{
	(void)arg;
	name("freenet");
	while (now() < thr_end) {
		spin(0.040);
		nap(0.002);
	}
	return NULL;
}

static int threads(int n, double secs)
{
	pthread_t t[64];
	int i;
	if (n < 1 || n > 64)
		return 2;
	name("freenet");
	thr_end = now() + secs;
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, thr, NULL))
			return 1;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	if (!strcmp(m, "keys") && argc == 3)
		return keys(atof(argv[2]));
	if (!strcmp(m, "editor") && argc == 2)
		return editor();
	if (!strcmp(m, "mail") && argc == 4)
		return mail(atof(argv[2]), atof(argv[3]));
	if (!strcmp(m, "reader") && argc == 3)
		return reader(atof(argv[2]));
	if (!strcmp(m, "threads") && argc == 4)
		return threads(atoi(argv[2]), atof(argv[3]));
	fprintf(stderr, "usage: desktop keys S | editor | mail S PERIOD | reader S | threads N S\n");
	return 2;
}
