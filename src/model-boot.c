#include "model-boot.h"

#include <string.h>

void model_boot_disks(const struct sample *cur, double uptime, struct disk_metrics *out)
{
	for (size_t i = 0; i < cur->ndisks; i++) {
		struct disk_sample zero;

		/* The device as it was at boot: same identity, no I/O yet. */
		memset(&zero, 0, sizeof(zero));
		zero.st.dev = cur->disks[i].st.dev;
		memcpy(zero.st.name, cur->disks[i].st.name, sizeof(zero.st.name));
		zero.st.nfields = cur->disks[i].st.nfields;
		model_disk(&zero, &cur->disks[i], uptime, &out[i]);
	}
}

void model_boot_cpu(const struct cpu_stat *cur, struct cpu_metrics *out)
{
	struct cpu_stat zero;

	memset(&zero, 0, sizeof(zero));
	zero.valid = true;
	model_cpu(&zero, cur, out);
}
