/* trace: traced block I/O counters (from source-bpf) and the pure per-interval
 * model over two of them. A trace_sample holds cumulative counters keyed by
 * dev_t; trace_metrics_compute(prev, cur) turns a pair into one interval's
 * histograms, percentiles and per-CPU figures. */
#ifndef BLKTUNE_TRACE_H
#define BLKTUNE_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "blktune-bpf.h"
#include "trace-topology.h"

#define TRACE_OPS BLKTUNE_OPS                   /* read, write, discard, flush */
#define TRACE_SIZE_BUCKETS BLKTUNE_SIZE_BUCKETS /* <=512 B ... <=4 MiB, >4 MiB */
#define TRACE_LAT_BUCKETS BLKTUNE_LAT_BUCKETS   /* <=1 µs ... <=2^30 µs, more */
#define TRACE_MATRIX_CPUS BLKTUNE_MATRIX_CPUS

enum trace_op { TRACE_OP_READ, TRACE_OP_WRITE, TRACE_OP_DISCARD, TRACE_OP_FLUSH };

/* Which tracepoints counted the device (see bpf/blktune.bpf.c). */
enum trace_path {
	TRACE_PATH_RQ = BLKTUNE_PATH_RQ,   /* request-based (blk-mq): block_rq_* */
	TRACE_PATH_BIO = BLKTUNE_PATH_BIO, /* bio-based (zram, dm, md): block_bio_* */
};

/* Counters summed over CPUs. */
struct trace_counts {
	/* Request-based: requests completed, each once (issued = completed:
	 * one program, at completion). Bio-based: bios queued. */
	uint64_t issued[TRACE_OPS];
	/* Request-based: bytes completed; bio-based: bytes queued. */
	uint64_t bytes[TRACE_OPS];
	uint64_t size_count[2][TRACE_SIZE_BUCKETS]; /* [TRACE_OP_READ/WRITE][bucket] */
	uint64_t size_bytes[2][TRACE_SIZE_BUCKETS];
	uint64_t completed[TRACE_OPS], lat_sum_ns[TRACE_OPS];
	uint64_t steps;               /* completion events that did not end a request */
	uint64_t lat[TRACE_LAT_BUCKETS]; /* allocation to completion, all ops */
	uint64_t no_start;            /* completions without a start time */
	/* queue (allocation -> issue) and device (issue -> completion) time,
	 * request-based only */
	uint64_t q_sum_ns[TRACE_OPS], d_sum_ns[TRACE_OPS];
	uint64_t qlat[TRACE_OPS][TRACE_LAT_BUCKETS], dlat[TRACE_OPS][TRACE_LAT_BUCKETS];
	uint64_t no_issue[TRACE_OPS]; /* completions without an issue time */
	uint64_t cls[TRACE_CLASSES];  /* by enum trace_class; request-based only */
};

/* One CPU's share of a device's counters. */
struct trace_cpu {
	/* submitted from this CPU: request-based, rq->mq_ctx->cpu, known for
	 * CPUs below TRACE_MATRIX_CPUS only; bio-based, queued on this CPU */
	uint64_t issued;
	uint64_t completed; /* completed on this CPU */
	uint64_t cls[TRACE_CLASSES]; /* completions here, by where they were submitted */
};

struct trace_dev {
	dev_t dev;            /* user-space dev_t of the whole disk */
	enum trace_path path;
	uint64_t seq;         /* the disk's diskseq: which disk behind dev */
	struct trace_counts tot;
};

/* Cumulative counters of every traced device, sorted by (dev, path). Per-CPU
 * arrays live beside the devices: device i's CPUs are cpu[i*ncpu ...], its
 * completion matrix matrix[i*nmat*nmat ...] (row: completion CPU, column:
 * submitting CPU, CPUs below nmat only). */
struct trace_sample {
	unsigned ncpu, nmat;
	size_t ndevs, cap;
	struct trace_dev *devs;
	struct trace_cpu *cpu;
	uint64_t *matrix;
	uint64_t missed;   /* program runs the kernel skipped (recursion_misses) */
	uint64_t map_full; /* events lost because the device map was full */
};

void trace_sample_init(struct trace_sample *s);
void trace_sample_free(struct trace_sample *s);
/* Forget the devices, keep the memory; set the CPU count for what follows. */
void trace_sample_reset(struct trace_sample *s, unsigned ncpu);
/* Reset to ncpu CPUs and ndevs zeroed devices (a recording's reader fills
 * them). Returns 0 or -ENOMEM. */
int trace_sample_resize(struct trace_sample *s, unsigned ncpu, size_t ndevs);
/* Give back the memory of devices that went (capacity.h); the devices are
 * kept. Returns whether it shrank. */
