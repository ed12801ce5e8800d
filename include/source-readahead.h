/* source-readahead: loads bpf/readahead.bpf.c (tp_btf programs on the
 * readahead:* and filemap:* tracepoints) while the readahead mode is on, and
 * reads its cumulative per-filesystem counters into a ra_sample. The only
 * code that touches that BPF object. Readahead always concerns the live
 * kernel, so devices are resolved through "/". */
#ifndef BLKTUNE_SOURCE_READAHEAD_H
#define BLKTUNE_SOURCE_READAHEAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "readahead.h"
#include "root.h"

struct source_ra;

/* Open, configure, load and attach: the mode's cost starts here. Returns 0
 * or -errno; on failure `why` holds one line for the status line, e.g.
 * "kernel lacks the readahead tracepoints", "not root and no
 * CAP_BPF/CAP_PERFMON", "kernel refused the BPF program: ...". Nothing is
 * printed (libbpf's messages are captured by the helper). */
int source_ra_open(struct source_ra **out, char *why, size_t whylen);
/* Detach and unload: the mode costs nothing after this. NULL is fine. */
void source_ra_close(struct source_ra *src);
/* The helper's part (bpf-helper's table): probe, open, configure, load; the
 * load happens in a helper process (bpf-loader), as for source-bpf. */
struct bpf_object;
int source_ra_helper_load(void **handle, struct bpf_object **obj, char *why, size_t whylen);
void source_ra_helper_free(void *handle);

/* Fill `out` with the counters of every filesystem that had page-cache
 * events since the programs were attached, keyed by its s_dev, and rolled up
 * to the whole disk of a partition (RA_DEV_DISK). A filesystem whose device
 * is gone (a block device removed, or replaced by another with the same
 * number: its diskseq changed; an anonymous device no longer mounted) is
 * left out and its kernel state freed, counters and page map entries. A dm or md device is its
 * own disk: its read_ahead_kb is the one that governs files on it, so its
 * counts are not pushed down to the devices beneath. Returns 0 or -errno. */
int source_ra_read(struct source_ra *src, struct ra_sample *out);

/* The whole disk a block device belongs to: itself for a disk, the parent
 * for a partition (sys/dev/block/MAJ:MIN/partition exists; the parent
 * directory's dev names the disk). 0 when dev is no block device
 * (anonymous s_dev: tmpfs, overlay, btrfs subvolumes, NFS). Returns 0 or
 * -errno (then *disk is 0). */
int source_ra_disk_of(const struct root *r, dev_t dev, dev_t *disk);

/* Readahead pages of filesystem `dev` whose bit is still set in the kernel's
 * page map (walks the whole map: for tests and cross-checks, not for every
 * refresh). With nothing in flight, it equals ra_counts_unread minus the
 * dropped pages. Returns 0 or -errno. */
int source_ra_live_pages(struct source_ra *src, dev_t dev, uint64_t *pages);

/* Whether filesystem dev has counters in the kernel map (for tests: state
 * of gone devices is freed): 1, 0 or -errno. */
int source_ra_has(struct source_ra *src, dev_t dev);

/* Kernel statistics summed over the loaded programs, or of the one named
 * `name` (run_cnt/run_time_ns need the sysctl kernel.bpf_stats_enabled=1;
 * recursion_misses counts runs the kernel skipped because a program was
 * already running on that CPU). Returns 0, -ENOENT (no such program loaded)
 * or -errno. */
struct source_ra_stat {
	uint64_t run_cnt, run_time_ns, recursion_misses;
};
int source_ra_stats(const struct source_ra *src, const char *name, struct source_ra_stat *out);

#endif
