#include "unit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "history.h"
#include "replay-nav.h"

static void utc(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
}

START_TEST(test_parse_clock)
{
	int sod = -1;

	ck_assert_int_eq(replay_parse_clock("14:02", &sod), 0);
	ck_assert_int_eq(sod, 14 * 3600 + 2 * 60);
	ck_assert_int_eq(replay_parse_clock("14:02:05", &sod), 0);
	ck_assert_int_eq(sod, 14 * 3600 + 2 * 60 + 5);
	ck_assert_int_eq(replay_parse_clock(" 00:00:00 ", &sod), 0);
	ck_assert_int_eq(sod, 0);
	ck_assert_int_eq(replay_parse_clock("23:59:59", &sod), 0);
	ck_assert_int_eq(sod, 86399);
	/* out of range, short, trailing junk, empty: refused, sod untouched */
	sod = 7;
	static const char *const bad[] = { "24:00", "12:60", "12:00:60", "1:02", "12:2", "12:02:5", "12:02x",
					    "12:02:05:01", "", "-1:00", "ab:cd", "12-02" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(replay_parse_clock(bad[i], &sod) == -EINVAL, "%s accepted", bad[i]);
	ck_assert_int_eq(sod, 7);
}
END_TEST

START_TEST(test_clock_time)
{
	/* 2026-12-02 23:58:00 to 2026-12-03 00:03:00 UTC: across midnight */
	time_t first = 1796255880, last = first + 300, out = 0;

	utc();
	ck_assert_int_eq(replay_clock_time(23 * 3600 + 59 * 60, first, last, first, &out), 0);
	ck_assert_int_eq(out, first + 60);
	/* 00:01 is on the next day, wherever the replay is now */
	ck_assert_int_eq(replay_clock_time(60, first, last, first, &out), 0);
	ck_assert_int_eq(out, first + 180);
	ck_assert_int_eq(replay_clock_time(60, first, last, last, &out), 0);
	ck_assert_int_eq(out, first + 180);
	/* the ends are inside, a second beyond is not */
	ck_assert_int_eq(replay_clock_time(23 * 3600 + 58 * 60, first, last, last, &out), 0);
	ck_assert_int_eq(out, first);
	ck_assert_int_eq(replay_clock_time(3 * 60, first, last, first, &out), 0);
	ck_assert_int_eq(out, last);
	out = 5;
	ck_assert_int_eq(replay_clock_time(3 * 60 + 1, first, last, first, &out), -ERANGE);
	ck_assert_int_eq(replay_clock_time(23 * 3600 + 57 * 60 + 59, first, last, first, &out), -ERANGE);
	ck_assert_int_eq(replay_clock_time(12 * 3600, first, last, first, &out), -ERANGE);
	ck_assert_int_eq(out, 5);
	/* two days: the day the replay is on first */
	last = first + 2 * 86400;
	ck_assert_int_eq(replay_clock_time(12 * 3600, first, last, first + 86400 + 3600, &out), 0);
	ck_assert_int_eq(out, 1796299200 + 86400);
	ck_assert_int_eq(replay_clock_time(12 * 3600, first, last, first, &out), 0);
	ck_assert_int_eq(out, 1796299200);
}
END_TEST

START_TEST(test_span)
{
	/* 1 s: the series' 30 s window needs 32, the sparklines' minute 61 */
	ck_assert_uint_eq(replay_span(30, 1), HISTORY_POINTS + 1);
	/* a 300 s window at 1 s: the series decides */
	ck_assert_uint_eq(replay_span(300, 1), 302);
	/* 0.1 s: a sparkline point a second, so 601 samples */
	ck_assert_uint_eq(replay_span(30, 0.1), 601);
	/* 10 s: still 61 samples of sparklines (a point per interval) */
	ck_assert_uint_eq(replay_span(30, 10), 61);
	/* bounded whatever the recording claims */
	ck_assert_uint_eq(replay_span(3600, 0.001), 4 * SERIES_POINTS_MAX);
	ck_assert_uint_eq(replay_span(30, 0), HISTORY_POINTS + 1);
	ck_assert_uint_le(replay_span(1e300, 1e-300), 4 * SERIES_POINTS_MAX);
}
END_TEST

static const struct record_change ch[] = {
	{ .dev = "loop0", .tunable = "read_ahead_kb", .from = "128", .to = "256" },
	{ .dev = "loop1", .tunable = "wbt_lat_usec", .from = "2000", .to = "0" },
	{ .dev = "loop0", .tunable = "nomerges", .from = "0", .to = "2" },
	{ .dev = "loop0", .tunable = "read_ahead_kb", .from = "256", .to = "512" },
};
static const size_t before[] = { 5, 7, 12, 12 };

START_TEST(test_change_at)
{
	ck_assert_uint_eq(replay_change_at(ch, before, 4, NULL, 0), 0); /* none yet: the first */
	ck_assert_uint_eq(replay_change_at(ch, before, 4, NULL, 4), 0);
	ck_assert_uint_eq(replay_change_at(ch, before, 4, NULL, 5), 0);
	ck_assert_uint_eq(replay_change_at(ch, before, 4, NULL, 6), 0);
	ck_assert_uint_eq(replay_change_at(ch, before, 4, NULL, 7), 1); /* its interval straddles it */
	ck_assert_uint_eq(replay_change_at(ch, before, 4, NULL, 8), 1);
	ck_assert_uint_eq(replay_change_at(ch, before, 4, "loop0", 8), 0);
	ck_assert_uint_eq(replay_change_at(ch, before, 4, "loop0", 30), 3);
	ck_assert_uint_eq(replay_change_at(ch, before, 4, "loop1", 2), 1);
	ck_assert_uint_eq(replay_change_at(ch, before, 4, "loop9", 8), 4);
	ck_assert_uint_eq(replay_change_at(ch, before, 0, NULL, 8), 0);
}
END_TEST

START_TEST(test_ab_around)
{
	size_t a = 99, b = 99;

	/* loop0's first change: A ends before it, B before its next change */
	ck_assert_int_eq(replay_ab_around(ch, before, 4, 0, 100, 30, &a, &b), 0);
	ck_assert_uint_eq(a, 4);
	ck_assert_uint_eq(b, 11);
	/* loop1's: no later change of loop1, so the window or the end */
	ck_assert_int_eq(replay_ab_around(ch, before, 4, 1, 100, 30, &a, &b), 0);
	ck_assert_uint_eq(a, 6);
	ck_assert_uint_eq(b, 37);
	ck_assert_int_eq(replay_ab_around(ch, before, 4, 1, 20, 30, &a, &b), 0);
	ck_assert_uint_eq(b, 19);
	/* two changes in one interval: B after both */
	ck_assert_int_eq(replay_ab_around(ch, before, 4, 2, 100, 30, &a, &b), 0);
	ck_assert_uint_eq(a, 11);
	ck_assert_uint_eq(b, 42);
	/* no whole interval before (before = 1), after (the last sample), none */
	static const size_t early[] = { 1 };
	a = b = 77;
	ck_assert_int_eq(replay_ab_around(ch, early, 1, 0, 100, 30, &a, &b), -ERANGE);
	/* the interval ending at before[k] straddles the change: not B's */
	ck_assert_int_eq(replay_ab_around(ch, before, 4, 0, 6, 30, &a, &b), -ERANGE);
	ck_assert_int_eq(replay_ab_around(ch, before, 4, 0, 5, 30, &a, &b), -ERANGE);
	ck_assert_int_eq(replay_ab_around(ch, before, 4, 4, 100, 30, &a, &b), -ERANGE);
	/* the next change right after: nothing between */
	static const size_t close[] = { 5, 7, 6, 6 };
	ck_assert_int_eq(replay_ab_around(ch, close, 4, 0, 100, 30, &a, &b), -ERANGE);
	ck_assert_uint_eq(a, 77);
	ck_assert_uint_eq(b, 77);
	ck_assert_int_eq(replay_ab_around(ch, before, 4, 0, 7, 30, &a, &b), 0);
	ck_assert_uint_eq(a, 4);
	ck_assert_uint_eq(b, 6);
}
END_TEST

static const char *val(const struct series_tunable *tv, size_t n, const char *name)
{
	const char *v = series_tunable_find(tv, n, name);

	return v ? v : "(none)";
}

START_TEST(test_tunables)
{
	struct disk_info info = { .has_queue = true, .read_ahead_kb = 4096, .max_sectors_kb = 1280,
				  .nr_requests = SAMPLE_ABSENT, .scheduler = "none" };
	struct series_tunable tv[8];
	size_t n;

	/* before any change: the sample's own, and nomerges as first found */
	n = replay_tunables(ch, before, 4, "loop0", 3, &info, tv, 8);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(val(tv, n, "read_ahead_kb"), "4096"); /* the sample's, not a change's */
	ck_assert_str_eq(val(tv, n, "max_sectors_kb"), "1280");
	ck_assert_str_eq(val(tv, n, "nr_requests"), "(none)");
	ck_assert_str_eq(val(tv, n, "scheduler"), "none");
	ck_assert_str_eq(val(tv, n, "nomerges"), "0");
	ck_assert_str_eq(val(tv, n, "wbt_lat_usec"), "(none)"); /* loop1's */
	/* at and after the change */
	n = replay_tunables(ch, before, 4, "loop0", 11, &info, tv, 8);
	ck_assert_str_eq(val(tv, n, "nomerges"), "0");
	n = replay_tunables(ch, before, 4, "loop0", 12, &info, tv, 8);
	ck_assert_str_eq(val(tv, n, "nomerges"), "2");
	/* no sample (a device gone): the changes alone */
	n = replay_tunables(ch, before, 4, "loop0", 6, NULL, tv, 8);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(val(tv, n, "read_ahead_kb"), "256");
	ck_assert_str_eq(val(tv, n, "nomerges"), "0");
	n = replay_tunables(ch, before, 4, "loop0", 2, NULL, tv, 8);
	ck_assert_str_eq(val(tv, n, "read_ahead_kb"), "128");
	n = replay_tunables(ch, before, 4, "loop0", 50, NULL, tv, 8);
	ck_assert_str_eq(val(tv, n, "read_ahead_kb"), "512");
	n = replay_tunables(ch, before, 4, "loop1", 6, NULL, tv, 8);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(val(tv, n, "wbt_lat_usec"), "2000");
	/* a partition (no queue): only what its changes say */
	info.has_queue = false;
	ck_assert_uint_eq(replay_tunables(ch, before, 4, "loop5", 6, &info, tv, 8), 0);
	/* never more than max */
	info.has_queue = true;
	ck_assert_uint_eq(replay_tunables(ch, before, 4, "loop0", 20, &info, tv, 2), 2);
}
END_TEST

UNIT_SUITE(replay_nav_suite)
static Suite *replay_nav_suite(void)
{
	Suite *s = suite_create("replay-nav");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_clock);
	tcase_add_test(tc, test_clock_time);
	tcase_add_test(tc, test_span);
	tcase_add_test(tc, test_change_at);
	tcase_add_test(tc, test_ab_around);
	tcase_add_test(tc, test_tunables);
	suite_add_tcase(s, tc);
	return s;
}
