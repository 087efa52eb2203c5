/* cmd/cmd-claims.c - `schedlab claims`: the claims of the RSDL announcement,
 * the LWN article and the thread, checked on scenarios and on real traces
 * through every model (analyze/claims.h); a table that fits 160 columns
 * with the details below it, or CSV / JSON; with -o DIR also
 * DIR/index.html with one chart per claim, DIR/claims.csv and
 * DIR/claims.json. `--trace ID` runs the trace-driven claims on an
 * imported trace. */
#include "cmd.h"
#include "opt.h"
#include "../common/keyix.h"
#include "../common/util.h"
#include "../analyze/claims.h"
#include "../analyze/store.h"
#include "../plots/plot.h"
#include "../replay/engine.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char synopsis[] =
	"schedlab claims [--format table|csv|json|markdown] [-o DIR] [--sched LIST] [--traces DIR] [--debug]\n"
	"       schedlab claims --trace ID [--task COMM] [--format F] [-o DIR]";

static const char about[] =
	"Check the claims of the RSDL announcement (2007), the LWN article and the\n"
	"thread on scenarios and on the bundled real traces, through every model\n"
	"linked in; print claim, published/predicted, measured per model and the\n"
	"verdict (holds, partly, fails, untestable) with the rule behind it\n"
	"(docs/claims.md). --trace ID runs the trace-driven claims on an imported\n"
	"trace instead.\n";

/* "120 ms", "x0.998", "-" */
static void short_value(char *buf, size_t n, const struct sl_claim *c, int m)
{
	double v = c->meas[m];
	const char *u = c->unit;
	if (m == c->baseline) {
		snprintf(buf, n, "(base)");
		return;
	}
	if (isnan(v)) {
		snprintf(buf, n, "-");
		return;
	}
	if (!strcmp(u, "x o1") || !strcmp(u, "x"))
		snprintf(buf, n, "x%.3g", v);
	else if (!strcmp(u, "ms over bound"))
		snprintf(buf, n, "%+.0f ms", v);
	else if (!strcmp(u, "%"))
		snprintf(buf, n, "%.3g %%", v);
	else if (!strcmp(u, "exponent"))
		snprintf(buf, n, "N^%.2f", v);
	else if (!strcmp(u, "ratio"))
		snprintf(buf, n, "%.3g", v);
	else if (!strcmp(u, "inversions"))
		snprintf(buf, n, "%.0f inv", v);
	else if (!strcmp(u, "frames"))
		snprintf(buf, n, "%.3g fr", v);
	else if (!strcmp(u, "ms") && v >= 10000)
		snprintf(buf, n, "%.1f s", v / 1000);
	else
		snprintf(buf, n, "%.4g%s%s", v, u[0] ? " " : "", u);
}

static size_t clip(char *dst, size_t n, const char *s, size_t w)
{
	size_t l = strlen(s);
	if (l <= w) {
		snprintf(dst, n, "%s", s);
		return l;
	}
	snprintf(dst, n, "%.*s~", (int)(w - 1), s);
	return w;
}

/* s on lines of at most 160 columns, broken at spaces; the first line
 * starts with head, the others with ind spaces. */
static void wrapped(FILE *f, const char *head, size_t ind, const char *s)
{
	size_t col = strlen(head);
	fputs(head, f);
	while (*s) {
		size_t w = strcspn(s, " "), sp = strspn(s + w, " ");
		if (col + w > 160 && col > ind) {
			fprintf(f, "\n%*s", (int)ind, "");
			col = ind;
		}
		fprintf(f, "%.*s", (int)w, s);
		col += w;
		s += w;
		if (*s && col + 1 <= 160) {
			fputc(' ', f);
			col++;
		}
		s += sp;
	}
	fputc('\n', f);
}

