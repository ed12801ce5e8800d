/* output: batch reports (text like iostat -x -y, JSON lines with iostat's
 * key names). Render only: every figure comes from the model. */
#ifndef BLKTUNE_OUTPUT_H
#define BLKTUNE_OUTPUT_H

#include <stdio.h>

#include "model.h"
#include "model-cgroup.h"
#include "model-procs.h"
#include "rows.h"
#include "sample.h"
#include "sampler.h"

struct output_report {
	const struct sample *cur;
	const struct cpu_metrics *cpu;
	const struct disk_metrics *disks;
	const struct trace_metrics *traces; /* parallel to disks; NULL: none */
	const struct ra_metrics *ra;        /* parallel to disks; NULL: readahead mode off */
	const size_t *rows; /* indices into disks, in display order */
	size_t nrows;
	double interval;    /* seconds; the uptime for a since-boot report */
	bool since_boot;    /* averages since boot (--since-boot) */
	bool persistent;    /* -j: names from dev/disk/by-* (JSON: persistent_name) */
	bool human;         /* -h: text with K/M/G units, iostat -h's layout */
	const struct sampler_host *host;
	const struct cgroup_metrics *cgroups; /* --cgroups (JSON), else NULL */
	const struct proc_metrics *procs;     /* --top-processes (JSON), else NULL */
	const struct trace_loss *trace_loss;  /* traced: what the tracer lost (JSON), else NULL */
	/* Why there are no traced figures ("off (--no-trace)", the loader's
	 * error, "loading"): JSON "trace_off"; NULL while the tracer runs */
	const char *trace_off;
	/* A replay: the tunable changes recorded inside this interval (JSON:
	 * "tunable_changes", only when there are some) */
	const struct record_change *changes;
	size_t nchanges;
};

/* Batch text names are never cut: the DEVICE column grows to this. */
#define OUTPUT_NAME_MAX (NAMES_MAX - 1)

int output_text(FILE *f, const struct output_report *r);
/* The report's first line: time, host, interval (or since boot), CPU. */
void output_header(FILE *f, const struct output_report *r);
/* iostat -x -h's layout: read, write, discard and flush groups, the device
 * name last, sizes with k/M/G/T suffixes (output-human.c). */
int output_human(FILE *f, const struct output_report *r);
/* One -h figure in width: kind 0 plain ("12.34"), 1 kB with a unit
 * ("214.2M": 1024 steps from k), 2 percent ("4.0%"). */
void output_human_cell(double v, int kind, int width, char *out, size_t len);
int output_json(FILE *f, const struct output_report *r);
/* ISO 8601 local time with offset, e.g. 2026-11-30T15:40:01+0000 */
void output_timestamp(const struct timespec *ts, char *out, size_t len);

#endif
