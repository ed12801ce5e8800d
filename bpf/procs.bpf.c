// SPDX-License-Identifier: GPL-2.0
/* The --trace-processes mode: which process submitted each block request,
 * per (process, device) and per (blk cgroup, device): requests and bytes per
 * operation and a latency histogram. A separate object from
 * blktune.bpf.o, loaded only when the mode is asked for: it needs a hash
 * keyed by request (the submitter is known at start, the latency at done),
 * which the default tracer avoids.
 *
 * tp_btf/block_io_start fires when a request is started for accounting,
 * from blk_mq_bio_to_request in the task that submitted the bio: for direct
 * I/O the process itself, for buffered writes the flusher (writeback
 * kworker), for readahead the reading process. A bio merged into a request
 * already started is part of that request: requests and bytes are counted
 * at the request's issue (tp_btf/block_rq_issue). tp_btf/block_io_done fires once
 * per request at its accounting end (after a flush sequence, not per step). */
#include "vmlinux-procs.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "procs-bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PROCS_BPF_MAX_PAIRS);
	__type(key, struct procs_bpf_key);
	__type(value, struct procs_bpf_val);
} procs SEC(".maps");

/* Per blk cgroup: the cgroup view's traced figures (they outlive the
 * processes, whose pairs user space deletes when they exit). */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PROCS_BPF_MAX_CGROUPS);
	__type(key, struct procs_bpf_cgkey);
	__type(value, struct procs_bpf_counts);
} cgroups SEC(".maps");

/* LRU: a request whose done is never seen (passthrough, a lost event) is
 * evicted, never leaked. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PROCS_BPF_MAX_INFLIGHT);
	__type(key, __u64);
	__type(value, struct procs_bpf_inflight);
} inflight SEC(".maps");

/* Per whole disk: completions the mode could not match with a start
 * (procs_bpf_loss). A plain hash: written only on that rare path. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PROCS_BPF_MAX_LOSS_DEVS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct procs_bpf_loss);
} loss SEC(".maps");

/* What could not be stored in the hashes above (procs_bpf_unkept). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct procs_bpf_unkept);
} unkept SEC(".maps");

/* Initial value of a new entry: too big for the BPF stack. */
struct procs_bpf_val procs_zero = {};
struct procs_bpf_counts counts_zero = {};
struct procs_bpf_loss loss_zero = {};

/* The entry of key in map, created zeroed if new; NULL if it cannot be. */
static __always_inline void *lookup_or_zero(void *map, const void *key, const void *zero)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	bpf_map_update_elem(map, key, zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, key);
}

static __always_inline void count_start(struct procs_bpf_counts *c, __u32 op, __u32 bytes)
{
	__sync_fetch_and_add(&c->requests[op], 1);
	__sync_fetch_and_add(&c->bytes[op], bytes);
}

static __always_inline void count_done(struct procs_bpf_counts *c, __u32 b, __u64 d)
{
	if (b < BLKTUNE_LAT_BUCKETS)
		__sync_fetch_and_add(&c->lat[b], 1);
	__sync_fetch_and_add(&c->lat_sum_ns, d);
	__sync_fetch_and_add(&c->done, 1);
}

/* The blk cgroup of the request's first bio. Read through the typed
 * pointers (BTF loads the JIT guards against faults; a NULL on the way
 * reads as 0), not BPF_CORE_READ: that is a bpf_probe_read_kernel call per
 * pointer, five per request. */
static __always_inline __u64 blk_cgroup_id(struct request *rq)
{
	struct bio *bio = rq->bio;

	if (!bio || !bpf_core_field_exists(bio->bi_blkg))
		return 0;
	return bio->bi_blkg->blkcg->css.cgroup->kn->id;
}

static __always_inline __u32 flush_seq_flag(void)
{
	if (bpf_core_enum_value_exists(enum rqf_flags, __RQF_FLUSH_SEQ))
		return 1U << bpf_core_enum_value(enum rqf_flags, __RQF_FLUSH_SEQ);
	return 1U << 4; /* RQF_FLUSH_SEQ before 6.7 */
}

/* A start (or a loss) that a hash refused to store. */
static __always_inline void count_unkept(int start)
{
	__u32 zero = 0;
	struct procs_bpf_unkept *u = bpf_map_lookup_elem(&unkept, &zero);

	if (!u)
		return;
	if (start)
		__sync_fetch_and_add(&u->starts, 1);
	else
		__sync_fetch_and_add(&u->no_starts, 1);
}

/* A completion without a recorded start: the request was in flight when
 * tracing began, or its start was not kept. */
static __always_inline void count_no_start(struct request *rq)
{
	struct gendisk *disk = rq->q->disk;
	struct procs_bpf_loss *l;
	__u32 dev;

	if (!disk)
		return;
	dev = disk->part0->bd_dev;
	l = lookup_or_zero(&loss, &dev, &loss_zero);
	if (l)
		__sync_fetch_and_add(&l->no_start, 1);
	else
		count_unkept(0);
}

