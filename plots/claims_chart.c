/* plots/claims_chart.c - the chart behind each claim's verdict (gnuplot)
 * and the page `schedlab claims -o DIR` writes: DIR/index.html with one
 * chart per claim (DIR/claim-ID.png), beside DIR/claims.csv and
 * DIR/claims.json (written by the command). */
#include "plot_int.h"
#include "../analyze/claims.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void title(FILE *f, const struct sl_claim *c)
{
	char t[600];
	/* a long statement (a user's trace named in it) and where it was
	 * measured on two lines: on one they ran off the chart's left edge */
	int wide = strlen(c->id) + strlen(c->claim) + strlen(c->from) > 100;
	snprintf(t, sizeof(t), "%s: %.150s%s(%.100s)\n%s on %s: %.150s", c->id, c->claim, wide ? "\n" : " ", c->from,
		 sl_verdict_name(c->verdict), c->subject >= 0 ? sl_claim_model_name(c->subject) : "-", c->predicted);
	fputs("set title ", f);
	sl_gp_str(f, t);
	fputc('\n', f);
}

/* A horizontal reference line at y, named in the key (issue 25: labels
 * on the chart ran into the bars' values and off its right edge): a plot
 * term, after the others. */
static void hline(FILE *f, int i, double y, const char *what)
{
	char lab[80];
	if (isnan(y) || isinf(y))
		return;
	snprintf(lab, sizeof(lab), "%s %.4g", what, y);
	fprintf(f, ", %.9g with lines dt 2 lw 2 lc rgb '%s' title ", y, i == 1 ? "#c00000" : "#808080");
	sl_gp_str(f, lab);
}

/* The reference lines of claim c (published; consistent when it differs,
 * named by what it is). */
static void refs(FILE *f, const struct sl_claim *c, const char *second)
{
	hline(f, 1, c->published, "published");
	if (!isnan(c->consistent) && c->consistent != c->published)
		hline(f, 2, c->consistent, second);
}

/* The bars' range: the least and greatest of 0, the finite measures and
 * the reference values (hi above lo). */
static void bars_range(const struct sl_claim *c, double *lo, double *hi)
{
	int m;
	for (m = 0; m < sl_claim_ncols(); m++)
		if (!isnan(c->meas[m]) && !isinf(c->meas[m])) {
			*lo = fmin(*lo, c->meas[m]);
			*hi = fmax(*hi, c->meas[m]);
		}
	if (!isnan(c->published) && !isinf(c->published)) {
		*lo = fmin(*lo, c->published);
		*hi = fmax(*hi, c->published);
	}
	if (!isnan(c->consistent) && !isinf(c->consistent)) {
		*lo = fmin(*lo, c->consistent);
		*hi = fmax(*hi, c->consistent);
	}
	if (*hi <= *lo)
		*hi = *lo + 1;
}

