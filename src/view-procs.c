#include <curses.h>
#include <math.h>
#include <string.h>

#include "format.h"
#include "view.h"

/* Widths of the columns before COMMAND, which takes the rest. */
static const int widths[PROC_COLUMNS] = {
	[PROC_COL_PID] = 7, [PROC_COL_USER] = -9, [PROC_COL_RBYTES_S] = 7, [PROC_COL_WBYTES_S] = 7,
	[PROC_COL_BYTES_S] = 7, [PROC_COL_RBYTES] = 8, [PROC_COL_WBYTES] = 8, [PROC_COL_REQS_S] = 7,
	[PROC_COL_COMMAND] = 0,
};

static void bytes_cell(double bytes, bool valid, int width)
{
	char b[32];

	if (!valid)
		snprintf(b, sizeof(b), "-");
	else if (bytes < 1)
		snprintf(b, sizeof(b), "0");
	else
		format_kb(bytes / 1024, b, sizeof(b));
	printw(" %*s", width, b);
}

static void command_cell(const struct proc_row *r, int width)
{
	char cmd[PROC_CMDLINE_MAX + 2], clean[PROC_CMDLINE_MAX + 2];

	if (width <= 0)
		return;
	if (r->exited)
		snprintf(cmd, sizeof(cmd), "%s (exited)", r->comm);
	else if (r->cmdline[0])
		snprintf(cmd, sizeof(cmd), "%s", r->cmdline);
	else
		snprintf(cmd, sizeof(cmd), "[%s]", r->comm);
	format_sanitize(cmd, clean, sizeof(clean));
	printw(" %.*s", width, clean);
}

static void row_draw(const struct proc_row *r, bool traced, int width)
{
	char user[PROC_USER_MAX];

	printw("%*d", widths[PROC_COL_PID], (int)r->pid);
	format_sanitize(r->exited ? "-" : r->user, user, sizeof(user));
	printw(" %-9.9s", user);
	bytes_cell(r->rbytes_s, r->rates, widths[PROC_COL_RBYTES_S]);
	bytes_cell(r->wbytes_s, r->rates, widths[PROC_COL_WBYTES_S]);
	bytes_cell(r->rbytes_s + r->wbytes_s, r->rates, widths[PROC_COL_BYTES_S]);
	bytes_cell((double)r->rbytes, !r->exited, widths[PROC_COL_RBYTES]);
	bytes_cell((double)r->wbytes, !r->exited, widths[PROC_COL_WBYTES]);
	if (traced && r->req_rates) {
		char b[32];

		format_num(r->req_s, widths[PROC_COL_REQS_S], 0, b, sizeof(b));
		printw(" %s", b);
	} else { /* untraced, or only pairs without a rate yet */
		printw(" %*s", widths[PROC_COL_REQS_S], "-");
	}
	command_cell(r, width - 70);
}

/* A traced device under its process: requests per second by operation over
 * the interval, the total since tracing started, latency percentiles of the
 * interval's completions (bucket resolution), the bios' blk cgroup. */
static void dev_line(struct ui *u, const struct proc_dev_row *d, int y, int width)
{
	char name[SAMPLE_NAME_MAX], p50[16], p99[16], rs[24] = "-", ws[24] = "-";

	format_sanitize(d->dev_name, name, sizeof(name));
	format_latency(d->f.lat_p50_us, p50, sizeof(p50));
	format_latency(d->f.lat_p99_us, p99, sizeof(p99));
	attrset(view_attr(u, VC_DIM));
	/* a pair without a rate yet (first traced sample, a reused PID): "-" */
	if (d->f.rates) {
		snprintf(rs, sizeof(rs), "%.0f", d->f.req_s[0]);
		snprintf(ws, sizeof(ws), "%.0f", d->f.req_s[1]);
	}
	mvprintw(y, 8, "%-10.10s r/s %-6s w/s %-6s requests %-9llu p50 %-7s p99 %-7s cgroup %llu", name, rs, ws,
		 (unsigned long long)(d->f.requests[0] + d->f.requests[1] + d->f.requests[2] + d->f.requests[3]), p50, p99,
		 (unsigned long long)d->cgroup_id);
	attrset(A_NORMAL);
}

/* The column headers; the sorted one carries the order's arrow. */
static void header_draw(struct ui *u, int y, int width)
{
	const struct app *a = u->app;

	attrset(view_attr(u, VC_HEADER));
	mvhline(y, 0, ' ', width);
	move(y, 0);
	for (int c = 0; c < PROC_COLUMNS; c++) {
		char h[24];
		bool sorted = (int)a->proc_sort == c;
		bool down = proc_columns[c].descending != a->proc_reverse;
		int w = widths[c] < 0 ? -widths[c] : widths[c];

		snprintf(h, sizeof(h), "%s%s", proc_columns[c].header, sorted ? (down ? "v" : "^") : "");
		if (c == PROC_COL_PID)
			printw("%*s", w, h);
		else if (widths[c] < 0 || c == PROC_COL_COMMAND)
			printw(" %-*s", w, h);
		else
			printw(" %*s", w, h);
	}
	attrset(A_NORMAL);
}

