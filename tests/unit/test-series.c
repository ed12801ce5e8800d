#include <math.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "series.h"
#include "unit.h"

static void interval(struct disk_metrics *m, double r_s, double r_await)
{
	memset(m, 0, sizeof(*m));
	m->dev = makedev(7, 3);
	strcpy(m->name, "loop3");
	m->state = DISK_OK;
	m->interval = 1.0;
	m->r_s = r_s;
	m->r_await = r_await;
	m->rareq_sz = r_s > 0 ? 64 : 0;
	m->t_lat_avg_us = m->t_lat_p99_us = m->t_same_cpu_pct = m->ra_hit_pct = NAN;
}

/* An idle interval has no reads: its r_await and rareq-sz are undefined and
 * must not pull the means toward 0; r/s itself counts the idle interval. */
START_TEST(idle_intervals_leave_per_request_figures_out)
{
	struct series *s;
	struct series_window w;
	struct disk_metrics m;
	double t = 100;

	ck_assert_int_eq(series_new(30, &s), 0);
	interval(&m, 0, 0);
	series_add(s, &m, 1, t++);
	interval(&m, 10, 2.0);
	series_add(s, &m, 1, t++);
	interval(&m, 30, 4.0);
	series_add(s, &m, 1, t++);
	interval(&m, 0, 0);
	series_add(s, &m, 1, t++);
	series_window_init(&w);
	ck_assert_int_eq(series_window_get(s, makedev(7, 3), "loop3", &w), 0);
	ck_assert_uint_eq(w.n, 4);
	ck_assert_uint_eq(w.st[COLUMN_R_S].n, 4);
	ck_assert(fabs(w.st[COLUMN_R_S].mean - 10.0) < 1e-9);
	ck_assert_uint_eq(w.st[COLUMN_R_AWAIT].n, 2);
	ck_assert(fabs(w.st[COLUMN_R_AWAIT].mean - 3.0) < 1e-6);
	ck_assert_uint_eq(w.st[COLUMN_RAREQ_SZ].n, 2);
	ck_assert(fabs(w.st[COLUMN_RAREQ_SZ].mean - 64.0) < 1e-6);
	/* untraced, readahead off: no samples at all, not zeros */
	ck_assert_uint_eq(w.st[COLUMN_T_AVG].n, 0);
	ck_assert_uint_eq(w.st[COLUMN_RA_HIT].n, 0);
	series_window_free(&w);
	series_free(s);
}
END_TEST

UNIT_SUITE(series_suite)
static Suite *series_suite(void)
{
	Suite *s = suite_create("series");
	TCase *tc = tcase_create("series");

	tcase_add_test(tc, idle_intervals_leave_per_request_figures_out);
	suite_add_tcase(s, tc);
	return s;
}
