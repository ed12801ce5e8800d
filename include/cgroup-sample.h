/* cgroup-sample: cumulative per-cgroup, per-device I/O counters at one
 * instant, as source-cgroup read them (the cgroup view's part of a sample).
 * Cgroups are keyed by id (the inode of the cgroup's directory, which is the
 * kernel's cgroup id) and path, devices by dev_t. */
#ifndef BLKTUNE_CGROUP_SAMPLE_H
#define BLKTUNE_CGROUP_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CGROUP_PATH_MAX 256

/* Which kernel counter a figure comes from. They count different things:
 * v2 io.stat and v1 blk-throttle count bios as submitted (a bio split in two
 * is two I/Os, its bytes once); v1 bfq counts requests as the scheduler
 * received them (after merging). */
enum cgroup_counter {
	CGROUP_COUNTER_V2,       /* io.stat */
	CGROUP_COUNTER_THROTTLE, /* blkio.throttle.*_recursive */
	CGROUP_COUNTER_BFQ,      /* blkio.bfq.*_recursive */
	CGROUP_COUNTERS
};
extern const char *const cgroup_counter_names[CGROUP_COUNTERS];

struct cgroup_io {
	dev_t dev;
	enum cgroup_counter counter;
	uint64_t rbytes, wbytes, dbytes, rios, wios, dios;
};

struct cgroup_group {
	uint64_t id;               /* directory inode: the cgroup id */
	char path[CGROUP_PATH_MAX]; /* "/" or "/a/b" inside the hierarchy */
	int depth;                 /* 0 for the hierarchy's root */
	size_t first, n;           /* its devices: io[first .. first + n) */
};

/* Every cgroup the walk visited is a group, with or without devices: the
 * traced cgroup ids (the bio's blkcg) find their path here. */
struct cgroup_sample {
	bool valid;
	double t;                 /* CLOCK_MONOTONIC in the middle of the walk: rates use
				   * the walk's own instants, not the sample's */
	int version;              /* 2: v2 io controller, 1: v1 blkio */
	char mount[64];           /* the hierarchy, relative to the root dir */
	struct cgroup_group *groups;
	size_t ngroups, gcap;
	struct cgroup_io *io;
	size_t nio, iocap;
	unsigned skipped;         /* cgroups past the limit, not read */
	unsigned bad_lines;       /* stat lines that did not parse */
	char why[160];            /* when not valid: why ("no blkio hierarchy") */
};

void cgroup_sample_init(struct cgroup_sample *c);
void cgroup_sample_free(struct cgroup_sample *c);
/* Empty it, keeping the allocations. */
void cgroup_sample_reset(struct cgroup_sample *c);
/* Append a cgroup (its devices follow with cgroup_sample_add_io). Returns it
 * or NULL on ENOMEM. */
struct cgroup_group *cgroup_sample_add_group(struct cgroup_sample *c, uint64_t id, const char *path, int depth);
/* Append a device to the last group. Returns it or NULL on ENOMEM. */
struct cgroup_io *cgroup_sample_add_io(struct cgroup_sample *c, dev_t dev, enum cgroup_counter counter);
/* The group with this id and path, or NULL; hint is the index to try first. */
const struct cgroup_group *cgroup_sample_find(const struct cgroup_sample *c, uint64_t id, const char *path,
					      size_t hint);
/* The group with this id (the path of a traced cgroup id), or NULL. */
const struct cgroup_group *cgroup_sample_find_id(const struct cgroup_sample *c, uint64_t id);
/* A group's counters for dev, or NULL. */
const struct cgroup_io *cgroup_sample_io(const struct cgroup_sample *c, const struct cgroup_group *g, dev_t dev);

#endif
