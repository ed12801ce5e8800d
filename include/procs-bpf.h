/* procs-bpf: what bpf/procs.bpf.c (the --trace-processes mode) writes into
 * its map and src/source-procs-bpf.c reads back. Compiled by clang -target
 * bpf and by gcc: only __u32/__u64 here. Latency buckets are blktune-bpf.h's. */
#ifndef BLKTUNE_PROCS_BPF_H
#define BLKTUNE_PROCS_BPF_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#include "blktune-bpf.h"

/* (process, device) pairs kept; the least recently used goes first. */
#define PROCS_BPF_MAX_PAIRS 16384
/* Requests in flight whose submitter is remembered until completion. */
#define PROCS_BPF_MAX_INFLIGHT 65536
/* (blk cgroup, device) pairs kept; the least recently used goes first. */
#define PROCS_BPF_MAX_CGROUPS 4096
/* Devices whose lost requests are counted (procs_bpf_loss). */
#define PROCS_BPF_MAX_LOSS_DEVS 4096

struct procs_bpf_key {
	__u32 tgid;
	__u32 dev; /* kernel encoding: major << 20 | minor, of the whole disk */
};

/* Cumulative counts; user space takes deltas. A request belongs to the
 * task that started it (block_io_start, in the submitting task: a direct
 * I/O's process, the flusher for writeback); it and its bytes are counted
 * when it is issued (block_rq_issue: every bio merged into it by then, a
 * request merged into another never), the latency when it is done
 * (block_io_done), from that start. */
struct procs_bpf_counts {
	__u64 requests[BLKTUNE_OPS];
	__u64 bytes[BLKTUNE_OPS];
	__u64 done;                      /* requests whose completion was seen */
	__u64 lat[BLKTUNE_LAT_BUCKETS];  /* start to done, all ops */
	__u64 lat_sum_ns;
};

/* Per (process, device). */
struct procs_bpf_val {
	struct procs_bpf_counts c;
	__u64 cgroup_id;                 /* the blk cgroup of the last request's bio (kernfs id) */
	char comm[16];                   /* the submitting thread's name at the last request */
};

/* Per (blk cgroup of the request's first bio, device): what the cgroup view
 * shows as traced, kept when the processes exit. */
struct procs_bpf_cgkey {
	__u64 cgroup_id; /* kernfs id: the inode of the cgroup's directory in the blkio/io hierarchy */
	__u32 dev;
	__u32 pad;
};

/* What a request in flight carries from start to done. */
struct procs_bpf_inflight {
	struct procs_bpf_key key;
	__u64 cgroup_id;
	__u64 start_ns;
	__u32 op;
	/* Whether the request and its bytes were counted (at its issue, when
	 * it holds every bio merged into it, or at done if never issued). */
	__u32 counted;
};

/* Per whole disk (key: __u32 dev), cumulative: requests the mode could
 * not follow from start to done. */
struct procs_bpf_loss {
	/* Completions (block_io_done) whose start was not recorded: the
	 * request was in flight when tracing began, or its start could not be
	 * kept (its program run was skipped, a map had no room). Such a
	 * request is in no process's or cgroup's done, nor in their
	 * latencies. Steps of a flush sequence are not completions (see
	 * io_done). */
	__u64 no_start;
};

/* One entry (key 0), cumulative: what the mode could not store at all, in
 * an array that needs neither a free node nor a bucket lock. A hash update
 * can be refused (an LRU without a free node, a bucket lock the kernel
 * gave up on: rqspinlock, 6.15 on); each refusal would otherwise lose a
 * request without a word. */
struct procs_bpf_unkept {
	/* block_io_start runs whose request could not be recorded in full:
	 * its process pair, its cgroup pair or its start (then its done has
	 * no start, counted in no_start where that can be stored) */
	__u64 starts;
	/* completions without a start whose per-device no_start count could
	 * not be stored */
	__u64 no_starts;
};

#endif
