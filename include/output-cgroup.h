/* output-cgroup: the cgroup view's figures as a JSON object (batch
 * --cgroups). Render only. */
#ifndef BLKTUNE_OUTPUT_CGROUP_H
#define BLKTUNE_OUTPUT_CGROUP_H

#include <stdio.h>

#include "model-cgroup.h"

/* {"version": 1, "hierarchy": "/sys/fs/cgroup/blkio", "uncounted": [...],
 *  "skipped": 0, "bad_lines": 0, "groups": [{"path", "id", "device",
 *  "counter", "rbytes", "wbytes", "rios", "wios", "rbytes_s", "wbytes_s",
 *  "rios_s", "wios_s"}]}; without a hierarchy {"version": null, "error": why}.
 *  Rates are null in the first report of a cgroup and device. */
void output_cgroup_json(FILE *f, const struct cgroup_metrics *m);

#endif
