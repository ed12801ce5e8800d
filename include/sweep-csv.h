/* sweep-csv: the runs as CSV (one row per run, columns in the man page) and
 * back: blktune report rebuilds everything from this file and sweep.info.
 * Numbers in plain decimal notation, empty cells for figures not measured. */
#ifndef BLKTUNE_SWEEP_CSV_H
#define BLKTUNE_SWEEP_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "sweep-figure.h"

int sweep_csv_write(FILE *f, const struct sweep_run *runs, size_t n, const struct sweep_metric_opt *metrics,
		    size_t nmetrics);
/* Write to path through safe_save (a safe directory, a new temporary file,
 * renamed). Strings are sanitised and quoted as RFC 4180 says. Returns 0 or
 * -errno (msg says what failed). */
int sweep_csv_save(const char *path, const struct sweep_run *runs, size_t n,
		   const struct sweep_metric_opt *metrics, size_t nmetrics, char *msg, size_t msg_size);
/* Read a CSV this program wrote: runs (up to max) and the metric names from
 * the header. Every column the writer writes is read (per-CPU groups up to
 * SWEEP_CPUS_MAX, SWEEP_METRICS_MAX metrics); a column or field beyond what
 * a run holds is an error, never dropped; a column name this version does
 * not know is skipped. Returns the number of runs or -errno (-EINVAL: msg
 * names the line). */
int sweep_csv_read(FILE *f, struct sweep_run *runs, size_t max, struct sweep_metric_opt *metrics,
		   size_t *nmetrics, char *msg, size_t len);

#endif
