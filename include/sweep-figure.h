/* sweep-figure: what one sweep run measured, and the table of its figures
 * (CSV column name, plot title, which directions it covers, which way is
 * good). The CSV, the statistics, the plot and the report all walk this
 * table; adding a figure is adding a row. */
#ifndef BLKTUNE_SWEEP_FIGURE_H
#define BLKTUNE_SWEEP_FIGURE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sweep-opts.h"
#include "tunable.h"

enum sweep_fig {
	SF_READS, SF_WRITES, SF_READ_BYTES, SF_WRITE_BYTES,
	SF_MB_S, SF_READ_MB_S, SF_WRITE_MB_S, SF_IOPS, SF_READ_IOPS, SF_WRITE_IOPS, SF_REQ_KB,
	SF_OWN_READS, SF_OWN_WRITES, SF_OWN_READ_BYTES, SF_OWN_WRITE_BYTES, SF_OWN_MB_S, SF_OWN_IOPS,
	SF_OWN_CPU_USER_US, SF_OWN_CPU_SYS_US, SF_OWN_CPU_US_PER_IO,
	SF_CPU_USER_PCT, SF_CPU_SYS_PCT, SF_CPU_IRQ_PCT, SF_CPU_SOFTIRQ_PCT, SF_CPU_US_PER_IO,
	SF_R_AWAIT, SF_W_AWAIT, SF_AQU_SZ, SF_UTIL, SF_HIT_PCT, SF_LAT_P99_US, SF_TRACE_GAP_PCT,
	SF_FIO_READ_IOPS, SF_FIO_READ_MB_S, SF_FIO_READ_P50, SF_FIO_READ_P99,
	SF_FIO_WRITE_IOPS, SF_FIO_WRITE_MB_S, SF_FIO_WRITE_P50, SF_FIO_WRITE_P99,
	SF_FIO_USR_CPU, SF_FIO_SYS_CPU,
	SF_COUNT
};

#define SWEEP_CPUS_MAX 64

/* Per-CPU busy split over a run's window, % of that CPU's time. */
enum sweep_cpu_part { SCP_USER, SCP_SYS, SCP_IRQ, SCP_SOFTIRQ, SCP_COUNT };
extern const char *const sweep_cpu_parts[SCP_COUNT]; /* "user", "sys", "irq", "softirq" */

enum sweep_fig_dir { SFD_BOTH, SFD_READS, SFD_WRITES, SFD_NONE };

struct sweep_figure_def {
	const char *name;  /* CSV column, --plot name */
	const char *title; /* what it is, with its unit */
	enum sweep_fig_dir dir;
	int good;          /* +1 higher is better, -1 lower is better, 0 not known */
	int prec;          /* decimals in tables */
};

extern const struct sweep_figure_def sweep_figures[SF_COUNT];

/* One run: a value, a repeat, its exact window and every figure (NAN when
 * not measured). */
struct sweep_run {
	char asked[TUNABLE_VALUE_MAX]; /* the value as given */
	char value[TUNABLE_VALUE_MAX]; /* what the kernel set */
	long repeat;
	size_t order;                  /* position in the run order, from 1 */
	double started;                /* wall clock, s since the epoch */
	double window_s;               /* command start to exit (or --duration) */
	double busy_s;                 /* first to last I/O inside the window */
	double head_s, tail_s;         /* idle before the first, after the last I/O */
	double idle_pct;               /* time inside the window with no I/O at all, % */
	size_t intervals;              /* per-interval samples in the snapshot */
	int status;                    /* CMD's exit status; -1 without CMD */
	bool stopped;                  /* CMD stopped at the --duration limit (not saved) */
	bool killed;                   /* ... and it took SIGKILL (not saved) */
	double fig[SF_COUNT];
	double metric[SWEEP_METRICS_MAX];
	unsigned ncpu;                 /* CPUs in cpu[] (0: no per-CPU figures) */
	double cpu[SWEEP_CPUS_MAX][SCP_COUNT];
	char snapshot[PATH_MAX];       /* saved snapshot file, "" if none */
};

void sweep_run_init(struct sweep_run *r);
/* The label naming a run's files in the sweep directory (snapshot, fio
 * JSON, command output): "NAME=VALUE-rREPEAT", every character but
 * [A-Za-z0-9.=_-] made '_'. At most SWEEP_LABEL_MAX - 1 characters (a file
 * name with its suffix stays far below NAME_MAX); a longer one (a CPU list
 * on a large machine) keeps the value's head, then -h and the CRC-32C of
 * the whole value in 8 hex digits, so two values never share files. */
#define SWEEP_LABEL_MAX 160
void sweep_label(char out[SWEEP_LABEL_MAX], const char *name, const char *value, long repeat);
/* The figure named name: an index below SF_COUNT, SF_COUNT + i for
 * metric:NAME of metrics[i], or -ENOENT. */
int sweep_figure_lookup(const char *name, const struct sweep_metric_opt *metrics, size_t nmetrics);
/* A run's figure by lookup index. */
double sweep_figure_value(const struct sweep_run *r, int fig);
/* Its name and title ("metric:NAME" for metrics). */
void sweep_figure_title(int fig, const struct sweep_metric_opt *metrics, char *name, size_t nlen, char *title,
			size_t tlen);
int sweep_figure_good(int fig);
/* "mb_s, read_mb_s, ..." */
void sweep_figure_list(FILE *f);

#endif
