/* ms-wrap: the millisecond fields of /proc/diskstats (read/write/discard/
 * flush ticks, io_ticks, time_in_queue) are printed with %u and wrap at
 * 2^32 ms; time_in_queue of a device 32 deep does so every 1.6 days. A
 * Prometheus counter that steps back reads as a reset, and rate() loses up
 * to one interval's increase. This keeps, per device and across samples,
 * how often each field wrapped, so what is published only grows while the
 * device lives; another device under its name (sample_same_disk: another
 * diskseq or generation) or one whose counters reset starts again from its
 * raw values. */
#ifndef BLKTUNE_MS_WRAP_H
#define BLKTUNE_MS_WRAP_H

#include <stddef.h>
#include <stdint.h>

#include "sample.h"

#define MS_WRAP_FIELDS 6

struct ms_wrap_dev;

struct ms_wrap {
	struct ms_wrap_dev *d; /* one per disk of the last sample, in its order */
	size_t n;
};

/* Take s's disks: a field below its last value (itself at most 2^32 - 1)
 * with no reset of the device has wrapped once more. Returns 0 or -ENOMEM
 * (w then forgets every device: values are raw again). */
int ms_wrap_update(struct ms_wrap *w, const struct sample *s);
/* raw, the field at byte offset off of struct disk_stat of disk i of the
 * sample last given to ms_wrap_update, extended past its wraps; raw itself
 * for a field that is not a millisecond field or a disk not known. */
uint64_t ms_wrap_value(const struct ms_wrap *w, size_t i, size_t off, uint64_t raw);
void ms_wrap_free(struct ms_wrap *w);

#endif
