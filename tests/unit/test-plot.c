/* The sweep report's ASCII plot (plot.c), checked character by character.
 *
 * Layout, from plot_draw: a title "Y against X[ (log scale)]"; h rows of
 * "%9.1f |" (top, middle h/2 and bottom rows: the value there) or 9 blanks
 * and " |", then w cells; "         +" and w dashes; 11 blanks and the tick
 * labels, each starting at its point's column, kept whole or left out. A
 * top value wider than 9 widens that column for every line.
 * A point's column is (x - min) / (max - min) x (w - 1) (of log x on a log
 * axis), w / 2 when all x are alike; categorical x (NaN) go by index. Its
 * row is h - 1 - round(y / ymax x (h - 1)), y below 0 on the bottom row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "unit.h"

/* The whole text plot_draw writes; free it. */
static char *render(const struct plot_point *p, size_t n, int width, int height, const char *xname,
		    const char *yname)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(plot_draw(f, p, n, width, height, xname, yname), 0);
	ck_assert_int_eq(fclose(f), 0);
	return text;
}

static void expect_plot(const struct plot_point *p, size_t n, int width, int height, const char *want)
{
	char *got = render(p, n, width, height, "kb", "MB/s");

	ck_assert_msg(strcmp(got, want) == 0, "got:\n%s\nwant:\n%s", got, want);
	free(got);
}

/* Lines of text (h + 3 of them) and the length of each plot row. */
static void expect_size(const struct plot_point *p, size_t n, int width, int height, int w, int h)
{
	char *got = render(p, n, width, height, "kb", "MB/s"), *save = NULL;
	int lines = 0;

	for (char *l = strtok_r(got, "\n", &save); l; l = strtok_r(NULL, "\n", &save), lines++)
		if (lines >= 1 && lines <= h + 1) /* the plot rows and the x axis: 11 + w */
			ck_assert_msg((int)strlen(l) == 11 + w, "width %d height %d line %d: %zu", width, height,
				      lines, strlen(l));
	ck_assert_msg(lines == h + 3, "width %d height %d: %d lines", width, height, lines);
	free(got);
}

START_TEST(test_plot_log_x)
{
	struct plot_point p[3] = { { 1, 1, "1", 0, 0 }, { 8, 1, "8", 0, 0 }, { 4, 1, "4", 0, 0 } };
	struct plot_point q[2] = { { 2, 1, "2", 0, 0 }, { 15, 1, "15", 0, 0 } };

	/* a span of exactly 8 is logarithmic, 7.5 is not */
	ck_assert(plot_log_x(p, 3));
	ck_assert(plot_log_x(p, 2));
	ck_assert(!plot_log_x(q, 2));
	/* one point, or none, spans nothing */
	ck_assert(!plot_log_x(p, 1));
	ck_assert(!plot_log_x(p, 0));
	/* an x of 0, below 0 or NaN: linear */
	p[0].x = 0;
	ck_assert(!plot_log_x(p, 3));
	p[0].x = -1;
	ck_assert(!plot_log_x(p, 3));
	p[0].x = NAN;
	ck_assert(!plot_log_x(p, 3));
}
END_TEST

/* Linear x: the ends of both scales, and values between them. */
START_TEST(test_plot_linear_marks)
{
	/* x 0..10 over w = 11: the column is x; y 0..2 over h = 5: 0.5 a row */
	struct plot_point p[4] = {
		{ 0, 0, "0", 0, 0 },    /* the minimum: bottom left */
		{ 2, 0.6, "2", 0, 0 },  /* 0.6 / 2 x 4 = 1.2: one row up */
		{ 5, 2, "5", 0, 0 },    /* the maximum: the top row */
		{ 10, 1.5, "10", 0, 0 } /* 3 rows up: row 1; the last column */
	};

	expect_plot(p, 4, 11, 5,
		    "MB/s against kb\n"
		    "      2.0 |     *     \n"
		    "          |          *\n"
		    "      1.0 |           \n"
		    "          |  *        \n"
		    "      0.0 |*          \n"
		    "          +-----------\n"
		    "           0 2  5    10\n");
}
END_TEST

