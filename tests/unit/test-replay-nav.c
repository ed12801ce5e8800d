#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "history.h"
#include "record-read.h"
#include "record.h"
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

/* A recording in a fresh directory whose samples have these wall times
 * (seconds from base, nanoseconds ns); on the monotonic clock as far apart
 * (steady), else a second apart (the wall clock was set). */
static struct record_reader *recording(char **dir, time_t base, long ns, const long *at, size_t n, bool steady)
{
	char tmpl[] = "/tmp/blktune-unit-XXXXXX", path[4200], why[256];
	struct record_meta m = { .host = "h", .interval = 1, .start = base, .key_every = 4 };
	struct record_reader *r;
	struct record *w;
	struct sample s;

	ck_assert_ptr_nonnull(*dir = mkdtemp(tmpl));
	*dir = strdup(*dir);
	snprintf(path, sizeof(path), "%s/r.btr", *dir);
	ck_assert_int_eq(record_create(path, &m, &w, why, sizeof(why)), 0);
	sample_init(&s);
	for (size_t i = 0; i < n; i++) {
		sample_clear(&s);
		s.t = 1000.0 + (double)(steady ? (size_t)at[i] : i);
		s.wall.tv_sec = base + at[i];
		s.wall.tv_nsec = ns;
		ck_assert_int_eq(record_sample(w, &s, why, sizeof(why)), 0);
	}
	sample_free(&s);
	ck_assert_int_eq(record_close(w), 0);
	ck_assert_int_eq(record_reader_open(path, &r, why, sizeof(why)), 0);
	ck_assert_uint_eq(record_reader_count(r), n);
	return r;
}

static void done(struct record_reader *r, char *dir)
{
	record_reader_close(r);
	unit_rmtree(dir);
	free(dir);
}

/* The sample J goes to for a clock time, or 99 when it is refused. */
static size_t jump(const struct record_reader *r, const char *clock, time_t cur, bool *again)
{
	size_t pos = 99;
	int sod;

	ck_assert_int_eq(replay_parse_clock(clock, &sod), 0);
	if (replay_clock_find(r, sod, cur, &pos, again) < 0)
		ck_assert_uint_eq(pos, 99);
	return pos;
}

START_TEST(test_clock_time)
{
	/* 2026-12-02 23:58:00 to 2026-12-03 00:03:00 UTC at a minute: across midnight */
	static const long at[] = { 0, 60, 120, 180, 240, 300 };
	time_t first = 1796255880, last = first + 300;
	struct record_reader *r;
	char *dir;
	bool again = true;

	utc();
	r = recording(&dir, first, 0, at, 6, true);
	ck_assert_uint_eq(jump(r, "23:59", first, &again), 1);
	ck_assert(!again);
	/* 00:01 is on the next day, wherever the replay is now */
	ck_assert_uint_eq(jump(r, "00:01", first, &again), 3);
	ck_assert_uint_eq(jump(r, "00:01", last, &again), 3);
	/* the first interval ending at or after the time */
	ck_assert_uint_eq(jump(r, "23:59:30", last, &again), 2);
	/* the ends are inside, a second beyond is not */
	ck_assert_uint_eq(jump(r, "23:58", last, &again), 0);
	ck_assert_uint_eq(jump(r, "00:03", first, &again), 5);
	ck_assert_uint_eq(jump(r, "00:03:01", first, &again), 99);
	ck_assert_uint_eq(jump(r, "23:57:59", first, &again), 99);
	ck_assert_uint_eq(jump(r, "12:00", first, &again), 99);
	done(r, dir);
}
END_TEST

START_TEST(test_clock_days)
{
	/* 2026-12-02 23:58 to 2026-12-04 23:58 UTC, with a sample at 23:57
	 * and 23:58 each day and one at 00:58 of 12-04 */
	static const long at[] = { 0, 86400 - 60, 86400, 86400 + 3600, 2 * 86400 - 60, 2 * 86400 };
	time_t first = 1796255880;
	struct record_reader *r;
	char *dir;
	bool again = true;

	utc();
	r = recording(&dir, first, 0, at, 6, true);
	/* noon of the day the replay is on (12-04), in interval 4 */
	ck_assert_uint_eq(jump(r, "12:00", first + 86400 + 3600, &again), 4);
	ck_assert(!again);
	/* on 12-02 it was not recorded: the first day that was, 12-03, in
	 * interval 1; 12-04's comes later */
	ck_assert_uint_eq(jump(r, "12:00", first, &again), 1);
	ck_assert(again);
	ck_assert_uint_eq(jump(r, "23:58", first + 2 * 86400, &again), 5);
	ck_assert(!again);
	ck_assert_uint_eq(jump(r, "23:58", first + 43200, &again), 2);
	ck_assert_uint_eq(jump(r, "23:58", first, &again), 0);
	ck_assert(!again);
	done(r, dir);
}
END_TEST

