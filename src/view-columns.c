#include <curses.h>
#include <stdio.h>

#include "columns.h"
#include "view.h"

/* The columns panel (top's f): every column the table can show, the shown
 * ones first in their order, each with what it is; the selected one can be
 * shown or hidden, moved, or made the sort key. */
void view_columns_draw(struct ui *u, int y, int height, int width)
{
	int rows[COLUMN_COUNT], shown, n = column_layout_panel(&u->layout, rows, &shown);
	const char *keys = "space shows or hides the column, J/K (Shift-Down/Up) move it, s sorts by it, "
			   "W saves the layout in the config file, f or Esc goes back";
	int keys_h = view_wrap(-1, width, 3, keys), list_h;

	attrset(view_attr(u, VC_TITLE));
	mvprintw(y, 0, "%.*s", width, "columns of the device table");
	attrset(A_NORMAL);
	if (width > 60)
		printw("   %d shown, %d hidden", shown, n - shown);
	view_wrap(y + 1, width, keys_h, keys);
	attrset(view_attr(u, VC_HEADER));
	mvhline(y + 1 + keys_h, 0, ' ', width);
	mvprintw(y + 1 + keys_h, 0, "%.*s", width, "SHOWN  COLUMN     WHAT IT IS");
	attrset(A_NORMAL);
	list_h = height - 2 - keys_h;
	if (list_h < 1)
		return;
	if (u->colp_sel >= n)
		u->colp_sel = n - 1;
	if (u->colp_sel < u->colp_top)
		u->colp_top = u->colp_sel;
	if (u->colp_sel >= u->colp_top + list_h)
		u->colp_top = u->colp_sel - list_h + 1;
	for (int r = 0; r < list_h && u->colp_top + r < n; r++) {
		int i = u->colp_top + r, line = y + 2 + keys_h + r;
		const struct column *c = &columns[rows[i]];
		bool sel = i == u->colp_sel, sorted = rows[i] == u->app->filter.sort_column;
		char pos[8] = "";

		if (i < shown)
			snprintf(pos, sizeof(pos), "%2d", i + 1);
		attrset(sel ? view_attr(u, VC_SELECTED) : (i < shown ? (int)A_NORMAL : view_attr(u, VC_DIM)));
		if (sel)
			mvhline(line, 0, ' ', width);
		mvprintw(line, 0, "%s %2s  %-9s%s %.*s", i < shown ? "[x]" : "[ ]", pos, c->header, sorted ? "^" : " ",
			 width > 20 ? width - 20 : 0, c->formula);
	}
	attrset(A_NORMAL);
}
