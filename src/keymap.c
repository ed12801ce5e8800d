#include "persist.h"
#include "keymap.h"

#include <curses.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "action-procs.h"
#include "action-replay.h"
#include "columns.h"
#include "config.h"

const double keymap_intervals[KEYMAP_INTERVALS] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60 };

static unsigned act_help(struct ui *u)
{
	u->mode = u->mode == UI_HELP ? UI_TABLE : UI_HELP;
	u->help_top = 0;
	return ACT_REDRAW;
}

static unsigned act_tunables(struct ui *u)
{
	if (u->mode == UI_TUNABLES) {
		u->mode = UI_TABLE;
		return ACT_REDRAW;
	}
	u->mode = UI_TUNABLES;
	action_tunables_open(u);
	return ACT_REDRAW;
}

static unsigned act_cpus(struct ui *u)
{
	const struct disk_metrics *m = ui_selected(u);
	int err;

	if (u->mode == UI_CPUS) {
		u->mode = UI_TABLE;
		app_cpu_view(u->app, false, NULL);
		return ACT_REDRAW;
	}
	u->mode = UI_CPUS;
	u->cpu_top = 0;
	snprintf(u->cpu_dev, sizeof(u->cpu_dev), "%s", m ? m->name : "");
	if ((err = app_cpu_view(u->app, true, m ? m->name : NULL)) < 0)
		ui_status(u, "CPU view: %s", strerror(-err));
	return ACT_REDRAW;
}

/* C: the cgroup view; its counters are read only while it is shown. */
static unsigned act_cgroups(struct ui *u)
{
	int err;

	if (u->mode == UI_CGROUPS) {
		u->mode = UI_TABLE;
		app_cgroup_view(u->app, false);
		return ACT_REDRAW;
	}
	if ((err = app_cgroup_view(u->app, true)) < 0) {
		ui_status(u, "cgroup view: %s", strerror(-err));
		return ACT_REDRAW;
	}
	u->mode = UI_CGROUPS;
	u->cg_top = 0;
	ui_status(u, "cgroup view: rates from the next interval");
	return ACT_REDRAW;
}

/* The full-screen views that scroll (j/k, PgDn/PgUp): where each keeps its
 * first shown line, and the lines of its screen that are not rows. */
static const struct {
	unsigned mode;
	size_t top;
	int chrome;
} scrollers[] = {
	{ UI_CPUS, offsetof(struct ui, cpu_top), 8 },
	{ UI_AB, offsetof(struct ui, ab_top), 6 },
	{ UI_CGROUPS, offsetof(struct ui, cg_top), 8 },
};

/* Scroll by lines plus pages; the view clamps the end. */
static unsigned view_scroll(struct ui *u, int lines, int pages)
{
	for (size_t i = 0; i < sizeof(scrollers) / sizeof(scrollers[0]); i++) {
		int *top = (int *)(void *)((char *)u + scrollers[i].top);

		if (scrollers[i].mode != u->mode)
			continue;
		*top += lines + pages * (LINES - scrollers[i].chrome);
		if (*top < 0)
			*top = 0;
	}
	return ACT_REDRAW;
}

static unsigned act_view_down(struct ui *u)
{
	return view_scroll(u, 1, 0);
}

static unsigned act_view_up(struct ui *u)
{
	return view_scroll(u, -1, 0);
}

static unsigned act_view_pgdown(struct ui *u)
{
	return view_scroll(u, 0, 1);
}

static unsigned act_view_pgup(struct ui *u)
{
	return view_scroll(u, 0, -1);
}

static unsigned act_ra_up(struct ui *u)
{
	return action_tunable_step(u, "read_ahead_kb", +1);
}

static unsigned act_ra_down(struct ui *u)
{
	return action_tunable_step(u, "read_ahead_kb", -1);
}

static unsigned act_maxsect_up(struct ui *u)
{
	return action_tunable_step(u, "max_sectors_kb", +1);
}

static unsigned act_maxsect_down(struct ui *u)
{
	return action_tunable_step(u, "max_sectors_kb", -1);
}

static unsigned act_rq_affinity(struct ui *u)
{
	return action_tunable_step(u, "rq_affinity", +1);
}

static unsigned act_scheduler(struct ui *u)
{
	return action_tunable_step(u, "scheduler", +1);
}

static unsigned tun_move(struct ui *u, int delta)
{
	u->tun_sel = ui_clamp_index(u->tun_sel + delta, u->ntun);
	return ACT_REDRAW;
}

static unsigned act_tun_down(struct ui *u)
{
	return tun_move(u, 1);
}

static unsigned act_tun_up(struct ui *u)
{
	return tun_move(u, -1);
}

static unsigned tun_step(struct ui *u, int dir)
{
	if (u->tun_sel >= u->ntun)
		return 0;
	return action_tunable_step(u, u->tun[u->tun_sel].name, dir);
}

static unsigned act_tun_inc(struct ui *u)
{
	return tun_step(u, +1);
}

static unsigned act_tun_dec(struct ui *u)
{
	return tun_step(u, -1);
}

