/* rows: which devices the table shows and in what order (pure; tested). */
#ifndef BLKTUNE_ROWS_H
#define BLKTUNE_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

struct rows_filter {
	int sort_column;   /* enum column_id */
	bool sort_reverse; /* descending when true */
	bool partitions;   /* show partitions */
	bool hide_idle;    /* the TUI's i: nothing moved, nothing in flight */
	bool omit_zero;    /* -z: no I/O completed in the interval (iostat -z) */
	char name[32];     /* name filter (or dm name): a glob if it has * ? [, else a substring; "" = all */
	size_t ndevs;      /* -p DEV list (kernel, mapper or -j names); 0 = all */
	const char *const *devs;
	size_t nonly;      /* the process view's f: only these disks (dev_t); 0 = all */
	const dev_t *only;
};

/* Fill idx with the indices of m[] to show, in order; returns how many. */
size_t rows_build(const struct disk_metrics *m, size_t n, const struct rows_filter *f, size_t *idx);
/* The same, where idx already holds the last order (nprev rows): when that
 * is still the order, it is kept without sorting. */
size_t rows_build_from(const struct disk_metrics *m, size_t n, const struct rows_filter *f, size_t *idx,
		       size_t nprev);
/* The name filter's test: fnmatch(3) when pattern holds a glob character
 * (* ? [), else a substring. An empty name never matches. */
bool rows_name_match(const char *pattern, const char *name);
bool rows_visible(const struct disk_metrics *m, const struct rows_filter *f);
/* How many devices the table can show with f's partitions setting, before
 * the name filter, -p and hiding idle ones: the "of M" in "N of M devices".
 * Partitions count when they are shown, or when -p names them. */
size_t rows_total(const struct disk_metrics *m, size_t n, const struct rows_filter *f);

#endif
