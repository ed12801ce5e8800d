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

/* How often tunables are re-read without a change we made ourselves, up to
 * SOURCE_QUEUE_REREAD_DEVS devices; with more, the period grows with their
 * number (20 s at 256 devices, 80 s at 1024), so that these re-reads cost
 * each refresh what they cost at that many devices: at 1024 devices and
 * 5 s they were about 100 preads a refresh at -d 0.1, as much CPU as
 * reading /proc/diskstats. A tunable we change is re-read at once. */
#define SOURCE_QUEUE_REREAD_S 5.0
#define SOURCE_QUEUE_REREAD_DEVS 64

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
