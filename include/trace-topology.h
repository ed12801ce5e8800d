/* trace-topology: which CPUs share a last-level cache and a NUMA node, read from
 * sysfs through root.h (so it is tested on fixture trees). Used to group the
 * submit-CPU -> completion-CPU pairs of traced requests. */
#ifndef BLKTUNE_TRACE_TOPOLOGY_H
#define BLKTUNE_TRACE_TOPOLOGY_H

#include "root.h"

/* Where a request completed relative to the CPU that submitted it; the values
 * are the kernel side's BLKTUNE_CLASS_*. */
enum trace_class {
	TRACE_CLASS_SAME_CPU,
	TRACE_CLASS_SAME_LLC,
	TRACE_CLASS_SAME_NODE,
	TRACE_CLASS_ELSEWHERE,
	TRACE_CLASSES
};

struct trace_topology {
	unsigned ncpu; /* possible CPUs: highest number in cpu/possible + 1 */
	int *llc;      /* per CPU: lowest CPU sharing its last-level cache, -1 unknown */
	int *node;     /* per CPU: NUMA node, -1 unknown */
};

void trace_topology_init(struct trace_topology *t);
void trace_topology_free(struct trace_topology *t);
/* Fill from sys/devices/system/cpu below the root. An offline or absent CPU
 * gets -1 everywhere. Returns 0 or -errno (-ENOENT without cpu/possible). */
int trace_topology_read(const struct root *r, struct trace_topology *t);
/* Class of a completion on CPU `to` of a request submitted on CPU `from`:
 * same LLC and same node need both CPUs known and equal. */
enum trace_class trace_topology_class(const struct trace_topology *t, unsigned from, unsigned to);
/* Parse a kernel CPU list ("0-3,8,10-11"); returns the highest CPU + 1,
 * the lowest in *first (may be NULL), or -EINVAL. */
int trace_topology_cpulist(const char *s, int *first);
extern const char *const trace_class_names[TRACE_CLASSES];

#endif
