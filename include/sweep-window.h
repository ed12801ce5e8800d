/* sweep-window: a run's exact window and its busy span. The runner reads the
 * device's counters (/sys/block/DEV/stat, one pread) when the command starts,
 * every few ms while it runs, and when it exits; this pure model finds the
 * first and last I/O inside the window to within one poll, and the time the
 * device had no I/O at all. */
#ifndef BLKTUNE_SWEEP_WINDOW_H
#define BLKTUNE_SWEEP_WINDOW_H

#include <stdbool.h>
#include <stddef.h>

#include "sample.h"

struct sweep_window {
	double t_start, t_end, t_prev;
	struct disk_stat start, prev, end;
	bool seen;              /* any I/O in the window */
	double first_io;        /* poll before the first I/O was seen */
	double last_io;         /* poll at which the last I/O had completed */
	double idle;            /* seconds between polls with no I/O */
	size_t polls;
};

/* Parse /sys/block/DEV/stat (the diskstats fields without major, minor and
 * name). Returns 0 or -EINVAL. */
int sweep_window_parse_stat(const char *text, struct disk_stat *out);

void sweep_window_start(struct sweep_window *w, double t, const struct disk_stat *s);
void sweep_window_poll(struct sweep_window *w, double t, const struct disk_stat *s);
/* The exit reading; it is also a poll. */
void sweep_window_end(struct sweep_window *w, double t, const struct disk_stat *s);

struct sweep_window_result {
	double window, busy, head, tail, idle_pct; /* busy 0, head = window when no I/O */
	double reads, writes, read_bytes, write_bytes; /* end - start */
};
void sweep_window_result(const struct sweep_window *w, struct sweep_window_result *out);

#endif
