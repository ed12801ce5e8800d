#include "keymap.h"

#include <curses.h>
#include <string.h>

#include "columns.h"

const double keymap_intervals[KEYMAP_INTERVALS] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60 };

static unsigned act_quit(struct ui *u)
{
	u->quit = true;
	return 0;
}

static unsigned act_help(struct ui *u)
{
	u->mode = u->mode == UI_HELP ? UI_TABLE : UI_HELP;
	u->help_top = 0;
	return ACT_REDRAW;
}

static unsigned act_pause(struct ui *u)
{
	u->paused = !u->paused;
	loop_pause(u->loop, u->paused);
	ui_status(u, u->paused ? "paused: space resumes" : "resumed");
	return ACT_REDRAW;
}

static unsigned change_interval(struct ui *u, int dir)
{
	double cur = u->app->opt.interval;
	int i;

	/* The next step of the ladder above (or below) the current value. */
	if (dir > 0) {
		for (i = 0; i < KEYMAP_INTERVALS - 1 && keymap_intervals[i] <= cur + 1e-9; i++)
			;
	} else {
		for (i = KEYMAP_INTERVALS - 1; i > 0 && keymap_intervals[i] >= cur - 1e-9; i--)
			;
	}
	u->app->opt.interval = keymap_intervals[i];
	if (!u->paused)
		loop_set_interval(u->loop, u->app->opt.interval);
	ui_status(u, "interval %.1f s", u->app->opt.interval);
	return ACT_REDRAW;
}

static unsigned act_slower(struct ui *u)
{
	return change_interval(u, +1);
}

static unsigned act_faster(struct ui *u)
{
	return change_interval(u, -1);
}

static unsigned move_sel(struct ui *u, int delta)
{
	if (u->mode == UI_HELP) {
		u->help_top += delta;
		if (u->help_top < 0)
			u->help_top = 0;
		return ACT_REDRAW;
	}
	ui_select_row(u, u->sel_row + delta);
	return ACT_REDRAW;
}

static unsigned act_down(struct ui *u)
{
	return move_sel(u, 1);
}

static unsigned act_up(struct ui *u)
{
	return move_sel(u, -1);
}

static unsigned act_pgdown(struct ui *u)
{
	return move_sel(u, u->table_rows > 1 ? u->table_rows - 1 : 1);
}

static unsigned act_pgup(struct ui *u)
{
	return move_sel(u, -(u->table_rows > 1 ? u->table_rows - 1 : 1));
}

static unsigned act_home(struct ui *u)
{
	return move_sel(u, -(int)u->app->nrows - u->help_top);
}

static unsigned act_end(struct ui *u)
{
	return move_sel(u, (int)u->app->nrows);
}

static unsigned sort_step(struct ui *u, int dir)
{
	int c = u->app->filter.sort_column;

	/* Only columns of the table can be sort keys. */
	do
		c = (c + dir + COLUMN_COUNT) % COLUMN_COUNT;
	while (!columns[c].table);
	u->app->filter.sort_column = c;
	/* Numbers read best largest first; names alphabetically. */
	u->app->filter.sort_reverse = columns[c].type == COL_NUM;
	ui_status(u, "sorted by %s%s", columns[c].header, u->app->filter.sort_reverse ? " (descending)" : "");
	return ACT_ROWS;
}

static unsigned act_sort_next(struct ui *u)
{
	return sort_step(u, +1);
}

static unsigned act_sort_prev(struct ui *u)
{
	return sort_step(u, -1);
}

static unsigned act_sort_reverse(struct ui *u)
{
	u->app->filter.sort_reverse = !u->app->filter.sort_reverse;
	ui_status(u, "sorted by %s%s", columns[u->app->filter.sort_column].header,
		  u->app->filter.sort_reverse ? " (descending)" : " (ascending)");
	return ACT_ROWS;
}

static unsigned act_idle(struct ui *u)
{
	u->app->filter.hide_idle = !u->app->filter.hide_idle;
	ui_status(u, u->app->filter.hide_idle ? "idle devices hidden" : "idle devices shown");
	return ACT_ROWS;
}

static unsigned act_partitions(struct ui *u)
{
	u->app->filter.partitions = !u->app->filter.partitions;
	ui_status(u, u->app->filter.partitions ? "partitions shown" : "partitions hidden");
	return ACT_ROWS;
}

