/* tests/unit/test_opt.c - the table-driven option parser (cmd/opt.c): the
 * forms it accepts, where the values land, the operands it leaves, the
 * usage errors (status 2) and the help printed from the same table. */
#include "harness.h"
#include "../../cmd/opt.h"
#include "../../common/util.h"
#include "../../replay/choices.h"
#include "../../replay/engine.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

struct vals {
	long long top;
	int64_t trace;
	struct sl_idlist runs;
	uint64_t rr, to;
	const char *out;
	int mode;
	struct sl_strlist popts;
	int debug;
};

static char *argv[32];

/* Parse the NULL-terminated args (after the command name) against a table
 * like replay's, in argv; the return of sl_opts_parse, stderr silenced. */
static int parse(struct vals *v, unsigned flags, int *nops, char **args)
{
	int argc = 1, rc, saved, devnull;
	const struct sl_opt opts[] = {
		SL_OPT_INT(0, "top", &v->top, 0, 1000, "N", "how many"),
		SL_OPT_ID(0, "trace", &v->trace, "a trace"),
		SL_OPT_IDS(0, "run", &v->runs, "runs"),
		SL_OPT_DURATION(0, "rr-interval", &v->rr, 1000, 10000000000LL, 1000000, "RR"),
		SL_OPT_DURATION(0, "to", &v->to, 0, LLONG_MAX, 1, "end"),
		SL_OPT_STRING('o', "output", &v->out, "FILE", "out"),
		SL_OPT_CHOICE(0, "mode", &v->mode, sl_mode_choices, "mode"),
		SL_OPT_LIST(0, "opt", &v->popts, "N=V", "param"),
		SL_OPT_FLAG(0, "debug", &v->debug, "checks"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "t", "schedlab t", NULL, opts, flags, NULL };
	argv[0] = "t";
	while (*args && argc < 31)
		argv[argc++] = *args++;
	argv[argc] = NULL;
	fflush(stderr);
	saved = dup(2);
	devnull = open("/dev/null", O_WRONLY);
	dup2(devnull, 2);
	rc = sl_opts_parse(&spec, argc, argv, nops);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(devnull);
	return rc;
}

SL_TEST(opt_forms_and_values)
{
	struct vals v = { .top = 20, .mode = SL_MODE_TIMED };
	char *a[] = { "--top=7", "--trace", "3", "--run", "1", "2,5", "--run=9", "--rr-interval", "1.5",
		      "--to", "2", "-o", "x.png", "--mode", "causal", "--opt", "a1=0", "--opt=a4=1",
		      "--debug", NULL };
	int nops = -1;
	CHECK_EQ_INT(parse(&v, 0, &nops, a), SL_OPTS_GO);
	CHECK_EQ_INT(nops, 0);
	CHECK_EQ_INT(v.top, 7);
	CHECK_EQ_INT(v.trace, 3);
	/* --run 1 2,5 takes the ids that follow; --run=9 appends */
	CHECK_EQ_INT(v.runs.n, 4);
	if (v.runs.n == 4) {
		CHECK_EQ_INT(v.runs.v[0], 1);
		CHECK_EQ_INT(v.runs.v[1], 2);
		CHECK_EQ_INT(v.runs.v[2], 5);
		CHECK_EQ_INT(v.runs.v[3], 9);
	}
	/* a bare number is in the option's unit: 1.5 ms, 2 ns */
	CHECK_EQ_INT(v.rr, 1500000);
	CHECK_EQ_INT(v.to, 2);
	CHECK_STR(v.out, "x.png");
	CHECK_EQ_INT(v.mode, SL_MODE_CAUSAL);
	CHECK_EQ_INT(v.popts.n, 2);
	if (v.popts.n == 2) {
		CHECK_STR(v.popts.v[0], "a1=0");
		CHECK_STR(v.popts.v[1], "a4=1");
	}
	CHECK_EQ_INT(v.debug, 1);
	free(v.runs.v);
	free(v.popts.v);
}

SL_TEST(opt_operands)
{
	struct vals v = { 0 };
	char *a[] = { "f1", "--top", "1", "-", "--", "--top", NULL };
	char *b[] = { "-20", "--to", "5ms", "3", NULL };
	char *c[] = { "--top", "2", "sleep", "--top", "9", NULL };
	int nops = 0;
	/* operands kept in order; "-" is one; after "--" everything is */
	CHECK_EQ_INT(parse(&v, SL_OPTS_OPERANDS, &nops, a), SL_OPTS_GO);
	CHECK_EQ_INT(nops, 3);
	CHECK_STR(argv[1], "f1");
	CHECK_STR(argv[2], "-");
	CHECK_STR(argv[3], "--top");
	CHECK(argv[4] == NULL);
	CHECK_EQ_INT(v.top, 1);
	/* without SL_OPTS_OPERANDS an operand is a usage error */
	CHECK_EQ_INT(parse(&v, 0, &nops, a), 2);
	/* SL_OPTS_NUMBERS: -20 is an operand (bound's nice values) */
	CHECK_EQ_INT(parse(&v, SL_OPTS_OPERANDS | SL_OPTS_NUMBERS, &nops, b), SL_OPTS_GO);
	CHECK_EQ_INT(nops, 2);
	CHECK_STR(argv[1], "-20");
	CHECK_STR(argv[2], "3");
	CHECK_EQ_INT(v.to, 5000000);
	CHECK_EQ_INT(parse(&v, SL_OPTS_OPERANDS, &nops, b), 2); /* -20: unknown option */
	/* SL_OPTS_STOP: the first operand ends the options (record CMD...) */
	v.top = 0;
	CHECK_EQ_INT(parse(&v, SL_OPTS_OPERANDS | SL_OPTS_STOP, &nops, c), SL_OPTS_GO);
	CHECK_EQ_INT(nops, 3);
	CHECK_STR(argv[1], "sleep");
	CHECK_STR(argv[2], "--top");
	CHECK_STR(argv[3], "9");
	CHECK_EQ_INT(v.top, 2);
}

SL_TEST(opt_usage_errors)
{
	struct vals v = { 0 };
	char *bad[][3] = {
		{ "--top", "1001", NULL },      /* above the range 0..1000 */
		{ "--top", "x", NULL },         /* not a number */
		{ "--trace", "0", NULL },       /* ids start at 1 */
		{ "--run", "1,,2", NULL },      /* empty id */
		{ "--rr-interval", "999ns", NULL }, /* below 1us */
		{ "--rr-interval", "11s", NULL },   /* above 10s */
		{ "--mode", "fast", NULL },     /* not a choice */
		{ "--debug=1", NULL, NULL },    /* a flag takes no value */
		{ "--frob", NULL, NULL },       /* unknown */
		{ "-x", NULL, NULL },           /* unknown short */
		{ "--top", NULL, NULL },        /* no value */
		{ "-o", "", NULL },             /* empty string */
	};
	size_t i;
	int nops;
	for (i = 0; i < SL_ARRAY_SIZE(bad); i++) {
		if (parse(&v, 0, &nops, bad[i]) != 2) {
			fprintf(stderr, "  case %zu (%s %s) was accepted\n", i, bad[i][0], bad[i][1] ? bad[i][1] : "");
			sl_test_failed = 1;
		}
		/* the lists are released on an error */
		CHECK(v.runs.v == NULL && v.runs.n == 0);
	}
}

SL_TEST(opt_help_from_table)
{
	uint64_t rr = 6000000;
	long long n = 20;
	int q = 0;
	const struct sl_opt opts[] = {
		SL_OPT_DURATION(0, "rr-interval", &rr, 1000, 10000000000LL, 1000000, "RR_INTERVAL"),
		SL_OPT_INT(0, "top", &n, 0, 100, "N", "first line\nsecond line"),
		SL_OPT_FLAG('q', NULL, &q, "quiet"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "t", "schedlab t [--top N]", "About.\n", opts, 0, NULL };
	char buf[1024];
	size_t len;
	FILE *f = tmpfile();
	CHECK(f != NULL);
	if (!f)
		return;
	sl_opts_usage(&spec, f);
	rewind(f);
	len = fread(buf, 1, sizeof(buf) - 1, f);
	buf[len] = 0;
	fclose(f);
	/* the help column is 22 wide; defaults come from the variables, a
	 * duration in its largest exact unit (6000000 ns = 6ms) */
	CHECK_STR(buf, "usage: schedlab t [--top N]\n\nAbout.\n\nOptions:\n"
		       "  --rr-interval T     RR_INTERVAL (default 6ms; a bare number is in ms)\n"
		       "  --top N             first line\n"
		       "                      second line (default 20)\n"
		       "  -q                  quiet\n");
}

SL_TEST(opt_format_duration)
{
	char b[32];
	sl_format_duration(6000000, b, sizeof(b));
	CHECK_STR(b, "6ms");
	sl_format_duration(1500000000, b, sizeof(b)); /* 1.5 s = 1500 ms exactly */
	CHECK_STR(b, "1500ms");
	sl_format_duration(10000000000ULL, b, sizeof(b));
	CHECK_STR(b, "10s");
	sl_format_duration(1001, b, sizeof(b));
	CHECK_STR(b, "1001ns");
	sl_format_duration(0, b, sizeof(b));
	CHECK_STR(b, "0ns");
}

/* Each replay choice table feeds a run's params JSON (issue 25: replay -h
 * said one thing of --irq-cpu auto, the runs stored another): for every
 * entry, the value the parser stores makes sl_replay_params_json write the
 * entry's own name. --irq-cpu auto is stored as the mode in effect:
 * relative for every model, eevdf included since the corpus showed its
 * other-CPU interrupt wakeups to be softirqs (docs/replay.md "Wakeup CPU"),
 * and its help says exactly that, in the policy table's order. */
SL_TEST(opt_choice_tables_feed_params)
{
	static const struct {
		const struct sl_choice *t;
		const char *key;
	} tabs[] = { { sl_mode_choices, "mode" }, { sl_sync_choices, "sync" }, { sl_wake_cpu_choices, "wake_cpu" },
		     { sl_irq_cpu_choices, "irq_cpu" }, { sl_preempt_choices, "preempt" } };
	const struct sl_policy_ops *cfs = sl_policy_find("cfs"), *eevdf = sl_policy_find("eevdf");
	struct sl_diag d = { { 0 }, 0, 0 };
	char json[4096], want[96], help[160];
	size_t k;
	int seen = 0;
	CHECK(cfs != NULL && eevdf != NULL);
	if (!cfs || !eevdf)
		return;
	for (k = 0; k < SL_ARRAY_SIZE(tabs); k++) {
		const struct sl_choice *c;
		for (c = tabs[k].t; c->name; c++) {
			struct sl_replay_opts o;
			int *field = k == 0 ? &o.mode : k == 1 ? &o.sync_mode : k == 2 ? &o.wake_cpu_mode
				   : k == 3 ? &o.irq_cpu_mode : &o.preempt;
			sl_replay_opts_init(&o);
			*field = c->value;
			CHECK_EQ_INT(sl_replay_params_json(cfs, &o, 1, json, sizeof(json), &d), 0);
			snprintf(want, sizeof(want), "\"%s\":\"%s\"", tabs[k].key,
				 k == 3 && c->value == SL_IRQ_CPU_AUTO ? "relative" : c->name);
			if (!strstr(json, want))
				fprintf(stderr, "  %s not in %s\n", want, json);
			CHECK(strstr(json, want) != NULL);
			seen++;
		}
	}
	/* 2 modes, 4 sync, 2 wake-cpu, 5 irq-cpu, 4 preempt */
	CHECK_EQ_INT(seen, 17);
	{
		struct sl_replay_opts o;
		sl_replay_opts_init(&o);
		o.irq_cpu_mode = SL_IRQ_CPU_AUTO;
		CHECK_EQ_INT(sl_replay_params_json(eevdf, &o, 1, json, sizeof(json), &d), 0);
		CHECK(strstr(json, "\"irq_cpu\":\"relative\"") != NULL);
	}
	sl_irq_cpu_auto_help(help, sizeof(help));
	CHECK_STR(help, "relative for rsdl, o1, sd, cfs and eevdf");
}

/* -h of a choice option: its names from the table, one help line per
 * entry, and the default (the entry the destination holds) once. */
SL_TEST(opt_choice_help)
{
	int mode = SL_MODE_CAUSAL;
	const struct sl_opt opts[] = { SL_OPT_CHOICE(0, "mode", &mode, sl_mode_choices, "how sleeps end:"),
				       SL_OPT_END };
	const struct sl_opts_spec spec = { "t", "schedlab t", NULL, opts, 0, NULL };
	char buf[2048];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	CHECK(f != NULL);
	if (!f)
		return;
	sl_opts_usage(&spec, f);
	fclose(f);
	CHECK(strstr(buf, "  --mode timed|causal") != NULL);
	CHECK(strstr(buf, "how sleeps end (default causal):\n") != NULL);
	CHECK(strstr(buf, "\n                        timed: sleeps last as recorded\n") != NULL);
	CHECK(strstr(buf, "\n                        causal: a task woken") != NULL);
}
