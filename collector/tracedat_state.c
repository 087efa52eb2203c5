/* collector/tracedat_state.c - see tracedat_state.h. */
#include "tracedat_state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"

static int eval_arg(struct tep_print_arg *a, int64_t *out, int depth)
{
	int64_t l, r;
	char *end;

	if (!a || depth > 32)
		return -1;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		if (!a->atom.atom)
			return -1;
		errno = 0;
		*out = strtoll(a->atom.atom, &end, 0);
		return (end == a->atom.atom || errno) ? -1 : 0;
	case TEP_PRINT_TYPE:
		return eval_arg(a->typecast.item, out, depth + 1);
	case TEP_PRINT_OP:
		if (!a->op.op)
			return -1;
		if (!a->op.left) { /* unary */
			if (eval_arg(a->op.right, &r, depth + 1) < 0)
				return -1;
			if (!strcmp(a->op.op, "-"))
				*out = -r;
			else if (!strcmp(a->op.op, "~"))
				*out = ~r;
			else
				return -1;
			return 0;
		}
		if (eval_arg(a->op.left, &l, depth + 1) < 0 ||
		    eval_arg(a->op.right, &r, depth + 1) < 0)
			return -1;
		if (!strcmp(a->op.op, "+")) *out = (int64_t)((uint64_t)l + (uint64_t)r);
		else if (!strcmp(a->op.op, "-")) *out = (int64_t)((uint64_t)l - (uint64_t)r);
		else if (!strcmp(a->op.op, "|")) *out = l | r;
		else if (!strcmp(a->op.op, "&")) *out = l & r;
		else if (!strcmp(a->op.op, "<<") && r >= 0 && r < 63) *out = (int64_t)((uint64_t)l << r);
		else if (!strcmp(a->op.op, ">>") && r >= 0 && r < 63) *out = l >> r;
		else
			return -1;
		return 0;
	default:
		return -1;
	}
}

static int is_prev_state(const struct tep_print_arg *a)
{
	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	return a && a->type == TEP_PRINT_FIELD && a->field.name &&
	       !strcmp(a->field.name, "prev_state");
}

/* "REC->prev_state & X": return X. */
static int and_mask(struct tep_print_arg *a, int64_t *x)
{
	if (!a || a->type != TEP_PRINT_OP || !a->op.op || strcmp(a->op.op, "&"))
		return -1;
	if (is_prev_state(a->op.left))
		return eval_arg(a->op.right, x, 0);
	if (is_prev_state(a->op.right))
		return eval_arg(a->op.left, x, 0);
	return -1;
}

static void add_flags(struct sl_tdstate *st, struct tep_print_flag_sym *fs)
{
	char *end;
	for (; fs && st->n < (int)SL_ARRAY_SIZE(st->val); fs = fs->next) {
		if (!fs->value || !fs->str)
			continue;
		st->val[st->n] = strtoull(fs->value, &end, 0);
		if (end == fs->value || !st->val[st->n])
			continue;
		snprintf(st->str[st->n], sizeof(st->str[0]), "%s", fs->str);
		st->n++;
	}
}

/* Walk sched_switch's print args: find `prev_state & M ? __print_flags(..)`
 * (the state letters and the mask) and `prev_state & P ? "+" : ""`. */
void sl_tdstate_load(struct sl_tdstate *st, struct tep_event *ev)
{
	struct tep_print_arg *a, *c;
	int64_t x;

	memset(st, 0, sizeof(*st));
	for (a = ev->print_fmt.args; a; a = a->next) {
		if (a->type != TEP_PRINT_OP || !a->op.op || strcmp(a->op.op, "?"))
			continue;
		if (and_mask(a->op.left, &x) < 0 || x <= 0)
			continue;
		c = a->op.right; /* ":" op: left is the true branch */
		if (!c || c->type != TEP_PRINT_OP || !c->op.left)
			continue;
		if (c->op.left->type == TEP_PRINT_FLAGS) {
			st->mask = (uint64_t)x;
			add_flags(st, c->op.left->flags.flags);
		} else if (c->op.left->type == TEP_PRINT_STRING ||
			   c->op.left->type == TEP_PRINT_ATOM) {
			st->preempt = (uint64_t)x;
		}
	}
	if (!st->preempt && st->mask && !(st->mask & (st->mask + 1)))
		st->preempt = st->mask + 1;
}

char sl_tdstate_letter(const struct sl_tdstate *st, uint64_t v)
{
	char buf[64];
	size_t n = 0;
	int i;

	if (!st->n)
		return sl_state_from_bits((int64_t)v, (int64_t)st->preempt);
	if (st->preempt && (v & st->preempt))
		return 'R';
	if (st->mask)
		v &= st->mask;
	if (!v)
		return 'R';
	/* as __print_flags prints: each table entry whose bits are all set */
	for (i = 0; i < st->n && v; i++) {
		size_t l;
		if ((v & st->val[i]) != st->val[i])
			continue;
		v &= ~st->val[i];
		l = strlen(st->str[i]);
		if (n + l + 2 >= sizeof(buf))
			break;
		if (n)
			buf[n++] = '|';
		memcpy(buf + n, st->str[i], l);
		n += l;
	}
	if (!n)
		return '?';
	return sl_state_from_text(buf, n);
}