static unsigned act_tun_edit(struct ui *u)
{
	const char *why;

	if (u->tun_sel >= u->ntun)
		return 0;
	if (!tunable_session_writable(u->ts, &why)) {
		ui_status(u, "%s", why);
		return ACT_REDRAW;
	}
	if (!u->tun[u->tun_sel].writable) {
		ui_status(u, "%s is read-only: %s", u->tun[u->tun_sel].name, u->tun[u->tun_sel].def->help);
		return ACT_REDRAW;
	}
	u->prompt = UI_PROMPT_VALUE;
	/* Enter writes this tunable of this device, whatever the rows do meanwhile. */
	snprintf(u->prompt_dev, sizeof(u->prompt_dev), "%s", u->tun_dev);
	snprintf(u->prompt_tun, sizeof(u->prompt_tun), "%s", u->tun[u->tun_sel].name);
	snprintf(u->input, sizeof(u->input), "%s", u->tun[u->tun_sel].value);
	u->input_fresh = true;
	return ACT_REDRAW;
}

/* Persist the selected tunable's value with a udev rule (persist.h): build
 * the rule now, write it only after a y. */
static unsigned act_tun_persist(struct ui *u)
{
	struct persist_setting set[PERSIST_MAX], add;
	struct persist_id id;
	const struct tunable_info *t;
	char why[512], note[sizeof(u->persist_note)];
	int n, i, before;

	if (u->tun_sel >= u->ntun)
		return 0;
	t = &u->tun[u->tun_sel];
	if (!persist_allowed(t->def)) {
		ui_status(u, "%s cannot be persisted: only writable queue settings can", t->name);
		return ACT_REDRAW;
	}
	if (persist_identity(u->app->root, u->tun_dev, &id, why, sizeof(why)) < 0) {
		ui_status(u, "%s", why);
		return ACT_REDRAW;
	}
	persist_file_name(&id, u->persist_file, sizeof(u->persist_file));
	/* The disk's rule keeps what p persisted before: this value is added
	 * to it (or replaces its own), never the whole rule. What the file
	 * held is kept: y writes over it only if it still holds that. */
	if ((n = persist_read(persist_rules_dir(), u->persist_file, &id, set, PERSIST_MAX, &u->persist_seen, why,
				 sizeof(why))) < 0) {
		ui_status(u, "%s", why);
		return ACT_REDRAW;
	}
	for (i = 0; i < n && strcmp(set[i].name, t->name); i++)
		;
	before = n - (i < n); /* settings the rule keeps besides this row's */
	snprintf(add.name, sizeof(add.name), "%s", t->name);
	snprintf(add.value, sizeof(add.value), "%s", t->value);
	/* the scheduler in force is the one this panel's parameters are of */
	for (i = 0; i < u->ntun && strcmp(u->tun[i].name, "scheduler"); i++)
		;
	if ((n = persist_merge(set, (size_t)n, PERSIST_MAX, &add, i < u->ntun ? u->tun[i].value : NULL, note,
			       sizeof(note))) < 0) {
		if (n == -ENOSPC)
			ui_status(u, "the rule for %s holds %d settings already", u->tun_dev, PERSIST_MAX);
		else
			ui_status(u, "%s: no scheduler in force to persist with it", t->name);
		return ACT_REDRAW;
	}
	/* nr_requests' limit is another under the rule's scheduler than under
	 * the one in force */
	if (persist_check(u->app->root, u->tun_dev, set, (size_t)n, i < u->ntun ? u->tun[i].value : NULL, why,
			  sizeof(why)) < 0) {
		ui_status(u, "not persisted: %s", why);
		return ACT_REDRAW;
	}
	persist_sort(set, (size_t)n);
	if ((i = persist_rule(&id, u->tun_dev, set, (size_t)n, u->persist_rule, sizeof(u->persist_rule))) < 0) {
		ui_status(u, i == -ENOSPC ? "the rule for %s would be too long" :
			  "%s's value holds a character a udev rule cannot quote", i == -ENOSPC ? u->tun_dev : t->name);
		return ACT_REDRAW;
	}
	/* a rule read under the name older blktune gave it moves to the new one */
	snprintf(u->persist_note, sizeof(u->persist_note), "%s%s%s%s", note,
		 note[0] && u->persist_seen.legacy[0] ? "; " : "", u->persist_seen.legacy[0] ? "moved from " : "",
		 u->persist_seen.legacy);
	snprintf(u->persist_what, sizeof(u->persist_what), "%s %s=%s%s", u->tun_dev, t->name, t->value,
		 before && !note[0] ? " (and what its rule set before)" : "");
	u->prompt = UI_PROMPT_PERSIST;
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
	/* Paused, the timer stays off: the loop keeps the pace for resume. */
	loop_set_interval(u->loop, u->app->opt.interval);
	ui_status(u, "interval %.1f s", u->app->opt.interval);
	return ACT_REDRAW;
}

/* s: top's exact interval, typed (Enter sets, Esc cancels). */
static unsigned act_interval_ask(struct ui *u)
{
	u->prompt = UI_PROMPT_INTERVAL;
	snprintf(u->input, sizeof(u->input), "%g", u->app->opt.interval);
	u->input_fresh = true;
	return ACT_REDRAW;
}

