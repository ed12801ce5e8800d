#include "action-procs.h"

#include <curses.h>
#include <string.h>

/* o: the process view; /proc/PID/io is read only while it is shown. */
unsigned action_procs(struct ui *u)
{
	int err;

	if (u->mode == UI_PROCS) {
		u->mode = UI_TABLE;
		app_proc_view(u->app, false);
		return ACT_REDRAW;
	}
	if ((err = app_proc_view(u->app, true)) < 0) {
		ui_status(u, "process view: %s", u->app->error[0] ? u->app->error : strerror(-err));
		return ACT_REDRAW;
	}
	u->mode = UI_PROCS;
	u->proc_top = 0;
	u->proc_sel_pid = 0;
	ui_status(u, "process view: rates from the next interval");
	return ACT_REDRAW;
}

/* Move the selection by delta rows from the selected process (the first row
 * when it is gone). */
static unsigned move_sel(struct ui *u, int delta)
{
	const struct proc_metrics *m = &u->app->pm;
	int at = -1;

	if (!m->valid || !m->nrows)
		return ACT_REDRAW;
	for (size_t i = 0; i < m->nrows; i++)
		if (m->row[i].pid == u->proc_sel_pid)
			at = (int)i;
	at = at < 0 ? 0 : at + delta;
	if (at < 0)
		at = 0;
	if (at >= (int)m->nrows)
		at = (int)m->nrows - 1;
	u->proc_sel_pid = m->row[at].pid;
	return ACT_REDRAW;
}

unsigned action_procs_down(struct ui *u)
{
	return move_sel(u, 1);
}

unsigned action_procs_up(struct ui *u)
{
	return move_sel(u, -1);
}

/* the view's lines that are not rows: header, status and up to 4 of heading */
#define CHROME 7

unsigned action_procs_pgdown(struct ui *u)
{
	return move_sel(u, LINES - CHROME);
}

unsigned action_procs_pgup(struct ui *u)
{
	return move_sel(u, -(LINES - CHROME));
}

static unsigned resort(struct ui *u)
{
	if (app_proc_rows(u->app) < 0)
		ui_status(u, "process view: out of memory");
	else
		ui_status(u, "processes sorted by %s%s", proc_columns[u->app->proc_sort].help,
			  u->app->proc_reverse ? ", reversed" : "");
	return ACT_REDRAW;
}

unsigned action_procs_sort_next(struct ui *u)
{
	u->app->proc_sort = (u->app->proc_sort + 1) % PROC_COLUMNS;
	u->app->proc_reverse = false;
	return resort(u);
}

unsigned action_procs_sort_prev(struct ui *u)
{
	u->app->proc_sort = (u->app->proc_sort + PROC_COLUMNS - 1) % PROC_COLUMNS;
	u->app->proc_reverse = false;
	return resort(u);
}

unsigned action_procs_reverse(struct ui *u)
{
	u->app->proc_reverse = !u->app->proc_reverse;
	return resort(u);
}

unsigned action_procs_all(struct ui *u)
{
	u->app->proc_all = !u->app->proc_all;
	if (app_proc_rows(u->app) < 0)
		ui_status(u, "process view: out of memory");
	else
		ui_status(u, "%s", u->app->proc_all ? "every process shown" : "only processes with I/O in the interval");
	return ACT_REDRAW;
}

void action_procs_filter_off(struct ui *u)
{
	u->app->proc_filter_pid = 0;
	u->app->filter.nonly = 0;
	u->app->filter.only = NULL;
}

/* f: the device table narrowed to the devices the selected process
 * submitted requests to (traced), and back. */
unsigned action_procs_devices(struct ui *u)
{
	struct app *a = u->app;
	const struct proc_row *r;
	size_t n = 0;

	if (a->proc_filter_pid) {
		action_procs_filter_off(u);
		ui_status(u, "device table: every device again");
		return ACT_ROWS;
	}
	if (!u->proc_sel_pid || !(r = model_procs_find(&a->pm, u->proc_sel_pid))) {
		ui_status(u, "select a process first (j/k)");
		return ACT_REDRAW;
	}
	if (!a->pm.traced) {
		ui_status(u, "which devices process %d uses is known only while --trace-processes traces them (off)",
			  (int)u->proc_sel_pid);
		return ACT_REDRAW;
	}
	for (size_t i = r->dfirst; i < r->dfirst + r->ndev && n < APP_MAX_DEVS; i++)
		a->proc_devs[n++] = a->pm.dev[i].dev;
	if (!n) {
		ui_status(u, "process %d submitted no traced request since tracing started", (int)r->pid);
		return ACT_REDRAW;
	}
	a->proc_filter_pid = r->pid;
	a->filter.only = a->proc_devs;
	a->filter.nonly = n;
	u->mode = UI_TABLE;
	ui_status(u, "device table: the %zu device%s process %d (%s) submitted to; Esc shows all", n, n == 1 ? "" : "s",
		  (int)r->pid, r->comm);
	return ACT_ROWS | ACT_REDRAW;
}
