/* model: pure functions of (previous sample, current sample). Formulas are
 * iostat -x's (sysstat 12.6, compute_ext_disk_stats and write_ext_stat) so
 * figures agree with what storage people already read. */
#ifndef BLKTUNE_MODEL_H
#define BLKTUNE_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "sample.h"

enum disk_state {
	DISK_NEW,       /* first sample of this device: no interval yet */
	DISK_OK,
	DISK_RESTARTED, /* a counter went backwards: device re-created or reset */
};

struct disk_metrics {
	dev_t dev;
	char name[SAMPLE_NAME_MAX];
	enum disk_state state;
	double interval;  /* seconds */
	double r_s, w_s, d_s, f_s;
	double rkb_s, wkb_s, dkb_s;
	double rmb_s, wmb_s;
	double rrqm_s, wrqm_s, drqm_s;
	double rrqm_pct, wrqm_pct, drqm_pct;
	double r_await, w_await, d_await, f_await;
	double rareq_sz, wareq_sz, dareq_sz;
	double aqu_sz, util;
	double in_flight; /* gauge, from the current sample */
	double read_ahead_kb, max_sectors_kb; /* current tunables, for columns */
	/* deltas over the interval, for exact checks and totals */
	uint64_t d_rd_ios, d_wr_ios, d_rd_sectors, d_wr_sectors;
	/* The sample's (model_disk's cur): not a copy, which cost a KiB a
	 * device twice over (RSS at 1024 devices, a memcpy each refresh).
	 * Valid while that sample is: app keeps it until the next model. */
	const struct disk_info *info;
	int nfields;
	/* Traced (BPF) figures, NAN where the device is not traced. */
	bool traced;
	bool t_metrics;                    /* the trace_metrics beside it hold this interval */
	double t_lat_avg_us, t_lat_p99_us; /* request allocation to completion */
	double t_same_cpu_pct;             /* completions on the submitting CPU */
	/* 99th percentiles of queue time (allocation -> issue) and device
	 * time (issue -> completion), all ops; NAN when no request had both */
	double t_q_p99_us, t_d_p99_us;
	bool t_split; /* false: a bio-based device, which has no queue part */
	double t_completed;                /* traced completions in the interval */
	double t_gap_pct;                  /* |traced - diskstats| / diskstats x 100 */
	/* Readahead mode: hit% of the device's readahead pages (NAN: none). */
	bool ra_metrics;                   /* the ra_metrics beside it hold this interval */
	double ra_hit_pct;
};

struct cpu_metrics {
	bool valid;
	double user, nice, system, iowait, irq, softirq, steal, idle; /* percent */
};

/* A reset (device re-created, counters cleared) between p and c: one of
 * the 64-bit counters (ios, merges, sectors) stepped back, or a 32-bit
 * millisecond field by less than 2^31 (a device re-created and already
 * busier than the old one). Those fields also step back without a reset:
 * they wrap at 2^32, a step back of more than 2^31 in one interval. */
bool disk_stat_restarted(const struct disk_stat *p, const struct disk_stat *c);
/* Derive one device's metrics. prev may be NULL (new device). */
void model_disk(const struct disk_sample *prev, const struct disk_sample *cur, double interval,
		struct disk_metrics *out);
/* Every device of cur, matched in prev by dev_t, name and diskseq (a reused
 * name with another dev_t, a dev_t with another name, or both with another
 * diskseq, is a new device: DISK_NEW, no rate). out must hold cur->ndisks
 * entries. */
void model_disks(const struct sample *prev, const struct sample *cur, struct disk_metrics *out);
void model_cpu(const struct cpu_stat *prev, const struct cpu_stat *cur, struct cpu_metrics *out);
/* Traced figures of every device of cur: tm[i] gets device i's interval
 * (reusing its buffers; tm must hold cur->ndisks initialised entries) and
 * m[i] its scalar columns. Devices the tracer has not seen are NAN. */
void model_trace(const struct sample *prev, const struct sample *cur, struct disk_metrics *m,
		 struct trace_metrics *tm);
/* A cumulative count's growth since before: all of now when it went back
 * (a reloaded tracer, a counter reset). */
uint64_t model_grown(uint64_t now, uint64_t before);
/* What the tracer could not count (JSON "trace_loss"): cumulative since it
 * loaded, and grown over the interval (the _new figures, known when prev
 * was traced too; all of now when a figure went back, a reloaded tracer). */
struct trace_loss {
	bool since_prev;
	uint64_t skipped, skipped_new;   /* program runs the kernel skipped */
	uint64_t map_full, map_full_new; /* events lost to a full device map */
};
/* Fills out and returns true when cur is traced; false, out zeroed, else. */
bool model_trace_loss(const struct sample *prev, const struct sample *cur, struct trace_loss *out);
/* Readahead figures of every device of cur (mode on): the interval in
 * ram[i] and m[i].ra_hit_pct, the totals since the mode was turned on in
 * total[i] (where hit + mapped + waste + unread = pages holds). */
void model_readahead(const struct sample *prev, const struct sample *cur, struct disk_metrics *m,
		     struct ra_metrics *ram, struct ra_metrics *total);
/* True if nothing moved on the device during the interval. */
bool model_disk_idle(const struct disk_metrics *m);
/* The requests the kernel completed in the interval by diskstats: reads,
 * writes, discards and flushes (what traced completions are held to). */
uint64_t model_disk_completed(const struct disk_metrics *m);

#endif