static unsigned act_filter(struct ui *u)
{
	u->prompt = UI_PROMPT_FILTER;
	snprintf(u->input, sizeof(u->input), "%s", u->app->filter.name);
	return ACT_REDRAW;
}

static unsigned act_detail(struct ui *u)
{
	u->detail = !u->detail;
	return ACT_REDRAW;
}

static unsigned act_left(struct ui *u)
{
	if (u->hscroll > 0)
		u->hscroll--;
	return ACT_REDRAW;
}

static unsigned act_right(struct ui *u)
{
	if (u->hscroll < COLUMN_STACK - 1)
		u->hscroll++;
	return ACT_REDRAW;
}

static unsigned act_escape(struct ui *u)
{
	if (u->mode != UI_TABLE) {
		u->mode = UI_TABLE;
		return ACT_REDRAW;
	}
	if (u->app->filter.name[0]) {
		u->app->filter.name[0] = '\0';
		ui_status(u, "filter cleared");
		return ACT_ROWS;
	}
	return 0;
}

static unsigned act_redraw(struct ui *u)
{
	clearok(curscr, TRUE);
	return ACT_REDRAW;
}

const struct keymap_entry keymap[] = {
	{ { 'q', 0 }, "q", "quit", act_quit },
	{ { '?', 'h', KEY_F(1), 0 }, "?, h, F1", "this help (again to close)", act_help },
	{ { ' ', 0 }, "space", "pause or resume sampling", act_pause },
	{ { '+', '=', 0 }, "+", "longer interval (0.1 0.2 0.5 1 2 5 10 30 60 s)", act_slower },
	{ { '-', 0 }, "-", "shorter interval", act_faster },
	{ { 'j', KEY_DOWN, 0 }, "j, Down", "select the next device", act_down },
	{ { 'k', KEY_UP, 0 }, "k, Up", "select the previous device", act_up },
	{ { KEY_NPAGE, 0 }, "PgDn", "a page down", act_pgdown },
	{ { KEY_PPAGE, 0 }, "PgUp", "a page up", act_pgup },
	{ { KEY_HOME, 'g', 0 }, "Home, g", "first device", act_home },
	{ { KEY_END, 'G', 0 }, "End, G", "last device", act_end },
	{ { '>', '.', 0 }, ">", "sort by the next column", act_sort_next },
	{ { '<', ',', 0 }, "<", "sort by the previous column", act_sort_prev },
	{ { 'r', 0 }, "r", "reverse the sort order", act_sort_reverse },
	{ { 'i', 0 }, "i", "hide or show idle devices", act_idle },
	{ { 'P', 0 }, "P", "show or hide partitions", act_partitions },
	{ { '/', 0 }, "/", "filter devices by name (Enter applies, Esc cancels)", act_filter },
	{ { 'd', '\n', KEY_ENTER, 0 }, "d, Enter", "detail pane of the selected device on or off", act_detail },
	{ { KEY_LEFT, 0 }, "Left", "scroll the table's columns left", act_left },
	{ { KEY_RIGHT, 0 }, "Right", "scroll the table's columns right", act_right },
	{ { 27, 0 }, "Esc", "close help, or clear the name filter", act_escape },
	{ { 12, 0 }, "Ctrl-L", "redraw the screen", act_redraw },
};
const int keymap_count = (int)(sizeof(keymap) / sizeof(keymap[0]));

unsigned keymap_dispatch(struct ui *u, int key)
{
	for (int i = 0; i < keymap_count; i++)
		for (int k = 0; keymap[i].keys[k]; k++)
			if (keymap[i].keys[k] == key)
				return keymap[i].action(u);
	if (key >= 32 && key < 127)
		ui_status(u, "key '%c' does nothing here: ? lists the keys", key);
	else
		ui_status(u, "key %s does nothing here: ? lists the keys", keyname(key) ? keyname(key) : "?");
	return ACT_REDRAW;
}

void keymap_print(FILE *f, const char *style)
{
	for (int i = 0; i < keymap_count; i++) {
		if (!strcmp(style, "man"))
			fprintf(f, ".TP\n.B %s\n%s.\n", keymap[i].label, keymap[i].help);
		else
			fprintf(f, "  %-12s %s\n", keymap[i].label, keymap[i].help);
	}
}
