/* diskseq: the kernel's sequence number of a disk (sys/block/X/diskseq, Linux
 * 5.15+). A device removed and re-created under the same name and number gets
 * a new one, so (name, diskseq) tells a disk from a later one that reused its
 * name. Where the kernel has none, identity falls back to name and dev_t. */
#ifndef BLKTUNE_DISKSEQ_H
#define BLKTUNE_DISKSEQ_H

#include "root.h"

/* Read disk's diskseq below r. Returns 0, -ENOENT where the kernel has none
 * (or the disk is gone), -EINVAL for a file that is not one number, or -errno. */
int diskseq_read(const struct root *r, const char *disk, unsigned long long *seq);

#endif
