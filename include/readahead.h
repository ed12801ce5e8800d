/* readahead: readahead counters (from source-readahead) and the pure
 * per-interval model over two of them. A ra_sample holds cumulative counters
 * keyed by dev_t; ra_metrics_compute(prev, cur, dev) turns a pair into one
 * interval's figures. Definitions (ARCHITECTURE.md §4):
 *   readahead pages  pages added to the page cache inside a readahead window
 *                    that no reader was waiting for (the window's demand:
 *                    page_cache_sync_ra's [index, +req_count), or the
 *                    faulting page of an mmap read-around, is not counted);
 *   hit              a readahead page whose first use was read() or a page
 *                    fault the process took on that very page;
 *   mapped           ... whose first use was being mapped into a process
 *                    along with a touched page (fault-around neighbours, the
 *                    rest of a large folio mapped whole): whether it is
 *                    touched later is not visible;
 *   waste            ... removed from the page cache before any use;
 *   unread           ... still cached and unused (a gauge).
 *   hit + mapped + waste + unread = readahead pages, since tracing began. */
#ifndef BLKTUNE_READAHEAD_H
#define BLKTUNE_READAHEAD_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "readahead-bpf.h"

/* Window histogram: bucket i holds windows of [2^i, 2^(i+1)) pages. */
#define RA_HIST RA_WIN_BUCKETS

/* Cumulative counters of one device, summed over CPUs (see struct ra_dev_cpu
 * in readahead-bpf.h for each field). */
struct ra_counts {
	uint64_t sync_triggers, async_triggers;
	uint64_t windows, window_pages, win_hist[RA_HIST];
	uint64_t sync_pages, async_pages; /* readahead pages, by trigger */
	uint64_t demand, read_pages;
	uint64_t hit, mapped, waste;
	uint64_t dropped; /* readahead pages whose state the map had no room for */
	uint64_t clamped; /* reads or fault-arounds longer than the walk limit */
};

/* What a sample entry counts. */
enum ra_dev_kind {
	RA_DEV_FS = 1,   /* a filesystem's s_dev: its own counts */
	RA_DEV_DISK = 2, /* a whole disk: its own filesystem plus its partitions' */
};

struct ra_dev {
	dev_t dev;
	unsigned kind; /* RA_DEV_* bits */
	struct ra_counts c;
};

/* Sorted by dev. */
struct ra_sample {
	uint64_t t_ns;       /* CLOCK_MONOTONIC when read */
	unsigned page_size;  /* bytes */
	size_t ndevs, cap;
	struct ra_dev *devs;
};

void ra_sample_init(struct ra_sample *s);
void ra_sample_free(struct ra_sample *s);
/* Forget the devices, keep the memory. */
void ra_sample_reset(struct ra_sample *s);
/* ndevs zeroed devices (a recording's reader fills them). Returns 0 or
 * -ENOMEM. */
int ra_sample_resize(struct ra_sample *s, size_t ndevs);
int ra_sample_copy(struct ra_sample *dst, const struct ra_sample *src);
void ra_sample_swap(struct ra_sample *a, struct ra_sample *b);
/* Index of dev, or -1. */
ssize_t ra_sample_find(const struct ra_sample *s, dev_t dev);
/* Add one filesystem's counters: to dev's own entry and, when disk is
 * another device (dev is a partition of it), to disk's entry too. disk 0:
 * no block device (anonymous s_dev). Returns 0 or -ENOMEM. */
int ra_sample_add(struct ra_sample *s, dev_t dev, dev_t disk, const struct ra_counts *c);
/* Sum ncpu per-CPU slots of the kernel's per-device value into c. */
void ra_counts_from_cpus(struct ra_counts *c, const struct ra_dev_cpu *percpu, unsigned ncpu);
/* Readahead pages still cached and unused (pages - hit - mapped - waste; 0
 * if a racing read of the per-CPU slots makes it negative). */
uint64_t ra_counts_unread(const struct ra_counts *c);

/* One device over one interval. Counts are pages (windows: windows). */
struct ra_metrics {
	dev_t dev;
	unsigned kind;
	double interval_s;
	uint64_t pages, sync_pages, async_pages;
	uint64_t sync_triggers, async_triggers;
	uint64_t hit, mapped, waste, dropped;
	uint64_t unread; /* gauge: at the end of the interval */
	uint64_t windows, window_pages, win_hist[RA_HIST];
	uint64_t demand, read_pages;
	/* Shares of the readahead pages whose fate was decided in the interval
	 * (hit + mapped + waste); NAN when none was. */
	double hit_pct, mapped_pct, waste_pct;
	double waste_mb;        /* MiB evicted unused */
	double avg_window_kb;   /* window_pages / windows in KiB; NAN without windows */
	/* Page-cache hit ratio of reads: of the pages read() and page faults
	 * asked for (read_pages), the share that did not have to be added to
	 * the page cache for the waiting reader (demand); clamped to 0..100,
	 * NAN without reads. Readahead pages count as found: read ahead is what
	 * the ratio measures. */
	double cache_hit_pct;
	double pages_per_s;     /* readahead pages per second; NAN if interval 0 */
};

/* Metrics of device `dev` between prev and cur. A device absent from prev
 * started during the interval (prev counts as zero); prev NULL gives the
 * counts since tracing began. Returns 0, -ENOENT when cur lacks the device,
 * -ERANGE when a counter went backwards (a reset: no metrics this interval). */
int ra_metrics_compute(const struct ra_sample *prev, const struct ra_sample *cur, dev_t dev,
		       struct ra_metrics *m);

/* Upper bound in pages of window bucket i (exclusive: 2^(i+1)); 0 for the
 * last, unbounded bucket. */
uint64_t ra_win_bucket_lt(unsigned i);

/* Append `, "readahead": {...}` (pages per interval: pages, sync_pages,
 * async_pages, hit, mapped, waste, unread, hit_pct, waste_pct, avg_window_kb,
 * cache_hit_pct; NAN as null) to an open JSON object. Returns 0 or -EIO. */
/* The reason a readahead window is larger than read_ahead_kb, as one line
 * in BUF: up to twice it, a reader declared sequential access
 * (posix_fadvise POSIX_FADV_SEQUENTIAL doubles that file's window; fio does it
 * by default: measured 5120 KiB at read_ahead_kb 2560, and 2560 with
 * fadvise_hint=0); above that, reads larger than the window (mm/readahead.c
 * lets the window grow to the read, up to max_sectors_kb). Returns 0 and
 * leaves BUF empty when the window is within read_ahead_kb or unknown. */
int ra_window_note(double avg_window_kb, double read_ahead_kb, char *buf, size_t len);
int ra_metrics_json(FILE *f, const struct ra_metrics *m);

#endif