/* A bar per model (SL_CHART_BARS, or a claim without series). */
static int chart_bars(struct sl_gp *g, const struct sl_claim *c, struct sl_diag *d)
{
	const struct sl_claim_chart *ch = &c->chart;
	char path[1200];
	double lo = 0, hi = 0, pos = INFINITY;
	int m, any = 0, logy;
	FILE *f = sl_gp_data(g, "bars", path, sizeof(path), d);

	if (!f)
		return -1;
	for (m = 0; m < sl_claim_ncols(); m++)
		if (!isnan(c->meas[m]) && !isinf(c->meas[m])) {
			fprintf(f, "%s\t%.9g\n", sl_claim_model_name(m), c->meas[m]);
			any = 1;
		}
	bars_range(c, &lo, &hi);
	/* figures orders of magnitude apart (10 s against 2 ms): log scale */
	for (m = 0; m < sl_claim_ncols(); m++)
		if (!isnan(c->meas[m]) && !isinf(c->meas[m]) && c->meas[m] > 0 && c->meas[m] < pos)
			pos = c->meas[m];
	logy = lo >= 0 && pos < INFINITY && hi / pos > 200;
	if (fclose(f))
		return sl_fail(d, "%s: write error", path);
	fputs("set ylabel ", g->script);
	sl_gp_str(g->script, ch->ylabel[0] ? ch->ylabel : c->unit);
	fputs("\nset style fill solid 0.6 border -1\nset boxwidth 0.6\n", g->script);
	if (isnan(c->published) || isinf(c->published))
		fputs("unset key\n", g->script);
	if (!any) {
		char why[140];
		snprintf(why, sizeof(why), "untestable: %.110s", c->note);
		fputs("set label 9 ", g->script);
		sl_gp_str(g->script, why);
		fputs(" at graph 0.5, graph 0.5 center\nset xrange [0:1]\n"
		      "set yrange [0:1]\nunset xtics\nunset ytics\nplot NaN notitle\n",
		      g->script);
		return 0;
	}
	if (logy)
		fprintf(g->script, "set logscale y\nset format y '%%g'\nset yrange [%.9g:%.9g]\n"
			"set offsets 0.5, 0.5, 0, 0\n",
			pos / 2, hi * 3);
	else
		fprintf(g->script, "set yrange [%.9g:%.9g]\nset offsets 0.5, 0.5, 0, 0\nset xzeroaxis lt -1\n",
			lo < 0 ? lo - 0.12 * (hi - lo) : 0, hi + 0.12 * (hi - lo));
	fputs("plot ", g->script);
	sl_gp_path(g->script, path);
	fputs(" using 0:2:xtic(1) with boxes lc rgb '#4a7ebb' notitle, '' using 0:2:(sprintf('%.4g', $2)) with labels offset 0,0.8 notitle",
	      g->script);
	refs(g->script, c, c->rule == SL_RULE_NEAR ? "corrected" : "partly");
	fputs("\n", g->script);
	return 0;
}

/* An empty chart saying so (unset: the logscale line to undo). */
static int nothing_measured(FILE *script, const char *unset)
{
	fputs("set label 9 'nothing measured' at graph 0.5, graph 0.5 center\n", script);
	fputs(unset, script);
	fputs("set xrange [0:1]\nset yrange [0:1]\nplot NaN notitle\n", script);
	return 0;
}

/* The groups' data file: a row per group (x), a column per series; *any:
 * some value is there. */
static int groups_data(struct sl_gp *g, const struct sl_claim_chart *ch, char *path, size_t len,
		       int *any, struct sl_diag *d)
{
	size_t s, k;
	FILE *f = sl_gp_data(g, "groups", path, len, d);
	if (!f)
		return -1;
	fputs("group", f);
	for (s = 0; s < ch->nseries; s++)
		fprintf(f, "\t%s", ch->s[s].name[0] ? ch->s[s].name : "-");
	fputs("\n", f);
	for (k = 0; k < ch->nx; k++) {
		char lab[32];
		sl_label_clean(lab, sizeof(lab), ch->xt[k]);
		for (char *p = lab; *p; p++)
			if (*p == ' ' || *p == '\t')
				*p = '_';
		fputs(lab, f);
		for (s = 0; s < ch->nseries; s++) {
			size_t i;
			double y = NAN;
			for (i = 0; i < ch->s[s].n; i++)
				if (ch->s[s].x[i] == (double)k)
					y = ch->s[s].y[i];
			if (ch->logy && y <= 0)
				y = NAN;
			if (!isnan(y))
				*any = 1;
			fprintf(f, isnan(y) ? "\t-" : "\t%.9g", y);
		}
		fputs("\n", f);
	}
	if (fclose(f))
		return sl_fail(d, "%s: write error", path);
	return 0;
}

