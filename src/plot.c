#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_W_MAX 200
#define PLOT_H_MAX 60

bool plot_log_x(const struct plot_point *p, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		if (!(p[i].x > 0))
			return false;
		lo = fmin(lo, p[i].x);
		hi = fmax(hi, p[i].x);
	}
	return n > 1 && hi / lo >= 8;
}

static bool numeric(const struct plot_point *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i].x))
			return false;
	return n > 0;
}

/* Column of point i in 0..w-1. */
static int column(const struct plot_point *p, size_t n, size_t i, int w, bool logx, bool num)
{
	double lo = INFINITY, hi = -INFINITY, x;

	if (!num)
		return n > 1 ? (int)lround((double)i * (w - 1) / (double)(n - 1)) : w / 2;
	for (size_t k = 0; k < n; k++) {
		x = logx ? log(p[k].x) : p[k].x;
		lo = fmin(lo, x);
		hi = fmax(hi, x);
	}
	x = logx ? log(p[i].x) : p[i].x;
	return hi > lo ? (int)lround((x - lo) / (hi - lo) * (w - 1)) : w / 2;
}

/* Row of value y (0 at the bottom, ymax at the top). */
static int row(double y, double ymax, int h)
{
	int r = h - 1 - (int)lround(fmax(y, 0) / ymax * (h - 1));

	return r < 0 ? 0 : r > h - 1 ? h - 1 : r;
}

int plot_draw(FILE *f, const struct plot_point *p, size_t n, int width, int height, const char *xname,
	      const char *yname)
{
	char grid[PLOT_H_MAX][PLOT_W_MAX + 1], axis[PLOT_W_MAX + 16], used[sizeof(axis)];
	bool logx = plot_log_x(p, n), num = numeric(p, n);
	double ymax = 0;
	int w = width < 10 ? 10 : width > PLOT_W_MAX ? PLOT_W_MAX : width;
	int h = height < 3 ? 3 : height > PLOT_H_MAX ? PLOT_H_MAX : height, lw;

	double bars = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i].y > ymax)
			ymax = p[i].y;
		if (p[i].hi > p[i].lo && p[i].hi > bars)
			bars = p[i].hi;
	}
	/* Error bars widen the axis up to 1.5 x the largest point; a bar
	 * beyond ends in '^' at the top rather than squashing the points. */
	ymax = fmin(fmax(ymax, bars), ymax * 1.5);
	if (!(ymax > 0))
		ymax = 1;
	for (int r = 0; r < h; r++) {
		memset(grid[r], ' ', (size_t)w);
		grid[r][w] = '\0';
	}
	for (size_t i = 0; i < n; i++) {
		int c = column(p, n, i, w, logx, num), r;
		if (isnan(p[i].y))
			continue;
		if (p[i].hi > p[i].lo) {
			/* the error bar: '-' caps, '|' between */
			int top = row(p[i].hi, ymax, h), bot = row(p[i].lo, ymax, h);
			for (int k = top; k <= bot; k++)
				grid[k][c] = k == top || k == bot ? '-' : '|';
			if (p[i].hi > ymax)
				grid[top][c] = '^';
		}
		r = row(p[i].y, ymax, h);
		grid[r][c] = '*';
	}
	/* The labels' column: 9 wide, or the top label's width (a rate of
	 * 123456789.0 once pushed its own row's axis a column right). */
	lw = snprintf(NULL, 0, "%.1f", ymax);
	if (lw < 9)
		lw = 9;
	fprintf(f, "%s against %s%s\n", yname, xname, logx ? " (log scale)" : "");
	for (int r = 0; r < h; r++) {
		double yv = ymax * (h - 1 - r) / (h - 1);
		if (r == 0 || r == h - 1 || r == h / 2)
			fprintf(f, "%*.1f |%s\n", lw, yv, grid[r]);
		else
			fprintf(f, "%*s |%s\n", lw, "", grid[r]);
	}
	fprintf(f, "%*s +", lw, "");
	for (int c = 0; c < w; c++)
		fputc('-', f);
	fputc('\n', f);
	/* Tick labels where they fit without touching one placed before (a
	 * blank between): values come as given, not sorted by x. */
	memset(axis, ' ', sizeof(axis) - 1);
	axis[sizeof(axis) - 1] = '\0';
	memset(used, 0, sizeof(used));
	for (size_t i = 0; i < n; i++) {
		size_t c = (size_t)column(p, n, i, w, logx, num), len = strlen(p[i].label), k;
		if (c + len > sizeof(axis) - 1)
			continue;
		for (k = c ? c - 1 : 0; k <= c + len && !used[k]; k++)
			;
		if (k <= c + len)
			continue;
		memcpy(axis + c, p[i].label, len);
		memset(used + c, 1, len);
	}
	for (size_t e = sizeof(axis) - 1; e > 0 && axis[e - 1] == ' '; e--)
		axis[e - 1] = '\0';
	fprintf(f, "%*s  %s\n", lw, "", axis);
	return ferror(f) ? -EIO : 0;
}
