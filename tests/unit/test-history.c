/* history: the detail pane's minute of MB/s and IOPS. A point is the mean
 * rate over at least one second of intervals, reads and writes together;
 * the ring keeps the last 60, oldest first; a device is known by number
 * and name, and one no longer sampled is forgotten. */
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "history.h"
#include "unit.h"

static void row(struct disk_metrics *m, unsigned minor, const char *name, double interval, double rmb,
		double wmb, double r, double w)
{
	memset(m, 0, sizeof(*m));
	unit_row_info(m);
	m->dev = makedev(7, minor);
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->state = DISK_OK;
	m->interval = interval;
	m->rmb_s = rmb;
	m->wmb_s = wmb;
	m->r_s = r;
	m->w_s = w;
}

START_TEST(points_are_rates_over_a_second_or_more)
{
	struct history *h;
	struct disk_metrics m;
	float mb[HISTORY_POINTS], io[HISTORY_POINTS];

	ck_assert_int_eq(history_new(&h), 0);
	/* 0.4 s intervals: the point closes after three (1.2 s), as their mean */
	row(&m, 0, "loop0", 0.4, 10, 2, 100, 20);
	ck_assert_int_eq(history_add(h, &m, 1), 0);
	row(&m, 0, "loop0", 0.4, 40, 8, 400, 80);
	ck_assert_int_eq(history_add(h, &m, 1), 0);
	ck_assert_int_eq(history_get(h, makedev(7, 0), "loop0", mb, io), 0);
	row(&m, 0, "loop0", 0.4, 10, 2, 100, 20);
	ck_assert_int_eq(history_add(h, &m, 1), 0);
	ck_assert_int_eq(history_get(h, makedev(7, 0), "loop0", mb, io), 1);
	ck_assert_float_eq_tol(mb[0], 24, 1e-4);  /* (12 + 48 + 12) / 3 */
	ck_assert_float_eq_tol(io[0], 240, 1e-3); /* (120 + 480 + 120) / 3 */
	/* one 2 s interval is one point of its rate, not twice it */
	row(&m, 0, "loop0", 2.0, 5, 1, 50, 10);
	ck_assert_int_eq(history_add(h, &m, 1), 0);
	ck_assert_int_eq(history_get(h, makedev(7, 0), "loop0", mb, io), 2);
	ck_assert_float_eq_tol(mb[1], 6, 1e-4);
	ck_assert_float_eq_tol(io[1], 60, 1e-4);
	/* an interval that is not a rate (a restarted counter) adds nothing */
	row(&m, 0, "loop0", 1.0, 999, 999, 999, 999);
	m.state = DISK_RESTARTED;
	ck_assert_int_eq(history_add(h, &m, 1), 0);
	ck_assert_int_eq(history_get(h, makedev(7, 0), "loop0", mb, io), 2);
	history_free(h);
}
END_TEST

START_TEST(a_minute_oldest_first)
{
	struct history *h;
	struct disk_metrics m;
	float mb[HISTORY_POINTS], io[HISTORY_POINTS];

	ck_assert_int_eq(history_new(&h), 0);
	for (int i = 0; i < HISTORY_POINTS + 5; i++) {
		row(&m, 0, "loop0", 1.0, i, 0, 10 * i, 0);
		ck_assert_int_eq(history_add(h, &m, 1), 0);
	}
	ck_assert_int_eq(history_get(h, makedev(7, 0), "loop0", mb, io), HISTORY_POINTS);
	for (int i = 0; i < HISTORY_POINTS; i++) {
		ck_assert_float_eq(mb[i], (float)(i + 5));
		ck_assert_float_eq(io[i], (float)(10 * (i + 5)));
	}
	history_free(h);
}
END_TEST

START_TEST(devices_by_number_and_name)
{
	struct history *h;
	struct disk_metrics m[3];
	float mb[HISTORY_POINTS], io[HISTORY_POINTS];

	ck_assert_int_eq(history_new(&h), 0);
	row(&m[0], 0, "loop0", 1.0, 1, 0, 10, 0);
	row(&m[1], 1, "loop1", 1.0, 2, 0, 20, 0);
	row(&m[2], 2, "loop2", 1.0, 3, 0, 30, 0);
	ck_assert_int_eq(history_add(h, m, 3), 0);
	/* the same rows in another order: each keeps its own points */
	row(&m[0], 2, "loop2", 1.0, 33, 0, 330, 0);
	row(&m[1], 0, "loop0", 1.0, 11, 0, 110, 0);
	row(&m[2], 1, "loop1", 1.0, 22, 0, 220, 0);
	ck_assert_int_eq(history_add(h, m, 3), 0);
	ck_assert_int_eq(history_get(h, makedev(7, 1), "loop1", mb, io), 2);
	ck_assert(mb[0] == 2 && mb[1] == 22 && io[1] == 220);
	ck_assert_int_eq(history_get(h, makedev(7, 2), "loop2", mb, io), 2);
	ck_assert(mb[0] == 3 && mb[1] == 33);
	/* a name under another number, a number under another name: neither */
	ck_assert_int_eq(history_get(h, makedev(7, 5), "loop1", mb, io), 0);
	ck_assert_int_eq(history_get(h, makedev(7, 1), "loop5", mb, io), 0);
	/* a row whose number is another's (a device re-created as loop0 on 7:1)
	 * starts its own history */
	row(&m[0], 1, "loop0", 1.0, 7, 0, 70, 0);
	row(&m[1], 1, "loop1", 1.0, 8, 0, 80, 0);
	ck_assert_int_eq(history_add(h, m, 2), 0);
	ck_assert_int_eq(history_get(h, makedev(7, 1), "loop0", mb, io), 1);
	ck_assert(mb[0] == 7);
	ck_assert_int_eq(history_get(h, makedev(7, 1), "loop1", mb, io), 3);
	ck_assert(mb[2] == 8);
	/* loop0 on 7:0 and loop2 were not in that sample: forgotten */
	ck_assert_int_eq(history_get(h, makedev(7, 0), "loop0", mb, io), 0);
	ck_assert_int_eq(history_get(h, makedev(7, 2), "loop2", mb, io), 0);
	history_free(h);
}
END_TEST

UNIT_SUITE(history_suite)
static Suite *history_suite(void)
{
	Suite *s = suite_create("history");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, points_are_rates_over_a_second_or_more);
	tcase_add_test(tc, a_minute_oldest_first);
	tcase_add_test(tc, devices_by_number_and_name);
	suite_add_tcase(s, tc);
	return s;
}
