/* history: the last 60 points of throughput and IOPS per device, for
 * sparklines. A point covers at least one second (a minute in all at
 * intervals up to 1 s) or one interval when that is longer: history_span
 * says how long they cover. Keyed by dev_t and name; a device
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
/* The seconds the points history_get returns cover (0 without any). */
double history_span(const struct history *h, dev_t dev, const char *name);

#endif
