#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "format.h"
#include "view.h"

static const char *const counter_help[CGROUP_COUNTERS] = {
	[CGROUP_COUNTER_V2] = "io.stat (bios as submitted)",
	[CGROUP_COUNTER_THROTTLE] = "blk-throttle (bios as submitted)",
	[CGROUP_COUNTER_BFQ] = "bfq (requests, after merging)",
};

/* A row is built in a buffer and drawn cut to the screen's width (a long
 * line must not wrap onto the next row). */
struct line {
	char b[512];
	size_t n;
};

static void put(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (l->n >= sizeof(l->b))
		return;
	va_start(ap, fmt);
	k = vsnprintf(l->b + l->n, sizeof(l->b) - l->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		l->n = l->n + (size_t)k < sizeof(l->b) ? l->n + (size_t)k : sizeof(l->b);
}

static void cell(struct line *l, double v, bool valid, int width, int prec)
{
	char b[32];

	if (!valid) {
		put(l, " %*s", width, "-");
		return;
	}
	format_num(v, width, prec, b, sizeof(b));
	put(l, " %s", b);
}

static void kb_cell(struct line *l, uint64_t bytes, bool valid)
{
	char b[16];

	format_kb((double)bytes / 1024, b, sizeof(b));
	put(l, " %8s", valid ? b : "-");
}

static void lat_cell(struct line *l, double us)
{
	char b[16];

	format_latency(us, b, sizeof(b));
	put(l, " %7s", b);
}

/* The cgroup's last path component, indented by depth: a tree. A traced id
 * the walk did not find is "#ID(gone)", the requests without a bio (a flush)
 * "#0(no-bio)". */
static void name_cell(struct line *l, const struct cgroup_row *r, bool first_of_group, int width)
{
	char name[CGROUP_PATH_MAX], clean[CGROUP_PATH_MAX];
	const char *base = strrchr(r->path, '/');
	int indent = 2 * r->depth;

	if (!first_of_group) {
		put(l, "%-*s", width, "");
		return;
	}
	if (!r->path[0])
		snprintf(name, sizeof(name), "#%llu(%s)", (unsigned long long)r->id, r->id ? "gone" : "no-bio");
	else
		snprintf(name, sizeof(name), "%s", r->depth == 0 || !base ? "/" : base + 1);
	format_sanitize(name, clean, sizeof(clean));
	if (indent > width / 2)
		indent = width / 2;
	put(l, "%*s%-*.*s", indent, "", width - indent, width - indent, clean);
}

static uint64_t sum(const uint64_t *v)
{
	return v[0] + v[1] + v[2] + v[3];
}

/* Row k at screen line y; the first on screen names its cgroup. */
static void row_draw(const struct cgroup_metrics *c, size_t k, bool first, int y, int namew, int width)
{
	const struct cgroup_row *r = &c->row[k];
	struct line l = { .n = 0 };

	name_cell(&l, r, first || r->id != c->row[k - 1].id || strcmp(r->path, c->row[k - 1].path), namew);
	put(&l, " %-10.10s", r->dev_name);
	cell(&l, r->rbytes_s / 1e6, r->rates, 8, 2);
	cell(&l, r->wbytes_s / 1e6, r->rates, 8, 2);
	cell(&l, r->rios_s, r->rates, 8, 0);
	cell(&l, r->wios_s, r->rates, 8, 0);
	kb_cell(&l, r->rbytes, r->counted);
	kb_cell(&l, r->wbytes, r->counted);
	cell(&l, (double)r->rios, r->counted, 8, 0);
	cell(&l, (double)r->wios, r->counted, 8, 0);
	put(&l, " %-8s", r->counted ? cgroup_counter_names[r->counter] : "-");
	if (c->traced) {
		const struct proc_figures *t = &r->t;

		cell(&l, t->req_s[0] + t->req_s[1] + t->req_s[2] + t->req_s[3], r->traced && t->rates, 8, 0);
		cell(&l, (double)sum(t->requests), r->traced, 9, 0);
		kb_cell(&l, sum(t->bytes), r->traced);
		lat_cell(&l, r->traced ? t->lat_p50_us : NAN);
		lat_cell(&l, r->traced ? t->lat_p99_us : NAN);
	}
	mvprintw(y, 0, "%.*s", width, l.b);
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

/* A row per cgroup and device with counted or traced I/O, the cgroups as a
 * tree: rates over the interval and the totals the kernel keeps; with
 * --trace-processes the traced requests by the bios' cgroup id beside them. */
void view_cgroup_draw(struct ui *u, int y, int height, int width)
{
	const struct cgroup_metrics *c = &u->app->cgm;
	/* the figures take 92 columns (137 traced); the name what is left, 12 to 40 */
	int figw = c->traced ? 137 : 92;
	int namew = width - figw > 12 ? (width - figw < 40 ? width - figw : 40) : 12;
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
	if (c->traced) {
		mvprintw(head++, 0, "%.*s", width,
			 "traced (--trace-processes): requests by the blk cgroup of their first bio, since tracing "
			 "started; writeback is the flusher's cgroup's");
		head += view_procs_loss(u, &c->loss, head, width);
	}
	attrset(view_attr(u, VC_HEADER));
	mvhline(head, 0, ' ', width);
	{
		struct line l = { .n = 0 };

		put(&l, "%-*s %-10s %8s %8s %8s %8s %8s %8s %8s %8s %-8s", namew, "CGROUP", "DEVICE", "rMB/s", "wMB/s",
		    "r/s", "w/s", "read", "written", "reads", "writes", "counter");
		if (c->traced)
			put(&l, " %8s %9s %8s %7s %7s", "treq/s", "treqs", "tbytes", "tp50", "tp99");
		mvprintw(head, 0, "%.*s", width, l.b);
	}
	attrset(A_NORMAL);
	rows = y + height - head - 1;
	if (!c->nrows) {
		mvprintw(head + 1, 0, "%.*s", width, "no cgroup has counted or traced I/O on the devices shown");
		return;
	}
	if (u->cg_top > (int)c->nrows - rows)
		u->cg_top = (int)c->nrows - rows > 0 ? (int)c->nrows - rows : 0;
	for (int i = 0; i < rows && u->cg_top + i < (int)c->nrows; i++)
		row_draw(c, (size_t)(u->cg_top + i), i == 0, head + 1 + i, namew, width);
	if ((int)c->nrows > rows)
		mvprintw(y + height - 1, width - 30 > 0 ? width - 30 : 0, "rows %d-%d of %zu (j/k)", u->cg_top + 1,
			 u->cg_top + rows < (int)c->nrows ? u->cg_top + rows : (int)c->nrows, c->nrows);
}