static void print_table(FILE *f, const struct sl_claim *c, size_t n, const int *on)
{
	int nm = sl_claim_ncols(), m, cols = 0;
	size_t i, wid = 2, wc, wv = 10, total;
	char buf[256];
	for (m = 0; m < nm; m++)
		cols += on[m];
	for (i = 0; i < n; i++)
		if (strlen(c[i].id) > wid)
			wid = strlen(c[i].id);
	/* id, claim, published, one column per model, verdict: <= 160 */
	total = wid + 2 + 2 + 22 + 2 + (size_t)cols * (wv + 1) + 1 + 10;
	wc = total < 160 ? 160 - total : 20;
	if (wc > 62)
		wc = 62;
	fprintf(f, "%-*s  %-*s  %-22s ", (int)wid, "id", (int)wc, "claim", "published/predicted");
	for (m = 0; m < nm; m++)
		if (on[m])
			fprintf(f, " %-*s", (int)wv, sl_claim_model_name(m));
	fprintf(f, "  %s\n", "verdict");
	for (i = 0; i < n; i++) {
		char cl[96], pr[32];
		clip(cl, sizeof(cl), c[i].claim, wc);
		clip(pr, sizeof(pr), c[i].predicted, 22);
		fprintf(f, "%-*s  %-*s  %-22s ", (int)wid, c[i].id, (int)wc, cl, pr);
		for (m = 0; m < nm; m++)
			if (on[m]) {
				short_value(buf, sizeof(buf), &c[i], m);
				clip(cl, sizeof(cl), buf, wv);
				fprintf(f, " %-*s", (int)wv, cl);
			}
		fprintf(f, "  %s%s\n", sl_verdict_name(c[i].verdict),
			c[i].subject >= 0 && c[i].subject != 0 ? " (o1)" : "");
	}
	fputs("\nverdicts are about rsdl unless marked (o1): a complaint about 2.6.20 checked on the o1 model\n", f);
	for (i = 0; i < n; i++) {
		char line[1024];
		snprintf(line, sizeof(line), "%s [%s]", c[i].claim, c[i].from);
		fputc('\n', f);
		snprintf(buf, sizeof(buf), "%-4s", c[i].id);
		wrapped(f, buf, 4, line);
		snprintf(line, sizeof(line), "%s: %s", c[i].source, c[i].quote);
		wrapped(f, "    ", 8, line);
		wrapped(f, "    published/predicted: ", 8, c[i].predicted);
		for (m = 0; m < nm; m++)
			if (on[m] && (c[i].measured[m][0] || m == c[i].baseline)) {
				snprintf(line, sizeof(line), "%s [%s]", c[i].measured[m][0] ? c[i].measured[m] : "-",
					 m == c[i].baseline ? "baseline" : sl_verdict_name(c[i].verdicts[m]));
				snprintf(buf, sizeof(buf), "    %-6s ", sl_claim_model_name(m));
				wrapped(f, buf, 11, line);
			}
		snprintf(buf, sizeof(buf), "    %s: ", sl_verdict_name(c[i].verdict));
		wrapped(f, buf, 8, c[i].note);
	}
}

/* One row per claim and model, as CSV (json = 0) or as a JSON array of
 * objects (json = 1): the same fields in the same order. */
enum { F_STR, F_NUM, F_BOOL };
static void field(FILE *f, int json, int first, const char *key, int kind, const char *str, double num)
{
	if (json)
		fprintf(f, "%s\"%s\": ", first ? "{" : ", ", key);
	else if (!first)
		fputc(',', f);
	if (kind == F_STR) {
		if (json)
			sl_json_str(f, str);
		else
			sl_csv_str(f, str);
	} else if (kind == F_BOOL) {
		fputs(json ? (num != 0 ? "true" : "false") : (num != 0 ? "1" : "0"), f);
	} else if (isnan(num) || isinf(num)) {
		if (json)
			fputs("null", f);
	} else {
		fprintf(f, json ? "%.9g" : "%.6g", num);
	}
}

