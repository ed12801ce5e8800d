/* app: the pipeline every front end shares: sample -> model -> history ->
 * rows. Batch output and the TUI only call app_refresh and render. */
#ifndef BLKTUNE_APP_H
#define BLKTUNE_APP_H

#include <stdbool.h>
#include <stddef.h>

#include "history.h"
#include "model.h"
#include "model-cgroup.h"
#include "model-cpus.h"
#include "model-procs.h"
#include "names.h"
#include "root.h"
#include "rows.h"
#include "sample.h"
#include "sampler.h"
#include "series.h"

#define APP_MAX_DEVS 64
#define APP_INTERVAL_MIN 0.1
#define APP_INTERVAL_MAX 60.0

struct app_options {
	const char *root_dir;
	const char *journal_dir; /* NULL: $BLKTUNE_JOURNAL_DIR or /run/blktune */
	double interval;
	long count;          /* batch reports; 0 = until interrupted */
	bool batch, json, partitions, no_color, no_trace;
	bool readahead;      /* start with the readahead mode on (--readahead) */
	bool cgroups;        /* batch: per-cgroup figures in the JSON (--cgroups) */
	bool top_processes;  /* batch: per-process figures in the JSON (--top-processes) */
	bool trace_processes; /* --trace-processes: per (process, device) block requests, traced */
	bool since_boot;     /* batch: one report of averages since boot (--since-boot) */
	bool omit_zero;      /* -z: leave out devices without I/O in the interval */
	bool human;          /* -h: batch text with units, iostat -h's layout */
	bool history;        /* keep sparkline history and the A/B series (the TUI) */
	/* A screen (the TUI): its first frame comes from diskstats and sysfs,
	 * and the tracer loads in a thread once it is drawn. Without one the
	 * tracer loads in app_open, so the first sample is traced already. */
	bool frame_first;
	double ab_window;    /* A/B window: at most this many seconds (--ab-window) */
	enum names_type names; /* -j: persistent names shown and accepted */
	const char *listen;   /* --listen ADDR:PORT: Prometheus /metrics, or NULL */
	const char *textfile; /* --textfile DIR: node_exporter textfile, or NULL */
	const char *record;   /* -w FILE: record every sample, or NULL */
	const char *version;  /* blktune's, for the recording's header */
	const char *replay;   /* -r FILE: samples from a recording, or NULL */
	const char *columns;  /* -o: the table's columns, checked by main (column-layout) */
	const char *devs[APP_MAX_DEVS]; /* -p, as typed */
	size_t ndevs;
};

struct app {
	struct app_options opt;
	struct root *root;
	struct sampler *sampler;
	struct sample prev, cur;
	bool have_prev;
	bool since_boot;     /* m holds averages since boot (no interval yet) */
	double boot_uptime;  /* their interval: proc/uptime at cur */
	struct disk_metrics *m;
	struct trace_metrics *tm; /* traced interval of m[i], valid where m[i].t_metrics */
	struct ra_metrics *ram;   /* readahead interval of m[i], valid where m[i].ra_metrics */
	struct ra_metrics *ra_total; /* and since the mode was turned on */
	struct series *series;    /* per-interval history for A/B snapshots */
	size_t nm, mcap;
	int release_in;            /* refreshes until freed pages go back to the kernel (0: none due) */
	size_t *rows;
	size_t nrows;
	size_t ntotal;             /* devices the table can show (rows_total) */
	struct cpu_metrics cpu;
	bool cpu_view;             /* per-CPU detail sampled (CPU view shown) */
	struct cpus_metrics cpus;  /* its rows, valid while cpu_view */
	bool cgroup_view;          /* per-cgroup counters sampled (cgroup view or --cgroups) */
	struct cgroup_metrics cgm; /* their rows, valid while cgroup_view */
	dev_t *cg_devs;            /* the devices the filter shows (model_cgroup's only) */
	bool proc_view;            /* per-process counters sampled (process view or --top-processes) */
	struct proc_metrics pm;    /* their rows, valid while proc_view, in the order below */
	enum proc_column proc_sort;
	bool proc_reverse;         /* the other way than the column's own */
	bool proc_all;             /* every process, not only those with I/O in the interval */
	pid_t proc_filter_pid;     /* f: the device table shows this process's traced devices (0: off) */
	dev_t proc_devs[APP_MAX_DEVS];
	struct history *hist;
	struct rows_filter filter;
	char devnames[APP_MAX_DEVS][NAMES_MAX]; /* -p resolved (/dev/ paths to kernel names) */
	const char *devptrs[APP_MAX_DEVS];
	struct exporter *exporter; /* --listen / --textfile, or NULL */
	struct record *rec;        /* -w, or NULL */
	char export_error[256];    /* the last publish failure, "" when fine */
	char error[256];     /* why app_open failed */
	bool bad_arg;        /* ... and it was the command line's fault (exit 2) */
};

void app_options_default(struct app_options *o);
int app_open(struct app *a, const struct app_options *o);
void app_close(struct app *a);
/* Take a sample and derive everything from it. Returns 0 or -errno. */
int app_refresh(struct app *a);
/* Turn the current sample's figures into averages since boot (interval =
 * proc/uptime, read through the root). Returns 0 or -errno. */
int app_since_boot(struct app *a);
/* Recompute the visible rows (after a filter or sort change; no sampling). */
void app_rows(struct app *a);
/* Readahead mode on or off; why gets the reason it could not start. */
int app_readahead(struct app *a, bool on, char *why, size_t whylen);
/* A tunable of dev changed now: A/B windows start after it, and the series
 * records the values in force from now on as ts reads them (NULL: unknown). */
struct tunable_session;
void app_mark_change(struct app *a, struct tunable_session *ts, const char *dev);
/* -w: record that dev's tunable went from one value to another now (a
 * replay shows it and starts A/B windows after it). Returns 0 (also when
 * not recording) or -errno, said in export_error. */
int app_record_change(struct app *a, const char *dev, const char *tunable, const char *from, const char *to);
/* -r: the sample shown (the newest taken), and a jump to sample i (clamped
 * to the last): the interval ending there, with the sparklines and A/B
 * series as they were at that time. Returns 0 or -errno. */
size_t app_replay_pos(const struct app *a);
int app_replay_goto(struct app *a, size_t i);
/* Turn the CPU view's per-CPU sampling on or off, for the IRQs of dev. */
int app_cpu_view(struct app *a, bool on, const char *dev);
/* Turn per-cgroup sampling on or off. Returns 0 or -errno. */
int app_cgroup_view(struct app *a, bool on);
/* Turn per-process sampling on or off. Returns 0 or -errno with the reason
 * in a->error. */
int app_proc_view(struct app *a, bool on);
/* Re-derive the process rows after a change of proc_sort, proc_reverse or
 * proc_all (no sampling). Returns 0 or -ENOMEM. */
int app_proc_rows(struct app *a);

#endif
