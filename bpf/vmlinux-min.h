/* vmlinux-min: the few kernel types and fields bpf/blktune.bpf.c reads, declared
 * with preserve_access_index so libbpf relocates every access against the
 * running kernel's BTF (CO-RE). Field order and the missing fields do not
 * matter; names and kinds do. Committed instead of a generated multi-MB
 * vmlinux.h so the build needs no /sys/kernel/btf. */
#ifndef BLKTUNE_VMLINUX_MIN_H
#define BLKTUNE_VMLINUX_MIN_H

#include <linux/types.h>
#include <linux/bpf.h>

typedef __u32 u32;
typedef __u64 u64;
typedef __u64 sector_t;
typedef __u8 blk_status_t;
typedef __u32 blk_opf_t;

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

struct blk_mq_ctx {
	unsigned int cpu;
};

struct request_queue {
	const void *mq_ops; /* NULL for bio-based queues */
	struct gendisk *disk;
	int id; /* small (lowest free), reused once the queue is freed */
};

/* Since 6.7 the request flags are bit numbers of this enum (read with
 * bpf_core_enum_value); before, RQF_FLUSH_SEQ was the define 1 << 4. */
enum rqf_flags {
	__RQF_FLUSH_SEQ = 1,
	__RQF_USE_SCHED = 5,
	__RQF_IO_STAT = 8,
};

struct block_device {
	__u32 bd_dev;
	struct gendisk *bd_disk;
};

struct gendisk {
	struct block_device *part0;
	struct request_queue *queue;
	u64 diskseq;
};

struct request {
	struct request_queue *q;
	struct blk_mq_ctx *mq_ctx;
	blk_opf_t cmd_flags;
	__u32 rq_flags;
	unsigned int __data_len;
	u64 start_time_ns;
	u64 io_start_time_ns;
};

struct bvec_iter {
	sector_t bi_sector;
	unsigned int bi_size;
};

struct bio {
	struct block_device *bi_bdev;
	blk_opf_t bi_opf;
	struct bvec_iter bi_iter;
};

#pragma clang attribute pop

#endif
