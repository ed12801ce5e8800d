/* sweep-stats: per value, over its repeats: mean, 95% confidence interval
 * (Student's t on the run figures, not on intervals), coefficient of
 * variation, and a verdict against the baseline value by Welch's t-test;
 * and the warnings a careful reader wants before trusting the numbers. Pure:
 * runs in, numbers and text out. */
#ifndef BLKTUNE_SWEEP_STATS_H
#define BLKTUNE_SWEEP_STATS_H

#include <stddef.h>

#include "stats.h"
#include "sweep-figure.h"

enum sweep_verdict {
	SV_NA,        /* fewer than 2 runs on a side, or no figure */
	SV_BASELINE,
	SV_SAME,      /* within noise */
	SV_HIGHER,
	SV_LOWER,
};

struct sweep_value_stats {
	struct stats_summary s; /* over the value's runs that have the figure */
	double ci;              /* 95% CI half-width, NAN when n < 2 */
	double cv_pct;          /* 100 sd / mean, NAN when n < 2 or mean 0 */
	double change_pct;      /* against the baseline's mean */
	struct stats_welch w;
	enum sweep_verdict verdict;
};

/* The runs of value (matched on asked) for figure fig. */
void sweep_stats_value(const struct sweep_run *runs, size_t n, const char *value, int fig,
		       struct sweep_value_stats *out);
/* The verdict of v against base (which gets SV_BASELINE when they are the
 * same object). */
void sweep_stats_verdict(const struct sweep_value_stats *base, struct sweep_value_stats *v);
/* "higher", "lower", "same (noise)", "baseline", "n/a"; with good != 0
 * (the judged figure, latency) higher/lower become better/worse. */
const char *sweep_stats_verdict_text(enum sweep_verdict v, int good);

#define SWEEP_WARN_LEN 200
/* Warnings: a run shorter than 10 intervals or 5 s, a device idle more than
 * 10% of a window, a value the kernel set as another or two values it set
 * alike (runs' value against asked), a CV above 10% for the figure. Returns how many were
 * written (at most max). */
size_t sweep_stats_warnings(const struct sweep_run *runs, size_t n, char *const *values, size_t nvalues,
			    double interval, int fig, const char *figname, char (*out)[SWEEP_WARN_LEN], size_t max);

#endif
