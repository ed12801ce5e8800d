/* blktune-bpf: what bpf/blktune.bpf.c writes into its maps and src/source-bpf.c
 * reads back. Compiled by clang -target bpf and by gcc, so only __u32/__u64 and
 * pure arithmetic live here; the bucket functions are shared so the unit tests
 * check the very code the kernel runs. */
#ifndef BLKTUNE_BPF_H
#define BLKTUNE_BPF_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#include "bpf-log2.h"

/* Operation classes, as /proc/diskstats groups them (op_stat_group()). */
#define BLKTUNE_OP_READ 0
#define BLKTUNE_OP_WRITE 1
#define BLKTUNE_OP_DISCARD 2
#define BLKTUNE_OP_FLUSH 3
#define BLKTUNE_OPS 4

/* Request size: bucket i holds sizes in (256 << i, 512 << i] bytes for
 * i < 14 (<= 512 B ... <= 4 MiB); the last bucket holds anything larger. */
#define BLKTUNE_SIZE_BUCKETS 15
/* Latency: bucket i holds (2^(i-1), 2^i] µs (bucket 0: <= 1 µs) for i < 31;
 * the last bucket holds anything above 2^30 µs (about 18 minutes). */
#define BLKTUNE_LAT_BUCKETS 32

/* Where a request completed relative to the CPU that submitted it. */
#define BLKTUNE_CLASS_SAME_CPU 0
#define BLKTUNE_CLASS_SAME_LLC 1
#define BLKTUNE_CLASS_SAME_NODE 2
#define BLKTUNE_CLASS_ELSEWHERE 3
#define BLKTUNE_CLASSES 4

/* The exact submit-CPU column of the completion matrix is kept for CPUs below
 * this number only: a full row per CPU would cost ncpu^2 counters per device
 * (512 KiB at 256 CPUs), while the four classes above scale to any size. */
#define BLKTUNE_MATRIX_CPUS 16
/* CPUs the topology tables describe; a CPU beyond it is classed "elsewhere". */
#define BLKTUNE_MAX_CPUS 1024
#define BLKTUNE_TOPO_UNKNOWN 0xffff
/* Devices tracked; the map allocates on first use, so this costs nothing. */
#define BLKTUNE_MAX_DEVS 4096
/* Request-based devices are counted in a per-CPU array indexed by their
 * request queue's id (small: the kernel allocates the lowest free one),
 * which costs a completion about half of a hash lookup by dev_t. The
 * array is preallocated (slots x CPUs x one blktune_dev_cpu), so user
 * space sizes it at load from the disks there are, within this many slots
 * and BLKTUNE_SLOT_BYTES of kernel memory; a queue id beyond it is counted
 * in the hash instead. */
#define BLKTUNE_MAX_SLOTS 1024
#define BLKTUNE_MIN_SLOTS 16
#define BLKTUNE_SLOT_BYTES (8u << 20)

/* Which tracepoints counted a device: request-based queues (blk-mq) fire
 * block_rq_*, bio-based ones (zram, dm, md) only block_bio_*. */
#define BLKTUNE_PATH_RQ 0
#define BLKTUNE_PATH_BIO 1

struct blktune_key {
	__u32 dev;  /* kernel encoding: major << 20 | minor, of the whole disk */
	__u32 path; /* BLKTUNE_PATH_* */
};

/* One CPU's slot of a per-CPU hash entry. Cumulative: never reset or
 * drained while the disk lives; user space takes deltas.
 *
 * Request-based devices are counted by one program, at block_rq_complete,
 * once per request (not per completion event: a request may complete in
 * steps, see bpf/blktune.bpf.c). Bio-based devices are counted at
 * block_bio_queue (issued, bytes, sizes) and block_bio_complete. */
