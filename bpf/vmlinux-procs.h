/* vmlinux-procs: the kernel types and fields bpf/procs.bpf.c reads, declared
 * with preserve_access_index so libbpf relocates every access against the
 * running kernel's BTF (CO-RE), as bpf/vmlinux-min.h does for blktune.bpf.c. */
#ifndef BLKTUNE_VMLINUX_PROCS_H
#define BLKTUNE_VMLINUX_PROCS_H

#include <linux/types.h>
#include <linux/bpf.h>

typedef __u32 u32;
typedef __u64 u64;
typedef __u32 blk_opf_t;

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

struct kernfs_node {
	u64 id;
};

struct cgroup {
	struct kernfs_node *kn;
};

struct cgroup_subsys_state {
	struct cgroup *cgroup;
};

struct blkcg {
	struct cgroup_subsys_state css;
};

struct blkcg_gq {
	struct blkcg *blkcg;
};

struct bio {
	struct blkcg_gq *bi_blkg;
};

struct block_device {
	__u32 bd_dev;
};

struct gendisk {
	struct block_device *part0;
};

struct request_queue {
	struct gendisk *disk;
};

/* Since 6.7 the request flags are bit numbers of this enum (read with
 * bpf_core_enum_value); before, RQF_FLUSH_SEQ was the define 1 << 4. */
enum rqf_flags {
	__RQF_FLUSH_SEQ = 1,
};

struct request {
	struct request_queue *q;
	blk_opf_t cmd_flags;
	__u32 rq_flags;
	unsigned int __data_len;
	struct bio *bio;
};

#pragma clang attribute pop

#endif
