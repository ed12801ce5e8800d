/* model-cgroup: the cgroup view's figures, a pure function of two samples:
 * per cgroup and device, read and write bytes and I/Os per second over the
 * interval and the cumulative counts, matched between samples by cgroup id
 * and path and by dev_t (a cgroup re-created under the same name has a new
 * id: no rate spans the two); with --trace-processes, the traced requests
 * whose bios were in the cgroup (by cgroup id) beside them. */
#ifndef BLKTUNE_MODEL_CGROUP_H
#define BLKTUNE_MODEL_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgroup-sample.h"
#include "model-procs.h"
#include "sample.h"

struct cgroup_row {
	uint64_t id;
	char path[CGROUP_PATH_MAX]; /* "" for a traced id the walk did not find (removed, or 0: no bio) */
	int depth;
	dev_t dev;
	char dev_name[SAMPLE_NAME_MAX]; /* from diskstats, else "MAJ:MIN" */
	enum cgroup_counter counter;
	bool rates; /* the previous sample had this cgroup and device, counters did not go back */
	double rbytes_s, wbytes_s, rios_s, wios_s;
	uint64_t rbytes, wbytes, rios, wios; /* cumulative, as the kernel counts them */
	bool counted; /* the kernel counts this pair (else the row is only traced: no counter) */
	bool traced;  /* --trace-processes saw requests of this cgroup on this device */
	struct proc_figures t; /* those requests (valid when traced) */
};

#define MODEL_CGROUP_UNCOUNTED 16

struct cgroup_metrics {
	bool valid;
	int version;
	char hierarchy[72];       /* where they were read: "/sys/fs/cgroup/blkio" */
	char why[160];
	double interval;
	struct cgroup_row *row; /* cgroups depth first, siblings by name; devices by dev_t */
	size_t nrows, cap;
	/* v1: whole disks no cgroup counts (no line in the root cgroup) */
	char uncounted[MODEL_CGROUP_UNCOUNTED][SAMPLE_NAME_MAX];
	size_t nuncounted;        /* may exceed MODEL_CGROUP_UNCOUNTED: names kept for the first ones */
	bool counter_used[CGROUP_COUNTERS];
	unsigned skipped, bad_lines;
	bool traced;             /* --trace-processes is on: rows carry traced figures */
	double trace_interval;   /* of the traced rates */
	struct proc_loss_figures loss; /* when traced: what tracing could not follow */
};

/* Derive the rows of cur->cg (prev may be NULL or hold no cgroups: no
 * rates) and, when cur->procs is traced, of its (cgroup id, device) pairs:
 * a pair the kernel counts and tracing saw is one row; one only traced is a
 * row of its own, under its cgroup when the walk found the id, else after
 * the tree. Pairs with nothing counted or traced yet are left out, and so
 * are devices not in only[] when only is not NULL (the device filter: -p,
 * /). Returns 0 or -ENOMEM. */
int model_cgroup(const struct sample *prev, const struct sample *cur, const dev_t *only, size_t nonly,
		 struct cgroup_metrics *out);
void model_cgroup_free(struct cgroup_metrics *m);

#endif