/* The scale tops at the largest y also below 1; all y at or below 0 give 0..1. */
START_TEST(test_plot_small_y)
{
	struct plot_point p[2] = { { 1, 0.8, "1", 0, 0 }, { 2, 0.4, "2", 0, 0 } };
	struct plot_point z[2] = { { 1, 0, "1", 0, 0 }, { 2, -3, "2", 0, 0 } };

	expect_plot(p, 2, 10, 5,
		    "MB/s against kb\n"
		    "      0.8 |*         \n"
		    "          |          \n"
		    "      0.4 |         *\n"
		    "          |          \n"
		    "      0.0 |          \n"
		    "          +----------\n"
		    "           1        2\n");
	expect_plot(z, 2, 10, 3,
		    "MB/s against kb\n"
		    "      1.0 |          \n"
		    "      0.5 |          \n"
		    "      0.0 |*        *\n"
		    "          +----------\n"
		    "           1        2\n");
}
END_TEST

/* Powers of two are evenly spaced on a log axis; a span below 8 stays linear. */
START_TEST(test_plot_log_marks)
{
	struct plot_point p[4] = {
		{ 1, 4, "1", 0, 0 }, { 2, 4, "2", 0, 0 }, { 4, 4, "4", 0, 0 }, { 8, 4, "8", 0, 0 },
	};
	/* 2, 4, 15 (x 7.5): linear columns (x - 2) / 13 x 9 = 0, 1, 9 (on a log axis 4 would be at 3) */
	struct plot_point q[3] = { { 2, 4, "2", 0, 0 }, { 4, 4, "4", 0, 0 }, { 15, 4, "15", 0, 0 } };

	expect_plot(p, 4, 10, 3,
		    "MB/s against kb (log scale)\n"
		    "      4.0 |*  *  *  *\n"
		    "      2.0 |          \n"
		    "      0.0 |          \n"
		    "          +----------\n"
		    "           1  2  4  8\n");
	expect_plot(q, 3, 10, 3,
		    "MB/s against kb\n"
		    "      4.0 |**       *\n"
		    "      2.0 |          \n"
		    "      0.0 |          \n"
		    "          +----------\n"
		    "           2        15\n");
}
END_TEST

/* Categorical x (any NaN, also only the first) go by index: 0, 10, 20 of 21. */
START_TEST(test_plot_categorical)
{
	struct plot_point p[3] = {
		{ NAN, 1, "none", 0, 0 }, { 10, 2, "10", 0, 0 }, { 20, 3, "20", 0, 0 },
	};

	expect_plot(p, 3, 21, 4,
		    "MB/s against kb\n"
		    "      3.0 |                    *\n"
		    "          |          *          \n"
		    "      1.0 |*                    \n"
		    "      0.0 |                     \n"
		    "          +---------------------\n"
		    "           none      10        20\n");
}
END_TEST

/* One point, and points with the same x, sit in the middle column (w / 2). */
START_TEST(test_plot_single_and_equal)
{
	struct plot_point one[1] = { { 100, 5, "100", 0, 0 } };
	struct plot_point cat[1] = { { NAN, 5, "bfq", 0, 0 } };
	struct plot_point same[3] = { { 7, 1, "7", 0, 0 }, { 7, 2, "7", 0, 0 }, { 7, 4, "7", 0, 0 } };

	const struct plot_point *single[2] = { one, cat }; /* numeric or not, alike */
	char want[256];

	for (int i = 0; i < 2; i++) {
		snprintf(want, sizeof(want),
			 "MB/s against kb\n"
			 "      5.0 |     *     \n"
			 "      2.5 |           \n"
			 "      0.0 |           \n"
			 "          +-----------\n"
			 "                %s\n",
			 single[i]->label);
		expect_plot(single[i], 1, 11, 3, want);
	}
	/* y 1, 2, 4 of 4 over 4 rows: rows 3 - 1 = 2 (0.75 rounds up), 3 - 2 = 1 (1.5
	 * rounds up), 0; the middle row's value is 4 / 3; the labels overlap,
	 * so only the first is shown */
	expect_plot(same, 3, 11, 4,
		    "MB/s against kb\n"
		    "      4.0 |     *     \n"
		    "          |     *     \n"
		    "      1.3 |     *     \n"
		    "      0.0 |           \n"
		    "          +-----------\n"
		    "                7\n");
}
END_TEST

