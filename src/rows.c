#include "rows.h"

#include <stdlib.h>
#include <string.h>

#include "columns.h"

bool rows_visible(const struct disk_metrics *m, const struct rows_filter *f)
{
	if (f->ndevs) {
		for (size_t i = 0; i < f->ndevs; i++)
			if (!strcmp(f->devs[i], m->name))
				return true;
		return false;
	}
	if (m->info.kind == DISK_KIND_PARTITION && !f->partitions)
		return false;
	if (f->hide_idle && model_disk_idle(m))
		return false;
	if (f->name[0] && !strstr(m->name, f->name) && !strstr(m->info.dm_name, f->name))
		return false;
	return true;
}

/* qsort has no context argument: sort an array of (key, pointer) pairs. */
struct sort_item {
	const struct disk_metrics *m;
	size_t idx;
	const struct rows_filter *f;
};

static int cmp_items(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;
	int r = column_compare(&columns[x->f->sort_column], x->m, y->m);

	return x->f->sort_reverse ? -r : r;
}

size_t rows_build(const struct disk_metrics *m, size_t n, const struct rows_filter *f, size_t *idx)
{
	struct sort_item *items = malloc((n ? n : 1) * sizeof(*items));
	size_t k = 0;

	if (!items)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (rows_visible(&m[i], f))
			items[k++] = (struct sort_item){ &m[i], i, f };
	if (f->sort_column >= 0 && f->sort_column < COLUMN_COUNT)
		qsort(items, k, sizeof(*items), cmp_items);
	for (size_t i = 0; i < k; i++)
		idx[i] = items[i].idx;
	free(items);
	return k;
}
