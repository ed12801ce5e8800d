/* source-queue: what sysfs says about each device in a sample (kind, stack,
 * queue limits, current tunables). Static facts are read once per device;
 * tunables and the size are re-read through kept-open fds every few seconds,
 * or at once after source_queue_invalidate(), so a refresh costs almost
 * nothing; a loop device's backing file when a uevent names it. The
 * diskseq (the device's identity with dev_t and name) is pread every fill
 * from a kept fd: a device re-created under the same name and number is
 * discovered afresh and its sample carries the new diskseq. */
#ifndef BLKTUNE_SOURCE_QUEUE_H
#define BLKTUNE_SOURCE_QUEUE_H

#include "root.h"
#include "sample.h"

/* How often tunables are re-read without a change we made ourselves. */
#define SOURCE_QUEUE_REREAD_S 5.0

struct source_queue;

int source_queue_open(const struct root *r, struct source_queue **out);
void source_queue_close(struct source_queue *sq);
/* Fill info of every disk of s (s->t must be set). Devices no longer in s are
 * forgotten and their fds closed. Returns 0 or -ENOMEM. */
int source_queue_fill(struct source_queue *sq, struct sample *s);
/* Re-read this device's tunables on the next fill (after we wrote one). */
void source_queue_invalidate(struct source_queue *sq, dev_t dev);
/* How many sysfs fds are kept open (for tests and the benchmark). */
size_t source_queue_open_fds(const struct source_queue *sq);

#endif
