/* diskseq: the kernel's sequence number of a disk (sys/block/X/diskseq, Linux
 * 5.15+). A device removed and re-created under the same name and number gets
 * a new one (a loop device detached and attached again keeps its name and
 * number, not its diskseq), so (name, dev_t, diskseq) tells a disk from a
 * later one that reused its name: no rate, history point or A/B interval
 * spans the two. Where the kernel has none, identity falls back to name and
 * dev_t. */
#ifndef BLKTUNE_DISKSEQ_H
#define BLKTUNE_DISKSEQ_H

#include "root.h"

/* Read disk's diskseq below r (its kernel name, as in /proc/diskstats;
 * partitions have none: pass their disk). Returns 0, -ENOENT where the kernel
 * has none (or the disk is gone), -EINVAL for a file that is not one number,
 * or -errno. */
int diskseq_read(const struct root *r, const char *disk, unsigned long long *seq);
/* The same file kept open for the refresh path: an fd or -errno. */
int diskseq_open(const struct root *r, const char *disk);
/* Re-read a kept fd. -ENODEV: the disk it belonged to is gone. */
int diskseq_pread(int fd, unsigned long long *seq);

#endif
