#include "source-mem.h"

#include <errno.h>
#include <libproc2/meminfo.h>
#include <libproc2/vmstat.h>
#include <stdlib.h>
#include <unistd.h>

struct source_mem {
	struct meminfo_info *mi;
	struct vmstat_info *vm;
	uint64_t page_kb;
};

static enum meminfo_item mem_items[] = { MEMINFO_MEM_TOTAL, MEMINFO_MEM_AVAILABLE, MEMINFO_MEM_CACHED };
static enum vmstat_item vm_items[] = { VMSTAT_NR_DIRTY, VMSTAT_NR_WRITEBACK };

int source_mem_open(const struct root *r, struct source_mem **out)
{
	struct source_mem *src;
	int err;

	if (!root_is_live(r))
		return -EOPNOTSUPP;
	if (!(src = calloc(1, sizeof(*src))))
		return -ENOMEM;
	if ((err = procps_meminfo_new(&src->mi)) < 0 || (err = procps_vmstat_new(&src->vm)) < 0) {
		if (src->mi)
			procps_meminfo_unref(&src->mi);
		free(src);
		return err;
	}
	src->page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	*out = src;
	return 0;
}

void source_mem_close(struct source_mem *src)
{
	if (!src)
		return;
	procps_meminfo_unref(&src->mi);
	procps_vmstat_unref(&src->vm);
	free(src);
}

int source_mem_read(struct source_mem *src, struct sample *s)
{
	struct meminfo_stack *m = procps_meminfo_select(src->mi, mem_items, 3);
	struct vmstat_stack *v = procps_vmstat_select(src->vm, vm_items, 2);

	s->mem.valid = false;
	if (!m || !v)
		return -EIO;
	s->mem.total_kb = m->head[0].result.ul_int;
	s->mem.available_kb = m->head[1].result.ul_int;
	s->mem.cached_kb = m->head[2].result.ul_int;
	/* vmstat counts pages: the live figures, not meminfo's rounded copy. */
	s->mem.dirty_kb = v->head[0].result.ul_int * src->page_kb;
	s->mem.writeback_kb = v->head[1].result.ul_int * src->page_kb;
	s->mem.valid = true;
	return 0;
}
