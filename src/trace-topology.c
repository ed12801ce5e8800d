#include "trace-topology.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const trace_class_names[TRACE_CLASSES] = {
	"same_cpu", "same_llc", "same_node", "elsewhere",
};

void trace_topology_init(struct trace_topology *t)
{
	memset(t, 0, sizeof(*t));
}

void trace_topology_free(struct trace_topology *t)
{
	free(t->llc);
	free(t->node);
	trace_topology_init(t);
}

int trace_topology_cpulist(const char *s, int *first)
{
	long lo, hi, max = -1, min = -1;
	char *end;

	while (*s && *s != '\n') {
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		lo = strtol(s, &end, 10);
		hi = lo;
		if (*end == '-') {
			s = end + 1;
			if (!isdigit((unsigned char)*s))
				return -EINVAL;
			hi = strtol(s, &end, 10);
		}
		if (hi < lo || hi > 1 << 20)
			return -EINVAL;
		if (min < 0 || lo < min)
			min = lo;
		if (hi > max)
			max = hi;
		s = end;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	if (max < 0)
		return -EINVAL;
	if (first)
		*first = (int)min;
	return (int)max + 1;
}

/* The last-level cache is the highest "level" among cache/index*: index3 on
 * most x86, index2 on many arm64 machines. */
static int read_llc(const struct root *r, unsigned cpu)
{
	char path[128], buf[4096];
	unsigned long long level, best = 0;
	int id = -1, first;

	for (int i = 0; i < 8; i++) {
		snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%u/cache/index%d/level", cpu, i);
		if (root_read_u64(r, path, &level) < 0 || level < best)
			continue;
		snprintf(path, sizeof(path),
			 "sys/devices/system/cpu/cpu%u/cache/index%d/shared_cpu_list", cpu, i);
		if (root_read(r, path, buf, sizeof(buf)) < 0 || trace_topology_cpulist(buf, &first) < 0)
			continue;
		best = level;
		id = first;
	}
	return id;
}

/* cpuN/nodeM links name the node (absent without CONFIG_NUMA). */
static int read_node(const struct root *r, unsigned cpu)
{
	char path[64];
	struct dirent *de;
	int node = -1;
	DIR *d;

	snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%u", cpu);
	d = root_opendir(r, path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char *end;
		long n;

		if (strncmp(de->d_name, "node", 4) || !isdigit((unsigned char)de->d_name[4]))
			continue;
		n = strtol(de->d_name + 4, &end, 10);
		if (!*end) {
			node = (int)n;
			break;
		}
	}
	closedir(d);
	return node;
}

int trace_topology_read(const struct root *r, struct trace_topology *t)
{
	char buf[4096];
	int n;

	trace_topology_free(t);
	if (root_read(r, "sys/devices/system/cpu/possible", buf, sizeof(buf)) < 0)
		return -ENOENT;
	n = trace_topology_cpulist(buf, NULL);
	if (n < 0)
		return n;
	t->llc = malloc(sizeof(int) * (size_t)n);
	t->node = malloc(sizeof(int) * (size_t)n);
	if (!t->llc || !t->node) {
		trace_topology_free(t);
		return -ENOMEM;
	}
	t->ncpu = (unsigned)n;
	for (unsigned c = 0; c < t->ncpu; c++) {
		t->llc[c] = read_llc(r, c);
		t->node[c] = read_node(r, c);
	}
	return 0;
}

enum trace_class trace_topology_class(const struct trace_topology *t, unsigned from, unsigned to)
{
	if (from == to)
		return TRACE_CLASS_SAME_CPU;
	if (from >= t->ncpu || to >= t->ncpu)
		return TRACE_CLASS_ELSEWHERE;
	if (t->llc[from] >= 0 && t->llc[from] == t->llc[to])
		return TRACE_CLASS_SAME_LLC;
	if (t->node[from] >= 0 && t->node[from] == t->node[to])
		return TRACE_CLASS_SAME_NODE;
	return TRACE_CLASS_ELSEWHERE;
}
