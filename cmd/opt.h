/* cmd/opt.h - the one option parser of schedlab and of every command.
 *
 * A command describes its options in a table (name, short letter, kind,
 * destination, value name, help) and calls sl_opts_parse(); the same table
 * prints its `-h`. The destinations are the command's own variables, as in
 * git's parse-options:
 *
 *	long long top = 20;
 *	struct sl_idlist runs = { 0 };
 *	const struct sl_opt opts[] = {
 *		SL_OPT_IDS(0, "run", &runs, "a run (repeat, or 1,2,3)"),
 *		SL_OPT_INT(0, "top", &top, 0, 1000000000, "N", "the N busiest tasks"),
 *		SL_OPT_END
 *	};
 *
 * A choice option's values come from one table (common/choice.h) that
 * gives the parser the names and the values it stores, -h the names, their
 * help and the default (the value the destination holds before parsing),
 * and the error message the names it expects.
 *
 * Accepted forms: --name VALUE, --name=VALUE, -x VALUE; -h and --help print
 * the help; "--" ends the options. Usage errors are one line,
 * "schedlab: error: CMD: --name 'VALUE': expected WHAT", and the command
 * exits 2 (runtime errors exit 1). */
#ifndef SL_OPT_H
#define SL_OPT_H

#include <stdint.h>
#include <stdio.h>
#include "../common/choice.h"

enum sl_opt_kind {
	SL_OPT_FLAG,     /* int = 1 */
	SL_OPT_INT,      /* long long in [min, max] */
	SL_OPT_ID,       /* int64_t >= 1 (a run or trace id) */
	SL_OPT_IDS,      /* struct sl_idlist: ids, "1,2,3", "1 2 3", repeatable */
	SL_OPT_DURATION, /* uint64_t ns in [min, max]; a bare number is in unit ns */
	SL_OPT_STRING,   /* const char *; min 1: not empty */
	SL_OPT_CHOICE,   /* int: the value of one entry of a choice table */
	SL_OPT_LIST,     /* struct sl_strlist: every value, in order (repeatable) */
};

struct sl_opt {
	char short_name;       /* 'o' for -o, or 0 */
	const char *name;      /* "output" for --output, or NULL */
	enum sl_opt_kind kind;
	void *dest;
	long long min, max;    /* INT, DURATION (ns); STRING: min 1 = not empty */
	unsigned long long unit; /* DURATION: the unit of a bare number, in ns */
	const struct sl_choice *choices; /* CHOICE: its table (common/choice.h) */
	const char *arg;       /* the value's name in the help ("N", "T", "FILE") */
	const char *help;      /* '\n' continues on the next help line */
};

struct sl_idlist {
	int64_t *v;
	size_t n, cap;
};

struct sl_strlist {
	const char **v;
	size_t n, cap;
};

#define SL_OPT_FLAG(s, l, d, h) { (s), (l), SL_OPT_FLAG, (d), 0, 0, 0, NULL, NULL, (h) }
#define SL_OPT_INT(s, l, d, lo, hi, a, h) { (s), (l), SL_OPT_INT, (d), (lo), (hi), 0, NULL, (a), (h) }
#define SL_OPT_ID(s, l, d, h) { (s), (l), SL_OPT_ID, (d), 1, INT64_MAX, 0, NULL, "ID", (h) }
#define SL_OPT_IDS(s, l, d, h) { (s), (l), SL_OPT_IDS, (d), 1, INT64_MAX, 0, NULL, "ID", (h) }
#define SL_OPT_DURATION(s, l, d, lo, hi, u, h) \
	{ (s), (l), SL_OPT_DURATION, (d), (long long)(lo), (long long)(hi), (u), NULL, "T", (h) }
#define SL_OPT_STRING(s, l, d, a, h) { (s), (l), SL_OPT_STRING, (d), 1, 0, 0, NULL, (a), (h) }
#define SL_OPT_CHOICE(s, l, d, c, h) { (s), (l), SL_OPT_CHOICE, (d), 0, 0, 0, (c), NULL, (h) }
#define SL_OPT_LIST(s, l, d, a, h) { (s), (l), SL_OPT_LIST, (d), 0, 0, 0, NULL, (a), (h) }
#define SL_OPT_END { 0, NULL, SL_OPT_FLAG, NULL, 0, 0, 0, NULL, NULL, NULL }

/* sl_opts_spec.flags */
#define SL_OPTS_OPERANDS 1u /* operands are allowed (else they are usage errors) */
#define SL_OPTS_STOP 2u     /* the first operand ends the options (record CMD...) */
#define SL_OPTS_NUMBERS 4u  /* "-20" is an operand, not an option (bound NICE...) */

struct sl_opts_spec {
	const char *cmd;       /* "replay"; NULL for schedlab's own options */
	const char *synopsis;  /* the usage line(s) after "usage: " */
	const char *about;     /* what the command does, or NULL */
	const struct sl_opt *opts;
	unsigned flags;
	void (*more)(FILE *f); /* more help after the options, or NULL */
};

/* sl_opts_parse() returns SL_OPTS_GO to go on, else the command's exit
 * status: 0 after -h, 2 after a usage error (its line printed). */
#define SL_OPTS_GO (-1)

/* Parse argv[1..argc-1] (argv[0] is the command's name). The operands (the
 * arguments that are not options or their values) are moved, in order, to
 * argv[1..*noperands] and argv[1 + *noperands] becomes NULL (noperands
 * may be NULL when the table allows none). On anything but
 * SL_OPTS_GO, the lists the table fills are released. */
int sl_opts_parse(const struct sl_opts_spec *s, int argc, char **argv, int *noperands);
/* Print the help: synopsis, about, one line per option, more. */
void sl_opts_usage(const struct sl_opts_spec *s, FILE *f);
/* Free the lists (IDS, LIST) of a table. */
void sl_opts_release(const struct sl_opt *opts);
/* "6ms", "1.5s", "250us": the shortest exact form of a duration. */
void sl_format_duration(uint64_t ns, char *buf, size_t len);

#endif
