/* config and column-layout: parse, format and round trip; every refusal
 * names its line. Pure: no files. */
#include <errno.h>
#include <string.h>

#include "column-layout.h"
#include "config.h"
#include "unit.h"

START_TEST(layout_parse_and_edit)
{
	struct column_layout l, d;
	char why[160], text[256];

	ck_assert_int_eq(column_layout_parse("r/s,%UTIL,stack", &l, why, sizeof(why)), 0);
	ck_assert_int_eq(l.n, 3);
	ck_assert_int_eq(l.col[1], COLUMN_UTIL);
	column_layout_text(&l, text, sizeof(text));
	ck_assert_str_eq(text, "r/s,%util,stack");
	ck_assert_int_eq(column_layout_parse("r/s,,w/s", &l, why, sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "empty name"), "%s", why);
	ck_assert_int_eq(column_layout_parse("r/s,r/s", &l, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "column \"r/s\" twice");
	ck_assert_int_eq(column_layout_parse("DEVICE", &l, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(column_layout_parse("", &l, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(column_layout_parse("r/s,nosuch", &l, why, sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "\"nosuch\""), "%s", why);
	/* toggle and move; the last column stays */
	ck_assert_int_eq(column_layout_parse("r/s,w/s", &l, why, sizeof(why)), 0);
	ck_assert_int_eq(column_layout_toggle(&l, COLUMN_UTIL), 0);
	ck_assert_int_eq(l.n, 3);
	ck_assert_int_eq(column_layout_move(&l, 2, -1), 1);
	column_layout_text(&l, text, sizeof(text));
	ck_assert_str_eq(text, "r/s,%util,w/s");
	ck_assert_int_eq(column_layout_move(&l, 0, -1), 0); /* at the edge: stays */
	ck_assert_int_eq(column_layout_toggle(&l, COLUMN_R_S), 0);
	ck_assert_int_eq(column_layout_toggle(&l, COLUMN_UTIL), 0);
	ck_assert_int_eq(column_layout_toggle(&l, COLUMN_W_S), -EINVAL);
	ck_assert_int_eq(l.n, 1);
	column_layout_default(&d);
	ck_assert_int_eq(d.col[0], COLUMN_R_S);
	ck_assert_int_eq(column_layout_find(&d, COLUMN_D_S), -1); /* not a table column */
}
END_TEST

/* The columns panel (f): shown columns first in their order, then every
 * other one in the table's order, each once. */
START_TEST(layout_panel_rows)
{
	struct column_layout l;
	int rows[COLUMN_COUNT], shown, n, seen[COLUMN_COUNT] = { 0 };
	char why[160];

	ck_assert_int_eq(column_layout_parse("%util,r/s", &l, why, sizeof(why)), 0);
	n = column_layout_panel(&l, rows, &shown);
	ck_assert_int_eq(n, COLUMN_COUNT - 1);
	ck_assert_int_eq(shown, 2);
	ck_assert_int_eq(rows[0], COLUMN_UTIL);
	ck_assert_int_eq(rows[1], COLUMN_R_S);
	ck_assert_int_eq(rows[2], COLUMN_W_S);
	for (int i = 0; i < n; i++) {
		ck_assert_int_ne(rows[i], COLUMN_DEVICE);
		ck_assert_int_eq(seen[rows[i]]++, 0);
		if (i > 2)
			ck_assert_int_gt(rows[i], rows[i - 1]);
	}
}
END_TEST

START_TEST(config_round_trip)
{
	struct config c, back;
	char text[2048], why[256];

	ck_assert_int_eq(config_parse("blktune-config 1\n\n# a comment\ncolumns r/s,w/s\nsort %util desc\n"
				      "interval 0.5\ncolor off\n", &c, why, sizeof(why)), 0);
	ck_assert(c.has_columns && c.has_sort && c.has_interval && c.has_color);
	ck_assert_int_eq(c.sort_column, COLUMN_UTIL);
	ck_assert(c.sort_reverse && !c.color);
	ck_assert_double_eq(c.interval, 0.5);
	config_format(&c, text, sizeof(text));
	ck_assert_int_eq(config_parse(text, &back, why, sizeof(why)), 0);
	ck_assert_int_eq(memcmp(&c, &back, sizeof(c)), 0);
	/* only some settings: the rest stays the program's */
	ck_assert_int_eq(config_parse("blktune-config 1\ninterval 60", &c, why, sizeof(why)), 0);
	ck_assert(c.has_interval && !c.has_columns && !c.has_sort);
}
END_TEST

START_TEST(config_refusals)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "", "empty" },
		{ "columns r/s\n", "line 1: \"columns r/s\": not a blktune config" },
		{ "blktune-config 1\ninterval 0\n", "line 2: interval 0: seconds from 0.1 to 60" },
		{ "blktune-config 1\ninterval 61\n", "line 2: interval 61" },
		{ "blktune-config 1\ninterval 1x\n", "line 2: interval 1x" },
		{ "blktune-config 1\n\ncolor maybe\n", "line 3: color maybe: on or off" },
		{ "blktune-config 1\nsort nosuch\n", "line 2: sort: no table column \"nosuch\"" },
		{ "blktune-config 1\nsort r/s sideways\n", "line 2: sort: \"sideways\" is neither asc nor desc" },
		{ "blktune-config 1\ncolumns r/s,r/s\n", "line 2: columns: column \"r/s\" twice" },
		{ "blktune-config 1\nfoo bar\n", "line 2: unknown setting \"foo\"" },
		{ "blktune-config 1\nlonely\n", "line 2: \"lonely\": expected KEY VALUE" },
	};
	struct config c;
	char why[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		why[0] = '\0';
		ck_assert_int_eq(config_parse(cases[i].text, &c, why, sizeof(why)), -EINVAL);
		ck_assert_msg(strstr(why, cases[i].why), "case %zu: \"%s\" lacks \"%s\"", i, why, cases[i].why);
	}
	{
		char big[CONFIG_MAX_BYTES + 64];
		memset(big, '#', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		ck_assert_int_eq(config_parse(big, &c, why, sizeof(why)), -EINVAL);
	}
}
END_TEST

UNIT_SUITE(config_suite)
static Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("config");

	tcase_add_test(tc, layout_parse_and_edit);
	tcase_add_test(tc, layout_panel_rows);
	tcase_add_test(tc, config_round_trip);
	tcase_add_test(tc, config_refusals);
	suite_add_tcase(s, tc);
	return s;
}
