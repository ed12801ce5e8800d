/* model-procs: the process view's figures, a pure function of two samples:
 * per process, read and write bytes per second over the interval (from
 * /proc/PID/io read_bytes and write_bytes) and the cumulative counts,
 * matched between samples by PID and start time; and the rows in the order
 * of any column. */
#ifndef BLKTUNE_MODEL_PROCS_H
#define BLKTUNE_MODEL_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proc-sample.h"
#include "sample.h"

enum proc_column {
	PROC_COL_PID,
	PROC_COL_USER,
	PROC_COL_RBYTES_S,
	PROC_COL_WBYTES_S,
	PROC_COL_BYTES_S, /* read + write */
	PROC_COL_RBYTES,
	PROC_COL_WBYTES,
	PROC_COL_REQS_S,  /* traced requests per second, all devices */
	PROC_COL_COMMAND,
	PROC_COLUMNS
};

/* A column: its header, its JSON key, and the order a first sort by it
 * takes (figures largest first, names and PIDs ascending). */
struct proc_column_info {
	const char *header;
	const char *json;
	bool descending;
	const char *help;
};
extern const struct proc_column_info proc_columns[PROC_COLUMNS];

/* --trace-processes: the figures of traced requests (a process's or a
 * cgroup's on one device). */
struct proc_figures {
	bool rates;                     /* a baseline (model_procs_zero) and counts that did not go back */
	double req_s[PROC_OPS], bytes_s[PROC_OPS];
	uint64_t requests[PROC_OPS], bytes[PROC_OPS], done; /* since tracing started */
	double lat_p50_us, lat_p99_us, lat_avg_us; /* of the interval's completions; NAN without */
};

/* The figures of counts c, with rates over interval when p (the previous
 * sample's counts of the same pair, or &model_procs_zero) is not NULL. */
void model_procs_figures(const struct proc_counts *c, const struct proc_counts *p, double interval,
			 struct proc_figures *f);

/* The baseline of a traced pair absent from a previous sample that was
 * valid and traced: the pair was created since, so all its counts are of
 * the interval (a job shorter than one interval gets its rate and its
 * percentiles). Sound because:
 * - bpf/procs.bpf.c creates a pair zeroed at its first request, and an
 *   entry the LRU evicted comes back zeroed too;
 * - source_procs_bpf_read reads every pair of the maps, with no cap (the
 *   maps' own bound, PROCS_BPF_MAX_PAIRS, is met by eviction: the case
 *   above), bucket by bucket under the bucket's lock
 *   (source_procs_bpf_read_map), so a pair that is in the map throughout
 *   the read is read once, never missed; a pair created during the read
 *   may be missed, and is then new at the next read, counted from zero;
 * - a sample records no pairs (record-codec.c keeps procs untraced), so a
 *   replayed previous sample is not traced: no baseline, no rates.
 * A pair present before whose process is another one now (a reused PID)
 * has no baseline: part of its counts are the previous holder's. */
extern const struct proc_counts model_procs_zero;

/* --trace-processes: one device a process submitted requests to. */
struct proc_dev_row {
	dev_t dev;
	char dev_name[SAMPLE_NAME_MAX]; /* from diskstats (model_procs_names), else "MAJ:MIN" */
	uint64_t cgroup_id;
	char comm[16];
	struct proc_figures f;
};

struct proc_row {
	pid_t pid;
	uint64_t start;
	uid_t uid;
	char user[PROC_USER_MAX];
	char comm[PROC_COMM_MAX];
	char cmdline[PROC_CMDLINE_MAX];
	bool rates; /* the previous sample had this process and its counters did not go back */
	/* --trace-processes: the process exited before the walk, its traced
	 * requests are all it has (no /proc figures, user or command line) */
	bool exited;
	double rbytes_s, wbytes_s;
	uint64_t rbytes, wbytes;
	size_t dfirst, ndev; /* its traced devices: dev[dfirst .. dfirst + ndev) */
	double req_s;        /* traced requests per second over its devices */
	/* req_s is a measurement: no traced device, or one with a rate (not
	 * only pairs first seen in a sample after an untraced one or under a
	 * reused PID, whose 0 is no figure) */
	bool req_rates;
};

/* --trace-processes: requests it could not follow, on one device. */
struct proc_loss_row {
	dev_t dev;
	char dev_name[SAMPLE_NAME_MAX]; /* from diskstats (model_procs_loss_names), else "MAJ:MIN" */
	uint64_t no_start;              /* completions without a recorded start, since the mode started */
	uint64_t no_start_new;          /* of those, over the interval (0 when since_prev is false) */
};

/* --trace-processes: what it could not follow (procs-bpf.h's procs_bpf_loss). */
struct proc_loss_figures {
	bool since_prev;                /* the previous sample was traced: *_new are of the interval */
	uint64_t no_start, no_start_new; /* all devices */
	uint64_t skipped, skipped_new;  /* program runs the kernel skipped (recursion misses) */
	uint64_t not_kept, not_kept_new; /* starts and losses a map refused (procs_bpf_unkept) */
	struct proc_loss_row *dev;      /* by dev */
	size_t ndev, cap;
};

/* The loss figures of cur (traced), new counts against prev when prev is
 * valid and traced; a count that went back (a new tracer) counts from
 * zero. Returns 0 or -ENOMEM. */
int model_procs_loss(const struct proc_sample *prev, const struct proc_sample *cur, struct proc_loss_figures *out);
/* Name the devices from the sample's diskstats. */
void model_procs_loss_names(struct proc_loss_figures *l, const struct sample *s);
void model_procs_loss_free(struct proc_loss_figures *l);

struct proc_metrics {
	bool valid;
	char why[160];
	double interval;
	bool all_users;      /* root: every process; else only the caller's */
	uid_t uid;
	unsigned unreadable; /* processes whose io the caller may not read */
	size_t nprocs;       /* processes seen (readable) */
	struct proc_row *row;
	size_t nrows, cap;
	bool traced;         /* --trace-processes: dev holds the traced pairs */
	struct proc_dev_row *dev;
	size_t ndev, devcap;
	struct proc_loss_figures loss; /* when traced */
};

/* Derive the rows of cur (prev may be NULL or invalid: no rates). With all
 * false only processes that read or wrote in the interval are rows. The rows
 * come sorted by PID, rows of traced processes that exited (exited) after
 * the rest. Returns 0 or -ENOMEM. */
int model_procs(const struct proc_sample *prev, const struct proc_sample *cur, bool all, struct proc_metrics *out);
/* Order the rows by column (the column's own direction, or the other one
 * when reverse); ties by PID. Rows without rates sort after those with. */
void model_procs_sort(struct proc_metrics *m, enum proc_column col, bool reverse);
/* Name the traced devices from the sample's diskstats. */
void model_procs_names(struct proc_metrics *m, const struct sample *s);
/* The rows that submitted requests to dev in the interval, most requests
 * per second first: up to n indexes into m->row. Returns how many. */
size_t model_procs_top(const struct proc_metrics *m, dev_t dev, size_t *idx, size_t n);
/* The row of pid, or NULL. */
const struct proc_row *model_procs_find(const struct proc_metrics *m, pid_t pid);
void model_procs_free(struct proc_metrics *m);

#endif
