/* Per-device arrays give memory back when devices go (issue 10: a
 * long-running instance that once saw hundreds of loop devices kept their
 * memory, RSS 11 -> 15 MB after 600 came and went). */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "app.h"
#include "capacity.h"
#include "sample.h"
#include "trace.h"

START_TEST(test_shrunk_bounds)
{
	/* small arrays stay, whatever their use */
	ck_assert_uint_eq(capacity_shrunk(0, CAPACITY_MIN), CAPACITY_MIN);
	ck_assert_uint_eq(capacity_shrunk(0, 0), 0);
	/* above a quarter in use: kept (no flapping right after a doubling,
	 * which leaves half in use) */
	ck_assert_uint_eq(capacity_shrunk(257, 1024), 1024);
	ck_assert_uint_eq(capacity_shrunk(512, 1024), 1024);
	/* a quarter or less: twice what is left, never below the minimum */
	ck_assert_uint_eq(capacity_shrunk(256, 1024), 512);
	ck_assert_uint_eq(capacity_shrunk(3, 1024), CAPACITY_MIN);
	ck_assert_uint_eq(capacity_shrunk(0, 64), CAPACITY_MIN);
	ck_assert_uint_eq(capacity_shrunk(16, 64), CAPACITY_MIN);
	ck_assert_uint_eq(capacity_shrunk(17, 64), 64);
}
END_TEST

START_TEST(test_shrink_keeps_contents)
{
	size_t cap = 1000;
	int *a = malloc(cap * sizeof(*a));

	for (int i = 0; i < 1000; i++)
		a[i] = i * 7;
	a = capacity_shrink(a, sizeof(*a), 100, &cap);
	ck_assert_uint_eq(cap, 200);
	for (int i = 0; i < 100; i++)
		ck_assert_int_eq(a[i], i * 7);
	/* again: 100 of 200 is half, kept */
	a = capacity_shrink(a, sizeof(*a), 100, &cap);
	ck_assert_uint_eq(cap, 200);
	free(a);
}
END_TEST

static void add_dev(struct trace_sample *s, unsigned minor, uint64_t reads)
{
	struct blktune_key k = { (7u << 20) | minor, BLKTUNE_PATH_RQ };
	struct blktune_dev_cpu *v = calloc(s->ncpu, sizeof(*v));

	for (unsigned c = 0; c < s->ncpu; c++) {
		v[c].issued[0] = v[c].completed[0] = reads + c;
		v[c].seq = 9;
	}
	ck_assert_int_eq(trace_sample_add(s, &k, v), 0);
	free(v);
}

START_TEST(test_trace_sample_compact)
{
	struct trace_sample s;
	size_t big;

	trace_sample_init(&s);
	trace_sample_reset(&s, 4);
	for (unsigned i = 0; i < 600; i++)
		add_dev(&s, i, i);
	big = s.cap;
	ck_assert_uint_ge(big, 600);
	ck_assert(!trace_sample_compact(&s)); /* all in use */
	/* 597 devices went: three left, their counters kept */
	trace_sample_reset(&s, 4);
	add_dev(&s, 5, 50);
	add_dev(&s, 6, 60);
	add_dev(&s, 700, 70);
	ck_assert(trace_sample_compact(&s));
	ck_assert_uint_eq(s.cap, CAPACITY_MIN);
	ck_assert_uint_eq(s.ndevs, 3);
	ck_assert(s.devs[2].dev == makedev(7, 700));
	ck_assert_uint_eq(trace_sample_cpu(&s, 2)[3].completed, 73);
	ck_assert_uint_eq(s.devs[1].tot.issued[0], 4 * 60 + 6);
	ck_assert(!trace_sample_compact(&s));
	/* and it grows again */
	trace_sample_reset(&s, 4);
	for (unsigned i = 0; i < 100; i++)
		add_dev(&s, i, i);
	ck_assert_uint_ge(s.cap, 100);
	ck_assert_uint_eq(trace_sample_cpu(&s, 99)[0].completed, 99);
	trace_sample_free(&s);
}
END_TEST

/* A root whose proc/diskstats lists n loop devices. */
static void write_diskstats(const char *root, unsigned n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/diskstats", root);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "   7 %u loop%u %u 0 %u 10 0 0 0 0 0 10 10 0 0 0 0 0 0\n", i, i, 10 * i, 80 * i);
	fclose(f);
}

START_TEST(test_app_gives_back)
{
	char tmpl[] = "/tmp/blktune-unit-XXXXXX", path[512];
	char *root = mkdtemp(tmpl);
	struct app_options o;
	struct app a;
	size_t mcap;

	ck_assert_ptr_nonnull(root);
	snprintf(path, sizeof(path), "%s/proc", root);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	write_diskstats(root, 600);
	app_options_default(&o);
	o.root_dir = root;
	o.no_trace = true;
	o.history = true; /* the TUI's sparklines and A/B series too */
	ck_assert_int_eq(app_open(&a, &o), 0);
	ck_assert_int_eq(app_refresh(&a), 0);
	ck_assert_int_eq(app_refresh(&a), 0);
	ck_assert_uint_eq(a.nm, 600);
	mcap = a.mcap;
	ck_assert_uint_ge(mcap, 600);
	ck_assert_uint_ge(a.prev.cap, 600);
	/* 597 devices went */
	write_diskstats(root, 3);
	ck_assert_int_eq(app_refresh(&a), 0);
	ck_assert_uint_eq(a.nm, 3);
	ck_assert_uint_eq(a.mcap, CAPACITY_MIN);
	ck_assert_uint_eq(a.cur.cap, CAPACITY_MIN);
	ck_assert_uint_ge(a.prev.cap, 600); /* the other sample, next time */
	ck_assert_int_gt(a.release_in, 0);
	ck_assert_int_eq(app_refresh(&a), 0);
	ck_assert_uint_eq(a.cur.cap, CAPACITY_MIN);
	ck_assert_uint_eq(a.prev.cap, CAPACITY_MIN);
	ck_assert_int_eq(app_refresh(&a), 0);
	ck_assert_int_eq(a.release_in, 0); /* handed back */
	/* the three that stayed still have their rows and rates */
	ck_assert_uint_eq(a.nrows, 3);
	ck_assert_str_eq(a.m[a.rows[2]].name, "loop2");
	ck_assert_int_eq(a.m[a.rows[2]].state, DISK_OK);
	/* and they come back: 600 again */
	write_diskstats(root, 600);
	ck_assert_int_eq(app_refresh(&a), 0);
	ck_assert_int_eq(app_refresh(&a), 0);
	ck_assert_uint_eq(a.nm, 600);
	ck_assert_uint_eq(a.nrows, 600);
	ck_assert_uint_ge(a.mcap, 600);
	app_close(&a);
	unit_rmtree(root);
}
END_TEST

UNIT_SUITE(capacity_suite)
static Suite *capacity_suite(void)
{
	Suite *s = suite_create("capacity");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_shrunk_bounds);
	tcase_add_test(tc, test_shrink_keeps_contents);
	tcase_add_test(tc, test_trace_sample_compact);
	tcase_add_test(tc, test_app_gives_back);
	suite_add_tcase(s, tc);
	return s;
}
