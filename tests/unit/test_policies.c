/* tests/unit/test_policies.c - the policy table (replay/policies.c). */
#include "harness.h"
#include "../../replay/engine.h"

#include <string.h>

/* Every entry is a whole model: a unique name, a doc line and every hook
 * replay/policy.h does not mark (optional); sl_policy_find() finds each
 * entry by its name and nothing else. */
SL_TEST(policy_table_entries)
{
	size_t i, j;
	CHECK(sl_npolicies >= 3);
	for (i = 0; i < sl_npolicies; i++) {
		const struct sl_policy_ops *p = sl_policies[i];
		CHECK(p && p->name && p->name[0] && p->doc && p->doc[0]);
		if (!p)
			continue;
		CHECK(p->init && p->task_init && p->enqueue && p->dequeue &&
		      p->check_preempt && p->pick_next && p->tick && p->fork && p->steal);
		CHECK(sl_policy_find(p->name) == p);
		for (j = 0; j < i; j++)
			CHECK(strcmp(sl_policies[j]->name, p->name) != 0);
	}
	CHECK(sl_policy_find("") == NULL);
	CHECK(sl_policy_find("rsdl ") == NULL);
	CHECK(sl_policy_find("RSDL") == NULL);
}

/* The first three lines of the table are the models of issue 4 and 9, in
 * this order (listing order is table order); sl_policy_names() is the table
 * joined with ", ", here rebuilt by hand from the entries. */
SL_TEST(policy_table_order_and_names)
{
	char want[512] = "";
	size_t i, off = 0;
	CHECK(sl_policies[0] == &sl_policy_rsdl);
	CHECK(sl_policies[1] == &sl_policy_o1);
	CHECK(sl_policies[2] == &sl_policy_sd);
	CHECK_STR(sl_policies[0]->name, "rsdl");
	CHECK_STR(sl_policies[1]->name, "o1");
	CHECK_STR(sl_policies[2]->name, "sd");
	for (i = 0; i < sl_npolicies; i++) {
		off += (size_t)snprintf(want + off, sizeof(want) - off, "%s%s", i ? ", " : "",
					sl_policies[i]->name);
	}
	CHECK(strncmp(want, "rsdl, o1, sd", 12) == 0);
	CHECK_STR(sl_policy_names(), want);
	CHECK_STR(sl_policy_names(), want); /* cached: same text the second time */
}
