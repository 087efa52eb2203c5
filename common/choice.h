/* common/choice.h - the values of a choice option as one table: each
 * value's name (as typed, printed and stored in a run's params), the enum
 * value it stands for, and a line of help. The parser (cmd/opt.h), -h,
 * the error messages and a run's params JSON all read the same table, so
 * a name cannot be spelt one way in one and another way in another (issue
 * 25: replay -h said one thing of --irq-cpu auto, the runs stored another). */
#ifndef SL_CHOICE_H
#define SL_CHOICE_H

struct sl_choice {
	const char *name;  /* "timed" */
	int value;         /* SL_MODE_TIMED */
	const char *help;  /* what it does, one line (or NULL) */
};
#define SL_CHOICES_END { NULL, 0, NULL }

/* The name of value in t, or dflt when no entry has it. */
const char *sl_choice_name(const struct sl_choice *t, int value, const char *dflt);
/* The entry called name, or NULL. */
const struct sl_choice *sl_choice_find(const struct sl_choice *t, const char *name);

#endif