static void write_rows(FILE *f, const struct sl_claim *c, size_t n, const int *on, int json)
{
	size_t i;
	int m, first = 1;
	char reason[1200];
	if (json)
		fputs("[\n", f);
	else
		fputs("claim,source,published,model,measured,unit,verdict,reason,id,predicted,consistent,"
		      "measured_text,measured_on,headline\n",
		      f);
	for (i = 0; i < n; i++)
		for (m = 0; m < sl_claim_ncols(); m++) {
			if (!on[m])
				continue;
			if (json)
				fputs(first ? " " : ",\n ", f);
			first = 0;
			sl_claim_reason(&c[i], m, reason, sizeof(reason));
			field(f, json, 1, "claim", F_STR, c[i].claim, 0);
			field(f, json, 0, "source", F_STR, c[i].source, 0);
			field(f, json, 0, "published", F_NUM, NULL, c[i].published);
			field(f, json, 0, "model", F_STR, sl_claim_model_name(m), 0);
			field(f, json, 0, "measured", F_NUM, NULL, c[i].meas[m]);
			field(f, json, 0, "unit", F_STR, c[i].unit, 0);
			field(f, json, 0, "verdict", F_STR, sl_verdict_name(c[i].verdicts[m]), 0);
			field(f, json, 0, "reason", F_STR, reason, 0);
			field(f, json, 0, "id", F_STR, c[i].id, 0);
			field(f, json, 0, "predicted", F_STR, c[i].predicted, 0);
			field(f, json, 0, "consistent", F_NUM, NULL, c[i].consistent);
			field(f, json, 0, "measured_text", F_STR, c[i].measured[m], 0);
			field(f, json, 0, "measured_on", F_STR, c[i].from, 0);
			field(f, json, 0, "headline", F_BOOL, NULL, m == c[i].subject);
			fputs(json ? "}" : "\n", f);
		}
	if (json)
		fputs("\n]\n", f);
}

static void write_csv(FILE *f, const struct sl_claim *c, size_t n, const int *on)
{
	write_rows(f, c, n, on, 0);
}

static void write_json(FILE *f, const struct sl_claim *c, size_t n, const int *on)
{
	write_rows(f, c, n, on, 1);
}

/* text with '|' escaped for a Markdown table cell, and no line break */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else
			fputc(*s == '\n' ? ' ' : *s, f);
	}
}

/* The table as Markdown (docs/claims.md embeds it between its markers, and
 * e2e 600 checks it is what this prints): the short value per model, the
 * recorded run's and the verdict, then every claim's reason. */
static void write_md(FILE *f, const struct sl_claim *c, size_t n, const int *on)
{
	int nm = sl_claim_ncols(), m;
	size_t i;
	char buf[256];
	fputs("| id | claim | published/predicted |", f);
	for (m = 0; m < nm; m++)
		if (on[m])
			fprintf(f, " %s |", sl_claim_model_name(m));
	fputs(" verdict |\n|---|---|---|", f);
	for (m = 0; m < nm; m++)
		if (on[m])
			fputs("---|", f);
	fputs("---|\n", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "| %s | ", c[i].id);
		md_cell(f, c[i].claim);
		fputs(" | ", f);
		md_cell(f, c[i].predicted);
		fputs(" |", f);
		for (m = 0; m < nm; m++)
			if (on[m]) {
				short_value(buf, sizeof(buf), &c[i], m);
				fputc(' ', f);
				md_cell(f, buf);
				fputs(" |", f);
			}
		fprintf(f, " %s%s |\n", sl_verdict_name(c[i].verdict),
			c[i].subject >= 0 && c[i].subject != 0 ? " (o1)" : "");
	}
	fputs("\nThe reason for each verdict, as the command prints it:\n\n", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "* **%s** (measured on %s): %s: ", c[i].id, c[i].from, sl_verdict_name(c[i].verdict));
		md_cell(f, c[i].note);
		fputc('\n', f);
	}
}

static void write_html(FILE *f, const struct sl_claim *c, size_t n, const int *on)
{
	sl_claims_html(f, c, n, on);
}

