/* vmlinux-ra: the kernel types bpf/readahead.bpf.c reads, with
 * preserve_access_index so libbpf relocates each access against the running
 * kernel's BTF (CO-RE). Separate from vmlinux-min.h because the readahead
 * object is built and loaded on its own; only names and kinds matter, not
 * field order or the fields left out. */
#ifndef BLKTUNE_VMLINUX_RA_H
#define BLKTUNE_VMLINUX_RA_H

#include <linux/types.h>
#include <linux/bpf.h>
#include <stdbool.h>

typedef __u32 u32;
typedef __u64 u64;
typedef __u32 dev_t;
typedef long long loff_t;
typedef unsigned long pgoff_t;

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

struct super_block {
	dev_t s_dev;
};

struct inode {
	struct super_block *i_sb;
	unsigned long i_ino;
	loff_t i_size;
};

struct address_space {
	struct inode *host;
};

struct file {
	struct address_space *f_mapping;
};

struct vm_area_struct {
	unsigned long vm_start;
	unsigned long vm_end;
	unsigned long vm_pgoff;
	struct file *vm_file;
};

struct pt_regs;
struct mm_struct;

struct file_ra_state {
	pgoff_t start;
	unsigned int size;
	unsigned int async_size;
};

/* Since 6.18 the flags word is wrapped in a struct (memdesc_flags_t);
 * folio___ulong is the older shape, chosen at load time. */
typedef struct {
	unsigned long f;
} memdesc_flags_t;

struct folio {
	memdesc_flags_t flags;
	struct address_space *mapping;
	pgoff_t index;
	unsigned long _flags_1; /* order in the low byte, for large folios */
};

struct folio___ulong {
	unsigned long flags;
};

enum pageflags {
	PG_head = 6,
};

struct task_struct {
	int pid;
	unsigned long min_flt;
	unsigned long maj_flt;
};

#pragma clang attribute pop

#endif
