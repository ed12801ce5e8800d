/* sample: raw cumulative kernel counters taken at one instant. Sources fill it;
 * the model derives rates from two of them. Disks are keyed by dev_t, never by
 * their position in the array. */
#ifndef BLKTUNE_SAMPLE_H
#define BLKTUNE_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "cgroup-sample.h"
#include "proc-sample.h"
#include "readahead.h"
#include "trace.h"

#define SAMPLE_NAME_MAX 32
#define SAMPLE_SCHED_MAX 24
#define SAMPLE_DM_NAME_MAX 64 /* dm/name (the kernel allows 127; longer ones are cut) */
#define SAMPLE_PNAME_MAX 64    /* a /dev/disk/by-* link name; longer ones are skipped */
#define SAMPLE_TEMPS_MAX 8
#define SAMPLE_TRACE_OFF_MAX 160

/* One /proc/diskstats line. Sectors are 512 bytes, times in ms. */
struct disk_stat {
	dev_t dev;
	char name[SAMPLE_NAME_MAX];
	int nfields; /* fields on the line, counting major, minor and name: 14, 18 or 20 */
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks;
	uint64_t in_flight, io_ticks, time_in_queue;
	uint64_t dc_ios, dc_merges, dc_sectors, dc_ticks;
	uint64_t fl_ios, fl_ticks;
};

enum disk_kind {
	DISK_KIND_DISK,      /* whole disk (has queue/) */
	DISK_KIND_PARTITION, /* has a "partition" file */
	DISK_KIND_DM,
	DISK_KIND_MD,
	DISK_KIND_UNKNOWN,
};

/* disk_info numbers that are no number: the device has no such file ("-"),
 * or the file is unreadable or holds garbage ("n/a" in tables and text, null
 * in JSON; never 0, which is a value). */
#define SAMPLE_ABSENT (-1)
#define SAMPLE_UNREADABLE (-2)

/* What a device is and what it stacks on, as sysfs says when the device
 * appears (the backing file again when a uevent names it). One copy, shared
 * by source-queue's cache and every sample holding the device rather than
 * copied into each (three copies were 1.4 MB of RSS at 1024 devices, and a
 * memcpy a device each refresh): counted references, never written while
 * shared (disk_text_own gives a writable one). A device with none of these
 * points at disk_text_none. */
struct disk_text {
	unsigned refs;                  /* 0: disk_text_none, never freed */
	char parent[SAMPLE_NAME_MAX];   /* disk of a partition */
	char dm_name[SAMPLE_DM_NAME_MAX]; /* dm/name, e.g. vg-root */
	char slaves[96];                /* comma-separated devices it stacks on */
	char holders[96];               /* comma-separated devices stacked on it */
	char model[48], vendor[24];     /* device/model and device/vendor, trimmed; "" if none */
	char backing[96];               /* a loop device's backing file, else "" */
};

/* All empty; shared by every device without text. */
extern struct disk_text disk_text_none;
/* A new, empty text with one reference; NULL: no memory. */
struct disk_text *disk_text_new(void);
/* One more reference to t; t. */
struct disk_text *disk_text_ref(struct disk_text *t);
/* One reference less; freed with the last. NULL and disk_text_none: nothing. */
void disk_text_put(struct disk_text *t);
/* *t made writable for its holder: kept when the holder has the only
 * reference, else a copy replaces the holder's reference. 0 or -ENOMEM
 * (*t unchanged). */
int disk_text_own(struct disk_text **t);
/* Nothing in t. */
bool disk_text_empty(const struct disk_text *t);
/* Back to disk_text_none when everything in *t is empty (a loop device
 * without a file, a disk without model): nothing held per device. */
void disk_text_shrink(struct disk_text **t);

/* What sysfs says about a device; values are copied into each sample so the
 * views never read files (the text shared, see above). Filled by
 * source-queue, possibly from a cache. */
