/* sweep-opts: the sweep's command line and its run order. */
#include <stdio.h>
#include <string.h>

#include "sweep-figure.h"
#include "sweep-opts.h"
#include "unit.h"

static int parse(struct sweep_opts *o, int argc, const char **argv)
{
	static char buf[24][256];
	char *av[24];
	FILE *null = fopen("/dev/null", "w");
	int rc;

	ck_assert_int_le(argc, 24);
	for (int i = 0; i < argc && i < 24; i++) {
		snprintf(buf[i], sizeof(buf[i]), "%s", argv[i]);
		av[i] = buf[i];
	}
	rc = sweep_opts_parse(argc, av, o, null, null);
	fclose(null);
	return rc;
}

START_TEST(test_parse_full)
{
	const char *a[] = { "sweep", "/dev/loop3", "max_sectors_kb=32,1024", "--run", "fio x.fio", "--repeat",
			    "3", "--shuffle=42", "--settle", "0.5", "--baseline", "1024", "--metric",
			    "rate=([0-9.]+) MB/s", "--plot", "metric:rate", "--report", "r.txt" };
	struct sweep_opts o;

	ck_assert_int_eq(parse(&o, 18, a), 0);
	ck_assert_str_eq(o.dev, "loop3");
	ck_assert_str_eq(o.name, "max_sectors_kb");
	ck_assert_uint_eq(o.nvalues, 2);
	ck_assert_str_eq(o.values[1], "1024");
	ck_assert_int_eq(o.repeat, 3);
	ck_assert(o.shuffle && o.seed_given && o.seed == 42);
	ck_assert_double_eq(o.settle, 0.5);
	ck_assert_str_eq(o.baseline, "1024");
	ck_assert_uint_eq(o.nmetrics, 1);
	ck_assert_str_eq(o.metric[0].name, "rate");
	ck_assert_str_eq(o.metric[0].regex, "([0-9.]+) MB/s");
	ck_assert_int_eq(sweep_figure_lookup(o.plot, o.metric, o.nmetrics), SF_COUNT);
	ck_assert_double_eq(o.duration, 0); /* with --run: no time limit */
}
END_TEST

START_TEST(test_parse_defaults)
{
	const char *a[] = { "sweep", "sda", "read_ahead_kb=128", "--shuffle" };
	struct sweep_opts o;

	ck_assert_int_eq(parse(&o, 4, a), 0);
	ck_assert_double_eq(o.settle, 1);
	ck_assert_double_eq(o.duration, 10);
	ck_assert(o.shuffle && !o.seed_given);
	ck_assert_ptr_null(o.plot);
}
END_TEST

START_TEST(test_parse_bad)
{
	static const char *bad[][6] = {
		{ "sweep", "sda", "read_ahead_kb=1,2", "--baseline", "3" },  /* not a swept value */
		{ "sweep", "sda", "read_ahead_kb=1,2", "--metric", "x" },    /* no REGEX */
		{ "sweep", "sda", "read_ahead_kb=1,2", "--plot", "nope" },
		{ "sweep", "sda", "read_ahead_kb=1,1" },                      /* twice */
		{ "sweep", "sda", "read_ahead_kb=1", "--shuffle=x" },
		{ "sweep", "sda", "read_ahead_kb=1", "--settle", "-1" },
		{ "sweep", "sda", "read_ahead_kb=1", "--repeat", "1.5" },
		{ "sweep", "sda", "read_ahead_kb=1", "--metric", "a=(" },     /* bad regex */
		{ "sweep", "sda", "read_ahead_kb=1", "--metric", "a=x" },     /* without --run */
		{ "sweep", "sda", "read_ahead_kb=1", "--repeat" },            /* no value */
		{ "sweep", "sda", "read_ahead_kb" },
	};
	struct sweep_opts o;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int n = 0;
		while (n < 6 && bad[i][n])
			n++;
		ck_assert_msg(parse(&o, n, bad[i]) == 2, "case %zu accepted", i);
	}
}
END_TEST

START_TEST(test_order_interleaved)
{
	const char *a[] = { "sweep", "sda", "nr_requests=4,8,16", "--repeat", "3" };
	const size_t want[] = { 0, 1, 2, 2, 1, 0, 0, 1, 2 };
	struct sweep_opts o;
	size_t order[9];

	ck_assert_int_eq(parse(&o, 5, a), 0);
	sweep_opts_order(&o, order, 9);
	for (size_t i = 0; i < 9; i++)
		ck_assert_uint_eq(order[i], want[i]);
}
END_TEST

START_TEST(test_order_shuffled)
{
	const char *a[] = { "sweep", "sda", "nr_requests=4,8,16,32,64", "--repeat", "4", "--shuffle=7" };
	struct sweep_opts o;
	size_t x[20], y[20], seen[5];
	bool differs = false;

	ck_assert_int_eq(parse(&o, 6, a), 0);
	sweep_opts_order(&o, x, 20);
	sweep_opts_order(&o, y, 20);
	for (size_t r = 0; r < 4; r++) {
		memset(seen, 0, sizeof(seen));
		for (size_t i = 0; i < 5; i++) {
			ck_assert_uint_eq(x[r * 5 + i], y[r * 5 + i]); /* same seed, same order */
			seen[x[r * 5 + i]]++;
			differs |= x[r * 5 + i] != i;
		}
		for (size_t v = 0; v < 5; v++)
			ck_assert_uint_eq(seen[v], 1); /* each round has every value once */
	}
	ck_assert(differs);
}
END_TEST

UNIT_SUITE(sweep_opts_suite)
static Suite *sweep_opts_suite(void)
{
	Suite *s = suite_create("sweep-opts");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_full);
	tcase_add_test(tc, test_parse_defaults);
	tcase_add_test(tc, test_parse_bad);
	tcase_add_test(tc, test_order_interleaved);
	tcase_add_test(tc, test_order_shuffled);
	suite_add_tcase(s, tc);
	return s;
}
