#include "ui.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ui_status(struct ui *u, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->status, sizeof(u->status), fmt, ap);
	va_end(ap);
}

void ui_select_row(struct ui *u, int row)
{
	const struct app *a = u->app;

	if (a->nrows == 0) {
		u->sel_row = u->top_row = 0;
		u->sel_name[0] = '\0';
		return;
	}
	row = ui_clamp_index(row, (int)a->nrows);
	u->sel_row = row;
	u->sel_dev = a->m[a->rows[row]].dev;
	memcpy(u->sel_name, a->m[a->rows[row]].name, sizeof(u->sel_name));
	if (u->sel_row < u->top_row)
		u->top_row = u->sel_row;
	if (u->table_rows > 0 && u->sel_row >= u->top_row + u->table_rows)
		u->top_row = u->sel_row - u->table_rows + 1;
	/* Fewer rows (a filter, hidden idle devices) or a taller table (the
	 * detail pane closed): never leave empty lines below the last row. */
	if (u->table_rows > 0 && u->top_row > (int)a->nrows - u->table_rows)
		u->top_row = (int)a->nrows - u->table_rows;
	if (u->top_row < 0)
		u->top_row = 0;
}

void ui_sync_selection(struct ui *u)
{
	const struct app *a = u->app;

	for (size_t i = 0; i < a->nrows; i++) {
		const struct disk_metrics *m = &a->m[a->rows[i]];
		if (m->dev == u->sel_dev && !strcmp(m->name, u->sel_name)) {
			ui_select_row(u, (int)i);
			return;
		}
	}
	/* The device left or was filtered out: keep the row position. */
	ui_select_row(u, u->sel_row);
}

const struct disk_metrics *ui_selected(const struct ui *u)
{
	const struct app *a = u->app;

	if (a->nrows == 0 || u->sel_row < 0 || u->sel_row >= (int)a->nrows)
		return NULL;
	return &a->m[a->rows[u->sel_row]];
}

bool ui_replay(const struct ui *u)
{
	return sampler_replay(u->app->sampler) != NULL;
}
