/* cmd/cmd-sweep.c - `schedlab sweep`: a grid of replays written as one job
 * per point, for an existing engine to run (GNU parallel, here or across
 * machines with --sshloginfile; a Slurm array). Each job imports its trace
 * (or replays its workload) into a database of its own, so no two jobs
 * share a file; `schedlab merge` joins them afterwards (--run does both). */
#include "cmd.h"
#include "../replay/choices.h"
#include "opt.h"
#include "../analyze/merge.h"
#include "../common/util.h"
#include "../replay/engine.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char synopsis[] =
	"schedlab sweep [--sched NAMES] [--rr-interval LIST] [--hz LIST] [--cpus LIST]\n"
	"                [--overhead O]... [--opt NAME=V1,V2...]... [--mode timed|causal]\n"
	"                [--workload FILE --duration T] [-o DIR] [--bin PATH]\n"
	"                [--plan | --slurm FILE | --run [-j N]] [TRACE-FILE...]";

static const char about[] =
	"The grid: every model x every value of each swept parameter x every trace\n"
	"file (and workload), one job per point. A LIST is comma-separated values or a\n"
	"range A..B:STEP (--rr-interval 1ms..20ms:1ms); --overhead is given once per\n"
	"value (its own values have commas: 20us,5us). Job k writes DIR/job-K.db.\n"
	"  --plan    print the job lines (the default): parallel -j N < jobs, or\n"
	"            parallel --sshloginfile HOSTS < jobs across machines (schedlab and\n"
	"            the files at the same paths there; see --bin)\n"
	"  --slurm F write DIR/jobs and a Slurm array script F (sbatch F), one task a job\n"
	"  --run     run the jobs here with GNU parallel (-j N at once), then merge the\n"
	"            job databases into DIR/sweep.db\n"
	"Then: schedlab merge OUT.db DIR/job-*.db; schedlab plot sweep.\n";

/* One swept axis: the option's name and its values as command-line text. */
struct axis {
	const char *opt;
	char **v;
	size_t n;
};

static void axis_add(struct axis *a, const char *v)
{
	a->v = xrealloc(a->v, (a->n + 1) * sizeof(*a->v));
	a->v[a->n++] = xstrdup(v);
}

/* Values of a LIST: "a,b,c" or a duration range "A..B:STEP" (or a number
 * range for --hz/--cpus). */