/* Clustered bars, a cluster per group (SL_CHART_GROUPS). */
static int chart_groups(struct sl_gp *g, const struct sl_claim *c, struct sl_diag *d)
{
	const struct sl_claim_chart *ch = &c->chart;
	char path[1200];
	size_t s;
	int any = 0;

	if (groups_data(g, ch, path, sizeof(path), &any, d))
		return -1;
	fputs(
		"set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.7 border -1\n"
		"set datafile missing '-'\nset xtics scale 0\nset ylabel ", g->script);
	sl_gp_str(g->script, ch->ylabel);
	fputs("\n", g->script);
	/* many groups (a 22-CPU trace's tasks): names slanted, not run into
	 * each other (issue 25) */
	if (ch->nx > 4)
		fputs("set xtics rotate by 30 right font ',9'\nset bmargin 6\n", g->script);
	if (ch->logy)
		fputs("set logscale y\nset format y '%g'\n", g->script);
	else
		fputs("set yrange [0:*]\n", g->script);
	if (!any || !ch->nx)
		return nothing_measured(g->script, "unset logscale y\n");
	fputs("plot ", g->script);
	for (s = 0; s < ch->nseries; s++)
		if (ch->s[s].name[0]) {
			fputs(s ? ", " : "", g->script);
			sl_gp_path(g->script, path);
			fprintf(g->script, " using %zu:xtic(1) title columnheader(%zu)", s + 2, s + 2);
			/* the recording itself, apart from the models: grey */
			if (!strcmp(ch->s[s].name, "recorded"))
				fputs(" lc rgb '#505050'", g->script);
		}
	if (ch->ref)
		refs(g->script, c, "partly");
	fputs("\n", g->script);
	return 0;
}

/* A line per series (SL_CHART_LINES). */
static int chart_lines(struct sl_gp *g, const struct sl_claim *c, struct sl_diag *d)
{
	const struct sl_claim_chart *ch = &c->chart;
	char paths[SL_CHART_MAXSERIES][1200];
	size_t s, k;
	int any = 0, first = 1;
	FILE *f;

	for (s = 0; s < ch->nseries; s++) {
		char nm[32];
		snprintf(nm, sizeof(nm), "s%zu", s);
		f = sl_gp_data(g, nm, paths[s], sizeof(paths[s]), d);
		if (!f)
			return -1;
		for (k = 0; k < ch->s[s].n; k++)
			if (!isnan(ch->s[s].y[k]) && !isinf(ch->s[s].y[k]) && (!ch->logy || ch->s[s].y[k] > 0)) {
				fprintf(f, "%.9g\t%.9g\n", ch->s[s].x[k], ch->s[s].y[k]);
				any = 1;
			}
		if (fclose(f))
			return sl_fail(d, "%s: write error", paths[s]);
	}
	fputs("set xlabel ", g->script);
	sl_gp_str(g->script, ch->xlabel);
	fputs("\nset ylabel ", g->script);
	sl_gp_str(g->script, ch->ylabel);
	fputs("\n", g->script);
	if (ch->logx)
		fputs("set logscale x\nset format x '%g'\n", g->script);
	if (ch->logy)
		fputs("set logscale y\nset format y '%g'\n", g->script);
	else
		fputs("set yrange [0:*]\n", g->script);
	if (!any)
		return nothing_measured(g->script, "unset logscale\n");
	fputs("plot ", g->script);
	for (s = 0; s < ch->nseries; s++)
		if (ch->s[s].name[0] && ch->s[s].n) {
			fputs(first ? "" : ", ", g->script);
			sl_gp_path(g->script, paths[s]);
			fputs(" using 1:2 with linespoints lw 2 pt 7 title ", g->script);
			sl_gp_str(g->script, ch->s[s].name);
			first = 0;
		}
	if (first)
		fputs("NaN notitle", g->script);
	fputs("\n", g->script);
	return 0;
}

