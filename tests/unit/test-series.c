#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "series.h"
#include "unit.h"

static void interval(struct disk_metrics *m, double r_s, double r_await)
{
	memset(m, 0, sizeof(*m));
	unit_row_info(m);
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

/* A kernel before 4.18 prints 14 diskstats fields (no discards), one before
 * 5.5 18 (no flushes): the model's 0 there is no count, and a window holds
 * no summary of it (an A/B snapshot, a sweep's: n/a, not 0 "same"). */
START_TEST(figures_the_kernel_does_not_count_are_left_out)
{
	static const struct {
		int nfields;
		size_t d_s, f_s;
	} k[] = { { 14, 0, 0 }, { 18, 3, 0 }, { 20, 3, 3 }, { 0, 3, 3 } }; /* 0: made up, counts all */

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct series *s;
		struct series_window w;
		struct disk_metrics m;
		double t = 100;

		ck_assert_int_eq(series_new(30, &s), 0);
		for (int n = 0; n < 3; n++) {
			interval(&m, 10, 2.0);
			m.nfields = k[i].nfields;
			ck_assert_int_eq(series_add(s, &m, 1, t++), 0);
		}
		series_window_init(&w);
		ck_assert_int_eq(series_window_get(s, makedev(7, 3), "loop3", &w), 0);
		ck_assert_uint_eq(w.n, 3);
		ck_assert_uint_eq(w.st[COLUMN_R_S].n, 3);
		ck_assert_uint_eq(w.st[COLUMN_AQU_SZ].n, 3);
		ck_assert_msg(w.st[COLUMN_D_S].n == k[i].d_s, "%d fields: d/s n %zu", k[i].nfields, w.st[COLUMN_D_S].n);
		ck_assert_uint_eq(w.st[COLUMN_DKB_S].n, k[i].d_s);
		ck_assert_uint_eq(w.st[COLUMN_DRQM_S].n, k[i].d_s);
		ck_assert_msg(w.st[COLUMN_F_S].n == k[i].f_s, "%d fields: f/s n %zu", k[i].nfields, w.st[COLUMN_F_S].n);
		series_window_free(&w);
		series_free(s);
	}
}
END_TEST

static void loaded(struct disk_metrics *m, double r_s, double maxsect_sampled)
{
	interval(m, r_s, 1.0);
	m->max_sectors_kb = maxsect_sampled;
	m->read_ahead_kb = 128;
}

static const struct series_tunable tun32[] = { { "max_sectors_kb", "32" }, { "read_ahead_kb", "128" } };
static const struct series_tunable tun1024[] = { { "max_sectors_kb", "1024" }, { "read_ahead_kb", "128" } };

/* Each interval carries the values in force during it; the one a change
 * falls into belongs to neither side; a sampler reading that lags the change
 * (1024 sampled while 32 is in force) does not reach the window: its
 * max_sectors_kb is exactly 32, not a mean of both (the "977" of issue 9). */
