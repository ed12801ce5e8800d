#include "column-layout.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void column_layout_default(struct column_layout *l)
{
	l->n = 0;
	for (int c = COLUMN_DEVICE + 1; c < COLUMN_COUNT; c++)
		if (columns[c].table)
			l->col[l->n++] = c;
}

int column_layout_find(const struct column_layout *l, int col)
{
	for (int i = 0; i < l->n; i++)
		if (l->col[i] == col)
			return i;
	return -1;
}

int column_layout_parse(const char *list, struct column_layout *l, char *why, size_t len)
{
	struct column_layout out = { .n = 0 };
	const char *p = list;

	while (p && *p) {
		size_t k = strcspn(p, ",");
		char name[48];
		int c;

		if (k == 0 || k >= sizeof(name)) {
			snprintf(why, len, "%s: give column names separated by commas (blktune --list columns)",
				 k ? "a name too long" : "an empty name");
			return -EINVAL;
		}
		snprintf(name, sizeof(name), "%.*s", (int)k, p);
		c = column_find(name);
		if (c < 0 || c == COLUMN_DEVICE) {
			snprintf(why, len, "%s \"%s\" (blktune --list columns)",
				 c == COLUMN_DEVICE ? "DEVICE is always the first column, not" : "no column", name);
			return -EINVAL;
		}
		if (column_layout_find(&out, c) >= 0) {
			snprintf(why, len, "column \"%s\" twice", name);
			return -EINVAL;
		}
		out.col[out.n++] = c;
		p += k;
		if (*p == ',')
			p++;
	}
	if (!out.n) {
		snprintf(why, len, "no column given (blktune --list columns)");
		return -EINVAL;
	}
	*l = out;
	return 0;
}

void column_layout_text(const struct column_layout *l, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < l->n && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s", i ? "," : "", columns[l->col[i]].header);
}

int column_layout_toggle(struct column_layout *l, int col)
{
	int i = column_layout_find(l, col);

	if (col <= COLUMN_DEVICE || col >= COLUMN_COUNT)
		return -EINVAL;
	if (i < 0) {
		l->col[l->n++] = col;
		return 0;
	}
	if (l->n == 1)
		return -EINVAL;
	memmove(&l->col[i], &l->col[i + 1], (size_t)(l->n - i - 1) * sizeof(l->col[0]));
	l->n--;
	return 0;
}

int column_layout_move(struct column_layout *l, int i, int dir)
{
	int j = i + dir, t;

	if (i < 0 || i >= l->n || j < 0 || j >= l->n)
		return i;
	t = l->col[i];
	l->col[i] = l->col[j];
	l->col[j] = t;
	return j;
}

int column_layout_panel(const struct column_layout *l, int *out, int *shown)
{
	int n = 0;

	for (int i = 0; i < l->n; i++)
		out[n++] = l->col[i];
	*shown = n;
	for (int c = COLUMN_DEVICE + 1; c < COLUMN_COUNT; c++)
		if (column_layout_find(l, c) < 0)
			out[n++] = c;
	return n;
}