/* The wall clock set back two hours, then forward an hour, while the
 * monotonic one ran on: the reviewer's repro (2026-12-05 09:14:25 UTC, then
 * 07:14:28), and a time read twice. */
START_TEST(test_clock_stepped)
{
	static const long back[] = { 0, 1, 2, -7200 + 3, -7200 + 4, -7200 + 5 };
	static const long twice[] = { 0, 1, 2, 3, 1, 2, 3, 4, 3605, 3606 };
	time_t w = 1796462065, lo, hi;
	struct record_reader *r;
	char *dir;
	bool again = true;

	utc();
	r = recording(&dir, w, 250000000, back, 6, false);
	ck_assert_uint_eq(record_reader_range(r, &lo, &hi), 1);
	ck_assert_int_eq(lo, w - 7200 + 3);
	ck_assert_int_eq(hi, w + 2);
	/* both exist in the file, whichever the replay is on */
	ck_assert_uint_eq(jump(r, "07:14:29", w, &again), 4);
	ck_assert(!again);
	ck_assert_uint_eq(jump(r, "09:14:26", w - 7200 + 5, &again), 1);
	ck_assert_uint_eq(jump(r, "09:14:27", w, &again), 2);
	ck_assert_uint_eq(jump(r, "07:14:30", w, &again), 5);
	/* the interval across the step lasted a second, up to 07:14:28.25 */
	ck_assert_uint_eq(jump(r, "07:14:27", w, &again), 3);
	/* never read: the two hours skipped, after the end, before the start */
	ck_assert_uint_eq(jump(r, "08:00", w, &again), 99);
	ck_assert_uint_eq(jump(r, "09:14:28", w, &again), 99);
	ck_assert_uint_eq(jump(r, "07:14:25", w, &again), 99);
	done(r, dir);

	r = recording(&dir, w, 0, twice, 10, false);
	ck_assert_uint_eq(record_reader_range(r, &lo, &hi), 2);
	ck_assert_int_eq(lo, w);
	ck_assert_int_eq(hi, w + 3606);
	/* read first in interval 2 (and 3, its second running on), again in 5 */
	ck_assert_uint_eq(jump(r, "09:14:27", w, &again), 2);
	ck_assert(again);
	ck_assert_uint_eq(jump(r, "09:14:29", w, &again), 7);
	ck_assert(!again);
	/* forward: the hour skipped was never read, the readings after it were */
	ck_assert_uint_eq(jump(r, "09:44:00", w, &again), 99);
	ck_assert_uint_eq(jump(r, "10:14:30", w, &again), 8);
	ck_assert_uint_eq(jump(r, "10:14:31", w, &again), 9);
	ck_assert_uint_eq(jump(r, "10:14:32", w, &again), 99);
	done(r, dir);
}
END_TEST

/* Central Europe's DST ends 2026-10-25 03:00 CEST: 02:30 is read twice,
 * an hour apart; it starts 2026-03-29 02:00 CET: 02:30 is never read. */
START_TEST(test_clock_dst)
{
	/* 2026-10-25 00:30 UTC (02:30 CEST) every half hour to 02:00 UTC */
	static const long at[] = { 0, 1800, 3600, 5400 };
	time_t fall = 1792888200;
	struct record_reader *r;
	char *dir;
	bool again = false;

	setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
	tzset();
	r = recording(&dir, fall, 0, at, 4, true);
	ck_assert_uint_eq(jump(r, "02:30", fall, &again), 0);
	ck_assert(again);
	ck_assert_uint_eq(jump(r, "02:45", fall, &again), 1);
	ck_assert(again);
	/* 03:00 CET is the last sample's */
	ck_assert_uint_eq(jump(r, "03:00", fall, &again), 3);
	ck_assert(!again);
	/* from another day, not recorded: every day is searched, and both
	 * readings of that day are found, in order (the CEST one first) */
	ck_assert_uint_eq(jump(r, "02:30", fall + 86400, &again), 0);
	ck_assert(again);
	ck_assert_uint_eq(jump(r, "02:30", fall - 86400, &again), 0);
	done(r, dir);
	/* a summer second at the end of an hour, from another day: each DST
	 * flag is asked for, and only the hour asked for counts (in UTC a
	 * wrong hour is masked: mktime moves it back by the hour the flag
	 * claims) */
	{
		static const long minute[] = { 0, 60 };
		time_t summer = 1782903599; /* 2026-07-01 10:59:59 UTC, 12:59:59 CEST */
		r = recording(&dir, summer, 0, minute, 2, true);
		ck_assert_uint_eq(jump(r, "12:59:59", summer + 3 * 86400, &again), 0);
		ck_assert_uint_eq(jump(r, "13:00:30", summer - 3 * 86400, &again), 1);
		done(r, dir);
	}
	utc();
}
END_TEST

