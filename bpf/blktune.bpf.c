// SPDX-License-Identifier: GPL-2.0
/* blktune's kernel side: per-device, per-CPU cumulative counters, request-size
 * and latency histograms, and where each request completed relative to its
 * submitting CPU. tp_btf programs read the tracepoint's arguments as typed
 * kernel pointers (ARCHITECTURE.md §1: 124/172 ns per call against 462/323 ns
 * for classic tracepoints).
 *
 * Request-based devices cost one program per request, at block_rq_complete:
 * everything is readable there. Bytes come from the completion's byte count,
 * allocation-to-completion time from rq->start_time_ns, queue and device time
 * from rq->io_start_time_ns, the submitting CPU from rq->mq_ctx->cpu, the
 * completing CPU is where the program runs. No hash keyed by request, no
 * program at issue. Counters are never drained; user space takes deltas. */
#include "vmlinux-min.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "blktune-bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* CPU -> LLC id and CPU -> NUMA node, filled by user space from sysfs before
 * load; BLKTUNE_TOPO_UNKNOWN where it does not know. */
const volatile __u32 topo_ncpu = 0;
const volatile __u16 cpu_llc[BLKTUNE_MAX_CPUS];
const volatile __u16 cpu_node[BLKTUNE_MAX_CPUS];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BLKTUNE_MAX_DEVS);
	/* 1 KiB per CPU per device: allocate only for devices that do I/O. */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct blktune_key);
	__type(value, struct blktune_dev_cpu);
} devs SEC(".maps");

/* Request-based devices by their queue's id (rq->q->id): an array lookup
 * instead of a hash one. User space sets the size before load (max_entries
 * and nslots alike, BLKTUNE_MIN_SLOTS..BLKTUNE_MAX_SLOTS); a queue with a
 * larger id is counted in devs. Each CPU's value says which disk it holds
 * (dev, seq); user space maps slot -> device from that. */
const volatile __u32 nslots = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BLKTUNE_MIN_SLOTS);
	__type(key, __u32);
	__type(value, struct blktune_dev_cpu);
} slots SEC(".maps");

/* How often each slot was claimed, by any CPU; sized like slots. User
 * space maps it (BPF_F_MMAPABLE) and re-reads a slot's per-CPU values to
 * learn which disk it holds only when its count moved: finding the owners
 * by reading every slot cost one lookup of ncpu values per slot (1024 at
 * 1024 devices) each time any disk did its first traced I/O. Written on a
 * claim only, never per request. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BLKTUNE_MIN_SLOTS);
	__uint(map_flags, 1U << 10 /* BPF_F_MMAPABLE */);
	__type(key, __u32);
	__type(value, __u64);
} claims SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct blktune_global);
} globals SEC(".maps");

/* Queue time of bios in flight on bio-based devices only (zram, dm, md):
 * their bios carry no start time the completion can read (issue_time_ns is
 * 0 without blk-cgroup), so these, unlike requests, need a map keyed by the
 * bio. LRU: a bio whose completion is never traced (split, remapped) is
 * evicted, never leaked. Request-based devices never touch it. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, __u64);
	__type(value, __u64);
} bio_start SEC(".maps");

/* Requests that completed in steps (a partial completion: a loop device's
 * short read, a SCSI device that did part of a command): the size each
 * had at its first step, until its last, which alone is counted and by
 * then holds only the bytes of that step. LRU: a request whose last step
 * is never traced is evicted, never leaked. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, __u64);
} partial SEC(".maps");

/* Entries put into partial and not taken out: the last step of every
 * request reads this one counter and looks partial up only when it is not
 * 0 (an entry the LRU evicted keeps it above 0: lookups, no error). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} npartial SEC(".maps");

/* Plain adds, not locked ones: each CPU has its own slot, and the
 * programs that may run nested on one CPU write disjoint slots or disjoint
 * fields: on request-based devices only the completion program runs (it is
 * never nested in itself: the kernel counts a recursion miss instead); on
 * bio-based devices a completion in hard IRQ over a queueing writes
 * completed, lat*, no_start, while the queueing writes issued, bytes,
 * size_*. A locked add costs ~20 cycles and a completion did five. */
#define ADD(field, n) ((field) += (n))
/* The global counters are written by every program: those stay atomic. */
#define ADD_SHARED(field, n) __sync_fetch_and_add(&(field), (n))

/* Initial value of a new entry: too big for the 512-byte BPF stack. */
struct blktune_dev_cpu blktune_zero = {};

