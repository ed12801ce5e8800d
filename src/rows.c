#include "rows.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "names.h"

/* iostat -z: no read, write, discard or flush completed in the interval. A
 * device without an interval (new, reset) has all of them 0 too. */
static bool no_io(const struct disk_metrics *m)
{
	return m->d_rd_ios == 0 && m->d_wr_ios == 0 && m->d_s == 0 && m->f_s == 0;
}

bool rows_name_match(const char *pattern, const char *name)
{
	if (!name[0])
		return false;
	if (strpbrk(pattern, "*?["))
		return fnmatch(pattern, name, 0) == 0;
	return strstr(name, pattern) != NULL;
}

bool rows_visible(const struct disk_metrics *m, const struct rows_filter *f)
{
	if (f->ndevs) {
		size_t i = 0;
		while (i < f->ndevs && !names_match(f->devs[i], m))
			i++;
		if (i == f->ndevs)
			return false;
	} else if (m->info->kind == DISK_KIND_PARTITION && !f->partitions) {
		return false;
	}
	if (f->nonly) {
		size_t i = 0;
		while (i < f->nonly && f->only[i] != m->dev)
			i++;
		if (i == f->nonly)
			return false;
	}
	if (f->hide_idle && model_disk_idle(m))
		return false;
	if (f->omit_zero && no_io(m))
		return false;
	if (f->name[0] && !rows_name_match(f->name, m->name) && !rows_name_match(f->name, m->info->text->dm_name) &&
	    !rows_name_match(f->name, m->info->persistent))
		return false;
	return true;
}

size_t rows_total(const struct disk_metrics *m, size_t n, const struct rows_filter *f)
{
	size_t total = 0;

	for (size_t i = 0; i < n; i++) {
		bool named = false;

		for (size_t d = 0; d < f->ndevs && !named; d++)
			named = names_match(f->devs[d], &m[i]);
		total += m[i].info->kind != DISK_KIND_PARTITION || f->partitions || named;
	}
	return total;
}

static size_t count_visible(const unsigned char *visible, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += visible[i];
	return k;
}

/* qsort has no context argument: sort an array of (key, pointer) pairs. */
struct sort_item {
	const struct disk_metrics *m;
	size_t idx;
	const struct rows_filter *f;
	const char *group; /* by name: the disk's name as shown */
};

/* The disk a row belongs to, by the name shown: a partition's disk's (with
 * -j its persistent name, which the partition's kernel parent name is not),
 * else the row's own. diskstats lists a disk's partitions right after it. */
static const char *group_of(const struct disk_metrics *m, size_t n, size_t i)
{
	const char *parent = m[i].info->text->parent;
	size_t j = i;

	if (m[i].info->kind != DISK_KIND_PARTITION || !parent[0])
		return names_label(&m[i]);
	while (j > 0 && m[j - 1].info->kind == DISK_KIND_PARTITION)
		j--;
	if (j > 0 && !strcmp(m[j - 1].name, parent))
		return names_label(&m[j - 1]);
	for (j = 0; j < n; j++)
		if (m[j].info->kind != DISK_KIND_PARTITION && !strcmp(m[j].name, parent))
			return names_label(&m[j]);
	return parent;
}

static struct sort_item item(const struct disk_metrics *m, size_t n, size_t i, const struct rows_filter *f)
{
	return (struct sort_item){ &m[i], i, f, f->sort_column == COLUMN_DEVICE ? group_of(m, n, i) : NULL };
}

/* Ties keep the kernel's order (diskstats' line order) in both directions.
 * By name, partitions stay under their disk either way: the disk first,
 * then its partitions by name. */
static int cmp_items(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;
	int r;

	if (x->f->sort_column == COLUMN_DEVICE) {
		r = column_natural_cmp(x->group, y->group);
		if (r)
			return x->f->sort_reverse ? -r : r;
		r = (x->m->info->kind == DISK_KIND_PARTITION) - (y->m->info->kind == DISK_KIND_PARTITION);
		if (r)
			return r;
	}
	/* A row without a figure (NaN: untraced, no traced I/O) compares
	 * equal to every number, which leaves the rows around it unsorted
	 * (100, -, 500 stayed so largest first): it goes last either way. */
	if (columns[x->f->sort_column].type == COL_NUM) {
		bool xn = isnan(column_value(&columns[x->f->sort_column], x->m)),
		     yn = isnan(column_value(&columns[y->f->sort_column], y->m));
		if (xn != yn)
			return xn ? 1 : -1;
	}
	r = column_compare(&columns[x->f->sort_column], x->m, y->m);
	if (r)
		return x->f->sort_reverse && x->f->sort_column != COLUMN_DEVICE ? -r : r;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Whether idx[0..nprev) is still the order of the k visible rows: k of
 * them, each visible, each after the one before (cmp_items is a total
 * order, so none twice).
 * n - 1 comparisons instead of a sort; visible[] marks the rows to show. */
static bool still_ordered(const struct disk_metrics *m, size_t n, const struct rows_filter *f, const size_t *idx,
			  size_t nprev, const unsigned char *visible, size_t k)
{
	if (nprev != k || f->sort_column < 0 || f->sort_column >= COLUMN_COUNT)
		return false;
	for (size_t i = 0; i < nprev; i++) {
		struct sort_item a, b;

		if (idx[i] >= n || !visible[idx[i]])
			return false;
		if (!i)
			continue;
		a = item(m, n, idx[i - 1], f);
		b = item(m, n, idx[i], f);
		if (cmp_items(&a, &b) >= 0)
			return false;
	}
	return true;
}

size_t rows_build_from(const struct disk_metrics *m, size_t n, const struct rows_filter *f, size_t *idx,
		       size_t nprev)
{
	struct sort_item *items = malloc((n ? n : 1) * sizeof(*items));
	unsigned char *visible = malloc(n ? n : 1);
	size_t k = 0;

	if (!items || !visible) {
		free(items);
		free(visible);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		visible[i] = rows_visible(&m[i], f);
	/* A refresh seldom changes the order (by name, never while the set
	 * of devices stays): sort only when the last one no longer holds. */
	if (!still_ordered(m, n, f, idx, nprev, visible, k = count_visible(visible, n))) {
		k = 0;
		for (size_t i = 0; i < n; i++)
			if (visible[i])
				items[k++] = item(m, n, i, f);
		if (f->sort_column >= 0 && f->sort_column < COLUMN_COUNT)
			qsort(items, k, sizeof(*items), cmp_items);
		for (size_t i = 0; i < k; i++)
			idx[i] = items[i].idx;
	}
	free(items);
	free(visible);
	return k;
}

size_t rows_build(const struct disk_metrics *m, size_t n, const struct rows_filter *f, size_t *idx)
{
	return rows_build_from(m, n, f, idx, 0);
}