START_TEST(intervals_record_the_tunables_in_force)
{
	const dev_t dev = makedev(7, 3);
	struct series *s;
	struct series_window w;
	struct series_point pt;
	struct disk_metrics m;
	double t = 100;

	ck_assert_int_eq(series_new(30, &s), 0);
	for (int i = 0; i < 3; i++) {
		loaded(&m, 50, 1024);
		ck_assert_int_eq(series_add(s, &m, 1, ++t), 0);
	}
	/* before any recorded change: no values */
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 0, &pt), 0);
	ck_assert_ptr_null(pt.tun);
	ck_assert(!pt.straddles);
	ck_assert_int_eq(series_set_tunables(s, dev, "loop3", 103.5, tun32, 2), 0);
	for (int i = 0; i < 6; i++) {
		loaded(&m, 80, 1024); /* stale: the sampler re-reads every 5 s */
		ck_assert_int_eq(series_add(s, &m, 1, ++t), 0);
	}
	ck_assert_uint_eq(series_points(s, dev, "loop3"), 9);
	/* (103, 104] holds the change */
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 3, &pt), 0);
	ck_assert(pt.straddles);
	ck_assert_ptr_null(pt.tun);
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 4, &pt), 0);
	ck_assert(!pt.straddles);
	ck_assert_uint_eq(pt.ntun, 2);
	ck_assert_str_eq(series_tunable_find(pt.tun, pt.ntun, "max_sectors_kb"), "32");
	ck_assert_float_eq(pt.v[COLUMN_MAXSECT_KB], 32);
	ck_assert_ptr_null(series_tunable_find(pt.tun, pt.ntun, "nr_requests"));
	series_window_init(&w);
	ck_assert_int_eq(series_window_get(s, dev, "loop3", &w), 0);
	ck_assert_uint_eq(w.n, 5);
	ck_assert_double_eq_tol(w.t_start, 104, 1e-9);
	ck_assert_uint_eq(w.st[COLUMN_MAXSECT_KB].n, 5);
	ck_assert_double_eq(w.st[COLUMN_MAXSECT_KB].mean, 32);
	ck_assert_double_eq(w.st[COLUMN_MAXSECT_KB].sd, 0);
	ck_assert_uint_eq(w.ntun, 2);
	ck_assert_str_eq(series_tunable_find(w.tun, w.ntun, "max_sectors_kb"), "32");
	/* A change exactly at a sample time, after that sample was added: the
	 * interval ending there is the old setting's, the next the new's. */
	ck_assert_int_eq(series_set_tunables(s, dev, "loop3", t, tun1024, 2), 0);
	loaded(&m, 90, 32);
	ck_assert_int_eq(series_add(s, &m, 1, ++t), 0);
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 8, &pt), 0);
	ck_assert_str_eq(series_tunable_find(pt.tun, pt.ntun, "max_sectors_kb"), "32");
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 9, &pt), 0);
	ck_assert(!pt.straddles);
	ck_assert_str_eq(series_tunable_find(pt.tun, pt.ntun, "max_sectors_kb"), "1024");
	ck_assert_float_eq(pt.v[COLUMN_MAXSECT_KB], 1024);
	ck_assert_int_eq(series_window_get(s, dev, "loop3", &w), 0);
	ck_assert_uint_eq(w.n, 1);
	ck_assert_str_eq(series_tunable_find(w.tun, w.ntun, "max_sectors_kb"), "1024");
	/* out of range, unknown device */
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 10, &pt), -ENOENT);
	ck_assert_int_eq(series_point_get(s, dev, "loop4", 0, &pt), -ENOENT);
	series_window_free(&w);
	series_free(s);
}
END_TEST

/* More changes than are kept: the oldest records go, their intervals keep
 * no values (never another change's), the newest still resolve. */
START_TEST(old_change_records_are_dropped_not_confused)
{
	const dev_t dev = makedev(7, 3);
	struct series *s;
	struct series_point pt;
	struct disk_metrics m;
	struct series_tunable tv = { "read_ahead_kb", "" };
	double t = 0;

	ck_assert_int_eq(series_new(3600, &s), 0);
	for (int i = 0; i < SERIES_CHANGES_MAX + 5; i++) {
		snprintf(tv.value, sizeof(tv.value), "%d", 4 * (i + 1));
		ck_assert_int_eq(series_set_tunables(s, dev, "loop3", t + 0.5, &tv, 1), 0);
		loaded(&m, 10, 1);
		series_add(s, &m, 1, ++t); /* straddles */
		series_add(s, &m, 1, ++t); /* the value i's */
	}
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 1, &pt), 0);
	ck_assert_ptr_null(pt.tun); /* change 0 was dropped */
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 2 * (SERIES_CHANGES_MAX + 5) - 1, &pt), 0);
	ck_assert_str_eq(series_tunable_find(pt.tun, pt.ntun, "read_ahead_kb"), "148");
	ck_assert_float_eq(pt.v[COLUMN_RA_KB], 148);
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 2 * 5 + 1, &pt), 0);
	ck_assert_str_eq(series_tunable_find(pt.tun, pt.ntun, "read_ahead_kb"), "24");
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 2 * 5 - 1, &pt), 0);
	ck_assert_ptr_null(pt.tun);
	series_free(s);
}
END_TEST

