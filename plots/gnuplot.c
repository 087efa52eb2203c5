/* plots/gnuplot.c - write a gnuplot script and its data files, run gnuplot
 * (no shell: fork + exec, its output into a log file beside the script). */
#include "plot_int.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void add_file(struct sl_gp *g, const char *path)
{
	SL_GROW(g->files, g->cap, g->nfiles + 1);
	g->files[g->nfiles++] = xstrdup(path);
}

/* The one way a string reaches a gnuplot script. gnuplot substitutes
 * `command` (it runs the command) and processes backslash escapes inside
 * double-quoted strings, and ends a command at a newline; inside single
 * quotes nothing is special but the quote itself, written ''. So a string
 * is written single-quoted with its apostrophes doubled. A label (is_path
 * 0) has its control and non-ASCII bytes written as '?' and each '\n' (a
 * line break of a title) as a concatenation with the one double-quoted
 * string gnuplot sees from us: 'line 1'."\n".'line 2'. A file name keeps
 * its bytes (sl_gp_begin refuses names with control characters). Every
 * title, label, key entry and file name of a chart script goes through
 * here (tests/e2e/270-gnuplot-strings.sh). */
static void gp_quote(FILE *f, const char *s, int is_path)
{
	fputc('\'', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\'')
			fputs("''", f);
		else if (c == '\n' && !is_path)
			fputs("'.\"\\n\".'", f);
		else if (c < 0x20 || c == 0x7f || (c > 0x7f && !is_path))
			fputc('?', f);
		else
			fputc(c, f);
	}
	fputc('\'', f);
}

void sl_gp_str(FILE *f, const char *s)
{
	gp_quote(f, s, 0);
}

void sl_gp_path(FILE *f, const char *path)
{
	gp_quote(f, path, 1);
}

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

int sl_gp_begin(struct sl_gp *g, const char *out, int keep, int w, int h, struct sl_diag *d)
{
	char path[1100];
	memset(g, 0, sizeof(*g));
	g->out = out;
	g->keep = keep;
	if (sl_plot_fmt_of(out, &g->fmt, d))
		return -1;
	if (has_control(out)) {
		char shown[256];
		sl_label_clean(shown, sizeof(shown), out); /* the message stays one line */
		return sl_fail(d, "%s: a chart's file name cannot hold control characters", shown);
	}
	if (keep) {
		if (strlen(out) >= sizeof(g->base))
			return sl_fail(d, "%s: name too long", out);
		snprintf(g->base, sizeof(g->base), "%s", out);
	} else {
		const char *tmp = getenv("TMPDIR");
		snprintf(g->dir, sizeof(g->dir), "%s/schedlab-plot.XXXXXX",
			 tmp && *tmp && strlen(tmp) < 200 && !has_control(tmp) ? tmp : "/tmp");
		if (!mkdtemp(g->dir))
			return sl_fail(d, "%s: %s", g->dir, strerror(errno));
		snprintf(g->base, sizeof(g->base), "%s/chart", g->dir);
	}
	snprintf(path, sizeof(path), "%s.gp", g->base);
	g->script = fopen(path, "w");
	if (!g->script) {
		sl_fail(d, "%s: %s", path, strerror(errno));
		sl_gp_end(g);
		return -1;
	}
	add_file(g, path);
	/* no newline in the name (refused above) ends the comment */
	fprintf(g->script, "# written by schedlab plot; run: gnuplot %s.gp\n", g->base);
	switch (g->fmt) {
	case SL_PLOT_PNG:
		fprintf(g->script, "set terminal pngcairo size %d,%d font 'sans,10' noenhanced\n", w, h);
		break;
	case SL_PLOT_SVG:
		fprintf(g->script, "set terminal svg size %d,%d font 'sans,10' noenhanced "
				   "background rgb 'white'\n", w, h);
		break;
	case SL_PLOT_PDF:
		fprintf(g->script, "set terminal pdfcairo size %.2fin,%.2fin font 'sans,7' noenhanced\n",
			w / 96.0, h / 96.0);
		break;
	}
	/* schedlab runs the script with schedlab_out set to a temporary name
	 * (renamed to the chart's when whole); run by hand, it writes out */
	fputs("if (!exists('schedlab_out')) schedlab_out = ", g->script);
	sl_gp_path(g->script, out);
	fputs("\nset output schedlab_out\nset encoding utf8\nset datafile separator '\\t'\nset termoption noenhanced\n"
	      "set style fill solid 0.85 border -1\nset grid ytics lc rgb '#dddddd'\n",
	      g->script);
	return 0;
}

FILE *sl_gp_data(struct sl_gp *g, const char *name, char *path, size_t len, struct sl_diag *d)
{
	FILE *f;
	snprintf(path, len, "%s.%s.dat", g->base, name);
	f = fopen(path, "w");
	if (!f) {
		sl_fail(d, "%s: %s", path, strerror(errno));
		return NULL;
	}
	add_file(g, path);
	return f;
}

FILE *sl_gp_data_runs(struct sl_gp *g, const char *name, char *path, size_t len, const char *head,
		      const char *col, const struct sl_pruns *p, struct sl_diag *d)
{
	FILE *f = sl_gp_data(g, name, path, len, d);
	size_t i;
	if (!f)
		return NULL;
	fprintf(f, "# %s", head);
	for (i = 0; i < p->n; i++)
		fprintf(f, "\t%srun%" PRId64, col, p->v[i].r.run.id);
	fputs("\n", f);
	return f;
}

