#include <curses.h>
#include <string.h>

#include "columns.h"
#include "view.h"

/* Mapper and persistent names are long: the DEVICE column grows to fit
 * them, up to this many characters. */
#define NAME_WIDTH_MAX 32

/* Columns on screen: DEVICE, then table columns from hscroll on, while they fit. */
static int visible_columns(const struct ui *u, int width, int name_width, int *out)
{
	int n = 0, x = name_width;

	out[n++] = COLUMN_DEVICE;
	for (int i = u->hscroll; i < u->layout.n; i++) {
		int c = u->layout.col[i];
		if ((columns[c].flags & COLUMN_RAMODE) && !sampler_readahead_on(u->app->sampler))
			continue;
		if (x + 1 + columns[c].width > width)
			break;
		x += 1 + columns[c].width;
		out[n++] = c;
	}
	return n;
}

/* A device with a tunable off its original is marked "name*": one more
 * column for the name when any row has it. */
static int any_differs(const struct ui *u)
{
	for (size_t r = 0; r < u->app->nrows; r++)
		if (tunable_session_differs(u->ts, u->app->m[u->app->rows[r]].name))
			return 1;
	return 0;
}

int view_table_draw(struct ui *u, int y, int height, int width)
{
	const struct app *a = u->app;
	int name_width = column_name_width(a->m, a->rows, a->nrows, NAME_WIDTH_MAX) + any_differs(u);
	int cols[COLUMN_COUNT], ncols = visible_columns(u, width, name_width, cols);
	char cell[256];

	if (height < 2)
		return 0;
	attrset(view_attr(u, VC_HEADER));
	mvhline(y, 0, ' ', width);
	move(y, 0);
	u->table_y = y;
	u->ntable_x = ncols;
	for (int i = 0; i < ncols; i++) {
		const struct column *c = &columns[cols[i]];
		u->table_col[i] = cols[i];
		u->table_x[i] = getcurx(stdscr);
		bool sorted = cols[i] == a->filter.sort_column;
		char h[40], name[32];
		column_header_unit(c, u->unit, name, sizeof(name));
		snprintf(h, sizeof(h), "%s%s", name, sorted ? (a->filter.sort_reverse ? "v" : "^") : "");
		if (c->type == COL_NUM)
			printw(i ? " %*s" : "%*s", c->width, h);
		else
			printw(i ? " %-*s" : "%-*s", cols[i] == COLUMN_DEVICE ? name_width : c->width, h);
	}
	attrset(A_NORMAL);
	u->table_x[ncols] = getcurx(stdscr);
	u->table_rows = height - 1;
	ui_sync_selection(u);
	if (a->nrows == 0) {
		mvprintw(y + 1, 0, "no devices%s", a->filter.name[0] || a->filter.hide_idle ? " match the filter (Esc clears, i shows idle)" : "");
		return height;
	}
	for (int r = 0; r < u->table_rows && u->top_row + r < (int)a->nrows; r++) {
		int row = u->top_row + r;
		const struct disk_metrics *m = &a->m[a->rows[row]];
		bool sel = row == u->sel_row;

		attrset(sel ? view_attr(u, VC_SELECTED) : (int)A_NORMAL);
		if (sel)
			mvhline(y + 1 + r, 0, ' ', width);
		move(y + 1 + r, 0);
		for (int i = 0; i < ncols; i++) {
			if (cols[i] == COLUMN_DEVICE && tunable_session_differs(u->ts, m->name)) {
				size_t l;
				column_name_cell(m, name_width - 1, cell, sizeof(cell));
				l = strcspn(cell, " ");
				memmove(cell + l + 1, cell + l, strlen(cell + l) + 1);
				cell[l] = '*';
				if (!sel)
					attrset(view_attr(u, VC_CHANGED));
				addstr(cell);
				attrset(sel ? view_attr(u, VC_SELECTED) : (int)A_NORMAL);
				continue;
			} else if (cols[i] == COLUMN_DEVICE)
				column_name_cell(m, name_width, cell, sizeof(cell));
			else
				column_cell_unit(&columns[cols[i]], m, u->unit, cell, sizeof(cell));
			if (i)
				addch(' ');
			addstr(cell);
		}
	}
	attrset(A_NORMAL);
	return height;
}