struct blktune_dev_cpu {
	/* gendisk->diskseq of the disk these counters belong to. A CPU that
	 * sees another value (the dev_t now names a new disk: a loop device
	 * detached and attached again) zeroes its slot first; user space sums
	 * only the CPUs holding the newest value. */
	__u64 seq;
	/* The disk (kernel dev_t of part0) a slot of the slot array holds on
	 * this CPU: a queue id is reused once its queue is freed, so a CPU
	 * finding another device (or another diskseq) there claims the slot
	 * afresh. Hash entries hold it too (their key says it already). */
	__u64 dev;
	__u64 issued[BLKTUNE_OPS];  /* bio-based only: bios queued */
	__u64 bytes[BLKTUNE_OPS];   /* rq: bytes of every completion event; bio: bytes queued */
	__u64 size_count[2][BLKTUNE_SIZE_BUCKETS]; /* [read/write][bucket] */
	__u64 size_bytes[2][BLKTUNE_SIZE_BUCKETS];
	__u64 completed[BLKTUNE_OPS]; /* requests (bios) completed, once each */
	/* Completion events that did not end their request: a partial
	 * completion, or the data step of a write inside a flush sequence
	 * (PREFLUSH/FUA), which ends later with a second event. */
	__u64 steps;
	/* allocation (rq->start_time_ns; bio: block_bio_queue) to completion */
	__u64 lat_sum_ns[BLKTUNE_OPS];
	__u64 lat[BLKTUNE_LAT_BUCKETS];
	__u64 no_start; /* completions without a start time (not in lat) */
	/* Request-based only: queue time (start_time_ns -> io_start_time_ns,
	 * btt's Q2D) and device time (io_start_time_ns -> completion, D2C) per
	 * operation. io_start_time_ns is stamped only while the queue keeps
	 * blk-stat accounting (QUEUE_FLAG_STATS, e.g. with wbt): a request
	 * without it is counted in no_issue[op] and in neither histogram. */
	__u64 q_sum_ns[BLKTUNE_OPS], d_sum_ns[BLKTUNE_OPS];
	__u64 qlat[BLKTUNE_OPS][BLKTUNE_LAT_BUCKETS];
	__u64 dlat[BLKTUNE_OPS][BLKTUNE_LAT_BUCKETS];
	__u64 no_issue[BLKTUNE_OPS];
	__u64 cls[BLKTUNE_CLASSES];           /* request-based only */
	__u64 from_cpu[BLKTUNE_MATRIX_CPUS];  /* by submitting CPU (rq->mq_ctx->cpu) */
};

/* Counted when the map is full and a new device cannot be added. */
struct blktune_global {
	__u64 map_full;
	/* Entries the programs added to devs: user space walks the map's keys
	 * (a scan of every bucket) only when this sum changes. */
	__u64 new_devs;
};

static inline __attribute__((always_inline)) __u32 blktune_size_bucket(__u64 bytes)
{
	__u32 b;

	if (bytes <= 512)
		return 0;
	b = bpf_log2_u64(bytes - 1) + 1 - 9; /* ceil(log2(bytes)) - log2(512) */
	return b < BLKTUNE_SIZE_BUCKETS - 1 ? b : BLKTUNE_SIZE_BUCKETS - 1;
}

/* The smallest i with ns <= 1000 * 2^i (i.e. ceil(ns/1000) <= 2^i), without
 * a division (three per request in the completion program): with
 * L = floor(log2(ns - 1)), ns is in (2^L, 2^(L+1)] and 1000 * 2^(L-9) is
 * 1.95 * 2^L, so the answer is L - 9 or L - 8. */
static inline __attribute__((always_inline)) __u32 blktune_lat_bucket(__u64 ns)
{
	__u32 b;

	if (ns <= 1000)
		return 0;
	b = bpf_log2_u64(ns - 1) - 9; /* ns > 1000: log2 >= 9 */
	if (b >= BLKTUNE_LAT_BUCKETS - 1)
		return BLKTUNE_LAT_BUCKETS - 1;
	if (ns > (1000ULL << b))
		b++;
	return b < BLKTUNE_LAT_BUCKETS - 1 ? b : BLKTUNE_LAT_BUCKETS - 1;
}

/* Kernel REQ_OP_* (low 8 bits of cmd_flags / bi_opf) to the diskstats group. */
static inline __attribute__((always_inline)) __u32 blktune_op(__u32 opf)
{
	__u32 op = opf & 0xff;

	if (op == 2) /* REQ_OP_FLUSH */
		return BLKTUNE_OP_FLUSH;
	if (op == 3 || op == 5) /* REQ_OP_DISCARD, REQ_OP_SECURE_ERASE */
		return BLKTUNE_OP_DISCARD;
	return (op & 1) ? BLKTUNE_OP_WRITE : BLKTUNE_OP_READ;
}

#endif
