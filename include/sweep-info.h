/* sweep-info: what a report needs besides the runs: the machine, the device
 * and its queue limits, every tunable's value before the sweep, the exact
 * command line and the sweep's settings. Saved as DIR/sweep.info, "key
 * value" lines under a "blktune-sweep-info 1" first line, so blktune report
 * can be run later on the directory. */
#ifndef BLKTUNE_SWEEP_INFO_H
#define BLKTUNE_SWEEP_INFO_H

#include <stddef.h>
#include <stdio.h>

#include "root.h"
#include "sweep-opts.h"
#include "tunable.h"

#define SWEEP_INFO_STR 256
#define SWEEP_INFO_TUN_MAX 96
/* The longest --run, NUL included: sweep.info and the report keep it whole. */
#define SWEEP_RUN_MAX 4096

struct sweep_info {
	char command[16384];   /* the exact command line, shell-quoted */
	char dev[TUNABLE_DEV_MAX], tunable[TUNABLE_NAME_MAX];
	char values[2048];     /* as given, comma-separated */
	char original[TUNABLE_VALUE_MAX], baseline[TUNABLE_VALUE_MAX];
	char order[64];        /* "interleaved" or "shuffled, seed N" */
	char plot[64];
	char started[64];
	char run[SWEEP_RUN_MAX]; /* the command each run ran, "" when sampling */
	double repeat, settle, duration, interval;
	char kernel[SWEEP_INFO_STR], host[SWEEP_INFO_STR];
	char model[SWEEP_INFO_STR], vendor[SWEEP_INFO_STR], scheduler[SWEEP_INFO_STR];
	double size_bytes, max_hw_sectors_kb, max_sectors_kb, max_segments, logical_block_size,
		physical_block_size, rotational, nr_hw_queues, diskseq;
	struct { char name[TUNABLE_NAME_MAX], value[TUNABLE_VALUE_MAX]; } tun[SWEEP_INFO_TUN_MAX];
	size_t ntun;
	struct { char name[SWEEP_METRIC_NAME_MAX], regex[SWEEP_INFO_STR]; } metric[SWEEP_METRICS_MAX];
	size_t nmetrics;
};

void sweep_info_init(struct sweep_info *in);
/* argv joined, each word shell-quoted when it needs it. Returns the length
 * of the whole text, as snprintf does (>= len: out was cut). */
size_t sweep_info_command(int argc, char **argv, char *out, size_t len);
/* The values joined by commas, as sweep_info_command. */
size_t sweep_info_values(const struct sweep_opts *o, char *out, size_t len);
/* The device's facts through root (model, vendor, size, queue limits,
 * scheduler); what is missing stays empty / NAN. */
void sweep_info_device(const struct root *r, const char *dev, struct sweep_info *in);
int sweep_info_write(FILE *f, const struct sweep_info *in);
/* Write to path through safe_save; strings sanitised. Returns 0 or -errno
 * (msg says what failed). */
int sweep_info_save(const char *path, const struct sweep_info *in, char *msg, size_t msg_size);
/* Returns 0 or -EINVAL (msg names the line: a malformed number, or a
 * baseline that is missing or not one of the values) / -errno. */
int sweep_info_read(FILE *f, struct sweep_info *in, char *msg, size_t len);

#endif