/* A NaN y is left out, its label and place on the x axis stay. */
START_TEST(test_plot_nan_y)
{
	struct plot_point p[3] = { { 1, 4, "1", 0, 0 }, { 2, NAN, "2", 0, 0 }, { 3, 2, "3", 0, 0 } };
	struct plot_point none[2] = { { 1, NAN, "1", 0, 0 }, { 2, NAN, "2", 0, 0 } };

	expect_plot(p, 3, 11, 3,
		    "MB/s against kb\n"
		    "      4.0 |*          \n"
		    "      2.0 |          *\n"
		    "      0.0 |           \n"
		    "          +-----------\n"
		    "           1    2    3\n");
	/* no figure at all: an empty 0..1 scale */
	expect_plot(none, 2, 10, 3,
		    "MB/s against kb\n"
		    "      1.0 |          \n"
		    "      0.5 |          \n"
		    "      0.0 |          \n"
		    "          +----------\n"
		    "           1        2\n");
}
END_TEST

/* Bars only where hi > lo: none for hi == lo (0, 0 is "no CI") or hi < lo,
 * and those leave the scale alone. */
START_TEST(test_plot_bars_only_when_hi_above_lo)
{
	struct plot_point p[3] = {
		{ 1, 5, "1", 0, 0 },     /* no bar: nothing on the bottom row */
		{ 2, 8, "2", 6, 10 },    /* rows 0 (10) to 2 (6), the point on row 1 */
		{ 3, 10, "3", 20, 15 },  /* hi < lo: no bar, the scale stays at 10 (also
		                          * after a real bar's smaller hi) */
	};

	expect_plot(p, 3, 11, 5,
		    "MB/s against kb\n"
		    "     10.0 |     -    *\n"
		    "          |     *     \n"
		    "      5.0 |*    -     \n"
		    "          |           \n"
		    "      0.0 |           \n"
		    "          +-----------\n"
		    "           1    2    3\n");
}
END_TEST

/* Width 10..200 and height 3..60, whatever is asked. */
START_TEST(test_plot_size_limits)
{
	struct plot_point p[2] = { { 1, 2, "1", 0, 0 }, { 2, 1, "2", 0, 0 } };

	expect_plot(p, 2, 9, 2,
		    "MB/s against kb\n"
		    "      2.0 |*         \n"
		    "      1.0 |         *\n"
		    "      0.0 |          \n"
		    "          +----------\n"
		    "           1        2\n");
	expect_size(p, 2, 10, 3, 10, 3);
	expect_size(p, 2, 5, 1, 10, 3);
	expect_size(p, 2, 0, 0, 10, 3);
	expect_size(p, 2, -5, -5, 10, 3);
	expect_size(p, 2, 11, 4, 11, 4);
	expect_size(p, 2, 199, 59, 199, 59);
	expect_size(p, 2, 200, 60, 200, 60);
	expect_size(p, 2, 201, 61, 200, 60);
	expect_size(p, 2, 100000, 100000, 200, 60);
}
END_TEST

/* The tick label line (the last), without its newline. */
static void expect_ticks(const struct plot_point *p, size_t n, int width, const char *want)
{
	char *got = render(p, n, width, 3, "kb", "MB/s"), *nl;

	nl = strrchr(got, '\n');
	ck_assert_ptr_nonnull(nl);
	*nl = '\0';
	nl = strrchr(got, '\n');
	ck_assert_ptr_nonnull(nl);
	ck_assert_str_eq(nl + 1, want);
	free(got);
}

/* Tick labels: whole or not at all; one overlapping (or touching) a label
 * placed before it is left out. */