int sl_plot_claim(const struct sl_claim *c, const char *out, struct sl_diag *d)
{
	const struct sl_claim_chart *ch = &c->chart;
	struct sl_gp g;
	int rc;

	if (sl_gp_begin(&g, out, 0, 900, 480, d))
		return -1;
	title(g.script, c);
	fputs("set key outside right top\nset grid ytics\nset border 3\nset xtics nomirror\nset ytics nomirror\n",
	      g.script);
	if (ch->kind == SL_CHART_BARS || !ch->nseries)
		rc = chart_bars(&g, c, d);
	else if (ch->kind == SL_CHART_GROUPS)
		rc = chart_groups(&g, c, d);
	else
		rc = chart_lines(&g, c, d);
	if (!rc)
		rc = sl_gp_run(&g, d);
	sl_gp_end(&g);
	return rc;
}

static void td(FILE *f, const char *s)
{
	fputs("<td>", f);
	sl_html_str(f, s);
	fputs("</td>", f);
}

int sl_claims_html(FILE *f, const struct sl_claim *c, size_t n, const int *on)
{
	size_t i;
	int m, nm = sl_claim_ncols();
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>schedlab claims</title>\n"
	      "<style>body{font-family:sans-serif;max-width:1100px;margin:auto}table{border-collapse:collapse}"
	      "td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;font-size:90%}"
	      ".holds{color:#070}.fails{color:#b00}.partly{color:#a60}.untestable{color:#666}"
	      "img{max-width:100%}</style></head><body>\n"
	      "<h1>The 2007 RSDL claims, re-run</h1>\n"
	      "<p>Generated by <code>schedlab claims</code> (docs/claims.md: scenarios, traces and verdict rules). "
	      "Data: <a href=\"claims.csv\">claims.csv</a>, <a href=\"claims.json\">claims.json</a>.</p>\n"
	      "<table><tr><th>id</th><th>claim</th><th>published</th><th>verdict</th></tr>\n",
	      f);
	for (i = 0; i < n; i++) {
		fprintf(f, "<tr><td><a href=\"#c%s\">%s</a></td>", c[i].id, c[i].id);
		td(f, c[i].claim);
		td(f, c[i].predicted);
		fprintf(f, "<td class=\"%s\">%s</td></tr>\n", sl_verdict_name(c[i].verdict), sl_verdict_name(c[i].verdict));
	}
	fputs("</table>\n", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "<h2 id=\"c%s\">%s. ", c[i].id, c[i].id);
		sl_html_str(f, c[i].claim);
		fprintf(f, " &mdash; <span class=\"%s\">%s</span></h2>\n<p><b>", sl_verdict_name(c[i].verdict),
			sl_verdict_name(c[i].verdict));
		sl_html_str(f, c[i].source);
		fputs("</b>: ", f);
		sl_html_str(f, c[i].quote);
		fputs("<br>Published/predicted: ", f);
		sl_html_str(f, c[i].predicted);
		fputs("<br>Measured on: ", f);
		sl_html_str(f, c[i].from);
		fputs("<br>Reason: ", f);
		sl_html_str(f, c[i].note);
		fputs("</p>\n<table><tr><th>model</th><th>measured</th><th>value</th><th>verdict</th></tr>\n", f);
		for (m = 0; m < nm; m++) {
			char v[48];
			if (!on[m])
				continue;
			snprintf(v, sizeof(v), isnan(c[i].meas[m]) ? "-" : "%.6g %s", c[i].meas[m], c[i].unit);
			fputs("<tr>", f);
			td(f, sl_claim_model_name(m));
			td(f, c[i].measured[m][0] ? c[i].measured[m] : "-");
			td(f, v);
			td(f, m == c[i].baseline ? "(baseline)" : sl_verdict_name(c[i].verdicts[m]));
			fputs("</tr>\n", f);
		}
		fprintf(f, "</table>\n<p><img src=\"claim-%s.png\" alt=\"chart of claim %s\"></p>\n", c[i].id, c[i].id);
	}
	fputs("</body></html>\n", f);
	return ferror(f) ? -1 : 0;
}
