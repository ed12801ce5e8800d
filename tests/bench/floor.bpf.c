// SPDX-License-Identifier: GPL-2.0
/* The floor for the tracing benchmark: tp_btf programs on block_rq_complete
 * that do nothing (what one attached program costs per request), and ones
 * that only look a device up, in a per-CPU hash keyed by dev_t (what
 * blktune does) or in a per-CPU array by the queue's small id (the "slot"
 * alternative), to price that choice, and one that only reads the clock
 * (bpf_ktime_get_ns: the completion's timestamp, which every latency
 * needs; on a VM with kvm-clock it is the largest part of blktune's cost). */
#include "vmlinux-min.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 4096);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u64);
	__type(value, __u64);
} h SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u64);
} a SEC(".maps");

__u64 one = 1;

SEC("tp_btf/block_rq_complete")
int BPF_PROG(empty, struct request *rq)
{
	return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(hash_lookup, struct request *rq)
{
	__u64 key = rq->q->disk->part0->bd_dev, *v;

	v = bpf_map_lookup_elem(&h, &key);
	if (!v) {
		bpf_map_update_elem(&h, &key, &one, BPF_NOEXIST);
		return 0;
	}
	*v += 1;
	return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(array_lookup, struct request *rq)
{
	__u32 key = (__u32)rq->q->id & 4095;
	__u64 *v = bpf_map_lookup_elem(&a, &key);

	if (v)
		*v += 1;
	return 0;
}

__u64 sink;

SEC("tp_btf/block_rq_complete")
int BPF_PROG(clock_read, struct request *rq)
{
	sink = bpf_ktime_get_ns();
	return 0;
}
