/* model-boot: averages since boot, what iostat -x prints without an
 * interval: every counter against zero over the uptime. Pure. */
#ifndef BLKTUNE_MODEL_BOOT_H
#define BLKTUNE_MODEL_BOOT_H

#include "model.h"

/* Every device of cur over uptime seconds; out holds cur->ndisks entries.
 * uptime <= 0 gives DISK_NEW rows (no figures). */
void model_boot_disks(const struct sample *cur, double uptime, struct disk_metrics *out);
/* CPU shares since boot (/proc/stat's totals). */
void model_boot_cpu(const struct cpu_stat *cur, struct cpu_metrics *out);

#endif
