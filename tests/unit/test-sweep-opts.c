/* sweep-opts: the sweep's command line and its run order. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* One option's value: the exit code of parsing it on a plain sweep. */
static int one(const char *opt, const char *val)
{
	const char *a[] = { "sweep", "sda", "read_ahead_kb=128", "--run", "true", opt, val };
	struct sweep_opts o;

	return parse(&o, 7, a);
}

/* Plain decimal only: strtod and strtoull took blanks, signs, hex and
 * exponents (--shuffle=" -1" was seed 2^64 - 1, --repeat 0x10 16 repeats). */
START_TEST(test_parse_numbers)
{
	static const char *const never[] = { "", " 5", "5 ", "+5", "-5", "-0", "0x10", "1e1", "1E1", "inf", "nan",
					     "5.", ".5", "1,5", "5s", "--" };
	struct sweep_opts o;

	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++) {
		char sh[32];
		ck_assert_msg(one("--repeat", never[i]) == 2, "--repeat '%s' accepted", never[i]);
		ck_assert_msg(one("--duration", never[i]) == 2, "--duration '%s' accepted", never[i]);
		ck_assert_msg(one("--settle", never[i]) == 2, "--settle '%s' accepted", never[i]);
		ck_assert_msg(one("-d", never[i]) == 2, "-d '%s' accepted", never[i]);
		snprintf(sh, sizeof(sh), "--shuffle=%s", never[i]);
		ck_assert_msg(one(sh, "--repeat=1") == 2, "%s accepted", sh);
	}
	/* the ends of each range, one past them, and overflow */
	ck_assert_int_eq(one("--repeat", "0"), 2);
	ck_assert_int_eq(one("--repeat", "1"), 0);
	ck_assert_int_eq(one("--repeat", "100"), 0);
	ck_assert_int_eq(one("--repeat", "101"), 2);
	ck_assert_int_eq(one("--repeat", "1.5"), 2);
	ck_assert_int_eq(one("--repeat", "99999999999999999999999999"), 2);
	ck_assert_int_eq(one("--repeat", "007"), 0);
	ck_assert_int_eq(one("--duration", "0"), 0);
	ck_assert_int_eq(one("--duration", "86400"), 0);
	ck_assert_int_eq(one("--duration", "86400.001"), 2);
	ck_assert_int_eq(one("--duration", "0.5"), 0);
	ck_assert_int_eq(one("--settle", "3600"), 0);
	ck_assert_int_eq(one("--settle", "3600.5"), 2);
	ck_assert_int_eq(one("-d", "0.1"), 0);
	ck_assert_int_eq(one("-d", "0.09"), 2);
	ck_assert_int_eq(one("-d", "60"), 0);
	ck_assert_int_eq(one("-d", "60.01"), 2);
	{
		const char *a[] = { "sweep", "sda", "read_ahead_kb=128", "--shuffle=18446744073709551615" };
		ck_assert_int_eq(parse(&o, 4, a), 0);
		ck_assert(o.seed == UINT64_MAX && o.seed_given);
		a[3] = "--shuffle=18446744073709551616";
		ck_assert_int_eq(parse(&o, 4, a), 2);
		a[3] = "--shuffle=0";
		ck_assert_int_eq(parse(&o, 4, a), 0);
		ck_assert(o.seed == 0 && o.seed_given);
		a[3] = "--shuffle= -1";
		ck_assert_int_eq(parse(&o, 4, a), 2);
	}
}
END_TEST

/* Empty items and values that are one setting are refused, naming both. */
START_TEST(test_parse_values)
{
	static const char *const never[] = {
		"read_ahead_kb=128,,256", "read_ahead_kb=,128", "read_ahead_kb=128,", "read_ahead_kb=,",
		"read_ahead_kb=128,0128", "read_ahead_kb=128, 128", "wbt_lat_usec=-1,-01", "nr_requests=64,64",
		"scheduler=none,none",
	};
	struct sweep_opts o;
	char *text = NULL;
	size_t len = 0;
	FILE *err;

	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++) {
		const char *a[] = { "sweep", "sda", never[i] };
		ck_assert_msg(parse(&o, 3, a) == 2, "%s accepted", never[i]);
	}
	/* different numbers, different words: fine, kept as given */
	{
		const char *a[] = { "sweep", "sda", "read_ahead_kb=0128,256,1024" };
		ck_assert_int_eq(parse(&o, 3, a), 0);
		ck_assert_uint_eq(o.nvalues, 3);
		ck_assert_str_eq(o.values[0], "0128");
		a[2] = "iosched/foo=a,b";
		ck_assert_int_eq(parse(&o, 3, a), 0);
	}
	/* the message names both */
	{
		char av0[] = "sweep", av1[] = "sda", av2[] = "read_ahead_kb=128,256,0128";
		char *av[] = { av0, av1, av2 };
		err = open_memstream(&text, &len);
		ck_assert_int_eq(sweep_opts_parse(3, av, &o, err, err), 2);
		fclose(err);
		ck_assert_msg(strstr(text, "values 128 and 0128 are the same setting") != NULL, "%s", text);
		ck_assert_msg(strchr(text, '\n') == text + len - 1, "not one line: %s", text);
		free(text);
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
	tcase_add_test(tc, test_parse_numbers);
	tcase_add_test(tc, test_parse_values);
	tcase_add_test(tc, test_order_interleaved);
	tcase_add_test(tc, test_order_shuffled);
	suite_add_tcase(s, tc);
	return s;
}
