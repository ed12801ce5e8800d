/* record-read: a recording (see record.h) opened for replay. The whole file
 * is checked and indexed at open: each sample's place and time, the key
 * frames to seek from, the tunable changes. A torn or corrupt tail (a
 * recorder killed mid-write, a disk that lost the end) ends the recording
 * there with a warning; a file that is no recording, or of another format
 * version, is refused in one line. */
#ifndef BLKTUNE_RECORD_READ_H
#define BLKTUNE_RECORD_READ_H

#include <stddef.h>
#include <time.h>

#include "record.h"
#include "sample.h"

struct record_reader;

/* Returns 0, -EINVAL (not a recording, another version, no sample) or
 * -errno, with one line naming the file in why. */
int record_reader_open(const char *path, struct record_reader **out, char *why, size_t whylen);
void record_reader_close(struct record_reader *r);
const struct record_meta *record_reader_meta(const struct record_reader *r);
/* Samples in the file. */
size_t record_reader_count(const struct record_reader *r);
/* Sample i's wall-clock and monotonic times (from the index). */
struct timespec record_reader_wall(const struct record_reader *r, size_t i);
double record_reader_t(const struct record_reader *r, size_t i);
/* Rebuild sample i into s. In order it costs one delta; a jump decodes from
 * the key frame before i. Returns 0, -ERANGE (no such sample), -EINVAL or
 * -ENOMEM. */
int record_reader_get(struct record_reader *r, size_t i, struct sample *s);
/* Why the recording ends early ("" when it ends cleanly). */
const char *record_reader_warning(const struct record_reader *r);
/* Tunable changes in the file, in order; before[k] is the index of the
 * first sample after change k. */
size_t record_reader_changes(const struct record_reader *r, const struct record_change **c, const size_t **before);
/* Keep the first n samples (n >= 1) and the changes before the last of
 * them: a replay of -n intervals is a recording of n + 1 samples. */
void record_reader_limit(struct record_reader *r, size_t n);
/* The first sample from sample from on, in recording order, whose interval
 * the wall clock spent some of one of the seconds w (nw of them, ascending)
 * in, and which of them (the earliest) into which (NULL: not wanted): count
 * when none. Interval i is taken as long as the monotonic clock
 * says, ending at sample i's wall time (the first sample: its own second),
 * so wall times that only increase give the first sample at or after the
 * second, and a wall clock that stepped back, forward or slept is searched
 * as it read: a second it read twice is found where it read it first. */
size_t record_reader_find(const struct record_reader *r, const time_t *w, size_t nw, size_t from, size_t *which);
/* The earliest and latest sample wall times (not the first and last when
 * the clock stepped back); returns how many times the wall clock jumped
 * against the monotonic one (set, or the host slept) between samples. */
size_t record_reader_range(const struct record_reader *r, time_t *earliest, time_t *latest);

#endif
