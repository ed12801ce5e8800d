#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "record-read.h"
#include "source-replay.h"
#include "view.h"

int view_header_draw(struct ui *u, int y, int width)
{
	const struct app *a = u->app;
	const struct sampler_host *h = sampler_host(a->sampler);
	const struct cpu_metrics *c = &a->cpu;
	const struct mem_stat *m = &a->cur.mem;
	char up[32], b1[16], b2[16], b3[16];

	format_uptime(a->cur.uptime, up, sizeof(up));
	attrset(view_attr(u, VC_TITLE));
	mvprintw(y, 0, "blktune");
	attrset(A_NORMAL);
	/* What the table shows first, where one looks for the count: the
	 * interval, then what the filter and i leave out; the host, kernel and
	 * uptime last, cut at the screen's edge (never wrapped onto the next). */
	if (ui_replay(u)) {
		/* the recorded time and the interval's place: never taken for live */
		size_t n = record_reader_count(source_replay_reader(sampler_replay(a->sampler)));
		char when[32];

		format_time((double)a->cur.wall.tv_sec, "%Y-%m-%d %H:%M:%S", when, sizeof(when));
		attrset(view_attr(u, VC_TITLE) | A_REVERSE);
		printw(" REPLAY %s ", when);
		attrset(A_NORMAL);
		printw("  %zu/%zu  interval %.1f s%s  ", app_replay_pos(a), n - 1,
		       a->have_prev ? a->cur.t - a->prev.t : 0.0, u->paused ? "  [paused]" : "  [playing]");
	} else {
		/* one decimal as the steps of + and - have, more where the
		 * interval typed has them (0.25 is no "0.2") */
		double tenths = a->opt.interval * 10;
		if (fabs(tenths - round(tenths)) < 1e-6)
			printw("  interval %.1f s%s  ", a->opt.interval, u->paused ? "  [paused]" : "");
		else
			printw("  interval %g s%s  ", a->opt.interval, u->paused ? "  [paused]" : "");
	}
	if (a->filter.name[0] || a->filter.hide_idle || a->filter.omit_zero || a->filter.ndevs) {
		printw("%zu of %zu devices", a->nrows, a->ntotal);
		attrset(view_attr(u, VC_TITLE));
		if (a->filter.ndevs == 1)
			printw("  -p %s", a->filter.devs[0]);
		else if (a->filter.ndevs)
			printw("  -p %s +%zu", a->filter.devs[0], a->filter.ndevs - 1);
		if (a->filter.name[0])
			printw("  filter %s", a->filter.name);
		if (a->filter.hide_idle || a->filter.omit_zero)
			printw("  idle hidden");
		attrset(A_NORMAL);
	} else {
		printw("%zu devices", a->ntotal);
	}
	if (a->since_boot) {
		attrset(view_attr(u, VC_TITLE));
		printw("  [averages since boot]");
		attrset(A_NORMAL);
	}
	{
		char host[256];
		int room = width - getcurx(stdscr) - 1;

		snprintf(host, sizeof(host), "  %s  %s  up %s", h->hostname, h->kernel, up);
		if (room > 0 && getcury(stdscr) == y)
			printw("%.*s", room, host);
	}
	if (c->valid)
		mvprintw(y + 1, 0, "cpu  us %5.1f  sy %5.1f  wa %5.1f  hi %5.1f  si %5.1f  st %5.1f  id %5.1f", c->user + c->nice,
			 c->system, c->iowait, c->irq, c->softirq, c->steal, c->idle);
	else
		mvprintw(y + 1, 0, "cpu  n/a%s", a->have_prev ? "" : " (first interval)");
	if (m->valid) {
		format_kb((double)m->cached_kb, b1, sizeof(b1));
		format_kb((double)m->dirty_kb, b2, sizeof(b2));
		format_kb((double)m->writeback_kb, b3, sizeof(b3));
		mvprintw(y + 2, 0, "mem  cache %s  dirty %s  writeback %s", b1, b2, b3);
	} else {
		mvprintw(y + 2, 0, "mem  n/a");
	}
	{
		const char *why;
		bool on = sampler_tracing(a->sampler, &why);
		printw("  ");
		attrset(on ? (int)A_NORMAL : view_attr(u, VC_DIM));
		if (!on && !strcmp(why, "loading"))
			printw("tracer loading"); /* in a thread, behind the first frames */
		else
			printw("trace %.*s", width - getcurx(stdscr) - 8, on ? "on" : why);
		attrset(A_NORMAL);
		/* Events the kernel skipped or could not store: figures undercount. */
		if (on && (a->cur.trace.missed || a->cur.trace.map_full)) {
			attrset(view_attr(u, VC_BAD));
			printw(" (%llu runs skipped, %llu lost: map full)", (unsigned long long)a->cur.trace.missed,
			       (unsigned long long)a->cur.trace.map_full);
			attrset(A_NORMAL);
		}
	}
	for (int i = 0; i < a->cur.ntemps && getcurx(stdscr) < width - 16; i++)
		printw("%s%s %.0fC", i ? " " : "  temp ", a->cur.temps[i].label, a->cur.temps[i].celsius);
	return y + 3;
}