SEC("tp_btf/block_io_start")
int BPF_PROG(io_start, struct request *rq)
{
	struct procs_bpf_inflight in = {};
	struct procs_bpf_cgkey cgk = {};
	struct gendisk *disk = rq->q->disk;
	struct procs_bpf_counts *c;
	struct procs_bpf_val *v;
	__u64 rqp = (__u64)rq;

	if (!disk)
		return 0;
	in.key.tgid = bpf_get_current_pid_tgid() >> 32;
	in.key.dev = disk->part0->bd_dev;
	in.cgroup_id = blk_cgroup_id(rq);
	in.op = blktune_op(rq->cmd_flags) & 3;
	v = lookup_or_zero(&procs, &in.key, &procs_zero);
	if (!v) {
		count_unkept(1);
		return 0;
	}
	v->cgroup_id = in.cgroup_id;
	bpf_get_current_comm(v->comm, sizeof(v->comm));
	cgk.cgroup_id = in.cgroup_id;
	cgk.dev = in.key.dev;
	c = lookup_or_zero(&cgroups, &cgk, &counts_zero);
	/* Not rq->start_time_ns: the kernel sets it after this event (or
	 * never, on a queue without accounting or a scheduler), so here it
	 * still holds the previous request's. */
	in.start_ns = bpf_ktime_get_ns();
	if (bpf_map_update_elem(&inflight, &rqp, &in, BPF_ANY) || !c)
		count_unkept(1);
	return 0;
}

/* The request and its bytes, once, to its pair and its cgroup's. */
static __always_inline void count_request(struct procs_bpf_inflight *in, __u32 bytes)
{
	struct procs_bpf_cgkey cgk = {};
	struct procs_bpf_counts *c;
	struct procs_bpf_val *v;

	in->counted = 1;
	v = bpf_map_lookup_elem(&procs, &in->key);
	if (v)
		count_start(&v->c, in->op & 3, bytes);
	cgk.cgroup_id = in->cgroup_id;
	cgk.dev = in->key.dev;
	c = bpf_map_lookup_elem(&cgroups, &cgk);
	if (c)
		count_start(c, in->op & 3, bytes);
}

/* A request is counted when it is issued, not at block_io_start: it grows
 * after its start (bios the submitter's plug or the scheduler merge into
 * it: diskstats' merges), and the scheduler may merge it whole into
 * another request (block_rq_merge), after which it is never issued nor
 * done. Counted at start, a sequential job's bytes came short by one bio
 * per merge, and requests merged away were counted as requests (257
 * against diskstats' 132 with 251 merges). Once: a requeued request is
 * issued again. */
SEC("tp_btf/block_rq_issue")
int BPF_PROG(rq_issue, struct request *rq)
{
	__u64 rqp = (__u64)rq;
	struct procs_bpf_inflight *in = bpf_map_lookup_elem(&inflight, &rqp);

	if (in && !in->counted)
		count_request(in, rq->__data_len);
	return 0;
}

/* next, merged into another request, ends here: no issue, no done. */
SEC("tp_btf/block_rq_merge")
int BPF_PROG(rq_merge, struct request *next)
{
	__u64 rqp = (__u64)next;

	bpf_map_delete_elem(&inflight, &rqp);
	return 0;
}

SEC("tp_btf/block_io_done")
int BPF_PROG(io_done, struct request *rq)
{
	__u64 rqp = (__u64)rq, now, d;
	struct procs_bpf_inflight *in;
	struct procs_bpf_cgkey cgk = {};
	struct procs_bpf_counts *c;
	struct procs_bpf_val *v;
	__u32 b;

	/* blk_account_io_done fires block_io_done for every step the block
	 * layer ends with a timestamp. In a flush sequence (RQF_FLUSH_SEQ)
	 * that is the data step of a PREFLUSH/FUA write, which ends once more
	 * after its flushes with the flag cleared, and the machinery's own
	 * flush request, never started through block_io_start. Only the end
	 * counts: the request's done and latency take in its flushes, and
	 * neither step is a completion without a start. */
	if (rq->rq_flags & flush_seq_flag())
		return 0;
	in = bpf_map_lookup_elem(&inflight, &rqp);
	if (!in) {
		count_no_start(rq);
		return 0;
	}
	/* Never issued itself: an empty PREFLUSH write, which the flush
	 * machinery ends after its flush request (its bytes, 0, are gone by
	 * now). */
	if (!in->counted)
		count_request(in, 0);
	now = bpf_ktime_get_ns();
	v = bpf_map_lookup_elem(&procs, &in->key);
	cgk.cgroup_id = in->cgroup_id;
	cgk.dev = in->key.dev;
	c = bpf_map_lookup_elem(&cgroups, &cgk);
	d = now > in->start_ns ? now - in->start_ns : 0;
	bpf_map_delete_elem(&inflight, &rqp);
	b = blktune_lat_bucket(d);
	if (v)
		count_done(&v->c, b, d);
	if (c)
		count_done(c, b, d);
	return 0;
}
