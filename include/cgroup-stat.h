/* cgroup-stat: the parsers of cgroup I/O and CPU statistics files, pure
 * functions of their text, shared by the sweep's own cgroup and the cgroup
 * view's source.
 *
 * v2 io.stat: one line per device, "MAJ:MIN rbytes=N wbytes=N rios=N wios=N
 * dbytes=N dios=N" (keys in any order, unknown keys ignored, missing ones 0).
 * v1 blkio rwstat files (blkio.throttle.io_service_bytes[_recursive],
 * io_serviced[_recursive], blkio.bfq.*): "MAJ:MIN Op N" lines, Op one of Read,
 * Write, Sync, Async, Discard, Total, and a closing "Total N" line. A file
 * holds bytes or I/Os, never both: the caller says which. */
#ifndef BLKTUNE_CGROUP_STAT_H
#define BLKTUNE_CGROUP_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One device's counters in one cgroup. */
struct cgroup_stat_dev {
	unsigned major, minor;
	uint64_t rbytes, wbytes, dbytes;
	uint64_t rios, wios, dios;
};

/* What a v1 rwstat file counts. */
enum cgroup_stat_unit {
	CGROUP_STAT_BYTES,
	CGROUP_STAT_IOS,
};

/* Parse io.stat text into devs (at most max entries; devices already in devs
 * are updated, new ones appended). Lines that are not "MAJ:MIN key=value..."
 * are skipped and counted in *bad. Returns 0 or -E2BIG when a device did not
 * fit (the others are kept). */
int cgroup_stat_parse_v2(const char *text, struct cgroup_stat_dev *devs, size_t *n, size_t max,
			 unsigned *bad);
/* The same for one v1 rwstat file holding `unit`: Read, Write and Discard go
 * to rbytes/wbytes/dbytes or rios/wios/dios; Sync, Async and Total are sums
 * of those and are not kept. */
int cgroup_stat_parse_v1(const char *text, enum cgroup_stat_unit unit, struct cgroup_stat_dev *devs, size_t *n,
			 size_t max, unsigned *bad);
/* The entry for major:minor, or NULL. */
const struct cgroup_stat_dev *cgroup_stat_find(const struct cgroup_stat_dev *devs, size_t n, unsigned major,
					       unsigned minor);

/* True when a v2 cgroup.controllers or cgroup.subtree_control text
 * ("cpu io memory") names the controller. */
bool cgroup_stat_controller(const char *text, const char *name);

/* v2 cpu.stat: user_usec and system_usec in ns. Returns 0 or -ENOENT. */
int cgroup_stat_parse_cpu_v2(const char *text, uint64_t *user_ns, uint64_t *sys_ns);

#endif
