#include "sweep-window.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "source-diskstats.h"

int sweep_window_parse_stat(const char *text, struct disk_stat *out)
{
	char line[512], err[128];

	/* The same fields as a diskstats line after its first three. */
	if (snprintf(line, sizeof(line), "0 0 x %s", text) >= (int)sizeof(line))
		return -EINVAL;
	return source_diskstats_parse_line(line, out, err, sizeof(err));
}

void sweep_window_start(struct sweep_window *w, double t, const struct disk_stat *s)
{
	memset(w, 0, sizeof(*w));
	w->t_start = w->t_prev = w->t_end = t;
	w->start = w->prev = w->end = *s;
}

static bool moved(const struct disk_stat *a, const struct disk_stat *b)
{
	return a->rd_ios != b->rd_ios || a->wr_ios != b->wr_ios || a->dc_ios != b->dc_ios ||
	       a->fl_ios != b->fl_ios || a->rd_sectors != b->rd_sectors || a->wr_sectors != b->wr_sectors ||
	       a->io_ticks != b->io_ticks;
}

void sweep_window_poll(struct sweep_window *w, double t, const struct disk_stat *s)
{
	/* I/O happened in (t_prev, t] if a counter moved or a request was in
	 * flight at either end. */
	bool busy = moved(&w->prev, s) || w->prev.in_flight > 0 || s->in_flight > 0;

	if (t < w->t_prev)
		t = w->t_prev;
	if (busy) {
		if (!w->seen)
			w->first_io = w->t_prev;
		w->seen = true;
		w->last_io = t;
	} else {
		w->idle += t - w->t_prev;
	}
	w->t_prev = t;
	w->prev = *s;
	w->polls++;
}

void sweep_window_end(struct sweep_window *w, double t, const struct disk_stat *s)
{
	sweep_window_poll(w, t, s);
	w->t_end = w->t_prev;
	w->end = *s;
}

void sweep_window_result(const struct sweep_window *w, struct sweep_window_result *out)
{
	out->window = w->t_end - w->t_start;
	out->busy = w->seen ? w->last_io - w->first_io : 0;
	out->head = w->seen ? w->first_io - w->t_start : out->window;
	out->tail = w->seen ? w->t_end - w->last_io : 0;
	out->idle_pct = out->window > 0 ? 100 * w->idle / out->window : 0;
	out->reads = (double)(w->end.rd_ios - w->start.rd_ios);
	out->writes = (double)(w->end.wr_ios - w->start.wr_ios);
	out->read_bytes = (double)(w->end.rd_sectors - w->start.rd_sectors) * 512;
	out->write_bytes = (double)(w->end.wr_sectors - w->start.wr_sectors) * 512;
}
