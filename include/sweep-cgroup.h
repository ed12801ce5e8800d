/* sweep-cgroup: a cgroup of its own for a sweep's command, so its I/O on the
 * device and its CPU time can be told from everyone else's. cgroup v2 where
 * the io controller is enabled (io.stat, cpu.stat); else v1 blkio, whose
 * throttle counters (blkio.throttle.io_service_bytes / io_serviced) count a
 * device once the cgroup has a throttle rule for it, so a limitless rule
 * (read_bps_device MAJ:MIN 2^64-1) is written first; CPU from v1 cpuacct.
 * All paths go through root; the files are parsed by cgroup-stat. */
#ifndef BLKTUNE_SWEEP_CGROUP_H
#define BLKTUNE_SWEEP_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "root.h"

#define SWEEP_CGROUP_PATH_MAX 256

struct sweep_cgroup {
	int version;                          /* 1 or 2; 0: none */
	char io[SWEEP_CGROUP_PATH_MAX];       /* relative to the root, "" if none */
	char cpu[SWEEP_CGROUP_PATH_MAX];      /* "" if no CPU accounting */
	unsigned major, minor;
};

struct sweep_cgroup_io {
	bool valid;
	uint64_t rbytes, wbytes, rios, wios;
};

struct sweep_cgroup_cpu {
	bool valid;
	uint64_t user_ns, sys_ns;
};

/* Create blktune-sweep-NAME for device major:minor. Returns 0 or -errno
 * (msg says what is missing). */
int sweep_cgroup_create(const struct root *r, const char *name, unsigned major, unsigned minor,
			struct sweep_cgroup *cg, char *msg, size_t len);
/* Move pid (and its future children) in. Returns 0 or -errno. */
int sweep_cgroup_attach(const struct root *r, const struct sweep_cgroup *cg, pid_t pid);
int sweep_cgroup_read_io(const struct root *r, const struct sweep_cgroup *cg, struct sweep_cgroup_io *out);
int sweep_cgroup_read_cpu(const struct root *r, const struct sweep_cgroup *cg, struct sweep_cgroup_cpu *out);
/* Kill anything left inside, then remove the directories. Returns 0 or
 * -errno (the first failure). */
int sweep_cgroup_destroy(const struct root *r, struct sweep_cgroup *cg);

#endif
