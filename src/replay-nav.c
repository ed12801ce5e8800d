#include "replay-nav.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "history.h"

size_t replay_span(double window, double interval)
{
	double per = interval > 0 ? interval : 1.0;
	/* the series keeps window / interval + 2 points; the sparklines a
	 * point a second for HISTORY_POINTS seconds */
	double need = fmax(window / per + 2, HISTORY_POINTS / fmin(per, 1.0) + 1);
	double cap = 4.0 * SERIES_POINTS_MAX;

	if (!(need < cap))
		need = cap;
	return (size_t)ceil(need); /* at least HISTORY_POINTS + 1 */
}

int replay_parse_clock(const char *s, int *sod)
{
	int h, m, sec = 0, n = 0;

	while (*s == ' ')
		s++;
	if (sscanf(s, "%2d:%2d%n", &h, &m, &n) != 2 || n != 5)
		return -EINVAL;
	s += n;
	if (*s == ':') {
		int k = 0;
		if (sscanf(s + 1, "%2d%n", &sec, &k) != 1 || k != 2)
			return -EINVAL;
		s += 3;
	}
	while (*s == ' ')
		s++;
	if (*s || h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 59)
		return -EINVAL;
	*sod = h * 3600 + m * 60 + sec;
	return 0;
}

/* That clock time on the local day of t, each reading of it (two where
 * the clock is set back an hour for DST, none where it skips one) into
 * out (room for 2), ascending. Returns their number. Each DST flag is
 * asked for in turn; a reading mktime moves is none. */
static size_t on_day(time_t t, int sod, time_t *out)
{
	static const int dst[] = { 0, 1 };
	struct tm day, tm;
	size_t n = 0, j;

	if (!localtime_r(&t, &day))
		return 0;
	for (size_t k = 0; k < sizeof(dst) / sizeof(dst[0]); k++) {
		time_t w;
		bool seen = false;

		tm = day;
		tm.tm_hour = sod / 3600;
		tm.tm_min = sod / 60 % 60;
		tm.tm_sec = sod % 60;
		tm.tm_isdst = dst[k];
		/* mktime moves a time that is not on the clock (or not with
		 * that DST flag) to one that is: only a true reading counts */
		if ((w = mktime(&tm)) == (time_t)-1 || !localtime_r(&w, &tm) || tm.tm_mday != day.tm_mday ||
		    tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec != sod)
			continue;
		for (j = 0; j < n; j++)
			seen |= out[j] == w;
		if (seen)
			continue;
		for (j = n++; j && out[j - 1] > w; j--)
			out[j] = out[j - 1];
		out[j] = w;
	}
	return n;
}

/* A recording of years is no concern: the days searched, at most. */
#define DAYS_MAX 400

int replay_clock_find(const struct record_reader *r, int sod, time_t cur, size_t *pos, bool *again)
{
	time_t first, last, w[2 * (DAYS_MAX + 2)];
	size_t count = record_reader_count(r), n, i, j, c = 0;

	record_reader_range(r, &first, &last);
	/* the day the replay is on first, then every day of the recording */
	n = on_day(cur, sod, w);
	if ((i = record_reader_find(r, w, n, 0, &c)) == count) {
		n = 0;
		for (time_t day = first - 86400; day <= last + 86400 && day - first < DAYS_MAX * 86400L; day += 86400) {
			time_t one[2];
			size_t k = on_day(day, sod, one);

			/* days move forward: only later readings are new */
			for (size_t m = 0; m < k; m++)
				if (!n || one[m] > w[n - 1])
					w[n++] = one[m];
		}
		if ((i = record_reader_find(r, w, n, 0, &c)) == count)
			return -ERANGE;
	}
	/* past the intervals that hold that reading (several, when shorter
	 * than a second), is it (or another of that day) read again later */
	for (j = i + 1; j < count && record_reader_find(r, &w[c], 1, j, NULL) == j; j++)
		;
	*again = j < count && record_reader_find(r, w, n, j, NULL) < count;
	*pos = i;
	return 0;
}

size_t replay_change_at(const struct record_change *c, const size_t *before, size_t nch, const char *dev,
			size_t pos)
{
	size_t found = nch, first = nch;

	for (size_t k = 0; k < nch; k++) {
		if (dev && strcmp(c[k].dev, dev))
			continue;
		if (first == nch)
			first = k;
		if (before[k] <= pos)
			found = k;
	}
	return found < nch ? found : first;
}

int replay_ab_around(const struct record_change *c, const size_t *before, size_t nch, size_t k, size_t count,
		     size_t span, size_t *a_end, size_t *b_end)
{
	size_t end;

	if (k >= nch || before[k] < 2 || before[k] >= count)
		return -ERANGE;
	end = count - 1;
	if (before[k] + span < end)
		end = before[k] + span;
	/* the interval that straddles the device's next change is neither */
	for (size_t j = k + 1; j < nch; j++)
		if (!strcmp(c[j].dev, c[k].dev) && before[j] != before[k]) {
			if (before[j] - 1 < end)
				end = before[j] - 1;
			break;
		}
	/* changes in the same interval: B starts after the last of them */
	if (end <= before[k])
		return -ERANGE;
	*a_end = before[k] - 1;
	*b_end = end;
	return 0;
}

static size_t put(struct series_tunable *tv, size_t n, size_t max, const char *name, const char *value)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(tv[i].name, name)) {
			snprintf(tv[i].value, sizeof(tv[i].value), "%s", value);
			return n;
		}
	if (n == max)
		return n;
	snprintf(tv[n].name, sizeof(tv[n].name), "%s", name);
	snprintf(tv[n].value, sizeof(tv[n].value), "%s", value);
	return n + 1;
}

static size_t put_number(struct series_tunable *tv, size_t n, size_t max, const char *name, long long v)
{
	char num[24];

	if (v < 0)
		return n; /* SAMPLE_ABSENT, SAMPLE_UNREADABLE: no value */
	snprintf(num, sizeof(num), "%lld", v);
	return put(tv, n, max, name, num);
}

size_t replay_tunables(const struct record_change *c, const size_t *before, size_t nch, const char *dev, size_t i,
		       const struct disk_info *info, struct series_tunable *tv, size_t max)
{
	size_t n = 0;

	if (info && info->has_queue) {
		n = put_number(tv, n, max, "read_ahead_kb", info->read_ahead_kb);
		n = put_number(tv, n, max, "max_sectors_kb", info->max_sectors_kb);
		n = put_number(tv, n, max, "nr_requests", info->nr_requests);
		if (info->scheduler[0])
			n = put(tv, n, max, "scheduler", info->scheduler);
	}
	for (size_t k = 0; k < nch; k++) {
		bool known = false;

		if (strcmp(c[k].dev, dev))
			continue;
		/* the sample's own reading stands for what it holds */
		if (info && info->has_queue &&
		    (!strcmp(c[k].tunable, "read_ahead_kb") || !strcmp(c[k].tunable, "max_sectors_kb") ||
		     !strcmp(c[k].tunable, "nr_requests") || !strcmp(c[k].tunable, "scheduler")))
			continue;
		for (size_t j = 0; j < n; j++)
			known |= !strcmp(tv[j].name, c[k].tunable);
		if (before[k] <= i)
			n = put(tv, n, max, c[k].tunable, c[k].to);
		else if (!known)
			n = put(tv, n, max, c[k].tunable, c[k].from);
	}
	return n;
}