int sl_gp_start(struct sl_gp *g, struct sl_diag *d)
{
	char script[1100], log[1100], setout[2300];
	pid_t pid;
	int fd;
	snprintf(script, sizeof(script), "%s.gp", g->base);
	snprintf(log, sizeof(log), "%s.log", g->base);
	fputs("unset output\n", g->script);
	if (fclose(g->script)) {
		g->script = NULL;
		return sl_fail(d, "%s: %s", script, strerror(errno));
	}
	g->script = NULL;
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return sl_fail(d, "%s: %s", log, strerror(errno));
	add_file(g, log);
	{
		int tfd = sl_out_begin(g->out, g->tmp, sizeof(g->tmp), d);
		if (tfd < 0) {
			g->tmp[0] = 0;
			close(fd);
			return -1;
		}
		close(tfd);
	}
	/* -e schedlab_out='TMP' (apostrophes doubled) */
	{
		size_t i, k = 0;
		snprintf(setout, sizeof(setout), "schedlab_out='");
		k = strlen(setout);
		for (i = 0; g->tmp[i] && k + 4 < sizeof(setout); i++) {
			if (g->tmp[i] == '\'')
				setout[k++] = '\'';
			setout[k++] = g->tmp[i];
		}
		setout[k++] = '\'';
		setout[k] = 0;
	}
	pid = fork();
	if (pid < 0) {
		close(fd);
		unlink(g->tmp);
		g->tmp[0] = 0;
		return sl_fail(d, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);
		if (nul >= 0)
			dup2(nul, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp("gnuplot", "gnuplot", "-e", setout, script, (char *)NULL);
		_exit(127);
	}
	close(fd);
	g->pid = pid;
	return 0;
}

/* Does the file end as a whole chart of its format does? A write that
 * failed half way (a full disk) leaves a file cut short, which gnuplot
 * does not always report. PNG: the IEND chunk and its CRC last; SVG: the
 * closing </svg>; PDF: the %%EOF marker. */
static int whole(const char *path, enum sl_plot_fmt fmt)
{
	static const unsigned char iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82 };
	unsigned char tail[64];
	size_t n;
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	if (fseek(f, -(long)sizeof(tail), SEEK_END))
		rewind(f);
	n = fread(tail, 1, sizeof(tail), f);
	fclose(f);
	switch (fmt) {
	case SL_PLOT_PNG:
		return n >= 12 && !memcmp(tail + n - 12, iend, 12);
	case SL_PLOT_SVG:
		return memmem(tail, n, "</svg>", 6) != NULL;
	case SL_PLOT_PDF:
		return memmem(tail, n, "%%EOF", 5) != NULL;
	}
	return 0;
}

int sl_gp_wait(struct sl_gp *g, struct sl_diag *d)
{
	char script[1100], log[1100], line[256];
	struct stat st;
	pid_t pid = g->pid;
	int status, rc;
	FILE *lf;
	if (!pid)
		return 0;
	g->pid = 0;
	snprintf(script, sizeof(script), "%s.gp", g->base);
	snprintf(log, sizeof(log), "%s.log", g->base);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return sl_fail(d, "waitpid: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		unlink(g->tmp);
		g->tmp[0] = 0;
		return sl_fail(d, "gnuplot: not found (install gnuplot-nox)");
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || stat(g->tmp, &st) || !st.st_size ||
	    !whole(g->tmp, g->fmt)) {
		const char *why = sl_out_why(g->out, 0);
		unlink(g->tmp);
		g->tmp[0] = 0;
		if (why) /* a full disk: say so, not what gnuplot made of it */
			return sl_fail(d, "%s: %s", g->out, why);
		line[0] = 0;
		lf = fopen(log, "r");
		if (lf) {
			/* the last non-empty line says what went wrong */
			char buf[256];
			while (fgets(buf, sizeof(buf), lf))
				if (buf[0] != '\n' && buf[0] != ' ')
					snprintf(line, sizeof(line), "%s", buf);
			fclose(lf);
		}
		line[strcspn(line, "\n")] = 0;
		if (!g->keep)
			return sl_fail(d, "%s: gnuplot failed (%s; --keep keeps its script)", g->out,
				       line[0] ? line : "no output");
		return sl_fail(d, "%s: gnuplot failed (%s; script %s)", g->out,
			       line[0] ? line : "no output", script);
	}
	rc = sl_out_commit(g->tmp, g->out, d);
	g->tmp[0] = 0;
	return rc;
}

int sl_gp_run(struct sl_gp *g, struct sl_diag *d)
{
	if (sl_gp_start(g, d))
		return -1;
	return sl_gp_wait(g, d);
}

void sl_gp_end(struct sl_gp *g)
{
	size_t i;
	struct sl_diag d;
	sl_gp_wait(g, &d); /* a gnuplot started and not waited for */
	if (g->script)
		fclose(g->script);
	if (g->tmp[0]) /* a chart not finished */
		unlink(g->tmp);
	g->tmp[0] = 0;
	for (i = 0; i < g->nfiles; i++) {
		if (!g->keep)
			unlink(g->files[i]);
		free(g->files[i]);
	}
	free(g->files);
	if (!g->keep && g->dir[0])
		rmdir(g->dir);
	g->files = NULL;
	g->nfiles = g->cap = 0;
	g->script = NULL;
}
