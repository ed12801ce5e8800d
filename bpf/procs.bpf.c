// SPDX-License-Identifier: GPL-2.0
/* The --trace-processes mode: which process submitted each block request,
 * per (process, device): requests and bytes per operation, a latency
 * histogram and the blk cgroup of the bios. A separate object from
 * blktune.bpf.o, loaded only when the mode is asked for: it needs a hash
 * keyed by request (the submitter is known at start, the latency at done),
 * which the default tracer avoids.
 *
 * tp_btf/block_io_start fires when a request is started for accounting,
 * from blk_mq_bio_to_request in the task that submitted the bio: for direct
 * I/O the process itself, for buffered writes the flusher (writeback
 * kworker), for readahead the reading process. A bio merged into a request
 * already started is part of that request. tp_btf/block_io_done fires once
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

/* LRU: a request whose done is never seen (passthrough, a lost event) is
 * evicted, never leaked. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PROCS_BPF_MAX_INFLIGHT);
	__type(key, __u64);
	__type(value, struct procs_bpf_inflight);
} inflight SEC(".maps");

/* Initial value of a new entry: too big for the BPF stack. */
struct procs_bpf_val procs_zero = {};

static __always_inline __u64 blk_cgroup_id(struct request *rq)
{
	struct bio *bio = rq->bio;

	if (!bio || !bpf_core_field_exists(bio->bi_blkg))
		return 0;
	return BPF_CORE_READ(bio, bi_blkg, blkcg, css.cgroup, kn, id);
}

SEC("tp_btf/block_io_start")
int BPF_PROG(io_start, struct request *rq)
{
	struct procs_bpf_inflight in = {};
	struct gendisk *disk = rq->q->disk;
	struct procs_bpf_val *v;
	__u64 rqp = (__u64)rq;
	__u32 op;

	if (!disk)
		return 0;
	in.key.tgid = bpf_get_current_pid_tgid() >> 32;
	in.key.dev = disk->part0->bd_dev;
	v = bpf_map_lookup_elem(&procs, &in.key);
	if (!v) {
		bpf_map_update_elem(&procs, &in.key, &procs_zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&procs, &in.key);
		if (!v)
			return 0;
	}
	op = blktune_op(rq->cmd_flags) & 3;
	__sync_fetch_and_add(&v->requests[op], 1);
	__sync_fetch_and_add(&v->bytes[op], rq->__data_len);
	v->cgroup_id = blk_cgroup_id(rq);
	bpf_get_current_comm(v->comm, sizeof(v->comm));
	in.start_ns = bpf_ktime_get_ns();
	bpf_map_update_elem(&inflight, &rqp, &in, BPF_ANY);
	return 0;
}

SEC("tp_btf/block_io_done")
int BPF_PROG(io_done, struct request *rq)
{
	__u64 rqp = (__u64)rq, now = bpf_ktime_get_ns(), d;
	struct procs_bpf_inflight *in = bpf_map_lookup_elem(&inflight, &rqp);
	struct procs_bpf_val *v;
	__u32 b;

	if (!in)
		return 0;
	v = bpf_map_lookup_elem(&procs, &in->key);
	d = now > in->start_ns ? now - in->start_ns : 0;
	bpf_map_delete_elem(&inflight, &rqp);
	if (!v)
		return 0;
	b = blktune_lat_bucket(d);
	if (b < BLKTUNE_LAT_BUCKETS)
		__sync_fetch_and_add(&v->lat[b], 1);
	__sync_fetch_and_add(&v->lat_sum_ns, d);
	__sync_fetch_and_add(&v->done, 1);
	return 0;
}