START_TEST(test_plot_labels)
{
	/* columns 0, 5, 10: "40960" takes 0..4 and a gap, so "8" at 5 goes, "x" at 10 stays */
	struct plot_point p[3] = { { NAN, 1, "40960", 0, 0 }, { NAN, 1, "8", 0, 0 }, { NAN, 1, "x", 0, 0 } };
	/* values come as given, not sorted: read_ahead_kb 8188, 124, 1024 on a log
	 * axis land at 10, 0 and 5 ((ln 1024 - ln 124) / (ln 8188 - ln 124) x 10
	 * = 5.04), each label clear of the others */
	struct plot_point desc[3] = {
		{ 8188, 3, "8188", 0, 0 }, { 124, 3, "124", 0, 0 }, { 1024, 3, "1024", 0, 0 },
	};
	/* "abcde" at 5 would end right before "b" at 10, placed earlier: left out */
	struct plot_point touch[3] = { { 10, 1, "b", 0, 0 }, { 5, 1, "abcde", 0, 0 }, { 0, 1, "z", 0, 0 } };
	/* nor one on the very column of a 1-character label before it */
	struct plot_point same[3] = { { 0, 1, "a", 0, 0 }, { 0, 1, "b", 0, 0 }, { 10, 1, "c", 0, 0 } };
	/* full width: the last column is 199, the label line has room to column 214 */
	struct plot_point full[2] = { { 1, 1, "a", 0, 0 }, { 2, 1, "0123456789abcdef", 0, 0 } };
	char want[11 + 199 + 16 + 1];

	expect_plot(p, 3, 11, 3,
		    "MB/s against kb\n"
		    "      1.0 |*    *    *\n"
		    "      0.5 |           \n"
		    "      0.0 |           \n"
		    "          +-----------\n"
		    "           40960     x\n");
	/* a label running past the plot's right end is shown whole */
	p[2].label = "longer-than-the-plot";
	expect_ticks(p, 3, 11, "           40960     longer-than-the-plot");
	expect_ticks(desc, 3, 11, "           124  1024 8188");
	expect_ticks(touch, 3, 11, "           z         b");
	expect_ticks(same, 3, 11, "           a         c");

	/* 16 characters from column 199 fit */
	memset(want, ' ', sizeof(want) - 1);
	want[11] = 'a';
	memcpy(want + 11 + 199, "0123456789abcdef", 17);
	expect_ticks(full, 2, 200, want);
	/* 17 do not: left out, not cut */
	full[1].label = "0123456789abcdefg";
	expect_ticks(full, 2, 200, "           a");
}
END_TEST

/* A top value wider than 9 characters: the label column is as wide as it
 * on every line, so the axis stays one column (it moved right on the rows
 * with a wide label). */
START_TEST(test_plot_wide_y_labels)
{
	struct plot_point p[2] = { { 1, 123456789.0, "1", 0, 0 }, { 2, 61728394.5, "2", 0, 0 } };

	expect_plot(p, 2, 11, 3,
		    "MB/s against kb\n"
		    "123456789.0 |*          \n"
		    " 61728394.5 |          *\n"
		    "        0.0 |           \n"
		    "            +-----------\n"
		    "             1         2\n");
}
END_TEST

UNIT_SUITE(plot_suite)
static Suite *plot_suite(void)
{
	Suite *s = suite_create("plot");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_plot_log_x);
	tcase_add_test(tc, test_plot_wide_y_labels);
	tcase_add_test(tc, test_plot_linear_marks);
	tcase_add_test(tc, test_plot_small_y);
	tcase_add_test(tc, test_plot_log_marks);
	tcase_add_test(tc, test_plot_categorical);
	tcase_add_test(tc, test_plot_single_and_equal);
	tcase_add_test(tc, test_plot_nan_y);
	tcase_add_test(tc, test_plot_bars_only_when_hi_above_lo);
	tcase_add_test(tc, test_plot_size_limits);
	tcase_add_test(tc, test_plot_labels);
	suite_add_tcase(s, tc);
	return s;
}
