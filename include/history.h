/* history: the last minute of throughput and IOPS per device, for sparklines.
 * Points are at least one second apart whatever the refresh interval, so the
 * sparkline always spans about a minute. Keyed by dev_t and name; a device
 * re-created under both (another diskseq) starts an empty history. */
#ifndef BLKTUNE_HISTORY_H
#define BLKTUNE_HISTORY_H

#include <stddef.h>

#include "model.h"

#define HISTORY_POINTS 60

struct history;

int history_new(struct history **out);
void history_free(struct history *h);
/* Add one interval of every device; devices absent from m are dropped. */
int history_add(struct history *h, const struct disk_metrics *m, size_t n);
/* Oldest first, into mbps[] and iops[] (HISTORY_POINTS each); returns count. */
int history_get(const struct history *h, dev_t dev, const char *name, float *mbps, float *iops);

#endif
