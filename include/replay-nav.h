/* replay-nav: the pure arithmetic of moving through a recording in the
 * full-screen replay (blktune -r FILE): which sample a typed clock time
 * means, how many samples before a position rebuild its sparklines and A/B
 * series, the change "under" a position, the A and B windows around a
 * recorded change, and the tunable values in force at a sample.
 *
 * Samples are numbered 0 .. count-1; interval i (1 <= i < count) ends at
 * sample i, as line i of `blktune -r FILE -b --json` does. A change k was
 * recorded between samples before[k]-1 and before[k]: the interval ending
 * at before[k] straddles it. */
#ifndef BLKTUNE_REPLAY_NAV_H
#define BLKTUNE_REPLAY_NAV_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "record-read.h"
#include "record.h"
#include "sample.h"
#include "series.h"

/* Samples to replay before a position so that the A/B series (window
 * seconds) and the minute of sparklines are what they were live, for a
 * recording taken every interval seconds. At least 2, at most 4 x
 * SERIES_POINTS_MAX. */
size_t replay_span(double window, double interval);

/* "HH:MM" or "HH:MM:SS" (as atop's b) into seconds of the day. Returns 0
 * or -EINVAL. */
int replay_parse_clock(const char *s, int *sod);

/* The sample (into pos) where the replay shows clock time sod of the
 * recording r: the first sample, in recording order, whose interval holds
 * it (record_reader_find) on the local day of cur, else on any day of the
 * recording. A time read twice (the wall clock set back, a DST hour
 * repeated) is the first reading; *again says whether there is another
 * later. Returns 0 or -ERANGE (the clock never read that time while
 * recording). */
int replay_clock_find(const struct record_reader *r, int sod, time_t cur, size_t *pos, bool *again);

/* The change under position pos (the interval ending at sample pos): the
 * last one recorded before it (before[k] <= pos), else the first one.
 * dev NULL: any device. Returns its index, or nch when there is none. */
size_t replay_change_at(const struct record_change *c, const size_t *before, size_t nch, const char *dev,
			size_t pos);

/* A/B around change k: A ends at the last interval before it (sample
 * before[k] - 1), B at the last interval after it and before the device's
 * next change, at most span samples after it, at most the recording's end.
 * Returns 0, or -ERANGE when either side has no whole interval. */
int replay_ab_around(const struct record_change *c, const size_t *before, size_t nch, size_t k, size_t count,
		     size_t span, size_t *a_end, size_t *b_end);

/* The tunables of dev in force at sample i: read_ahead_kb, max_sectors_kb,
 * nr_requests and scheduler as the sample holds them (info; NULL: none),
 * then every other tunable a change of dev names: the value it was changed
 * to before sample i, else the value the first later change found. At most
 * max values into tv. Returns their number. */
size_t replay_tunables(const struct record_change *c, const size_t *before, size_t nch, const char *dev, size_t i,
		       const struct disk_info *info, struct series_tunable *tv, size_t max);

#endif