static __always_inline __u64 disk_seq(struct gendisk *disk)
{
	return bpf_core_field_exists(disk->diskseq) ? disk->diskseq : 0;
}

/* Zero this CPU's slot (a per-CPU hash update from a program writes the
 * running CPU's value only, in place) and claim it for disk `seq`. Runs
 * once per CPU when a dev_t starts naming a new disk. */
static __always_inline void slot_reset(struct blktune_key *key, struct blktune_dev_cpu *v, __u64 seq)
{
	bpf_map_update_elem(&devs, key, &blktune_zero, BPF_EXIST);
	v->seq = seq;
	v->dev = key->dev;
}

static __always_inline struct blktune_dev_cpu *dev_slot(struct gendisk *disk, __u32 path)
{
	struct blktune_key key = { .dev = disk->part0->bd_dev, .path = path };
	struct blktune_dev_cpu *v;
	__u64 seq = disk_seq(disk);
	__u32 zero = 0;
	long err;

	v = bpf_map_lookup_elem(&devs, &key);
	if (v) {
		if (v->seq != seq)
			slot_reset(&key, v, seq);
		return v;
	}
	/* Another CPU may add the same device at the same time: EEXIST is fine. */
	err = bpf_map_update_elem(&devs, &key, &blktune_zero, BPF_NOEXIST);
	if (err != -17 /* EEXIST: another CPU added it first */) {
		struct blktune_global *g = bpf_map_lookup_elem(&globals, &zero);

		if (g && err)
			ADD_SHARED(g->map_full, 1);
		else if (g)
			ADD_SHARED(g->new_devs, 1);
		if (err)
			return NULL;
	}
	v = bpf_map_lookup_elem(&devs, &key);
	if (v && v->seq != seq)
		slot_reset(&key, v, seq);
	return v;
}

/* The request queue's slot, when its id is within the array: this CPU's
 * value if it already holds this disk, else claimed for it (zeroed, the
 * disk written in; user space re-reads which disk each slot holds when
 * new_devs moves). A queue id is reused only after its queue is freed, so
 * a value holding another disk holds a gone one. NULL: use the hash. */
static __always_inline struct blktune_dev_cpu *queue_slot(struct request_queue *q, struct gendisk *disk)
{
	struct blktune_dev_cpu *v;
	__u32 id = (__u32)q->id, dev, zero = 0;
	struct blktune_global *g;
	__u64 seq, *claimed;

	if (id >= nslots)
		return NULL;
	v = bpf_map_lookup_elem(&slots, &id);
	if (!v)
		return NULL;
	dev = disk->part0->bd_dev;
	seq = disk_seq(disk);
	if (v->dev == dev && v->seq == seq)
		return v;
	bpf_map_update_elem(&slots, &id, &blktune_zero, BPF_ANY); /* this CPU's value only */
	v->dev = dev;
	v->seq = seq;
	/* After the value says its disk, before new_devs moves: user space
	 * reads new_devs, then the counts, then the values. */
	claimed = bpf_map_lookup_elem(&claims, &id);
	if (claimed)
		__sync_fetch_and_add(claimed, 1);
	g = bpf_map_lookup_elem(&globals, &zero);
	if (g)
		ADD_SHARED(g->new_devs, 1);
	return v;
}

static __always_inline __u32 cpu_class(__u32 from, __u32 to)
{
	__u16 a, b;

	if (from == to)
		return BLKTUNE_CLASS_SAME_CPU;
	if (from >= BLKTUNE_MAX_CPUS || to >= BLKTUNE_MAX_CPUS ||
	    from >= topo_ncpu || to >= topo_ncpu)
		return BLKTUNE_CLASS_ELSEWHERE;
	a = cpu_llc[from];
	b = cpu_llc[to];
	if (a != BLKTUNE_TOPO_UNKNOWN && a == b)
		return BLKTUNE_CLASS_SAME_LLC;
	a = cpu_node[from];
	b = cpu_node[to];
	if (a != BLKTUNE_TOPO_UNKNOWN && a == b)
		return BLKTUNE_CLASS_SAME_NODE;
	return BLKTUNE_CLASS_ELSEWHERE;
}

static __always_inline void count_size(struct blktune_dev_cpu *v, __u32 op, __u64 bytes)
{
	__u32 b;

	if (op > BLKTUNE_OP_WRITE || !bytes)
		return;
	b = blktune_size_bucket(bytes);
	if (b >= BLKTUNE_SIZE_BUCKETS)
		return;
	ADD(v->size_count[op][b], 1);
	ADD(v->size_bytes[op][b], bytes);
}