bool trace_sample_compact(struct trace_sample *s);
int trace_sample_copy(struct trace_sample *dst, const struct trace_sample *src);
void trace_sample_swap(struct trace_sample *a, struct trace_sample *b);
/* Index of the device (either path), or -1. */
ssize_t trace_sample_find(const struct trace_sample *s, dev_t dev);
const struct trace_cpu *trace_sample_cpu(const struct trace_sample *s, size_t i);
const uint64_t *trace_sample_matrix(const struct trace_sample *s, size_t i);

/* Decode one map entry: key and ncpu consecutive per-CPU values, as
 * bpf_map_lookup_elem returns them for a per-CPU hash. Appends a device; keys
 * must come in ascending (dev, path) order (trace_key_cmp). Returns 0 or
 * -ENOMEM / -EINVAL (out of order). */
int trace_sample_add(struct trace_sample *s, const struct blktune_key *key,
		     const struct blktune_dev_cpu *percpu);
int trace_key_cmp(const void *a, const void *b);
/* Kernel dev_t (major << 20 | minor) to user space's. */
dev_t trace_dev_from_kernel(uint32_t kdev);

/* One device over one interval. */
struct trace_metrics {
	dev_t dev;
	enum trace_path path;
	struct trace_counts d;  /* deltas of every counter */
	uint64_t issued, completed; /* all ops */
	uint64_t lat_n;             /* completions in the latency histogram */
	/* µs at bucket resolution; NAN when no completion had a start time */
	double lat_avg_us, lat_p50_us, lat_p90_us, lat_p99_us, lat_max_us;
	double lat_avg_op_us[TRACE_OPS];
	/* Where the time goes (request-based only; split false on bio-based
	 * devices, which have no queue part, and NAN where no request of the
	 * op had both timestamps). Index TRACE_OPS is all ops together. */
	bool split;
	struct trace_split {
		uint64_t n;  /* requests with a queue and a device time */
		double q_avg_us, q_p50_us, q_p90_us, q_p99_us;
		double d_avg_us, d_p50_us, d_p90_us, d_p99_us;
	} sp[TRACE_OPS + 1];
	uint64_t qall[TRACE_LAT_BUCKETS], dall[TRACE_LAT_BUCKETS]; /* all ops */
	/* shares of completions by class, NAN when none (bio-based devices) */
	double cls_share[TRACE_CLASSES];
	unsigned ncpu, nmat;
	struct trace_cpu *cpu;  /* ncpu deltas */
	uint64_t *matrix;       /* nmat x nmat deltas */
	size_t cap_cpu, cap_mat;
};

void trace_metrics_init(struct trace_metrics *m);
void trace_metrics_free(struct trace_metrics *m);
/* Metrics of device `dev` between prev and cur (buffers in m are reused).
 * A device absent from prev, or present with another diskseq (a new disk
 * behind the same dev_t), started during the interval (the kernel adds a
 * device at its first event), so prev counts as zero; prev NULL gives the
 * counts since tracing began. Returns 0, -ENOENT when
 * cur lacks the device, -ENODATA when it had no event since prev (idle: m
 * is left as it was), -ERANGE when a counter went backwards (a reset: no
 * metrics this interval; also when the CPU count differs), -ENOMEM. */
int trace_metrics_compute(const struct trace_sample *prev, const struct trace_sample *cur,
			  dev_t dev, struct trace_metrics *m);

/* Bucket bounds: upper bound of bucket i in bytes / µs; 0 for the last,
 * unbounded bucket. */
uint64_t trace_size_bucket_le(unsigned i);
uint64_t trace_lat_bucket_le_us(unsigned i);
/* Percentile p (0..1) of a latency histogram in µs, interpolated linearly
 * within the log2 bucket; NAN if empty. */
double trace_lat_percentile_us(const uint64_t lat[TRACE_LAT_BUCKETS], double p);
/* Upper bound of the highest non-empty bucket (the last bucket counts as
 * twice its lower bound); NAN if empty. */
double trace_lat_max_us(const uint64_t lat[TRACE_LAT_BUCKETS]);
/* Group a completion matrix (row completion CPU, column submitting CPU) by
 * topology class into out[TRACE_CLASSES]. */
void trace_matrix_group(const struct trace_topology *t, const uint64_t *matrix, unsigned n,
			uint64_t out[TRACE_CLASSES]);

extern const char *const trace_op_names[TRACE_OPS]; /* "read", "write", "discard", "flush" */

/* Append issue 4's JSON fields for one disk to an open JSON object, starting
 * with ", ": rq_size_hist, lat_hist_us, lat_p50_us, lat_p90_us, lat_p99_us,
 * lat_max_us, per_cpu (CPUs with activity only), and blktune's lat_avg_us,
 * trace_issued, trace_completed, cpu_completion, lat_split_us (per op: queue
 * and device histograms and percentiles; null on bio-based devices). Returns
 * 0 or -EIO. */
int trace_metrics_json(FILE *f, const struct trace_metrics *m);

#endif
