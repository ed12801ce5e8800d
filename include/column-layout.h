/* column-layout: which columns the device table shows after DEVICE, and in
 * what order (-o, the columns panel f, the config file). Pure. */
#ifndef BLKTUNE_COLUMN_LAYOUT_H
#define BLKTUNE_COLUMN_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "columns.h"

struct column_layout {
	int col[COLUMN_COUNT]; /* enum column_id, never COLUMN_DEVICE (always first) */
	int n;
};

/* The table's own columns in their usual order. */
void column_layout_default(struct column_layout *l);
/* "r/s,w/s,rMB/s": headers or JSON keys, any case, each once, at least one.
 * Returns 0, or -EINVAL with why ("-o: unknown column \"x\""). */
int column_layout_parse(const char *list, struct column_layout *l, char *why, size_t len);
/* The list as column_layout_parse reads it back ("r/s,w/s"). */
void column_layout_text(const struct column_layout *l, char *out, size_t len);
/* Position of col in the layout, or -1. */
int column_layout_find(const struct column_layout *l, int col);
/* Show or hide col (hidden: out of the list; shown: at the end). At least
 * one column stays. Returns 0 or -EINVAL. */
int column_layout_toggle(struct column_layout *l, int col);
/* Move the column at position i one place (dir -1 or +1). Returns the new
 * position. */
int column_layout_move(struct column_layout *l, int i, int dir);
/* The columns panel's rows (top's f): the shown columns in their order, then
 * the hidden ones in the table's usual order. Fills out (room for
 * COLUMN_COUNT), returns how many; *shown gets how many of them are shown. */
int column_layout_panel(const struct column_layout *l, int *out, int *shown);

#endif
