/* view-ab: the A/B comparison screen. Draws only from a compare_result
 * (tunables that differ, per-metric means, change and verdict, histograms
 * side by side); reads no file and changes nothing. */
#ifndef BLKTUNE_VIEW_AB_H
#define BLKTUNE_VIEW_AB_H

#include "ab.h"
#include "ui.h"

struct ab_view_state {
	const struct ab *ab;
	const struct ui *ui; /* colours (view_attr) */
	const char *dev;     /* the device to show; NULL or not compared: the first one */
	int top;             /* lines scrolled off the top (the mode's up/down keys) */
};

/* Lines y .. y + height - 1, width columns. */
void view_ab_draw(const struct ab_view_state *st, int y, int height, int width);
/* Lines the view would need for st (to clamp st->top when scrolling). */
int view_ab_lines(const struct ab_view_state *st);

#endif