/* Write DIR/NAME via a temporary file renamed into place. */
static int write_file(const char *dir, const char *name, const struct sl_claim *c, size_t n, const int *on,
		      void (*fn)(FILE *, const struct sl_claim *, size_t, const int *))
{
	char path[4096], tmp[4200];
	FILE *f;
	int bad;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		sl_err("%s: %s", tmp, strerror(errno));
		return -1;
	}
	fn(f, c, n, on);
	bad = ferror(f);
	if (fclose(f) || bad || rename(tmp, path)) {
		sl_err("%s: %s", path, strerror(errno ? errno : EIO));
		remove(tmp);
		return -1;
	}
	return 0;
}

static int write_dir(const char *dir, const struct sl_claim *c, size_t n, const int *on)
{
	size_t i;
	if (write_file(dir, "claims.csv", c, n, on, write_csv) || write_file(dir, "claims.json", c, n, on, write_json))
		return -1;
	for (i = 0; i < n; i++) {
		char path[4096];
		struct sl_diag d;
		memset(&d, 0, sizeof(d));
		snprintf(path, sizeof(path), "%s/claim-%s.png", dir, c[i].id);
		if (sl_plot_claim(&c[i], path, &d)) {
			sl_err("%s", d.msg);
			return -1;
		}
	}
	return write_file(dir, "index.html", c, n, on, write_html);
}

/* The recorded run of the trace as rows of b's tasks (none if the trace
 * has no recorded run). */
static int load_recorded(struct sl_store *st, int64_t id, const struct sl_behaviour *b, struct sl_rec_rows *rows,
			 struct sl_diag *d)
{
	struct sl_run_data r;
	int64_t run = 0;
	struct sl_keyix *ix;
	size_t i;
	if (sl_store_recorded_run(st, id, &run, d))
		return -1;
	if (!run)
		return 0;
	if (sl_store_load_run(st, run, &r, d))
		return -1;
	/* utid -> the behaviour's index */
	ix = xcalloc(b->ntasks + 1, sizeof(*ix));
	for (i = 0; i < b->ntasks; i++) {
		ix[i].key = b->tasks[i].utid;
		ix[i].i = i;
	}
	sl_keyix_sort(ix, b->ntasks);
	for (i = 0; i < r.nslices + r.nwakeups; i++) {
		int64_t utid = i < r.nslices ? r.slices[i].utid : r.wakeups[i - r.nslices].utid;
		size_t at = sl_keyix_lower(ix, b->ntasks, utid);
		if (at == b->ntasks || ix[at].key != utid)
			continue;
		if (i < r.nslices)
			sl_rec_slice(rows, (int)ix[at].i, r.slices[i].cpu, r.slices[i].ts, r.slices[i].dur,
				     (char)r.slices[i].end_state);
		else
			sl_rec_wakeup(rows, (int)ix[at].i, r.wakeups[i - r.nslices].ts, r.wakeups[i - r.nslices].ts_run);
	}
	free(ix);
	sl_run_data_release(&r);
	return 0;
}

/* The imported trace id's behaviour, its recorded run and a name for it. */
static int load_trace(const struct sl_globals *g, int64_t id, struct sl_behaviour *b, struct sl_rec_rows *rows,
		      char *name, size_t len)
{
	struct sl_store *st;
	struct sl_trace_info tr;
	struct sl_diag d;
	const char *base;
	memset(&d, 0, sizeof(d));
	if (sl_store_open(g->db, 0, &st, &d)) {
		sl_err("%s", d.msg);
		return 1;
	}
	if (sl_store_get_trace(st, id, &tr, &d) || sl_store_load_behaviour(st, id, b, &d) ||
	    load_recorded(st, id, b, rows, &d)) {
		sl_err("%s", d.msg);
		sl_store_close(st);
		sl_rec_release(rows);
		return 1;
	}
	sl_store_close(st);
	if (!b->cpus)
		b->cpus = tr.cpus > 0 ? tr.cpus : 1;
	if (!b->span_ns && tr.last_ts > tr.first_ts)
		b->span_ns = tr.last_ts - tr.first_ts;
	base = strrchr(tr.path, '/');
	snprintf(name, len, "trace %" PRId64 " (%.40s)", id, base ? base + 1 : tr.path);
	return 0;
}