static int axis_parse(struct axis *a, const char *list, int durations)
{
	const char *dots = strstr(list, ".."), *colon = dots ? strchr(dots, ':') : NULL;
	char buf[256], *save = NULL, *tok;
	if (dots && colon) {
		char lo_s[64], hi_s[64];
		uint64_t lo, hi, step, x;
		long long ilo, ihi, istep;
		size_t nlo = (size_t)(dots - list), nhi = (size_t)(colon - dots - 2);
		if (nlo >= sizeof(lo_s) || nhi >= sizeof(hi_s))
			return -1;
		memcpy(lo_s, list, nlo);
		lo_s[nlo] = 0;
		memcpy(hi_s, dots + 2, nhi);
		hi_s[nhi] = 0;
		if (durations) {
			if (sl_parse_duration(lo_s, SL_NS_PER_MS, &lo) ||
			    sl_parse_duration(hi_s, SL_NS_PER_MS, &hi) ||
			    sl_parse_duration(colon + 1, SL_NS_PER_MS, &step) || !step || hi < lo ||
			    (hi - lo) / step > 10000)
				return -1;
			for (x = lo; x <= hi; x += step) {
				char d[40];
				sl_format_duration(x, d, sizeof(d));
				axis_add(a, d);
			}
			return 0;
		}
		if (sl_parse_int(lo_s, 0, INT32_MAX, &ilo) || sl_parse_int(hi_s, 0, INT32_MAX, &ihi) ||
		    sl_parse_int(colon + 1, 1, INT32_MAX, &istep) || ihi < ilo ||
		    (ihi - ilo) / istep > 10000)
			return -1;
		for (; ilo <= ihi; ilo += istep) {
			char d[24];
			snprintf(d, sizeof(d), "%lld", ilo);
			axis_add(a, d);
		}
		return 0;
	}
	if (strlen(list) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		axis_add(a, tok);
	return a->n ? 0 : -1;
}

static void axis_free(struct axis *a)
{
	size_t i;
	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
}

/* s in single quotes for sh (a ' inside becomes '\''). */
static void shq(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

struct grid {
	const char *bin, *dir, *mode, *workload, *duration;
	char **inputs;           /* trace files (absolute), then the workload */
	size_t ninputs;
	struct axis models;
	struct axis ax[8];       /* swept parameters; ax[k].opt names the option */
	size_t nax;
};

/* Write every job line to f; returns how many. */
static size_t write_jobs(const struct grid *g, FILE *f)
{
	size_t nj = 0, in, m, total = 1, k, p;
	for (k = 0; k < g->nax; k++)
		total *= g->ax[k].n;
	for (in = 0; in < g->ninputs; in++)
		for (m = 0; m < g->models.n; m++)
			for (p = 0; p < total; p++) {
				char db[PATH_MAX + 32];
				size_t rest = p;
				int is_wl = g->workload && in == g->ninputs - 1;
				nj++;
				snprintf(db, sizeof(db), "%s/job-%04zu.db", g->dir, nj);
				fputs("mkdir -p ", f);
				shq(f, g->dir);
				fputs(" && rm -f ", f);
				shq(f, db);
				fputs(" && ", f);
				if (!is_wl) {
					shq(f, g->bin);
					fputs(" -q --db ", f);
					shq(f, db);
					fputs(" import ", f);
					shq(f, g->inputs[in]);
					fputs(" > /dev/null && ", f);
				}
				shq(f, g->bin);
				fputs(" -q --db ", f);
				shq(f, db);
				if (is_wl) {
					fputs(" replay --workload ", f);
					shq(f, g->inputs[in]);
					fputs(" --duration ", f);
					shq(f, g->duration);
				} else {
					fputs(" replay --trace 1", f);
				}
				fputs(" --sched ", f);
				shq(f, g->models.v[m]);
				if (g->mode) {
					fputs(" --mode ", f);
					shq(f, g->mode);
				}
				/* the last axis varies fastest */
				for (k = g->nax; k-- > 0;) {
					const struct axis *a = &g->ax[k];
					fprintf(f, " --%s ", a->opt);
					shq(f, a->v[rest % a->n]);
					rest /= a->n;
				}
				fputs(" > /dev/null\n", f);
			}
	return nj;
}

/* Run sh -c cmd; 0 if it exited 0. */
static int run_sh(const char *cmd)
{
	int st = system(cmd);
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* DIR/jobs: the job lines, one a line (DIR made if missing); its path in
 * path. 0, or 1 with the error printed. */
static int jobs_file(const struct grid *g, char *path, size_t len)
{
	FILE *f;
	if (mkdir(g->dir, 0777) && errno != EEXIST) {
		sl_err("sweep: %s: %s", g->dir, strerror(errno));
		return 1;
	}
	snprintf(path, len, "%s/jobs", g->dir);
	if (!(f = fopen(path, "w"))) {
		sl_err("sweep: %s: %s", path, strerror(errno));
		return 1;
	}
	write_jobs(g, f);
	if (fclose(f)) {
		sl_err("sweep: %s: write error", path);
		return 1;
	}
	return 0;
}

static int run_here(const struct grid *g, size_t nj, long long jobs)
{
	char jobsf[PATH_MAX], cmd[2 * PATH_MAX + 128], out[PATH_MAX + 16];
	char **dbs;
	size_t i;
	struct sl_merge_stats st;
	struct sl_diag d = { { 0 }, NULL, NULL };
	int rc;
	if (run_sh("command -v parallel > /dev/null 2>&1")) {
		sl_err("sweep: --run needs GNU parallel (Debian package 'parallel'; make deps installs it)");
		return 1;
	}
	if (jobs_file(g, jobsf, sizeof(jobsf)))
		return 1;
	{
		/* the jobs file's path quoted for sh */
		char *q = NULL;
		size_t ql = 0;
		FILE *m = open_memstream(&q, &ql);
		shq(m, jobsf);
		fclose(m);
		snprintf(cmd, sizeof(cmd), "parallel --will-cite --halt now,fail=1 -j %lld < %s", jobs, q);
		free(q);
	}
	if (run_sh(cmd)) {
		sl_err("sweep: a job failed (parallel: %s); the job databases are in %s", cmd, g->dir);
		return 1;
	}
	dbs = xcalloc(nj, sizeof(*dbs));
	for (i = 0; i < nj; i++) {
		dbs[i] = xmalloc(PATH_MAX + 32);
		snprintf(dbs[i], PATH_MAX + 32, "%s/job-%04zu.db", g->dir, i + 1);
	}
	snprintf(out, sizeof(out), "%s/sweep.db", g->dir);
	unlink(out);
	rc = sl_merge(out, (const char *const *)dbs, nj, &st, &d);
	for (i = 0; i < nj; i++)
		free(dbs[i]);
	free(dbs);
	if (rc) {
		sl_err("%s", d.msg);
		return 1;
	}
	printf("%zu jobs ran (GNU parallel, %lld at once); merged into %s: %zu traces, %zu runs\n", nj,
	       jobs, out, st.traces, st.runs);
	return 0;
}

static int write_slurm(const struct grid *g, size_t nj, const char *script)
{
	char jobsf[PATH_MAX];
	FILE *f;
	if (jobs_file(g, jobsf, sizeof(jobsf)))
		return 1;
	if (!(f = fopen(script, "w"))) {
		sl_err("sweep: %s: %s", script, strerror(errno));
		return 1;
	}
	fprintf(f, "#!/bin/sh\n# schedlab sweep: %zu jobs, one Slurm array task each (sbatch %s);\n"
		   "# afterwards: schedlab merge OUT.db %s/job-*.db\n"
		   "#SBATCH --job-name=schedlab-sweep\n#SBATCH --array=1-%zu\n#SBATCH --output=%s/job-%%a.log\n"
		   "line=$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" ",
		nj, script, g->dir, nj, g->dir);
	shq(f, jobsf);
	fputs(")\nexec sh -c \"$line\"\n", f);
	if (fclose(f)) {
		sl_err("sweep: %s: write error", script);
		return 1;
	}
	chmod(script, 0755);
	printf("%s: a Slurm array of %zu jobs (their lines in %s)\n", script, nj, jobsf);
	return 0;
}

/* g->models from --sched (all: every model); 0, or 1 with the error printed. */
static int model_axis(struct grid *g, const char *sched)
{
	size_t k;
	if (axis_parse(&g->models, sched ? sched : "all", 0)) {
		sl_err("sweep: --sched '%s': expected model names", sched);
		return 1;
	}
	if (g->models.n == 1 && !strcmp(g->models.v[0], "all")) {
		axis_free(&g->models);
		memset(&g->models, 0, sizeof(g->models));
		for (k = 0; k < sl_npolicies; k++)
			axis_add(&g->models, sl_policies[k]->name);
	}
	for (k = 0; k < g->models.n; k++)
		if (!sl_policy_find(g->models.v[k])) {
			sl_err("sweep: unknown model '%s' (models: %s)", g->models.v[k], sl_policy_names());
			return 1;
		}
	return 0;
}

/* The swept parameters: --rr-interval, --hz, --cpus, each --overhead, each
 * --opt NAME=V1,V2; 0, or 1 with the error printed. */
static int param_axes(struct grid *g, const char *const vals[3], const struct sl_strlist *over,
		      const struct sl_strlist *optl)
{
	static const char *const names[3] = { "rr-interval", "hz", "cpus" };
	size_t k, j;
	int i;
	for (i = 0; i < 3; i++) {
		if (!vals[i])
			continue;
		g->ax[g->nax].opt = names[i];
		if (axis_parse(&g->ax[g->nax], vals[i], i == 0)) {
			sl_err("sweep: --%s '%s': expected values like %s", names[i], vals[i],
			       i == 0 ? "1ms,6ms or 1ms..20ms:1ms" : "1,2,4 or 1..8:1");
			return 1;
		}
		g->nax++;
	}
	if (over->n) {
		g->ax[g->nax].opt = "overhead";
		for (k = 0; k < over->n; k++)
			axis_add(&g->ax[g->nax], over->v[k]);
		g->nax++;
	}
	for (k = 0; k < optl->n; k++) {
		/* NAME=V1,V2: the values of one parameter, each "NAME=Vi" */
		const char *eq = strchr(optl->v[k], '=');
		struct axis tmp = { 0 };
		if (!eq || eq == optl->v[k] || g->nax == SL_ARRAY_SIZE(g->ax) || axis_parse(&tmp, eq + 1, 0)) {
			sl_err("sweep: --opt '%s': expected NAME=V1,V2...", optl->v[k]);
			axis_free(&tmp);
			return 1;
		}
		g->ax[g->nax].opt = "opt";
		for (j = 0; j < tmp.n; j++) {
			char item[300];
			snprintf(item, sizeof(item), "%.*s=%s", (int)(eq - optl->v[k]), optl->v[k], tmp.v[j]);
			axis_add(&g->ax[g->nax], item);
		}
		axis_free(&tmp);
		g->nax++;
	}
	return 0;
}

/* Absolute paths, as the jobs may run in another folder or machine: the
 * inputs (the n trace files, then the workload), the schedlab the jobs run
 * (this one unless --bin; in self) and the output folder (in absdir). 0, or
 * 1 with the error printed. */
static int absolute_paths(struct grid *g, char **files, int n, const char *dir, char *self, size_t selflen,
			  char *absdir, size_t abslen)
{
	int i;
	g->inputs = xcalloc((size_t)n + 1, sizeof(*g->inputs));
	for (i = 0; i <= n; i++) {
		const char *in = i < n ? files[i] : g->workload;
		char *abs;
		if (!in)
			continue;
		if (!(abs = realpath(in, NULL))) {
			sl_err("%s: %s", in, strerror(errno));
			return 1;
		}
		g->inputs[g->ninputs++] = abs;
	}
	if (!g->bin) {
		ssize_t l = readlink("/proc/self/exe", self, selflen - 1);
		if (l <= 0) {
			sl_err("sweep: cannot tell where this schedlab is: give --bin PATH");
			return 1;
		}
		self[l] = 0;
		g->bin = self;
	}
	if (dir[0] != '/') {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)) || snprintf(absdir, abslen, "%s/%s", cwd, dir) >= (int)abslen) {
			sl_err("sweep: %s: path too long or no current folder", dir);
			return 1;
		}
		g->dir = absdir;
	} else {
		g->dir = dir;
	}
	return 0;
}

