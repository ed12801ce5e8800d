/* sweep-opts: the command line of blktune sweep and blktune report, parsed
 * from a table of options (one row per option: name, argument, handler), so
 * the usage text, the man page and the parser agree. */
#ifndef BLKTUNE_SWEEP_OPTS_H
#define BLKTUNE_SWEEP_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tunable.h"

#define SWEEP_VALUES_MAX 64
#define SWEEP_REPEAT_MAX 100
#define SWEEP_RUNS_MAX 512
#define SWEEP_METRICS_MAX 8
#define SWEEP_METRIC_NAME_MAX 32
#define SWEEP_DURATION_DEFAULT 10.0
#define SWEEP_SETTLE_DEFAULT 1.0

struct sweep_metric_opt {
	char name[SWEEP_METRIC_NAME_MAX];
	const char *regex;
};

struct sweep_opts {
	char dev[TUNABLE_DEV_MAX];
	char name[TUNABLE_NAME_MAX];
	char *values[SWEEP_VALUES_MAX];
	size_t nvalues;
	const char *run, *csv, *dir, *report, *baseline, *plot;
	double duration;  /* 0 with --run: no time limit */
	double interval;  /* -d */
	double settle;    /* --settle */
	long repeat;
	bool shuffle, seed_given;
	uint64_t seed;
	bool drop_caches;
	struct sweep_metric_opt metric[SWEEP_METRICS_MAX];
	size_t nmetrics;
	char spec[4096];  /* TUNABLE=V1,... split in place into values */
};

/* Parse argv (argv[0] is "sweep"). Returns 0, or 2 after printing one line
 * on err (bad usage), or 1 after printing help on out (--help). */
int sweep_opts_parse(int argc, char **argv, struct sweep_opts *o, FILE *out, FILE *err);
void sweep_opts_usage(FILE *f);

/* The order of the runs: values interleaved, forwards then backwards
 * (v1..vn vn..v1 ...), or each round shuffled with the seed. order[k] is
 * the value index of run k; n = nvalues x repeat. */
void sweep_opts_order(const struct sweep_opts *o, size_t *order, size_t n);

#endif