unsigned keymap_interval_input(struct ui *u)
{
	char *end;
	double v = strtod(u->input, &end);

	while (*end == ' ')
		end++;
	if (end == u->input || *end || !(v >= APP_INTERVAL_MIN - 1e-9 && v <= APP_INTERVAL_MAX + 1e-9)) {
		ui_status(u, "interval \"%s\": seconds from %.1f to %.0f; still %.1f s", u->input, APP_INTERVAL_MIN,
			  APP_INTERVAL_MAX, u->app->opt.interval);
		return ACT_REDRAW;
	}
	u->app->opt.interval = v;
	loop_set_interval(u->loop, v);
	ui_status(u, "interval %g s", v);
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

/* A page: the table's height, or the help screen's. */
static int page(const struct ui *u)
{
	int rows = u->mode == UI_HELP ? LINES - 5 : u->table_rows - 1;

	return rows > 1 ? rows : 1;
}

static unsigned act_pgdown(struct ui *u)
{
	return move_sel(u, page(u));
}

static unsigned act_pgup(struct ui *u)
{
	return move_sel(u, -page(u));
}

static unsigned act_home(struct ui *u)
{
	return move_sel(u, -(int)u->app->nrows - u->help_top);
}

static unsigned act_end(struct ui *u)
{
	if (u->mode == UI_HELP) {
		u->help_top = 1 << 20; /* the help view clamps it to its last page */
		return ACT_REDRAW;
	}
	return move_sel(u, (int)u->app->nrows);
}

static unsigned sort_by(struct ui *u, int c, const char *note)
{
	u->app->filter.sort_column = c;
	/* Numbers read best largest first; names alphabetically. */
	u->app->filter.sort_reverse = columns[c].type == COL_NUM;
	ui_status(u, "sorted by %s%s%s", columns[c].header, u->app->filter.sort_reverse ? " (descending)" : "", note);
	return ACT_ROWS;
}

static unsigned sort_step(struct ui *u, int dir)
{
	/* Only columns on the table can be sort keys: DEVICE, then the layout. */
	int n = u->layout.n + 1, i = column_layout_find(&u->layout, u->app->filter.sort_column) + 1, c;

	do {
		i = (i + dir + n) % n;
		c = i ? u->layout.col[i - 1] : COLUMN_DEVICE;
	} while ((columns[c].flags & COLUMN_RAMODE) && !sampler_readahead_on(u->app->sampler));
	return sort_by(u, c, "");
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

static unsigned act_unit(struct ui *u)
{
	u->unit = (u->unit + 1) % COLUMN_UNITS;
	ui_status(u, "throughput in %s/s", column_unit_names[u->unit]);
	return ACT_REDRAW;
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

static unsigned act_detail_page(struct ui *u)
{
	static const char *const names[UI_DETAIL_PAGES] = { "figures", "request sizes and latency",
							     "where the time goes", "per-CPU", "readahead" };

	u->detail = true;
	u->detail_page = (u->detail_page + 1) % UI_DETAIL_PAGES;
	ui_status(u, "detail: %s", names[u->detail_page]);
	return ACT_REDRAW;
}

static unsigned act_readahead(struct ui *u)
{
	bool on = !sampler_readahead_on(u->app->sampler);
	char why[160] = "";

	if (app_readahead(u->app, on, why, sizeof(why)) < 0) {
		ui_status(u, "readahead mode: %s", why);
		return ACT_REDRAW;
	}
	if (on) {
		u->detail = true;
		u->detail_page = UI_DETAIL_RA;
	} else if (u->detail_page == UI_DETAIL_RA) {
		u->detail_page = UI_DETAIL_FIGURES;
	}
	ui_status(u, on ? "readahead mode on: figures from the next interval; files opened before keep their window"
			: "readahead mode off: its programs are unloaded");
	return ACT_REDRAW;
}

static unsigned act_take_a(struct ui *u)
{
	return action_ab_take(u, AB_A);
}

static unsigned act_take_b(struct ui *u)
{
	return action_ab_take(u, AB_B);
}

static unsigned act_apply_a(struct ui *u)
{
	return action_ab_apply(u, AB_A);
}

static unsigned act_apply_b(struct ui *u)
{
	return action_ab_apply(u, AB_B);
}

static unsigned act_ab_view(struct ui *u)
{
	if (u->mode == UI_AB) {
		u->mode = UI_TABLE;
		return ACT_REDRAW;
	}
	if (!u->ab.have[AB_A] && !u->ab.have[AB_B]) {
		ui_status(u, "no snapshot yet: a takes A, b takes B");
		return ACT_REDRAW;
	}
	u->mode = UI_AB;
	u->ab_top = 0;
	return ACT_REDRAW;
}

static unsigned act_ab_primary(struct ui *u)
{
	char msg[TUNABLE_MSG_MAX];

	ab_next_primary(&u->ab, msg, sizeof(msg));
	ui_status(u, "%s", msg);
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
	if (u->hscroll < u->layout.n - 1)
		u->hscroll++;
	return ACT_REDRAW;
}

static unsigned act_quit_ask(struct ui *u)
{
	if (tunable_session_changes(u->ts) > 0 && !u->keep_on_exit) {
		u->prompt = UI_PROMPT_QUIT;
		return ACT_REDRAW;
	}
	u->quit = true;
	return 0;
}

static unsigned act_escape(struct ui *u)
{
	if (u->mode == UI_CPUS)
		return act_cpus(u);
	if (u->mode == UI_CGROUPS)
		return act_cgroups(u);
	if (u->mode == UI_PROCS)
		return action_procs(u);
	if (u->mode != UI_TABLE) {
		u->mode = UI_TABLE;
		return ACT_REDRAW;
	}
	if (u->app->filter.name[0]) {
		u->app->filter.name[0] = '\0';
		ui_status(u, "filter cleared");
		return ACT_ROWS;
	}
	if (u->app->proc_filter_pid) {
		action_procs_filter_off(u);
		ui_status(u, "process filter cleared: every device again");
		return ACT_ROWS;
	}
	return 0;
}

/* f: the columns panel (top's field management), opened on the first column. */
static unsigned act_columns(struct ui *u)
{
	if (u->mode == UI_COLUMNS) {
		u->mode = UI_TABLE;
		return ACT_REDRAW;
	}
	u->mode = UI_COLUMNS;
	u->colp_sel = u->colp_top = 0;
	return ACT_REDRAW;
}

/* The column on the panel's selected row; *pos its place among the shown
 * columns (-1: hidden). */
static int colp_column(const struct ui *u, int *pos)
{
	int rows[COLUMN_COUNT], shown, n = column_layout_panel(&u->layout, rows, &shown);
	int i = u->colp_sel < n ? u->colp_sel : n - 1;

	*pos = i < shown ? i : -1;
	return rows[i];
}

/* The panel's cursor follows the column it acts on. */
static void colp_follow(struct ui *u, int col)
{
	int rows[COLUMN_COUNT], shown, n = column_layout_panel(&u->layout, rows, &shown);

	for (int i = 0; i < n; i++)
		if (rows[i] == col)
			u->colp_sel = i;
	if (u->hscroll > u->layout.n - 1)
		u->hscroll = u->layout.n - 1;
}

static unsigned colp_cursor(struct ui *u, int delta)
{
	int rows[COLUMN_COUNT], shown, n = column_layout_panel(&u->layout, rows, &shown);

	u->colp_sel = ui_clamp_index(u->colp_sel + delta, n);
	return ACT_REDRAW;
}

static unsigned act_colp_down(struct ui *u)
{
	return colp_cursor(u, 1);
}

static unsigned act_colp_up(struct ui *u)
{
	return colp_cursor(u, -1);
}

static unsigned act_colp_pgdown(struct ui *u)
{
	return colp_cursor(u, LINES - 8 > 1 ? LINES - 8 : 1);
}

static unsigned act_colp_pgup(struct ui *u)
{
	return colp_cursor(u, -(LINES - 8 > 1 ? LINES - 8 : 1));
}

static unsigned act_colp_toggle(struct ui *u)
{
	int pos, c = colp_column(u, &pos);

	if (column_layout_toggle(&u->layout, c) < 0) {
		ui_status(u, "%s is the last column shown: show another one first", columns[c].header);
		return ACT_REDRAW;
	}
	colp_follow(u, c);
	ui_status(u, "%s %s", columns[c].header, pos < 0 ? "shown, at the end (J/K move it)" : "hidden");
	return ACT_ROWS;
}

static unsigned colp_move(struct ui *u, int dir)
{
	int pos, c = colp_column(u, &pos);

	if (pos < 0) {
		ui_status(u, "%s is hidden: space shows it, then it can move", columns[c].header);
		return ACT_REDRAW;
	}
	column_layout_move(&u->layout, pos, dir);
	colp_follow(u, c);
	return ACT_REDRAW;
}

static unsigned act_colp_later(struct ui *u)
{
	return colp_move(u, +1);
}

static unsigned act_colp_earlier(struct ui *u)
{
	return colp_move(u, -1);
}

static unsigned act_colp_sort(struct ui *u)
{
	int pos, c = colp_column(u, &pos);

	return sort_by(u, c, pos < 0 ? " (a hidden column)" : "");
}

/* W: top's "write the configuration file": columns, sort, interval, colours. */
static unsigned act_config_save(struct ui *u)
{
	struct config c = {
		.has_columns = true, .has_sort = true, .has_interval = true, .has_color = true,
		.columns = u->layout, .sort_column = u->app->filter.sort_column,
		.sort_reverse = u->app->filter.sort_reverse, .interval = u->app->opt.interval, .color = u->color,
	};
	char msg[512];

	config_save(&c, msg, sizeof(msg));
	ui_status(u, "%s", msg);
	return ACT_REDRAW;
}

static unsigned act_redraw(struct ui *u)
{
	clearok(curscr, TRUE);
	return ACT_REDRAW;
}

#define ALL UI_ALL_MODES
#define TAB UI_TABLE
#define TUN UI_TUNABLES
#define LIST (UI_TABLE | UI_HELP)
#define CPU UI_CPUS
#define AB UI_AB
#define CGV UI_CGROUPS
#define COLS UI_COLUMNS
#define PRV UI_PROCS
/* tunable quick keys: also while watching the CPU view (seed 002's rq_affinity) */
#define QUICK (UI_TABLE | UI_CPUS)

/* flags, the rows' last field, is left out where it is 0 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const struct keymap_section keymap_sections[] = {
	{ ALL, "Everywhere" },
	{ QUICK, "Device table and CPU view: tunables of the selected device" },
	{ LIST, "Device table" },
	{ TUN, "Tunables panel (t)" },
	{ CPU, "CPU view (c)" },
	{ AB, "A/B view (v)" },
	{ CGV, "Cgroup view (C)" },
	{ COLS, "Columns panel (f)" },
	{ PRV, "Process view (o)" },
	{ ALL, "Replay (-r FILE): starts paused on the first interval; F2 shows the recorded tunables, read-only", KEYMAP_REPLAY },
};
const int keymap_nsections = (int)(sizeof(keymap_sections) / sizeof(keymap_sections[0]));

/* First match wins: mode-specific rows come before the general ones. */
const struct keymap_entry keymap[] = {
	/* before "Everywhere": space, s and d mean something else here */
	{ COLS, { ' ', 'd', 0 }, "space, d", "show or hide the selected column (a shown column goes to the end)",
	  act_colp_toggle },
	{ COLS, { 'J', KEY_SF, 0 }, "J", "move the selected column one place later, to the right (also Shift-Down)",
	  act_colp_later },
	{ COLS, { 'K', KEY_SR, 0 }, "K", "move it one place earlier, to the left (also Shift-Up)", act_colp_earlier },
	{ COLS, { 's', 0 }, "s", "sort the table by the selected column", act_colp_sort },
	{ COLS, { 'j', KEY_DOWN, 0 }, "j, Down", "next column", act_colp_down },
	{ COLS, { 'k', KEY_UP, 0 }, "k, Up", "previous column", act_colp_up },
	{ COLS, { KEY_NPAGE, 0 }, "PgDn", "a page down", act_colp_pgdown },
	{ COLS, { KEY_PPAGE, 0 }, "PgUp", "a page up", act_colp_pgup },
	{ COLS, { 'f', 27, '\n', KEY_ENTER }, "f, Esc", "back to the device table, as does Enter (W keeps the layout)", act_columns },
	{ ALL, { 't', 0 }, "t", "one interval back in time (the replay pauses; atop's t)", action_replay_back, KEYMAP_REPLAY },
	{ ALL, { 'T', 0 }, "T", "one interval forward in time", action_replay_forward, KEYMAP_REPLAY },
	{ ALL, { 'J', 0 }, "J", "jump to a time: HH:MM or HH:MM:SS of the recording (atop's b; Enter jumps, Esc cancels)",
	  action_replay_jump_ask, KEYMAP_REPLAY },
	{ ALL, { 'n', 0 }, "n", "to the interval of the next recorded tunable change (the status line says what changed)",
	  action_replay_next_change, KEYMAP_REPLAY },
	{ ALL, { 'N', 0 }, "N", "to the previous recorded change", action_replay_prev_change, KEYMAP_REPLAY },
	{ ALL, { 'E', 0 }, "E",
	  "A/B around the change under the current time: A the window before it, B after it (to the next change, at most the A/B window); a and b take A and B at the time shown",
	  action_replay_ab_around, KEYMAP_REPLAY },
	{ ALL, { 'q', KEY_F(10), 0 }, "q, F10", "quit (asks to restore or keep changed tunables)", act_quit_ask },
	{ ALL, { '?', 'h', KEY_F(1), 0 }, "?, h, F1", "this help (again to close)", act_help },
	{ ALL, { ' ', 0 }, "space", "pause or resume sampling", act_pause },
	{ ALL, { '+', '=', 0 }, "+", "longer interval (0.1 0.2 0.5 1 2 5 10 30 60 s)", act_slower },
	{ ALL, { '-', 0 }, "-", "shorter interval", act_faster },
	{ ALL, { 's', 0 }, "s", "type the interval in seconds, 0.1 to 60 (Enter sets, Esc cancels)", act_interval_ask },
	{ ALL, { 'c', 0 }, "c", "CPU view of the selected device on or off", act_cpus },
	{ ALL, { 'C', 0 }, "C", "cgroup view on or off: per cgroup and device, read/write bytes and I/Os (v2 io.stat, else v1 blkio; traced requests by cgroup id with --trace-processes)",
	  act_cgroups },
	{ ALL, { 'o', 0 }, "o", "process view on or off: per process read/write B/s from /proc/PID/io", action_procs },
	{ ALL, { 'a', 0 }, "a", "take snapshot A of the selected device (since its last tunable change, at most the A/B window)",
	  act_take_a },
	{ ALL, { 'b', 0 }, "b", "take snapshot B and compare it with A (opens the A/B view)", act_take_b },
	{ ALL, { 'v', 0 }, "v", "A/B view on or off", act_ab_view },
	{ ALL, { 'A', 0 }, "A", "set the selected device's tunables back to snapshot A's", act_apply_a , KEYMAP_LIVE },
	{ ALL, { 'B', 0 }, "B", "set them to snapshot B's", act_apply_b , KEYMAP_LIVE },
	{ ALL, { 'w', 0 }, "w", "save snapshots A and B as files ($XDG_STATE_HOME/blktune/)", action_ab_save },
	{ ALL, { 't', KEY_F(2), 0 }, "t, F2", "tunables panel of the selected device on or off (in a replay: F2, read-only; t is time)", act_tunables },
	{ ALL, { 'u', 0 }, "u", "undo the last tunable change", action_undo , KEYMAP_LIVE },
	{ ALL, { 'U', 0 }, "U", "restore every changed tunable to its original value", action_restore_all , KEYMAP_LIVE },
	{ ALL, { 'K', 0 }, "K", "keep the changes made so far: no restore at quit or hang-up (later ones are restored)", action_keep , KEYMAP_LIVE },
	{ ALL, { 12, 0 }, "Ctrl-L", "redraw the screen", act_redraw },
	{ ALL, { 'W', 0 }, "W", "write columns, sort, interval and colours to the config file (see FILES)",
	  act_config_save },
	{ TUN, { 'j', KEY_DOWN, 0 }, "j, Down", "next tunable", act_tun_down },
	{ TUN, { 'k', KEY_UP, 0 }, "k, Up", "previous tunable", act_tun_up },
	{ TUN, { ']', KEY_RIGHT, 'l', 0 }, "], Right, l", "step up: double a size, next choice, +1", act_tun_inc , KEYMAP_LIVE },
	{ TUN, { '[', KEY_LEFT, 0 }, "[, Left", "step down: halve a size, previous choice, -1", act_tun_dec , KEYMAP_LIVE },
	{ TUN, { '\n', KEY_ENTER, 0 }, "Enter", "type an exact value (Enter sets, Esc cancels)", act_tun_edit , KEYMAP_LIVE },
	{ TUN, { 'p', 0 }, "p",
	  "persist the selected value: a udev rule sets it at boot and hotplug (shown, then y writes it; see PERSIST)",
	  act_tun_persist , KEYMAP_LIVE },
	{ TUN, { 27, 0 }, "Esc", "back to the device table", act_escape },
	{ AB, { 'p', 0 }, "p", "judge better/worse on the next primary figure: MB/s, IOPS, readahead hit% (latency always)",
	  act_ab_primary },
	{ AB, { 'j', KEY_DOWN, 0 }, "j, Down", "scroll the comparison down", act_view_down },
	{ AB, { 'k', KEY_UP, 0 }, "k, Up", "scroll it up", act_view_up },
	{ AB, { KEY_NPAGE, 0 }, "PgDn", "a page down", act_view_pgdown },
	{ AB, { KEY_PPAGE, 0 }, "PgUp", "a page up", act_view_pgup },
	{ AB, { 27, 0 }, "Esc", "back to the device table", act_escape },
	{ CGV, { 'j', KEY_DOWN, 0 }, "j, Down", "scroll the cgroups down", act_view_down },
	{ CGV, { 'k', KEY_UP, 0 }, "k, Up", "scroll them up", act_view_up },
	{ CGV, { KEY_NPAGE, 0 }, "PgDn", "a page of cgroups down", act_view_pgdown },
	{ CGV, { KEY_PPAGE, 0 }, "PgUp", "a page up", act_view_pgup },
	{ CGV, { 27, 0 }, "Esc", "back to the device table", act_escape },
	{ PRV, { 'j', KEY_DOWN, 0 }, "j, Down", "select the next process", action_procs_down },
	{ PRV, { 'k', KEY_UP, 0 }, "k, Up", "select the previous process", action_procs_up },
	{ PRV, { KEY_NPAGE, 0 }, "PgDn", "a page of processes down", action_procs_pgdown },
	{ PRV, { KEY_PPAGE, 0 }, "PgUp", "a page up", action_procs_pgup },
	{ PRV, { '>', '.', 0 }, ">", "sort by the next column", action_procs_sort_next },
	{ PRV, { '<', ',', 0 }, "<", "sort by the previous column", action_procs_sort_prev },
	{ PRV, { 'r', 0 }, "r", "reverse the sort order", action_procs_reverse },
	{ PRV, { 'i', 0 }, "i", "show every process, or only those with I/O in the interval", action_procs_all },
	{ PRV, { 'f', 0 }, "f",
	  "device table of only the devices the selected process submitted requests to (--trace-processes); again, or Esc in the table: all",
	  action_procs_devices },
	{ PRV, { 27, 0 }, "Esc", "back to the device table", act_escape },
	{ CPU, { 'j', KEY_DOWN, 0 }, "j, Down", "scroll the CPUs down", act_view_down },
	{ CPU, { 'k', KEY_UP, 0 }, "k, Up", "scroll the CPUs up", act_view_up },
	{ CPU, { KEY_NPAGE, 0 }, "PgDn", "a page of CPUs down", act_view_pgdown },
	{ CPU, { KEY_PPAGE, 0 }, "PgUp", "a page of CPUs up", act_view_pgup },
	{ CPU, { 27, 0 }, "Esc", "back to the device table", act_escape },
	{ LIST, { 'j', KEY_DOWN, 0 }, "j, Down", "select the next device", act_down },
	{ LIST, { 'k', KEY_UP, 0 }, "k, Up", "select the previous device", act_up },
	{ LIST, { KEY_NPAGE, 0 }, "PgDn", "a page down", act_pgdown },
	{ LIST, { KEY_PPAGE, 0 }, "PgUp", "a page up", act_pgup },
	{ LIST, { KEY_HOME, 'g', 0 }, "Home, g", "first device (in help: its top)", act_home },
	{ LIST, { KEY_END, 'G', 0 }, "End, G", "last device (in help: its end)", act_end },
	{ TAB, { '>', '.', KEY_F(6), 0 }, ">, F6", "sort by the next column", act_sort_next },
	{ TAB, { '<', ',', 0 }, "<", "sort by the previous column", act_sort_prev },
	{ TAB, { 'r', 0 }, "r", "reverse the sort order", act_sort_reverse },
	{ TAB, { 'i', 0 }, "i", "hide or show idle devices", act_idle },
	{ TAB, { 'P', 0 }, "P", "show or hide partitions", act_partitions },
	{ TAB, { 'm', 0 }, "m", "throughput columns in kB/s, MB/s or GB/s (cycles)", act_unit },
	{ TAB, { '/', 0 }, "/", "filter devices by name: a glob (loop[12]*) or text found in it (Enter applies, Esc cancels)", act_filter },
	{ TAB, { 'd', '\n', KEY_ENTER, 0 }, "d, Enter", "detail pane of the selected device on or off", act_detail },
	{ TAB, { '\t', 0 }, "Tab", "next detail page: figures, traced sizes and latency, where the time goes, per-CPU, readahead",
	  act_detail_page },
	{ TAB, { 'f', 0 }, "f", "columns panel: choose, order and sort by the table's columns (top's f; W keeps them)",
	  act_columns },
	{ TAB, { 'R', 0 }, "R", "readahead mode on or off (hit, waste, window; costs per page-cache event)",
	  act_readahead },
	{ TAB, { KEY_LEFT, 0 }, "Left", "scroll the table's columns left", act_left },
	{ TAB, { KEY_RIGHT, 0 }, "Right", "scroll the table's columns right", act_right },
	{ QUICK, { ']', 0 }, "]", "double read_ahead_kb of the selected device", act_ra_up , KEYMAP_LIVE },
	{ QUICK, { '[', 0 }, "[", "halve read_ahead_kb", act_ra_down , KEYMAP_LIVE },
	{ QUICK, { '}', 0 }, "}", "double max_sectors_kb (up to max_hw_sectors_kb)", act_maxsect_up , KEYMAP_LIVE },
	{ QUICK, { '{', 0 }, "{", "halve max_sectors_kb", act_maxsect_down , KEYMAP_LIVE },
	{ QUICK, { 'x', 0 }, "x", "next rq_affinity (0 any CPU, 1 same group, 2 the submitting CPU)", act_rq_affinity , KEYMAP_LIVE },
	{ QUICK, { 'S', 0 }, "S", "next I/O scheduler of the selected device", act_scheduler , KEYMAP_LIVE },
	{ LIST, { 27, 0 }, "Esc", "close help, or clear the name filter", act_escape },
};
#pragma GCC diagnostic pop
const int keymap_count = (int)(sizeof(keymap) / sizeof(keymap[0]));

/* The row key runs in these modes: a replay's own rows only in a replay. */
static const struct keymap_entry *find(const struct ui *u, unsigned modes, int key)
{
	bool replay = ui_replay(u);

	for (int i = 0; i < keymap_count; i++) {
		if (!(keymap[i].modes & modes) || ((keymap[i].flags & KEYMAP_REPLAY) && !replay))
			continue;
		for (int k = 0; keymap[i].keys[k]; k++)
			if (keymap[i].keys[k] == key)
				return &keymap[i];
	}
	return NULL;
}

bool keymap_bound(const struct ui *u, int key)
{
	/* in this mode, or in the table Esc goes back to */
	return find(u, u->mode | UI_TABLE, key) != NULL;
}

unsigned keymap_dispatch(struct ui *u, int key)
{
	const struct keymap_entry *e = find(u, u->mode, key);

	if (!e)
		return keymap_unbound(u, key, false);
	if ((e->flags & KEYMAP_LIVE) && ui_replay(u)) {
		char name[32];

		keymap_key_name(key, false, name, sizeof(name));
		return action_replay_refuse(u, name);
	}
	return e->action(u);
}

unsigned keymap_unbound(struct ui *u, int key, bool alt)
{
	char name[32];

	keymap_key_name(key, alt, name, sizeof(name));
	ui_status(u, "no action for %s here: ? lists the keys", name);
	return ACT_REDRAW;
}

/* Named keys as a person types them, never ncurses' KEY_F(5) or ^X. */
static const struct {
	int key;
	const char *name;
} key_names[] = {
	{ KEY_UP, "Up" },	  { KEY_DOWN, "Down" },	  { KEY_LEFT, "Left" },
	{ KEY_RIGHT, "Right" },	  { KEY_HOME, "Home" },	  { KEY_END, "End" },
	{ KEY_PPAGE, "PgUp" },	  { KEY_NPAGE, "PgDn" },  { KEY_IC, "Insert" },
	{ KEY_DC, "Delete" },	  { KEY_BACKSPACE, "Backspace" }, { 127, "Backspace" },
	{ KEY_ENTER, "Enter" },	  { '\n', "Enter" },	  { '\r', "Enter" },
	{ '\t', "Tab" },	  { KEY_BTAB, "Shift-Tab" }, { 27, "Esc" },
	{ ' ', "space" },	  { KEY_SR, "Shift-Up" }, { KEY_SF, "Shift-Down" },
	{ KEY_SLEFT, "Shift-Left" }, { KEY_SRIGHT, "Shift-Right" }, { KEY_SHOME, "Shift-Home" },
	{ KEY_SEND, "Shift-End" }, { KEY_SDC, "Shift-Delete" }, { KEY_MOUSE, "a mouse event" },
};

int keymap_modified_name(const char *cap, bool alt, char *buf, size_t len)
{
	/* xterm's modified keys as terminfo names them (kRIT5: Ctrl-Right);
	 * ncurses gives them codes past KEY_MAX, one a terminal. */
	static const struct {
		const char *cap, *name;
	} base[] = {
		{ "kUP", "Up" },    { "kDN", "Down" },  { "kLFT", "Left" }, { "kRIT", "Right" }, { "kHOM", "Home" },
		{ "kEND", "End" },  { "kPRV", "PgUp" }, { "kNXT", "PgDn" }, { "kDC", "Delete" }, { "kIC", "Insert" },
	};
	static const char *const mods[] = { "Shift-", "Alt-", "Shift-Alt-", "Ctrl-", "Ctrl-Shift-", "Ctrl-Alt-" };

	for (size_t i = 0; cap && i < sizeof(base) / sizeof(base[0]); i++) {
		size_t n = strlen(base[i].cap);
		if (strncmp(cap, base[i].cap, n) || cap[n] < '2' || cap[n] > '7' || cap[n + 1])
			continue;
		snprintf(buf, len, "%s%s%s", alt ? "Alt-" : "", mods[cap[n] - '2'], base[i].name);
		return 0;
	}
	return -ENOENT;
}

void keymap_key_name(int key, bool alt, char *buf, size_t len)
{
	const char *pre = alt ? "Alt-" : "";

	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (key_names[i].key == key) {
			snprintf(buf, len, "%s%s", pre, key_names[i].name);
			return;
		}
	if (key >= KEY_F(1) && key <= KEY_F(12))
		snprintf(buf, len, "%sF%d", pre, key - KEY_F(0));
	else if (key > KEY_F(12) && key <= KEY_F(24))
		snprintf(buf, len, "%sShift-F%d", pre, key - KEY_F(12));
	else if (key > KEY_F(24) && key <= KEY_F(36))
		snprintf(buf, len, "%sCtrl-F%d", pre, key - KEY_F(24));
	else if (key == 0)
		snprintf(buf, len, "%sCtrl-Space", pre);
	else if (key > 0 && key < 32)
		snprintf(buf, len, "%sCtrl-%c", pre, 'A' + key - 1);
	else if (key > 32 && key < 127)
		snprintf(buf, len, "%s%c", pre, key);
	else if (key >= 128 && key < 256)
		snprintf(buf, len, "%sthe byte 0x%02x", pre, key);
	else if (key > KEY_MAX && keymap_modified_name(keyname(key), alt, buf, len) == 0)
		return;
	else
		snprintf(buf, len, "%sa key without a name (code %d)", pre, key);
}

int keymap_section_of(const struct keymap_entry *e)
{
	int found = 0;

	for (int s = 0; s < keymap_nsections; s++)
		if ((e->modes & ~keymap_sections[s].modes) == 0 &&
		    (e->flags & KEYMAP_REPLAY) == (keymap_sections[s].flags & KEYMAP_REPLAY))
			found = s;
	return found;
}

void keymap_print(FILE *f, const char *style)
{
	bool man = !strcmp(style, "man");

	for (int s = 0; s < keymap_nsections; s++) {
		fprintf(f, man ? ".SS %s\n" : "%s\n", keymap_sections[s].title);
		for (int i = 0; i < keymap_count; i++) {
			if (keymap_section_of(&keymap[i]) != s)
				continue;
			if (man)
				fprintf(f, ".TP\n.B %s\n%s.\n", keymap[i].label, keymap[i].help);
			else
				fprintf(f, "  %-12s %s\n", keymap[i].label, keymap[i].help);
		}
	}
}