int cmd_sweep(int argc, char **argv, const struct sl_globals *gl)
{
	struct grid g;
	const char *sched = NULL, *rr = NULL, *hz = NULL, *cpus = NULL, *slurm = NULL;
	const char *dir = "sweep";
	struct sl_strlist over = { 0 }, optl = { 0 };
	long long jobs = 2;
	int plan = 0, run = 0, rc, n, mode = -1;
	char self[PATH_MAX], absdir[PATH_MAX];
	size_t k, total, nj;
	const struct sl_opt opts[] = {
		SL_OPT_STRING(0, "sched", &sched, "NAMES", "models, comma-separated, or all (default all)"),
		SL_OPT_STRING(0, "rr-interval", &rr, "LIST", "RR_INTERVAL values (1ms,6ms or 1ms..20ms:1ms)"),
		SL_OPT_STRING(0, "hz", &hz, "LIST", "tick rates (100,250,1000)"),
		SL_OPT_STRING(0, "cpus", &cpus, "LIST", "CPU counts (1,2,4 or 1..8:1)"),
		SL_OPT_LIST(0, "overhead", &over, "O", "one overhead value (repeat: none, auto, 20us,5us)"),
		SL_OPT_LIST(0, "opt", &optl, "NAME=V1,V2", "a model parameter's values (repeat)"),
		SL_OPT_CHOICE(0, "mode", &mode, sl_mode_choices, "replay mode of every job (default: replay's):"),
		SL_OPT_STRING(0, "workload", &g.workload, "FILE", "a workload file, swept too"),
		SL_OPT_STRING(0, "duration", &g.duration, "T", "the workload's simulated time"),
		SL_OPT_STRING('o', "output", &dir, "DIR", "where the job databases go (default sweep)"),
		SL_OPT_STRING(0, "bin", &g.bin, "PATH", "the schedlab the jobs run (default this one)"),
		SL_OPT_FLAG(0, "plan", &plan, "print the job lines (the default)"),
		SL_OPT_STRING(0, "slurm", &slurm, "FILE", "write a Slurm array script"),
		SL_OPT_FLAG(0, "run", &run, "run the jobs here with GNU parallel, then merge"),
		SL_OPT_INT('j', "jobs", &jobs, 1, 1024, "N", "jobs at once for --run (default 2)"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "sweep", synopsis, about, opts, SL_OPTS_OPERANDS, NULL };

	(void)gl;
	memset(&g, 0, sizeof(g));
	if ((rc = sl_opts_parse(&spec, argc, argv, &n)) != SL_OPTS_GO)
		return rc;
	g.mode = sl_choice_name(sl_mode_choices, mode, NULL); /* NULL: replay's default */
	rc = 2;
	if (plan + run + (slurm != NULL) > 1) {
		sl_err("sweep: --plan, --slurm and --run: one at a time");
		goto out;
	}
	if (!n && !g.workload) {
		sl_err("sweep: no trace file and no --workload: nothing to sweep");
		goto out;
	}
	if (g.workload && !g.duration) {
		sl_err("sweep: --workload needs --duration");
		goto out;
	}
	{
		const char *const vals[3] = { rr, hz, cpus };
		if (model_axis(&g, sched) || param_axes(&g, vals, &over, &optl))
			goto out;
	}
	for (total = g.models.n, k = 0; k < g.nax; k++)
		total *= g.ax[k].n;
	if (total * (size_t)(n + (g.workload != NULL)) > 100000) {
		sl_err("sweep: %zu jobs: more than 100000, split the sweep", total * (size_t)(n + (g.workload != NULL)));
		goto out;
	}
	rc = 1;
	if (absolute_paths(&g, argv + 1, n, dir, self, sizeof(self), absdir, sizeof(absdir)))
		goto out;
	nj = total * g.ninputs;
	if (run)
		rc = run_here(&g, nj, jobs);
	else if (slurm)
		rc = write_slurm(&g, nj, slurm);
	else
		rc = write_jobs(&g, stdout) == nj ? 0 : 1;
out:
	axis_free(&g.models);
	for (k = 0; k < g.nax; k++)
		axis_free(&g.ax[k]);
	for (k = 0; k < g.ninputs; k++)
		free(g.inputs[k]);
	free(g.inputs);
	sl_opts_release(opts);
	return rc;
}
