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
 * value a bitmap of its readahead pages not yet read, mapped or evicted, and
 * where its folios begin (a fault maps a whole large folio, so the pages of
 * the folio a fault or fault-around lands in are used together).
 * Entries are deleted when their bitmap empties, so the map holds only blocks
 * with unread readahead pages: 2^18 blocks cover 16 Mi pages (64 GiB of
 * 4 KiB pages). A page that finds the map full is counted in `dropped`. */
#define RA_BLOCK_SHIFT 6
#define RA_BLOCK_PAGES (1U << RA_BLOCK_SHIFT)
#define RA_MAX_BLOCKS (1U << 18)
/* Blocks one event may touch: a folio is at most 2^9 pages here (8 blocks);
 * a fault-around range extended to the large folios at both its ends spans
 * at most two of them (RA_MAP_BLOCKS); a read's range is walked at most
 * RA_READ_BLOCKS blocks beyond its start (a read consumes at most 31 folios
 * per get_pages call; the walk resumes at the next call of the same read).
 * Longer ranges are counted in `clamped`. */
#define RA_FOLIO_BLOCKS 8
#define RA_MAP_BLOCKS 17
#define RA_READ_BLOCKS 64
/* read() pages a task counts in its own state before adding them to its
 * device's counters (bpf/readahead.bpf.c, acc_read). */
#define RA_ACC_PAGES 64
/* A counting filter in front of the block map: slot ra_live_slot(key) counts
 * the live blocks that hash there, so the common event (a read or eviction
 * where no readahead page is pending) costs an array read, not a hash
 * lookup. A slot is raised before its block is inserted and lowered after it
 * is deleted: a zero slot proves no block. */
#define RA_LIVE_SHIFT 16
#define RA_LIVE_SLOTS (1U << RA_LIVE_SHIFT)

struct ra_block_key {
	__u64 ino;
	__u64 blk; /* page index >> RA_BLOCK_SHIFT */
	__u32 dev; /* kernel encoding of the filesystem's s_dev: major << 20 | minor */
	__u32 pad;
};

struct ra_block {
	__u64 bits;  /* readahead pages not yet read, mapped or evicted */
	__u64 heads; /* bit i: a folio begins at page i (of the readahead folios
	              * added here, and at the page after each) */
	__u32 order; /* order of the folio covering the whole block (>= 6), or 0 */
	__u32 dying; /* non-zero while (or after) a CPU deletes the emptied entry */
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
	__u64 hit;            /* readahead pages whose first use was read() or the
	                       * process touching the page (a page fault on it) */
	__u64 mapped;         /* ... whose first use was being mapped into a process
	                       * with another page: fault-around neighbours and the
	                       * rest of a faulted large folio */
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

/* Index of the lowest set bit of v (v != 0). */
static inline __attribute__((always_inline)) __u32 ra_lsb(__u64 v)
{
	return ra_popcount((v & -v) - 1);
}

/* Index of the highest set bit of v (v != 0). */
static inline __attribute__((always_inline)) __u32 ra_msb(__u64 v)
{
	v |= v >> 1;
	v |= v >> 2;
	v |= v >> 4;
	v |= v >> 8;
	v |= v >> 16;
	v |= v >> 32;
	return ra_popcount(v) - 1;
}

/* The folio holding page p of block b, from the block's heads and order:
 * [*lo, *hi). Folios are aligned to their size, so one of order >= 6 covers
 * whole blocks; a smaller one lies between two heads of its block. Without
 * a head at or below p, p's folio is not known: [p, p + 1). */
static inline __attribute__((always_inline)) void ra_folio_bounds(const struct ra_block *b, __u64 p,
								   __u64 *lo, __u64 *hi)
{
	__u64 first = p & ~(__u64)(RA_BLOCK_PAGES - 1), upto, below, above;
	__u32 o = b->order;

	if (o >= RA_BLOCK_SHIFT && o < 20) {
		*lo = p & ~((1ULL << o) - 1);
		*hi = *lo + (1ULL << o);
		return;
	}
	upto = (2ULL << (p - first)) - 1; /* bits 0..p: all ones for the last page */
	below = b->heads & upto;
	above = b->heads & ~upto;
	if (!below) {
		*lo = p;
		*hi = p + 1;
		return;
	}
	*lo = first + ra_msb(below);
	*hi = above ? first + ra_lsb(above) : first + RA_BLOCK_PAGES;
}

/* Slot of a block in the counting filter. */
static inline __attribute__((always_inline)) __u32 ra_live_slot(const struct ra_block_key *k)
{
	__u64 h = k->ino * 0x9E3779B97F4A7C15ULL ^ (k->blk + ((__u64)k->dev << 40)) * 0xC2B2AE3D27D4EB4FULL;

	return (__u32)(h >> (64 - RA_LIVE_SHIFT));
}

#endif