static __always_inline void count_lat(__u64 *hist, __u64 *sum, __u64 d)
{
	__u32 b = blktune_lat_bucket(d);

	if (b < BLKTUNE_LAT_BUCKETS)
		ADD(hist[b], 1);
	ADD(*sum, d);
}

static __always_inline __u32 flush_seq_flag(void)
{
	if (bpf_core_enum_value_exists(enum rqf_flags, __RQF_FLUSH_SEQ))
		return 1U << bpf_core_enum_value(enum rqf_flags, __RQF_FLUSH_SEQ);
	return 1U << 4; /* RQF_FLUSH_SEQ before 6.7 */
}

/* The request flags that say the kernel stamped rq->start_time_ns: it
 * does when it accounts the request (RQF_IO_STAT) or a scheduler needs
 * the time (RQF_USE_SCHED), and for the flush machinery's own flush
 * request, which blk_rq_init stamps at each use (RQF_FLUSH_SEQ: where this
 * is read, only that request still carries it); blk-stat (RQF_STATS) wants
 * the end time too but stamps only the issue (io_start_time_ns), and that
 * at dispatch. 0 when the running kernel does not name them (before 6.7,
 * whose blk_mq_rq_ctx_init zeroes the field when it does not stamp it).
 * 6.18 leaves the field as the request's previous user left it: on a
 * queue with iostats 0 and no scheduler every latency was that old
 * request's age (seconds). */
static __always_inline __u32 stamped_flags(void)
{
	__u32 m;

	if (!bpf_core_enum_value_exists(enum rqf_flags, __RQF_IO_STAT) ||
	    !bpf_core_enum_value_exists(enum rqf_flags, __RQF_USE_SCHED))
		return 0;
	m = 1U << bpf_core_enum_value(enum rqf_flags, __RQF_IO_STAT);
	m |= 1U << bpf_core_enum_value(enum rqf_flags, __RQF_USE_SCHED);
	return m | flush_seq_flag();
}

/* A step that does not end its request: its size before the first such
 * step (what is left before it is all of it) is kept for the last. */
static __always_inline void partial_step(struct request *rq)
{
	__u64 key = (__u64)rq, size = rq->__data_len, *n;
	__u32 zero = 0;

	if (bpf_map_lookup_elem(&partial, &key))
		return;
	if (bpf_map_update_elem(&partial, &key, &size, BPF_NOEXIST))
		return;
	n = bpf_map_lookup_elem(&npartial, &zero);
	if (n)
		__sync_fetch_and_add(n, 1);
}

/* The size of a request at its last step: nr_bytes, or what it had before
 * its first step if it took several. */
static __always_inline __u64 request_size(struct request *rq, __u64 nr_bytes)
{
	__u64 key = (__u64)rq, *n, *size, v;
	__u32 zero = 0;

	n = bpf_map_lookup_elem(&npartial, &zero);
	if (!n || !*n)
		return nr_bytes;
	size = bpf_map_lookup_elem(&partial, &key);
	if (!size)
		return nr_bytes;
	v = *size;
	if (bpf_map_delete_elem(&partial, &key) == 0)
		__sync_fetch_and_add(n, -1);
	return v > nr_bytes ? v : nr_bytes;
}

/* One request, counted once. The tracepoint fires for every step of a
 * request's completion, and a request can take several:
 *  - a partial completion (nr_bytes below what is left) fires again later;
 *  - a write with PREFLUSH/FUA goes through the flush machinery: its data
 *    step completes with RQF_FLUSH_SEQ set, then the request ends once more
 *    (0 bytes, flag cleared) after the flushes; an empty PREFLUSH write has
 *    only that last event. The flush itself is a separate request
 *    (REQ_OP_FLUSH, RQF_FLUSH_SEQ set) that diskstats counts as a flush.
 * So bytes are summed over every event, and the request (count, size,
 * latencies, CPUs) is counted at its last one, its size being what it had
 * before its first partial step (partial): the same requests and ops
 * /proc/diskstats counts (blk_account_io_done skips RQF_FLUSH_SEQ). A
 * requeued request is completed once, so it is counted once. */
