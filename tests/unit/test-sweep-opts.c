/* sweep-opts: the sweep's command line and its run order. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep-figure.h"
#include "sweep-opts.h"
#include "tunable.h"
#include "unit.h"

static int parse(struct sweep_opts *o, int argc, const char **argv)
{
	static char buf[24][256];
	char *av[25] = { NULL }; /* argv[argc] is NULL, as exec gives it */
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
	ck_assert_int_eq(o.repeat, 1);
	ck_assert_uint_eq(o.nmetrics, 0);
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
	/* every decimal after the point is read, not just the first */
	ck_assert_int_eq(one("--settle", "1.55"), 0);
	ck_assert_int_eq(one("--duration", "12.25"), 0);
	/* the number is the argument alone, whatever lies before it in memory */
	{
		char arg[] = "x0.5", av0[] = "sweep", av1[] = "sda", av2[] = "read_ahead_kb=1", av3[] = "--settle";
		char *av[] = { av0, av1, av2, av3, arg + 1 };
		FILE *null = fopen("/dev/null", "w");
		ck_assert_int_eq(sweep_opts_parse(5, av, &o, null, null), 0);
		ck_assert_double_eq(o.settle, 0.5);
		fclose(null);
	}
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

/* The order of runs for spec, three rounds, is want. */
static void order_is(const char *spec, const size_t *want, size_t n)
{
	const char *a[] = { "sweep", "sda", spec, "--repeat", "3" };
	struct sweep_opts o;
	size_t order[9];

	ck_assert_int_eq(parse(&o, 5, a), 0);
	sweep_opts_order(&o, order, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(order[i] == want[i], "%s run %zu: %zu, want %zu", spec, i, order[i], want[i]);
}

/* Rounds alternate v1..vn and vn..v1, with an odd count and an even one. */
START_TEST(test_order_interleaved)
{
	static const size_t three[] = { 0, 1, 2, 2, 1, 0, 0, 1, 2 }, two[] = { 0, 1, 1, 0, 0, 1 };

	order_is("nr_requests=4,8,16", three, 9);
	order_is("nr_requests=4,8", two, 6);
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

/* --shuffle=SEED is the same order on every machine and in every version:
 * a Fisher-Yates pass a round, drawing from splitmix64 (Steele, Lea and
 * Flood; Java's SplittableRandom). The draws are splitmix64's values for
 * seed 1234567 (the first five are its published reference values), not
 * blktune's own arithmetic. */
START_TEST(test_order_seed_is_splitmix64)
{
	static const uint64_t draw[8] = { 6457827717110365317u,	 3203168211198807973u, 9817491932198370423u,
					  4593380528125082431u,	 16408922859458223821u, 7804594928223864054u,
					  10895525637215051397u, 5078158048327840177u };
	const char *a[] = { "sweep", "sda", "nr_requests=4,8,16,32,64", "--repeat", "2", "--shuffle=1234567" };
	struct sweep_opts o;
	size_t got[10], want[10];

	ck_assert_int_eq(parse(&o, 6, a), 0);
	sweep_opts_order(&o, got, 10);
	for (size_t r = 0, d = 0; r < 2; r++) {
		for (size_t i = 0; i < 5; i++)
			want[r * 5 + i] = i;
		for (size_t i = 4; i > 0; i--) {
			size_t j = (size_t)(draw[d++] % (i + 1)), t = want[r * 5 + i];
			want[r * 5 + i] = want[r * 5 + j];
			want[r * 5 + j] = t;
		}
	}
	for (size_t i = 0; i < 10; i++)
		ck_assert_msg(got[i] == want[i], "run %zu: value %zu, want %zu", i, got[i], want[i]);
	ck_assert_uint_eq(want[0], 4); /* the first round: 64,32,4,8,16 */
	ck_assert_uint_eq(want[2], 0);
}
END_TEST

/* The message parse() wrote to err for argv, in buf. */
static int parse_said(const char **argv, int argc, char *buf, size_t len)
{
	static char store[16][4200]; /* a whole spec and more */
	char *text = NULL, *av[17] = { NULL };
	size_t n = 0;
	struct sweep_opts o;
	FILE *f = open_memstream(&text, &n);
	int rc;

	ck_assert_int_le(argc, 16);
	for (int i = 0; i < argc; i++) {
		snprintf(store[i], sizeof(store[i]), "%s", argv[i]);
		av[i] = store[i];
	}
	rc = sweep_opts_parse(argc, av, &o, f, f);
	fclose(f);
	snprintf(buf, len, "%s", text);
	free(text);
	return rc;
}

/* Each option's edges, and which message a refusal gives. */
START_TEST(test_parse_edges)
{
	char name31[40], name32[40], dev[64], said[2048];
	struct sweep_opts o;

	memset(name31, 'm', 31);
	name31[31] = '\0';
	strcat(name31, "=x");
	memset(name32, 'm', 32);
	name32[32] = '\0';
	strcat(name32, "=x");
	ck_assert_int_eq(one("--metric", name31), 0);
	ck_assert_int_eq(one("--metric", name32), 2);
	/* the regex is what follows '=': "*" alone is no ERE, "n=*" would be */
	ck_assert_int_eq(one("--metric", "n=*"), 2);
	ck_assert_int_eq(one("--metric", "n=x*"), 0);
	/* a name is letters, digits, '_', '-' and '.' */
	ck_assert_int_eq(one("--metric", "a-b.c_9=x"), 0);
	ck_assert_int_eq(one("--metric", "a b=x"), 2);
	ck_assert_int_eq(one("--metric", "a/b=x"), 2);
	ck_assert_int_eq(one("--metric", "ab,=x"), 2);
	/* names: one that starts another is not the same name */
	{
		const char *a[] = { "sweep", "sda", "read_ahead_kb=1", "--run", "true", "--metric", "ab=x", "--metric", "a=y",
				    "--metric", "abc=z" };
		ck_assert_int_eq(parse(&o, 11, a), 0);
		ck_assert_uint_eq(o.nmetrics, 3);
		ck_assert_str_eq(o.metric[1].name, "a");
		a[10] = "ab=z";
		ck_assert_int_eq(parse_said(a, 11, said, sizeof(said)), 2);
		ck_assert_ptr_nonnull(strstr(said, "--metric NAME given twice"));
	}
	/* flags and defaults */
	{
		const char *a[] = { "sweep", "sda", "read_ahead_kb=1", "--drop-caches" };
		ck_assert_int_eq(parse(&o, 4, a), 0);
		ck_assert(o.drop_caches);
		ck_assert_double_eq(o.interval, 1);
		ck_assert_int_eq(parse(&o, 3, a), 0);
		ck_assert(!o.drop_caches);
	}
	/* "-" alone is an argument, not an option */
	{
		const char *a[] = { "sweep", "-", "read_ahead_kb=1" };
		ck_assert_int_eq(parse(&o, 3, a), 0);
		ck_assert_str_eq(o.dev, "-");
		a[1] = "--zz";
		ck_assert_int_eq(parse_said(a, 3, said, sizeof(said)), 2);
		ck_assert_ptr_nonnull(strstr(said, "unknown option"));
	}
	/* a device name fills o.dev less one byte at most */
	memset(dev, 'd', sizeof(o.dev) - 1);
	dev[sizeof(o.dev) - 1] = '\0';
	{
		const char *a[] = { "sweep", dev, "read_ahead_kb=1" };
		ck_assert_int_eq(parse(&o, 3, a), 0);
		dev[sizeof(o.dev) - 1] = 'd';
		dev[sizeof(o.dev)] = '\0';
		ck_assert_int_eq(parse_said(a, 3, said, sizeof(said)), 2);
		ck_assert_ptr_nonnull(strstr(said, "not a device name"));
	}
	/* TUNABLE= with no values; a tunable name that fills o.name, and one more */
	{
		char spec[128];
		const char *a[] = { "sweep", "sda", "read_ahead_kb=" };
		ck_assert_int_eq(parse_said(a, 3, said, sizeof(said)), 2);
		ck_assert_ptr_nonnull(strstr(said, "expected TUNABLE=V1,V2,..."));
		memset(spec, 'n', sizeof(o.name) - 1);
		snprintf(spec + sizeof(o.name) - 1, sizeof(spec) - sizeof(o.name) + 1, "=1");
		a[2] = spec;
		ck_assert_int_eq(parse(&o, 3, a), 0);
		memset(spec, 'n', sizeof(o.name));
		snprintf(spec + sizeof(o.name), sizeof(spec) - sizeof(o.name), "=1");
		ck_assert_int_eq(parse_said(a, 3, said, sizeof(said)), 2);
		ck_assert_ptr_nonnull(strstr(said, "expected TUNABLE=V1,V2,..."));
	}
	/* runs: values x repeats up to 512 */
	{
		char spec[600];
		size_t n = (size_t)snprintf(spec, sizeof(spec), "nr_requests=");
		for (int v = 0; v < 8; v++)
			n += (size_t)snprintf(spec + n, sizeof(spec) - n, "%s%d", v ? "," : "", 4 + v);
		const char *a[] = { "sweep", "sda", spec, "--repeat", "64" };
		ck_assert_int_eq(parse(&o, 5, a), 0); /* 512 */
		snprintf(spec + n, sizeof(spec) - n, ",12");
		ck_assert_int_eq(parse_said(a, 5, said, sizeof(said)), 2); /* 576 */
		ck_assert_ptr_nonnull(strstr(said, "values x repeats above 512"));
	}
	/* --duration 0 without --run covers no interval */
	{
		const char *a[] = { "sweep", "sda", "read_ahead_kb=1", "--duration", "0" };
		ck_assert_int_eq(parse_said(a, 5, said, sizeof(said)), 2);
		ck_assert_ptr_nonnull(strstr(said, "--duration must cover at least one interval"));
	}
	/* --plot: the first figure is a figure */
	{
		const char *a[] = { "sweep", "sda", "read_ahead_kb=1", "--plot", sweep_figures[0].name };
		ck_assert_int_eq(parse(&o, 5, a), 0);
	}
	/* the longest values are named whole when they repeat */
	{
		char spec[2 * TUNABLE_VALUE_MAX + 64], v[TUNABLE_VALUE_MAX];
		memset(v, '7', sizeof(v) - 1);
		v[sizeof(v) - 1] = '\0';
		snprintf(spec, sizeof(spec), "iosched/x=%s,%s", v, v);
		const char *a[] = { "sweep", "sda", spec };
		ck_assert_int_eq(parse_said(a, 3, said, sizeof(said)), 2);
		ck_assert_msg(strstr(said, " are the same setting"), "%s", said);
		ck_assert_uint_gt(strlen(said), 2 * strlen(v));
	}
}
END_TEST

/* The rest of the command line's edges: --help and -h, an option with
 * its value missing at the end, a missing TUNABLE=VALUES, /dev/ only as a
 * whole prefix, the values' length, the baseline as the first value, a
 * duration of exactly one interval. */
START_TEST(test_parse_more_edges)
{
	char said[2048], spec[sizeof(((struct sweep_opts *)0)->spec) + 1];
	struct sweep_opts o;

	{
		const char *a[] = { "sweep", "--help" };
		ck_assert_int_eq(parse_said(a, 2, said, sizeof(said)), 1);
		ck_assert_ptr_nonnull(strstr(said, "usage: blktune sweep"));
		a[1] = "-h";
		ck_assert_int_eq(parse_said(a, 2, said, sizeof(said)), 1);
		ck_assert_ptr_nonnull(strstr(said, "usage: blktune sweep"));
	}
	{
		const char *a[] = { "sweep", "sda", "read_ahead_kb=1", "--repeat" };
		ck_assert_int_eq(parse_said(a, 4, said, sizeof(said)), 2);
		ck_assert_ptr_nonnull(strstr(said, "--repeat: needs a value"));
		a[3] = "--settle";
		ck_assert_int_eq(parse_said(a, 4, said, sizeof(said)), 2);
		ck_assert_ptr_nonnull(strstr(said, "--settle: needs a value"));
	}
	{
		const char *a[] = { "sweep", "sda" };
		ck_assert_int_eq(parse_said(a, 2, said, sizeof(said)), 2);
		ck_assert_ptr_nonnull(strstr(said, "needs a device and TUNABLE=VALUES"));
	}
	{
		const char *a[] = { "sweep", "/devsda", "read_ahead_kb=1" };
		ck_assert_int_eq(parse_said(a, 3, said, sizeof(said)), 2);
		ck_assert_ptr_nonnull(strstr(said, "not a device name"));
		a[1] = "/dev/sda";
		ck_assert_int_eq(parse(&o, 3, a), 0);
		ck_assert_str_eq(o.dev, "sda");
	}
	{
		/* distinct values filling spec to its last byte, then one more */
		size_t n = (size_t)snprintf(spec, sizeof(spec), "iosched/x=");
		const char *a[] = { "sweep", "sda", spec };
		for (int v = 0; v < 32; v++)
			n += (size_t)snprintf(spec + n, sizeof(spec) - n, "%s%02d", v ? "," : "", v);
		memset(spec + n, 'z', sizeof(spec) - 2 - n); /* the last value grows */
		spec[sizeof(spec) - 2] = '\0';                /* strlen = sizeof(o.spec) - 1 */
		ck_assert_msg(parse_said(a, 3, said, sizeof(said)) == 0, "%s", said);
		spec[sizeof(spec) - 2] = 'z';
		spec[sizeof(spec) - 1] = '\0';
		ck_assert_int_eq(parse_said(a, 3, said, sizeof(said)), 2);
		ck_assert_ptr_nonnull(strstr(said, "values too long"));
	}
	{
		const char *a[] = { "sweep", "sda", "read_ahead_kb=128,256", "--baseline", "128" };
		ck_assert_int_eq(parse(&o, 5, a), 0);
		ck_assert_str_eq(o.baseline, "128");
	}
	{
		const char *a[] = { "sweep", "sda", "read_ahead_kb=1", "--duration", "2", "-d", "2" };
		ck_assert_int_eq(parse(&o, 7, a), 0);
		a[4] = "1.9";
		ck_assert_int_eq(parse(&o, 7, a), 2);
	}
	ck_assert_int_eq(one("--metric", "n="), 2);
}
END_TEST

/* --dir: a directory only root controls is taken, another refused (2). */
START_TEST(test_parse_dir)
{
	char tmpl[] = "/tmp/blktune-unit-XXXXXX", *dir = mkdtemp(tmpl), open_dir[64], said[2048];
	struct sweep_opts o;

	ck_assert_ptr_nonnull(dir);
	{
		const char *a[] = { "sweep", "sda", "read_ahead_kb=1", "--dir", dir };
		ck_assert_int_eq(parse(&o, 5, a), 0);
		ck_assert_str_eq(o.dir, dir);
		snprintf(open_dir, sizeof(open_dir), "%s/open", dir);
		ck_assert_int_eq(mkdir(open_dir, 0777), 0);
		ck_assert_int_eq(chmod(open_dir, 0777), 0);
		a[4] = open_dir;
		ck_assert_int_eq(parse_said(a, 5, said, sizeof(said)), 2);
		ck_assert_ptr_nonnull(strstr(said, "blktune sweep: --dir "));
	}
	rmdir(open_dir);
	rmdir(dir);
}
END_TEST

/* --help: every option, with its argument as it is given. */
START_TEST(test_usage)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	static const char *const lines[] = { "  --run CMD ", "  --duration S ", "  --shuffle[=SEED] ", "  --drop-caches ",
					     "  -d S ", "  --metric NAME=REGEX ", "FIGURE: " };

	sweep_opts_usage(f);
	fclose(f);
	ck_assert_ptr_eq(strstr(text, "usage: blktune sweep DEV TUNABLE=V1,V2,... [options]\n"), text);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		ck_assert_msg(strstr(text, lines[i]), "no \"%s\" in:\n%s", lines[i], text);
	ck_assert_ptr_null(strstr(text, "--drop-caches ["));
	{
		char figures[128];
		snprintf(figures, sizeof(figures), "FIGURE: %s", sweep_figures[0].name);
		ck_assert_msg(strstr(text, figures), "no \"%s\" in:\n%s", figures, text);
	}
	free(text);
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
	tcase_add_test(tc, test_order_seed_is_splitmix64);
	tcase_add_test(tc, test_parse_edges);
	tcase_add_test(tc, test_parse_dir);
	tcase_add_test(tc, test_parse_more_edges);
	tcase_add_test(tc, test_usage);
	suite_add_tcase(s, tc);
	return s;
}
