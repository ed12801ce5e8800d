/* view: ncurses drawing. Views read the app and ui state and draw; they never
 * read files or change state. */
#ifndef BLKTUNE_VIEW_H
#define BLKTUNE_VIEW_H

#include "ui.h"

enum view_color {
	VC_NORMAL = 0,
	VC_HEADER,   /* column headers */
	VC_SELECTED,
	VC_STATUS,
	VC_TITLE,
	VC_GOOD,
	VC_BAD,
	VC_DIM,
	VC_CHANGED,  /* a device with a tunable off its original */
	VC_COUNT
};

/* Start curses; colours unless NO_COLOR is set or no_color. Returns 0 or -1. */
int view_init(bool no_color, bool *color);
void view_end(void);
/* Draw everything for the current state. */
void view_draw(struct ui *u);
/* Attribute for a colour role (falls back to bold/reverse in monochrome). */
int view_attr(const struct ui *u, enum view_color c);
/* Draw text from line y, wrapped at spaces to width columns, on at most
 * maxlines lines (the last one ends in "..." if it still does not fit).
 * With y < 0 nothing is drawn. Returns the lines it takes. */
int view_wrap(int y, int width, int maxlines, const char *text);

/* The parts, each drawing into a band of lines; return lines used. */
int view_header_draw(struct ui *u, int y, int width);
int view_table_draw(struct ui *u, int y, int height, int width);
void view_detail_draw(struct ui *u, int y, int height, int width);
void view_help_draw(struct ui *u, int y, int height, int width);
void view_tunables_draw(struct ui *u, int y, int height, int width);
void view_trace_sizes_draw(struct ui *u, int y, int height, int width);
void view_trace_split_draw(struct ui *u, int y, int height, int width);
void view_trace_cpus_draw(struct ui *u, int y, int height, int width);
void view_cpus_draw(struct ui *u, int y, int height, int width);
void view_readahead_draw(struct ui *u, int y, int height, int width);
void view_cgroup_draw(struct ui *u, int y, int height, int width);
void view_columns_draw(struct ui *u, int y, int height, int width);
void view_procs_draw(struct ui *u, int y, int height, int width);
struct proc_loss_figures;
/* --trace-processes: one line at y saying what tracing could not follow,
 * when it missed anything; returns the lines drawn (0 or 1). */
int view_procs_loss(struct ui *u, const struct proc_loss_figures *l, int y, int width);

#endif