SEC("tp_btf/block_rq_complete")
int BPF_PROG(rq_complete, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
	struct gendisk *disk = rq->q->disk;
	struct blk_mq_ctx *swq;
	struct blktune_dev_cpu *v;
	__u64 now, start, issue;
	__u32 op, from, to, flags;

	if (!disk) /* passthrough to a queue without a disk */
		return 0;
	v = queue_slot(rq->q, disk);
	if (!v)
		v = dev_slot(disk, BLKTUNE_PATH_RQ);
	if (!v)
		return 0;
	op = blktune_op(rq->cmd_flags) & 3;
	ADD(v->bytes[op], nr_bytes);
	if (nr_bytes < rq->__data_len) {
		ADD(v->steps, 1);
		partial_step(rq);
		return 0;
	}
	if ((rq->rq_flags & flush_seq_flag()) && op != BLKTUNE_OP_FLUSH) {
		count_size(v, op, request_size(rq, nr_bytes));
		ADD(v->steps, 1);
		return 0;
	}
	ADD(v->completed[op], 1);
	count_size(v, op, request_size(rq, nr_bytes));
	/* Neither time is there unless the kernel stamped this request: an
	 * unstamped one counts in no_start. A stale issue time is from the
	 * request's previous use, before this start: the test below drops it. */
	flags = stamped_flags();
	start = !flags || (rq->rq_flags & flags) ? rq->start_time_ns : 0;
	issue = rq->io_start_time_ns;
	now = bpf_ktime_get_ns();
	if (start && now > start) {
		count_lat(v->lat, &v->lat_sum_ns[op], now - start);
	} else if (!start) {
		ADD(v->no_start, 1);
	} else {
		count_lat(v->lat, &v->lat_sum_ns[op], 0);
	}
	if (issue && start && issue >= start && now >= issue) {
		count_lat(v->qlat[op], &v->q_sum_ns[op], issue - start);
		count_lat(v->dlat[op], &v->d_sum_ns[op], now - issue);
	} else {
		ADD(v->no_issue[op], 1);
	}
	swq = rq->mq_ctx; /* the software queue of the submitting CPU */
	if (!swq)
		return 0;
	from = swq->cpu;
	to = bpf_get_smp_processor_id();
	ADD(v->cls[cpu_class(from, to) & 3], 1);
	if (from < BLKTUNE_MATRIX_CPUS)
		ADD(v->from_cpu[from], 1);
	return 0;
}

/* Bio events fire for every device, request-based ones included (their bios
 * are later merged into requests). Counting them there would count the same
 * I/O twice and cost a map update per bio, so only bio-based queues (no
 * mq_ops: zram, dm, md) are counted here. A request-based dm (dm-mq) has
 * mq_ops and is counted by the request programs. */
static __always_inline int bio_based(struct request_queue *q)
{
	return q && !q->mq_ops;
}

SEC("tp_btf/block_bio_queue")
int BPF_PROG(bio_queue, struct bio *bio)
{
	struct block_device *bdev = bio->bi_bdev;
	struct blktune_dev_cpu *v;
	struct gendisk *disk;

	if (!bdev)
		return 0;
	disk = bdev->bd_disk;
	if (!disk || !bio_based(disk->queue))
		return 0;
	v = dev_slot(disk, BLKTUNE_PATH_BIO);
	if (v) {
		__u64 key = (__u64)bio, now = bpf_ktime_get_ns();
		__u32 op = blktune_op(bio->bi_opf) & 3, bytes = bio->bi_iter.bi_size;

		ADD(v->issued[op], 1);
		ADD(v->bytes[op], bytes);
		count_size(v, op, bytes);
		bpf_map_update_elem(&bio_start, &key, &now, BPF_ANY);
	}
	return 0;
}

SEC("tp_btf/block_bio_complete")
int BPF_PROG(bio_complete, struct request_queue *q, struct bio *bio)
{
	struct blktune_dev_cpu *v;
	__u64 start = 0, key, *sp, now;
	__u32 op;

	if (!bio_based(q) || !q->disk)
		return 0;
	v = dev_slot(q->disk, BLKTUNE_PATH_BIO);
	if (!v)
		return 0;
	op = blktune_op(bio->bi_opf) & 3;
	ADD(v->completed[op & 3], 1);
	/* The queue time recorded above; a bio queued before tracing started
	 * has none and is counted in no_start. A bio carries no submitting
	 * CPU, so bio-based devices have no classes. */
	key = (__u64)bio;
	sp = bpf_map_lookup_elem(&bio_start, &key);
	if (sp) {
		start = *sp;
		bpf_map_delete_elem(&bio_start, &key);
	}
	if (!start) {
		ADD(v->no_start, 1);
		return 0;
	}
	now = bpf_ktime_get_ns();
	count_lat(v->lat, &v->lat_sum_ns[op], now > start ? now - start : 0);
	return 0;
}
