/* plot: a small terminal scatter plot of y against x (sweep results, with error bars), with a
 * logarithmic x axis when the values span powers of two, like the semilogx
 * plots of the seed experiments. Render only. */
#ifndef BLKTUNE_PLOT_H
#define BLKTUNE_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct plot_point {
	double x;          /* NAN: a categorical value, placed by its index */
	double y;          /* NAN: no figure (left out) */
	const char *label; /* the value as typed, for the x axis */
	double lo, hi;     /* an error bar from lo to hi; none unless hi > lo; the axis
	                    * grows for bars up to 1.5 x the largest y, longer ones end in '^' */
};

/* True when every x is positive and they span at least a factor of 8: the
 * axis is then logarithmic so 124, 252, ... 8188 are evenly spaced. */
bool plot_log_x(const struct plot_point *p, size_t n);
/* width x height cells of plot area plus axes. Returns 0 or -EIO. */
int plot_draw(FILE *f, const struct plot_point *p, size_t n, int width, int height, const char *xname,
	      const char *yname);

#endif