/* A/B windows: the 17 idle intervals before the load started are left out
 * and counted; the plain window keeps them (a rate over the whole span). */
START_TEST(busy_window_leaves_idle_intervals_out)
{
	const dev_t dev = makedev(7, 3);
	struct series *s;
	struct series_window w;
	struct disk_metrics m;
	double t = 0;

	ck_assert_int_eq(series_new(60, &s), 0);
	for (int i = 0; i < 17; i++) {
		interval(&m, 0, 0);
		series_add(s, &m, 1, ++t);
	}
	for (int i = 0; i < 10; i++) {
		interval(&m, 100, 1);
		series_add(s, &m, 1, ++t);
	}
	/* in flight only (a long request): busy */
	interval(&m, 0, 0);
	m.in_flight = 1;
	series_add(s, &m, 1, ++t);
	series_window_init(&w);
	ck_assert_int_eq(series_window_get_busy(s, dev, "loop3", &w), 0);
	ck_assert_uint_eq(w.n, 10); /* the first busy one borders the idle ones */
	ck_assert_uint_eq(w.idle, 17);
	ck_assert_uint_eq(w.partial, 1);
	ck_assert_double_eq_tol(w.t_start, 18, 1e-9);
	ck_assert_double_eq_tol(w.st[COLUMN_R_S].mean, 900.0 / 10, 1e-6);
	ck_assert_int_eq(series_window_get(s, dev, "loop3", &w), 0);
	ck_assert_uint_eq(w.n, 28);
	ck_assert_uint_eq(w.idle, 17);
	ck_assert_double_eq_tol(w.st[COLUMN_R_S].mean, 1000.0 / 28, 1e-6);
	/* all idle: nothing to summarise, but the count says why */
	series_mark_change(s, dev, "loop3", t);
	interval(&m, 0, 0);
	series_add(s, &m, 1, ++t);
	ck_assert_int_eq(series_window_get_busy(s, dev, "loop3", &w), 0);
	ck_assert_uint_eq(w.n, 0);
	ck_assert_uint_eq(w.idle, 1);
	series_window_free(&w);
	series_free(s);
}
END_TEST

/* The load starts and stops inside intervals: those two carry a fraction of
 * its rate and are left out of a busy window (counted as partial), so the
 * mean is the steady load's; a load that is all edges keeps them. */
START_TEST(busy_window_leaves_partial_intervals_out)
{
	const dev_t dev = makedev(7, 3);
	static const double load[] = { 0, 0, 10, 100, 100, 100, 100, 100, 30, 0, 0 };
	struct series *s;
	struct series_window w;
	struct disk_metrics m;
	double t = 0;

	ck_assert_int_eq(series_new(60, &s), 0);
	for (size_t i = 0; i < sizeof(load) / sizeof(load[0]); i++) {
		interval(&m, load[i], 1);
		series_add(s, &m, 1, ++t);
	}
	series_window_init(&w);
	ck_assert_int_eq(series_window_get_busy(s, dev, "loop3", &w), 0);
	ck_assert_uint_eq(w.n, 5);
	ck_assert_uint_eq(w.idle, 4);
	ck_assert_uint_eq(w.partial, 2);
	ck_assert_double_eq(w.st[COLUMN_R_S].mean, 100);
	ck_assert_double_eq(w.st[COLUMN_R_S].sd, 0);
	/* bursty: busy, idle, busy, idle, busy: every busy one is an edge */
	series_mark_change(s, dev, "loop3", t);
	for (int i = 0; i < 5; i++) {
		interval(&m, i % 2 ? 0 : 50, 1);
		series_add(s, &m, 1, ++t);
	}
	ck_assert_int_eq(series_window_get_busy(s, dev, "loop3", &w), 0);
	ck_assert_uint_eq(w.n, 3);
	ck_assert_uint_eq(w.partial, 0);
	ck_assert_uint_eq(w.idle, 2);
	series_window_free(&w);
	series_free(s);
}
END_TEST

