/* readahead-bpf: what bpf/readahead.bpf.c keeps in its maps and
 * src/source-readahead.c reads back. Compiled by clang -target bpf and by gcc,
 * so only __u32/__u64 and pure arithmetic live here; the bit helpers are
 * shared so the unit tests check the very code the kernel runs. */
#ifndef BLKTUNE_READAHEAD_BPF_H
#define BLKTUNE_READAHEAD_BPF_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#include "bpf-log2.h"

/* Window size histogram: bucket i holds windows of [2^i, 2^(i+1)) pages
 * (bucket 0: one page); the last bucket holds 2^15 pages and more. */
#define RA_WIN_BUCKETS 16
/* Devices (filesystem s_dev) counted; allocated on first use. */
#define RA_MAX_DEVS 4096
/* Page state is kept per 64-page block of a file: key (dev, ino, index >> 6),
 * value a bitmap of its readahead pages not yet read, mapped or evicted.
 * Entries are deleted when their bitmap empties, so the map holds only blocks
 * with unread readahead pages: 2^18 blocks cover 16 Mi pages (64 GiB of
 * 4 KiB pages). A page that finds the map full is counted in `dropped`. */
#define RA_BLOCK_SHIFT 6
#define RA_BLOCK_PAGES (1U << RA_BLOCK_SHIFT)
#define RA_MAX_BLOCKS (1U << 18)
/* Blocks one event may touch: a folio is at most 2^9 pages here (8 blocks);
 * a read's range is walked at most RA_READ_BLOCKS blocks beyond its start
 * (a read consumes at most 31 folios per get_pages call; the walk resumes at
 * the next call of the same read). Longer ranges are counted in `clamped`. */
#define RA_FOLIO_BLOCKS 8
#define RA_READ_BLOCKS 64

struct ra_block_key {
	__u64 ino;
	__u64 blk; /* page index >> RA_BLOCK_SHIFT */
	__u32 dev; /* kernel encoding of the filesystem's s_dev: major << 20 | minor */
	__u32 pad;
};

struct ra_block {
	__u64 bits;  /* readahead pages not yet read, mapped or evicted */
	__u64 dying; /* non-zero while (or after) a CPU deletes the emptied entry */
};

/* One CPU's slot of the per-device counters. Cumulative, never drained. */
struct ra_dev_cpu {
	__u64 sync_triggers;  /* page_cache_sync_ra events */
	__u64 async_triggers; /* page_cache_async_ra events */
	__u64 windows;        /* readahead windows opened (ra_unbounded / ra_order) */
	__u64 window_pages;   /* pages those windows asked for */
	__u64 win_hist[RA_WIN_BUCKETS];
	__u64 sync_pages;     /* readahead pages added by sync-triggered windows */
	__u64 async_pages;    /* ... by async-triggered windows */
	__u64 demand;         /* pages added because a reader was waiting for them */
	__u64 read_pages;     /* pages asked for by read() (get_pages) and faults */
	__u64 hit;            /* readahead pages whose first use was a read or fault */
	__u64 mapped;         /* ... whose first use was fault-around (map_pages) */
	__u64 waste;          /* ... evicted before any use */
	__u64 dropped;        /* readahead pages whose state could not be kept */
	__u64 clamped;        /* events whose range was longer than the walk limit */
};

static inline __attribute__((always_inline)) __u32 ra_win_bucket(__u64 pages)
{
	__u32 b;

	if (pages <= 1)
		return 0;
	b = bpf_log2_u64(pages);
	return b < RA_WIN_BUCKETS - 1 ? b : RA_WIN_BUCKETS - 1;
}

/* BPF has no population count instruction. */
static inline __attribute__((always_inline)) __u32 ra_popcount(__u64 v)
{
	v = v - ((v >> 1) & 0x5555555555555555ULL);
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (__u32)((v * 0x0101010101010101ULL) >> 56);
}

/* Bits of block `blk` for the pages in [lo, hi). */
static inline __attribute__((always_inline)) __u64 ra_range_mask(__u64 blk, __u64 lo, __u64 hi)
{
	__u64 first = blk << RA_BLOCK_SHIFT, end = first + RA_BLOCK_PAGES, a, b;

	a = lo > first ? lo : first;
	b = hi < end ? hi : end;
	if (a >= b)
		return 0;
	if (b - a == RA_BLOCK_PAGES)
		return ~0ULL;
	return ((1ULL << (b - a)) - 1) << (a - first);
}

#endif
