#include "source-cpu.h"

#include <errno.h>
#include <libproc2/stat.h>
#include <stdlib.h>

struct source_cpu {
	struct stat_info *info;
};

static enum stat_item items[] = {
	STAT_TIC_USER, STAT_TIC_NICE,    STAT_TIC_SYSTEM,  STAT_TIC_IDLE,
	STAT_TIC_IOWAIT, STAT_TIC_IRQ, STAT_TIC_SOFTIRQ, STAT_TIC_STOLEN,
};
#define NITEMS ((int)(sizeof(items) / sizeof(items[0])))

int source_cpu_open(const struct root *r, struct source_cpu **out)
{
	struct source_cpu *src;
	int err;

	if (!root_is_live(r))
		return -EOPNOTSUPP;
	if (!(src = calloc(1, sizeof(*src))))
		return -ENOMEM;
	if ((err = procps_stat_new(&src->info)) < 0) {
		free(src);
		return err;
	}
	*out = src;
	return 0;
}

void source_cpu_close(struct source_cpu *src)
{
	if (!src)
		return;
	procps_stat_unref(&src->info);
	free(src);
}

int source_cpu_read(struct source_cpu *src, struct sample *s)
{
	/* select re-reads /proc/stat every call; procps_stat_get caches for a
	 * second, too coarse for sub-second intervals. */
	struct stat_stack *st = procps_stat_select(src->info, items, NITEMS);
	uint64_t *dst[NITEMS] = { &s->cpu.user, &s->cpu.nice,   &s->cpu.system,  &s->cpu.idle,
				  &s->cpu.iowait, &s->cpu.irq, &s->cpu.softirq, &s->cpu.steal };

	if (!st) {
		s->cpu.valid = false;
		return -errno ? -errno : -EIO;
	}
	for (int i = 0; i < NITEMS; i++)
		*dst[i] = st->head[i].result.ull_int;
	s->cpu.valid = true;
	return 0;
}