/* Every day of the recording is searched when the replay's own day does
 * not hold the time: one that starts a second before midnight (a day's
 * search point drifting past midnight would skip one), one of 1000 days
 * (the days searched are bounded, and so is what they fill), and the
 * last second of a day, whose hour sod / 3600 gives exactly. */
START_TEST(test_clock_other_days)
{
	static const long edge[] = { 0, 31 };
	static const long years[] = { 0, 1000L * 86400 };
	time_t first = 1796255999; /* 2026-12-02 23:59:59 UTC */
	struct record_reader *r;
	char *dir;
	bool again = true;

	utc();
	r = recording(&dir, first, 0, edge, 2, true);
	ck_assert_uint_eq(jump(r, "23:59:59", first + 5 * 86400, &again), 0);
	ck_assert(!again);
	ck_assert_uint_eq(jump(r, "00:00:30", first - 3 * 86400, &again), 1);
	done(r, dir);
	r = recording(&dir, first, 0, years, 2, true);
	/* from a day outside it: the first day after the first sample */
	ck_assert_uint_eq(jump(r, "12:00", first - 86400, &again), 1);
	ck_assert(!again);
	done(r, dir);
}
END_TEST

/* 1970-01-01 00:00:00 UTC is a time like any other (mktime returns 0). */
START_TEST(test_clock_epoch)
{
	static const long at[] = { 0, 60 };
	struct record_reader *r;
	char *dir;
	bool again = true;

	utc();
	r = recording(&dir, 0, 0, at, 2, true);
	ck_assert_uint_eq(jump(r, "00:00", 0, &again), 0);
	ck_assert(!again);
	ck_assert_uint_eq(jump(r, "00:00:30", 60, &again), 1);
	done(r, dir);
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
	/* a change at 2: A is intervals 0 and 1 */
	static const size_t second[] = { 2 };
	ck_assert_int_eq(replay_ab_around(ch, second, 1, 0, 100, 30, &a, &b), 0);
	ck_assert_uint_eq(a, 1);
	ck_assert_uint_eq(b, 32);
	/* the window ends just where the next change's interval starts (12):
	 * that interval straddles the change, so B ends at 11 */
	ck_assert_int_eq(replay_ab_around(ch, before, 4, 0, 100, 7, &a, &b), 0);
	ck_assert_uint_eq(b, 11);
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
	/* 0 is a value (readahead off), not an absent one */
	info.read_ahead_kb = 0;
	n = replay_tunables(ch, before, 4, "loop0", 3, &info, tv, 8);
	ck_assert_str_eq(val(tv, n, "read_ahead_kb"), "0");
	/* no scheduler read: no row, whatever the bytes after the NUL */
	memcpy(info.scheduler, "\0x", 3);
	n = replay_tunables(ch, before, 4, "loop0", 3, &info, tv, 8);
	ck_assert_str_eq(val(tv, n, "scheduler"), "(none)");
}
END_TEST

UNIT_SUITE(replay_nav_suite)
static Suite *replay_nav_suite(void)
{
	Suite *s = suite_create("replay-nav");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_clock);
	tcase_add_test(tc, test_clock_time);
	tcase_add_test(tc, test_clock_days);
	tcase_add_test(tc, test_clock_stepped);
	tcase_add_test(tc, test_clock_dst);
	tcase_add_test(tc, test_clock_epoch);
	tcase_add_test(tc, test_clock_other_days);
	tcase_add_test(tc, test_span);
	tcase_add_test(tc, test_change_at);
	tcase_add_test(tc, test_ab_around);
	tcase_add_test(tc, test_tunables);
	suite_add_tcase(s, tc);
	return s;
}