int cmd_claims(int argc, char **argv, const struct sl_globals *g)
{
	struct sl_claims_opts o;
	struct sl_diag d;
	struct sl_claim *c;
	size_t n;
	static const struct sl_choice formats[] = {
		{ "table", SL_FMT_TABLE, "the table, then every claim's figures and reason" },
		{ "csv", SL_FMT_CSV, "one row per claim and model, columns claim, source,\n"
				     "published, model, measured, unit, verdict, reason, ..." },
		{ "json", SL_FMT_JSON, "the same rows as a JSON array" },
		{ "markdown", SL_FMT_MARKDOWN, "the table and the reasons (docs/claims.md embeds it)" },
		SL_CHOICES_END
	};
	const char *dir = NULL;
	int format = SL_FMT_TABLE;
	int64_t trace = 0;
	int m, on[SL_CLAIM_MAXMODELS], rc;
	const struct sl_opt opts[] = {
		SL_OPT_CHOICE(0, "format", &format, formats, "the output:"),
		SL_OPT_STRING('o', "output", &dir, "DIR", "also write DIR/index.html (a chart per claim),\nclaims.csv, claims.json"),
		SL_OPT_STRING(0, "sched", &o.models, "LIST", "only these models (rsdl is always needed)"),
		SL_OPT_STRING(0, "traces", &o.traces_dir, "DIR", "where the bundled traces are (default: traces)"),
		SL_OPT_ID(0, "trace", &trace, "the trace-driven claims on imported trace ID (--db)"),
		SL_OPT_STRING(0, "task", &o.task, "COMM",
			      "with --trace: the interactive tasks are those called COMM\n"
			      "(default: found by behaviour: mostly sleeping, periodic,\n"
			      "present for half the trace or more)"),
		SL_OPT_FLAG(0, "debug", &o.debug, "engine invariant checks after every policy call (slow)"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "claims", synopsis, about, opts, 0, NULL };

	memset(&o, 0, sizeof(o));
	memset(&d, 0, sizeof(d));
	if ((rc = sl_opts_parse(&spec, argc, argv, NULL)) != SL_OPTS_GO)
		return rc;
	rc = 0;
	if (o.task && !trace) {
		sl_err("claims: --task goes with --trace ID");
		return 2;
	}
	if (dir) {
		struct stat sb;
		if (mkdir(dir, 0777) && errno != EEXIST) {
			sl_err("%s: %s", dir, strerror(errno));
			return 1;
		}
		if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
			sl_err("%s: not a directory", dir);
			return 1;
		}
	}
	if (trace) {
		struct sl_behaviour b;
		struct sl_rec_rows rows = { NULL, 0, 0 };
		char name[96];
		if (load_trace(g, trace, &b, &rows, name, sizeof(name)))
			return 1;
		rc = sl_claims_trace(&o, &b, name, &rows, &c, &n, &d);
		sl_rec_release(&rows);
		sl_behaviour_release(&b);
	} else {
		rc = sl_claims_run(&o, &c, &n, &d);
	}
	if (rc) {
		sl_err("%s", d.msg);
		return 1;
	}
	for (m = 0; m < SL_CLAIM_MAXMODELS; m++) {
		size_t k;
		on[m] = 0;
		for (k = 0; k < n && !on[m]; k++)
			on[m] = m < sl_claim_ncols() && (c[k].measured[m][0] || m == c[k].baseline);
	}
	on[SL_CLAIM_RSDL] = 1;
	if (format == SL_FMT_CSV)
		write_csv(stdout, c, n, on);
	else if (format == SL_FMT_JSON)
		write_json(stdout, c, n, on);
	else if (format == SL_FMT_MARKDOWN)
		write_md(stdout, c, n, on);
	else
		print_table(stdout, c, n, on);
	if (dir && write_dir(dir, c, n, on))
		rc = 1;
	else if (dir && format == SL_FMT_TABLE)
		printf("\nwrote %s/index.html (%zu charts), %s/claims.csv, %s/claims.json\n", dir, n, dir, dir);
	free(c);
	return rc;
}
