/* source-cgroup: per-cgroup I/O counters for the cgroup view, read through
 * root from the cgroup v2 hierarchy where the io controller is on (io.stat),
 * else from v1 blkio (blkio.throttle.io_service_bytes_recursive and
 * io_serviced_recursive, else blkio.bfq.* of the same names).
 *
 * What v1 counts (measured on 6.18): blk-throttle keeps its counters only on
 * a device where throttling was ever activated, that is since some cgroup got
 * a throttle rule for it (even a limitless one; it stays active for the
 * queue's life), and then for every cgroup; bfq keeps its own for every
 * cgroup on a device whose scheduler is bfq. A device with neither is not
 * counted at all: it has no line in any cgroup, the root's included, and the
 * view says so rather than show zeros. blktune never writes a rule itself.
 *
 * The walk visits at most SOURCE_CGROUP_MAX cgroups (the rest are counted as
 * skipped), depth first, siblings by name. */
#ifndef BLKTUNE_SOURCE_CGROUP_H
#define BLKTUNE_SOURCE_CGROUP_H

#include "cgroup-sample.h"
#include "root.h"

#define SOURCE_CGROUP_MAX 4096
#define SOURCE_CGROUP_DEPTH 32

struct source_cgroup;

/* Find the hierarchy. A system with neither is no error: every read then
 * returns an invalid sample whose why says so. Returns 0 or -ENOMEM. */
int source_cgroup_open(const struct root *r, struct source_cgroup **out);
void source_cgroup_close(struct source_cgroup *src);
/* Fill out (reset first). Returns 0 or -errno (-ENOMEM); a cgroup that
 * vanished during the walk is left out. */
int source_cgroup_read(struct source_cgroup *src, struct cgroup_sample *out);

#endif