int view_procs_loss(struct ui *u, const struct proc_loss_figures *l, int y, int width)
{
	char b[320];
	int n;

	if (!l->no_start && !l->skipped && !l->not_kept)
		return 0;
	n = snprintf(b, sizeof(b), "not followed since tracing began: %llu completion%s without a traced start "
				   "(%llu in the interval; in flight when it began, or the start lost)",
		     (unsigned long long)l->no_start, l->no_start == 1 ? "" : "s", (unsigned long long)l->no_start_new);
	if (l->skipped && n > 0 && (size_t)n < sizeof(b))
		snprintf(b + n, sizeof(b) - (size_t)n, ", %llu program run%s skipped (%llu in the interval)",
			 (unsigned long long)l->skipped, l->skipped == 1 ? "" : "s", (unsigned long long)l->skipped_new);
	n = (int)strlen(b);
	if (l->not_kept && (size_t)n < sizeof(b))
		snprintf(b + n, sizeof(b) - (size_t)n, ", %llu not stored: a map refused it (%llu in the interval)",
			 (unsigned long long)l->not_kept, (unsigned long long)l->not_kept_new);
	attrset(l->no_start_new || l->skipped_new || l->not_kept_new ? (attr_t)view_attr(u, VC_BAD) : (attr_t)A_NORMAL);
	mvprintw(y, 0, "%.*s", width, b);
	attrset(A_NORMAL);
	return 1;
}

/* What the figures are, and what this user may not see. */
static int heading(struct ui *u, const struct proc_metrics *m, int y, int width)
{
	int lines = 0;

	attrset(view_attr(u, VC_TITLE));
	mvprintw(y, 0, "processes: %zu %s of %zu", m->nrows, u->app->proc_all ? "shown" : "with I/O", m->nprocs);
	attrset(A_NORMAL);
	printw("%.*s", width > 40 ? width - 40 : 0,
	       "   bytes from /proc/PID/io as each process caused them: a buffered write when it dirties the page");
	lines++;
	if (!m->all_users) {
		attrset(view_attr(u, VC_BAD));
		mvprintw(y + lines, 0, "not root: only your own processes (uid %u) are shown; %u others' /proc/PID/io "
				       "is not yours to read",
			 (unsigned)m->uid, m->unreadable);
		attrset(A_NORMAL);
		lines++;
	}
	if (m->traced) {
		mvprintw(y + lines, 0, "%.*s", width,
			 "traced: block requests per device as submitted (below each process); writeback appears under the "
			 "flusher thread (kworker), not the writer");
		lines += view_procs_loss(u, &m->loss, y + lines + 1, width);
	} else
		mvprintw(y + lines, 0, "%.*s", width,
			 "devices per process: only with --trace-processes (off); a child's bytes join its parent's when "
			 "it is reaped");
	return lines + 1;
}

/* A row per process: sorted by any column (> < r), the selected one
 * highlighted; i shows the idle ones too. */
void view_procs_draw(struct ui *u, int y, int height, int width)
{
	const struct proc_metrics *m = &u->app->pm;
	int head, rows, sel = -1;

	if (!m->valid) {
		attrset(view_attr(u, VC_TITLE));
		mvprintw(y, 0, "processes");
		attrset(A_NORMAL);
		mvprintw(y + 1, 0, "%.*s", width, m->why[0] ? m->why : "collecting: the first sample is on its way");
		return;
	}
	head = y + heading(u, m, y, width);
	header_draw(u, head, width);
	rows = y + height - head - 1;
	if (!m->nrows) {
		mvprintw(head + 1, 0, "%.*s", width,
			 u->app->proc_all ? "no process is readable"
					  : "no process read or wrote in the interval (i shows them all)");
		return;
	}
	for (size_t i = 0; i < m->nrows; i++)
		if (m->row[i].pid == u->proc_sel_pid)
			sel = (int)i;
	if (sel >= 0 && sel < u->proc_top)
		u->proc_top = sel;
	if (sel >= 0 && sel >= u->proc_top + rows)
		u->proc_top = sel - rows + 1;
	if (u->proc_top > (int)m->nrows - rows)
		u->proc_top = (int)m->nrows - rows > 0 ? (int)m->nrows - rows : 0;
	for (int i = 0, line = 0; line < rows && u->proc_top + i < (int)m->nrows; i++) {
		int k = u->proc_top + i;
		const struct proc_row *r = &m->row[k];

		if (k == sel) {
			attrset(view_attr(u, VC_SELECTED));
			mvhline(head + 1 + line, 0, ' ', width);
		}
		move(head + 1 + line++, 0);
		row_draw(r, m->traced, width);
		attrset(A_NORMAL);
		for (size_t d = r->dfirst; d < r->dfirst + r->ndev && line < rows; d++)
			dev_line(u, &m->dev[d], head + 1 + line++, width);
	}
	if ((int)m->nrows > rows)
		mvprintw(y + height - 1, width - 30 > 0 ? width - 30 : 0, "rows %d-%d of %zu (j/k)", u->proc_top + 1,
			 u->proc_top + rows < (int)m->nrows ? u->proc_top + rows : (int)m->nrows, m->nrows);
}
