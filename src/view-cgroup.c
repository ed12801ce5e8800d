#include <curses.h>
#include <string.h>

#include "format.h"
#include "view.h"

static const char *const counter_help[CGROUP_COUNTERS] = {
	[CGROUP_COUNTER_V2] = "io.stat (bios as submitted)",
	[CGROUP_COUNTER_THROTTLE] = "blk-throttle (bios as submitted)",
	[CGROUP_COUNTER_BFQ] = "bfq (requests, after merging)",
};

static void cell(double v, bool valid, int width, int prec)
{
	char b[32];

	if (!valid) {
		printw(" %*s", width, "-");
		return;
	}
	format_num(v, width, prec, b, sizeof(b));
	printw(" %s", b);
}

/* The cgroup's last path component, indented by depth: a tree. */
static void name_cell(const struct cgroup_row *r, bool first_of_group, int width)
{
	char name[CGROUP_PATH_MAX], clean[CGROUP_PATH_MAX];
	const char *base = strrchr(r->path, '/');
	int indent = 2 * r->depth;

	if (!first_of_group) {
		printw("%-*s", width, "");
		return;
	}
	snprintf(name, sizeof(name), "%s", r->depth == 0 ? "/" : base + 1);
	format_sanitize(name, clean, sizeof(clean));
	if (indent > width / 2)
		indent = width / 2;
	printw("%*s%-*.*s", indent, "", width - indent, width - indent, clean);
}

static void heading(struct ui *u, const struct cgroup_metrics *c, int y, int width)
{
	char line[512] = "";
	size_t n = 0;

	attrset(view_attr(u, VC_TITLE));
	mvprintw(y, 0, "cgroups: %s %s", c->version == 2 ? "v2 io controller," : "v1 blkio,", c->hierarchy);
	attrset(A_NORMAL);
	for (int k = 0; k < CGROUP_COUNTERS; k++)
		if (c->counter_used[k])
			n += (size_t)snprintf(line + n, n < sizeof(line) ? sizeof(line) - n : 0, "%s%s", n ? ", " : "",
					      counter_help[k]);
	printw("   counted by %.*s", width / 2, n ? line : "-");
	if (!c->nuncounted)
		return;
	n = 0;
	for (size_t i = 0; i < c->nuncounted && i < MODEL_CGROUP_UNCOUNTED; i++)
		n += (size_t)snprintf(line + n, n < sizeof(line) ? sizeof(line) - n : 0, " %s", c->uncounted[i]);
	if (c->nuncounted > MODEL_CGROUP_UNCOUNTED)
		snprintf(line + n, n < sizeof(line) ? sizeof(line) - n : 0, " and %zu more",
			 c->nuncounted - MODEL_CGROUP_UNCOUNTED);
	attrset(view_attr(u, VC_BAD));
	mvprintw(y + 1, 0, "%.*s", width, "not counted by any cgroup:");
	attrset(A_NORMAL);
	printw("%.*s", width - 26 > 0 ? width - 26 : 0, line);
	mvprintw(y + 2, 0, "%.*s", width,
		 "  (v1 blkio counts a device only under bfq, or once some cgroup had a throttle rule for it; "
		 "blktune writes none)");
}

/* A row per cgroup and device with counted I/O, the cgroups as a tree:
 * rates over the interval and the totals the kernel keeps. */
void view_cgroup_draw(struct ui *u, int y, int height, int width)
{
	const struct cgroup_metrics *c = &u->app->cgm;
	/* the figures take 92 columns; the name what is left, 12 to 40 */
	int namew = width - 92 > 12 ? (width - 92 < 40 ? width - 92 : 40) : 12;
	int head, rows;

	if (!c->valid) {
		attrset(view_attr(u, VC_TITLE));
		mvprintw(y, 0, "cgroups");
		attrset(A_NORMAL);
		mvprintw(y + 1, 0, "%.*s", width, c->why[0] ? c->why : "collecting: the first sample is on its way");
		return;
	}
	heading(u, c, y, width);
	head = y + (c->nuncounted ? 3 : 1);
	attrset(view_attr(u, VC_HEADER));
	mvhline(head, 0, ' ', width);
	mvprintw(head, 0, "%-*s %-10s %8s %8s %8s %8s %8s %8s %8s %8s %-8s", namew, "CGROUP", "DEVICE", "rMB/s",
		 "wMB/s", "r/s", "w/s", "read", "written", "reads", "writes", "counter");
	attrset(A_NORMAL);
	rows = y + height - head - 1;
	if (!c->nrows) {
		mvprintw(head + 1, 0, "%.*s", width, "no cgroup has counted I/O on the devices shown");
		return;
	}
	if (u->cg_top > (int)c->nrows - rows)
		u->cg_top = (int)c->nrows - rows > 0 ? (int)c->nrows - rows : 0;
	for (int i = 0; i < rows && u->cg_top + i < (int)c->nrows; i++) {
		int k = u->cg_top + i;
		const struct cgroup_row *r = &c->row[k];
		char total[16];

		move(head + 1 + i, 0);
		name_cell(r, i == 0 || r->id != c->row[k - 1].id || strcmp(r->path, c->row[k - 1].path), namew);
		printw(" %-10.10s", r->dev_name);
		cell(r->rbytes_s / 1e6, r->rates, 8, 2);
		cell(r->wbytes_s / 1e6, r->rates, 8, 2);
		cell(r->rios_s, r->rates, 8, 0);
		cell(r->wios_s, r->rates, 8, 0);
		format_kb((double)r->rbytes / 1024, total, sizeof(total));
		printw(" %8s", total);
		format_kb((double)r->wbytes / 1024, total, sizeof(total));
		printw(" %8s", total);
		cell((double)r->rios, true, 8, 0);
		cell((double)r->wios, true, 8, 0);
		printw(" %-8s", cgroup_counter_names[r->counter]);
	}
	if ((int)c->nrows > rows)
		mvprintw(y + height - 1, width - 30 > 0 ? width - 30 : 0, "rows %d-%d of %zu (j/k)", u->cg_top + 1,
			 u->cg_top + rows < (int)c->nrows ? u->cg_top + rows : (int)c->nrows, c->nrows);
}
