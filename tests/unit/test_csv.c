/* tests/unit/test_csv.c - sl_csv_str (common/util.c): CSV fields, quoted
 * as RFC 4180 has it, and spreadsheet-safe: a field a spreadsheet would
 * evaluate as a formula (it starts with = + - @, a tab or a CR and is not a
 * plain number) is quoted with a leading apostrophe (OWASP, "CSV
 * Injection"). Each expected string is written out by hand. */
#include "harness.h"
#include "../../common/util.h"

#include <stdio.h>
#include <stdlib.h>

static void csv_is(const char *in, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	if (!f)
		return;
	sl_csv_str(f, in);
	fclose(f);
	CHECK_STR(buf, want);
	free(buf);
}

SL_TEST(csv_fields_and_formulas)
{
	csv_is("plain", "plain");
	csv_is("", "");
	csv_is("a,b", "\"a,b\"");
	csv_is("x\"y", "\"x\"\"y\"");
	csv_is("two\nlines", "\"two\nlines\"");
	/* formulas: quoted, apostrophe first, the quote inside doubled */
	csv_is("=cmd|' /C calc'!A0", "\"'=cmd|' /C calc'!A0\"");
	csv_is("@SUM(A1)", "\"'@SUM(A1)\"");
	csv_is("+x", "\"'+x\"");
	csv_is("-bash", "\"'-bash\"");
	csv_is("=a\"b", "\"'=a\"\"b\"");
	csv_is("\tx", "\"'\tx\"");
	/* plain numbers stay numbers */
	csv_is("-5", "-5");
	csv_is("+1.5e3", "+1.5e3");
	csv_is("-", "\"'-\"");
	/* not at the start: nothing to do */
	csv_is("a=b", "a=b");
}