/* n loaded intervals of loop3 with that diskseq after t; the new t. */
static double loaded_as(struct series *s, unsigned long long diskseq, int n, double t)
{
	struct disk_metrics m;

	for (int i = 0; i < n; i++) {
		loaded(&m, 50, 1);
		UNIT_INFO(&m)->diskseq = diskseq;
		ck_assert_int_eq(series_add(s, &m, 1, ++t), 0);
	}
	return t;
}

/* A device re-created under the same name and number (a loop device attached
 * again: a new diskseq) starts an empty window: the values recorded for the
 * old one are not in force on the new one, so its intervals keep the gauge
 * sampled from it and carry no recorded values; a change on the new device
 * is recorded as on any other. */
START_TEST(recreated_device_forgets_recorded_tunables)
{
	static const struct series_tunable ra1024 = { "read_ahead_kb", "1024" };
	const dev_t dev = makedev(7, 3);
	struct series *s;
	struct series_window w;
	struct series_point pt;
	double t = 0;

	ck_assert_int_eq(series_new(60, &s), 0);
	ck_assert_int_eq(series_set_tunables(s, dev, "loop3", t, &ra1024, 1), 0);
	t = loaded_as(s, 1, 5, t);
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 4, &pt), 0);
	ck_assert_float_eq(pt.v[COLUMN_RA_KB], 1024);
	t = loaded_as(s, 2, 10, t); /* sampling read_ahead_kb 128 */
	ck_assert_uint_eq(series_points(s, dev, "loop3"), 10);
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 0, &pt), 0);
	ck_assert_ptr_null(pt.tun);
	ck_assert_float_eq(pt.v[COLUMN_RA_KB], 128);
	series_window_init(&w);
	ck_assert_int_eq(series_window_get(s, dev, "loop3", &w), 0);
	ck_assert_uint_eq(w.n, 10);
	ck_assert(w.last_change == -INFINITY);
	ck_assert_ptr_null(w.tun);
	ck_assert_uint_eq(w.ntun, 0);
	ck_assert_double_eq(w.st[COLUMN_RA_KB].mean, 128);
	ck_assert_double_eq(w.st[COLUMN_RA_KB].sd, 0);
	/* The new device's own change: before it no values, across it none,
	 * after it its own. */
	ck_assert_int_eq(series_set_tunables(s, dev, "loop3", t + 0.5, &ra1024, 1), 0);
	loaded_as(s, 2, 3, t);
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 9, &pt), 0);
	ck_assert(!pt.straddles);
	ck_assert_ptr_null(pt.tun);
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 10, &pt), 0);
	ck_assert(pt.straddles);
	ck_assert_int_eq(series_point_get(s, dev, "loop3", 11, &pt), 0);
	ck_assert_str_eq(series_tunable_find(pt.tun, pt.ntun, "read_ahead_kb"), "1024");
	ck_assert_int_eq(series_window_get(s, dev, "loop3", &w), 0);
	ck_assert_uint_eq(w.n, 2);
	ck_assert_str_eq(series_tunable_find(w.tun, w.ntun, "read_ahead_kb"), "1024");
	ck_assert_double_eq(w.st[COLUMN_RA_KB].mean, 1024);
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
	tcase_add_test(tc, figures_the_kernel_does_not_count_are_left_out);
	tcase_add_test(tc, intervals_record_the_tunables_in_force);
	tcase_add_test(tc, old_change_records_are_dropped_not_confused);
	tcase_add_test(tc, busy_window_leaves_idle_intervals_out);
	tcase_add_test(tc, busy_window_leaves_partial_intervals_out);
	tcase_add_test(tc, recreated_device_forgets_recorded_tunables);
	suite_add_tcase(s, tc);
	return s;
}
