/* sweep-report: the plain-text report of a sweep, for a mailing list:
 * machine, device and queue limits, tunables, the exact command line, per
 * figure a table of mean +- 95% CI, CV and verdicts per value, every run's
 * window, the plot and the warnings. Built only from sweep.info and the runs
 * (sweep.csv), so blktune report DIR makes the same text later. The table
 * and plot the sweep prints at its end are parts of it. */
#ifndef BLKTUNE_SWEEP_REPORT_H
#define BLKTUNE_SWEEP_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "sweep-figure.h"
#include "sweep-info.h"

struct sweep_report {
	const struct sweep_info *info;
	const struct sweep_run *runs;
	size_t nruns;
	const struct sweep_metric_opt *metrics;
	size_t nmetrics;
};

/* The judged (plotted) figure: info->plot, default mb_s. */
int sweep_report_figure(const struct sweep_report *rp);
/* The per-value table of one figure. */
void sweep_report_table(FILE *f, const struct sweep_report *rp, int fig, bool judged);
void sweep_report_plot(FILE *f, const struct sweep_report *rp);
/* Per value and CPU: user/sys/irq/softirq % over the windows. */
void sweep_report_cpus(FILE *f, const struct sweep_report *rp);
/* Warnings; returns how many. */
size_t sweep_report_warnings(FILE *f, const struct sweep_report *rp);
int sweep_report_write(FILE *f, const struct sweep_report *rp);
/* blktune report DIR (argv[0] is "report"). Returns the exit status. */
int sweep_report_main(int argc, char **argv);

#endif