struct disk_info {
	/* With st.dev and st.name the device's identity: the disk's diskseq (a
	 * partition's is its disk's), 0 where the kernel has none. */
	unsigned long long diskseq;
	/* And this: counted up by source-queue each time another device is
	 * found under the same name, number and diskseq (a partition deleted
	 * and added again between two samples: its diskseq is its disk's). */
	unsigned generation;
	enum disk_kind kind;
	bool has_queue;
	struct disk_text *text;         /* never NULL in a filled sample */
	char persistent[SAMPLE_PNAME_MAX]; /* dev/disk/by-TYPE name with -j, else "" (source-names) */
	long long read_ahead_kb, max_sectors_kb, max_hw_sectors_kb, nr_requests;
	long long logical_block_size, physical_block_size, rotational;
	int nr_hw_queues;               /* mq/ entries, -1 when unknown */
	char scheduler[SAMPLE_SCHED_MAX]; /* the active one, "none" if none; "-" where the
					   * queue has no scheduler file (disk_has_scheduler) */
	/* Context for people (the detail pane): what the device is and what
	 * is on it. */
	long long size_sectors;         /* size, 512-byte sectors (re-read with the tunables) */
	char mounts[96];                /* its mountpoints, comma-separated (source-mounts) */
	char fstype[16];                /* the filesystem mounted, "" if none */
};

/* Whether in names an active scheduler: a request queue whose
 * queue/scheduler was read (zram and other bio-based queues have none;
 * their "-" is no scheduler's name, for JSON null and no Prometheus series). */
bool disk_has_scheduler(const struct disk_info *in);

struct disk_sample {
	struct disk_stat st;
	struct disk_info info;
};

/* /proc/stat CPU line, in USER_HZ ticks. */
struct cpu_stat {
	bool valid;
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

struct mem_stat {
	bool valid;
	uint64_t total_kb, available_kb, cached_kb, dirty_kb, writeback_kb;
};

#define SAMPLE_IRQ_MAX 16

/* Per-CPU counters for the CPU view; valid only while it is on. */
struct cpus_sample {
	bool valid;
	bool have_stat;            /* stat[] read (libproc2: live system only) */
	unsigned ncpu, cap;
	struct cpu_stat *stat;     /* [ncpu] ticks per CPU */
	uint64_t *block_softirq;   /* [ncpu] BLOCK softirqs, all devices */
	unsigned nirq;             /* IRQs of the watched device */
	unsigned irq[SAMPLE_IRQ_MAX];
	char irq_dev[SAMPLE_NAME_MAX];
	char effective[SAMPLE_IRQ_MAX][64]; /* effective_affinity_list per IRQ */
	uint64_t *irq_count;       /* [nirq * ncpu] */
};

struct temp_reading {
	char label[24];
	double celsius;
};

struct sample {
	double t;                 /* CLOCK_MONOTONIC, seconds */
	struct timespec wall;     /* CLOCK_REALTIME at the same instant */
	double uptime;            /* /proc/uptime first field, seconds */
	struct disk_sample *disks;
	size_t ndisks, cap;
	struct cpu_stat cpu;
	struct mem_stat mem;
	struct temp_reading temps[SAMPLE_TEMPS_MAX];
	int ntemps;
	struct cpus_sample cpus;
	bool traced;               /* trace holds this instant's BPF counters */
	/* When not: why ("off (--no-trace)", "loading", the loader's error), as
	 * the header says it; recorded, so a replay says what the run said. */
	char trace_off[SAMPLE_TRACE_OFF_MAX];
	struct trace_sample trace; /* cumulative, keyed by dev_t (source-bpf) */
	bool ra_valid;             /* ra holds readahead counters (mode on) */
	struct ra_sample ra;       /* cumulative, keyed by s_dev and disk */
	struct cgroup_sample cg;   /* per-cgroup counters, valid while the cgroup view is on */
	struct proc_sample procs;  /* per-process counters, valid while the process view is on */
};

void sample_init(struct sample *s);
void sample_free(struct sample *s);
void sample_clear(struct sample *s);
/* After a fill: give back the memory of disks that went (capacity.h).
 * Returns whether anything shrank. */
bool sample_compact(struct sample *s);
/* Append an empty disk; returns it or NULL on ENOMEM. */
struct disk_sample *sample_add_disk(struct sample *s);
/* Find a disk by dev_t. hint is the index to try first (diskstats keeps its
 * order between reads, so the same index nearly always matches); the rest is
 * a linear scan. */
const struct disk_sample *sample_find(const struct sample *s, dev_t dev, size_t hint);
/* True when a and b are the same device: same dev_t, name and diskseq. A
 * name and number reused by a re-created device (a loop device detached and
 * attached again) is another device: no rate or window spans the two. */
bool sample_same_disk(const struct disk_sample *a, const struct disk_sample *b);
/* Size the per-CPU arrays for ncpu CPUs. Returns 0 or -ENOMEM. */
int sample_cpus_reserve(struct cpus_sample *c, unsigned ncpu);
/* Swap contents (cheap way to keep "previous"). */
void sample_swap(struct sample *a, struct sample *b);

#endif
