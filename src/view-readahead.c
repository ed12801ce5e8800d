#include <curses.h>
#include <math.h>
#include <stdio.h>

#include "format.h"
#include "view.h"

static void pct(const char *label, double v)
{
	if (isnan(v))
		printw("  %s -", label);
	else
		printw("  %s %.1f%%", label, v);
}

/* The readahead page of the detail pane: this interval's readahead of the
 * selected device, the totals since the mode was turned on with their
 * identity, and the window histogram. */
void view_readahead_draw(struct ui *u, int y, int height, int width)
{
	const struct app *a = u->app;
	const struct disk_metrics *m = ui_selected(u);
	const struct ra_metrics *r, *t;
	uint64_t wmax = 0;
	int line = y + 1, lo = RA_HIST, hi = -1;
	char b[16];

	attrset(view_attr(u, VC_TITLE));
	mvprintw(y, 0, "readahead");
	attrset(A_NORMAL);
	if (!sampler_readahead_on(a->sampler)) {
		printw("  off: R turns the mode on (it traces every page-cache event while on)");
		return;
	}
	if (!m || !m->ra_metrics) {
		printw("  no readahead on %s's filesystems in the last interval", m ? m->name : "-");
		return;
	}
	r = &a->ram[m - a->m];
	t = &a->ra_total[m - a->m];
	printw("  %s, this interval: %.0f pages/s (%llu sync, %llu async)", m->name, r->pages_per_s,
	       (unsigned long long)r->sync_pages, (unsigned long long)r->async_pages);
	move(line++, 0);
	pct("hit", r->hit_pct);
	pct("mapped", r->mapped_pct);
	pct("waste", r->waste_pct);
	printw("  (%.1f MB wasted)  unread %llu pages", r->waste_mb, (unsigned long long)r->unread);
	pct("  page-cache hit of reads", r->cache_hit_pct);
	if (isnan(r->avg_window_kb))
		mvprintw(line++, 0, "  average window -");
	else
	{
		char note[128];

		mvprintw(line++, 0, "  average window %.0f KiB over %llu windows", r->avg_window_kb,
			 (unsigned long long)r->windows);
		if (ra_window_note(r->avg_window_kb, m->read_ahead_kb, note, sizeof(note)) > 0)
			mvprintw(line++, 0, "  %.*s", width > 3 ? width - 3 : 0, note);
	}
	mvprintw(line++, 0, "since the mode was turned on: %llu readahead pages = %llu hit + %llu mapped + %llu waste + %llu unread",
		 (unsigned long long)t->pages, (unsigned long long)t->hit, (unsigned long long)t->mapped,
		 (unsigned long long)t->waste, (unsigned long long)t->unread);
	if (t->dropped) {
		attrset(view_attr(u, VC_BAD));
		printw("  (%llu pages lost track: map full)", (unsigned long long)t->dropped);
		attrset(A_NORMAL);
	}
	for (int i = 0; i < RA_HIST; i++)
		if (r->win_hist[i]) {
			lo = i < lo ? i : lo;
			hi = i;
			wmax = r->win_hist[i] > wmax ? r->win_hist[i] : wmax;
		}
	if (hi < 0 || line >= y + height)
		return;
	mvprintw(line++, 0, "window size   windows");
	for (int i = lo; i <= hi && line < y + height; i++) {
		uint64_t lt = ra_win_bucket_lt((unsigned)i);
		if (lt)
			format_kb((double)lt * (double)a->cur.ra.page_size / 1024.0, b, sizeof(b));
		mvprintw(line++, 0, "  %s%-8s %8llu ", lt ? "<" : ">=", lt ? b : "max",
			 (unsigned long long)r->win_hist[i]);
		for (uint64_t k = 0; k < r->win_hist[i] * 30 / (wmax ? wmax : 1) && getcurx(stdscr) < width - 1; k++)
			addch('#');
	}
}
