/* proc-sample: cumulative per-process I/O counters at one instant, as
 * source-procs read them from /proc/PID/io (the process view's part of a
 * sample). A process is keyed by PID and start time, so a PID reused by a new
 * process is another process: no rate spans the two. */
#ifndef BLKTUNE_PROC_SAMPLE_H
#define BLKTUNE_PROC_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PROC_USER_MAX 32
#define PROC_COMM_MAX 64
#define PROC_CMDLINE_MAX 256
/* Operations of traced requests, as /proc/diskstats groups them. */
#define PROC_OPS 4 /* read, write, discard, flush */
#define PROC_LAT_BUCKETS 32 /* blktune-bpf.h's latency buckets */

struct proc_entry {
	pid_t pid;
	uint64_t start;                 /* start time in clock ticks since boot (stat field 22) */
	uid_t uid;                      /* effective */
	char user[PROC_USER_MAX];
	char comm[PROC_COMM_MAX];       /* stat's comm: "fio", "kworker/u8:2" */
	char cmdline[PROC_CMDLINE_MAX]; /* arguments joined by spaces; "" for kernel threads */
	/* /proc/PID/io: bytes this process caused to be read from or sent to
	 * the block layer (a buffered write counts when it dirties the page) */
	uint64_t rbytes, wbytes;
};

/* --trace-processes: traced block requests, cumulative since the mode
 * started (bpf/procs.bpf.c). */
struct proc_counts {
	uint64_t requests[PROC_OPS], bytes[PROC_OPS];
	uint64_t done;             /* requests whose completion was seen */
	uint64_t lat[PROC_LAT_BUCKETS]; /* start to done */
	uint64_t lat_sum_ns;
};

/* The requests one process submitted to one device. */
struct proc_trace {
	pid_t tgid;
	dev_t dev;                 /* the whole disk */
	uint64_t cgroup_id;        /* blk cgroup of its last request's bio (kernfs id); 0 unknown */
	char comm[16];             /* the submitting thread at the last request */
	/* Its process had exited when the pair was read (in no walk, and not
	 * alive): these are its last counts, the pair is deleted since. */
	bool gone;
	struct proc_counts c;
};

/* The requests whose first bio was in one blk cgroup, on one device
 * (every process, also those that have exited). */
struct proc_cgtrace {
	uint64_t cgroup_id;        /* kernfs id: the cgroup directory's inode; 0 unknown */
	dev_t dev;                 /* the whole disk */
	struct proc_counts c;
};

/* --trace-processes: requests it could not follow on one whole disk,
 * cumulative since the mode started (procs-bpf.h's procs_bpf_loss). */
struct proc_loss {
	dev_t dev;
	uint64_t no_start;         /* completions whose start was not recorded */
};

struct proc_sample {
	bool valid;
	double t;            /* CLOCK_MONOTONIC in the middle of the walk */
	bool all_users;      /* every process's io was readable (root); else only own */
	uid_t uid;           /* without root: the user whose processes were read */
	unsigned unreadable; /* processes left out: their io is not ours to read */
	struct proc_entry *p; /* by PID, ascending */
	size_t n, cap;
	char why[160];       /* when not valid: why */
	bool traced;         /* tr and cg hold --trace-processes counters */
	struct proc_trace *tr; /* by tgid, then dev */
	size_t ntr, trcap;
	struct proc_cgtrace *cg; /* by cgroup id, then dev */
	size_t ncg, cgcap;
	struct proc_loss *loss;  /* by dev */
	size_t nloss, losscap;
	uint64_t skipped;        /* program runs the kernel skipped (recursion misses), since the start */
	uint64_t not_kept;       /* starts and losses a map refused to store (procs_bpf_unkept), since the start */
};

void proc_sample_init(struct proc_sample *s);
void proc_sample_free(struct proc_sample *s);
/* Empty it, keeping the allocation. */
void proc_sample_reset(struct proc_sample *s);
/* Append a process (callers append in ascending PID order, or call
 * proc_sample_sort after). Returns it zeroed, or NULL on ENOMEM. */
struct proc_entry *proc_sample_add(struct proc_sample *s, pid_t pid, uint64_t start);
void proc_sample_sort(struct proc_sample *s);
/* Append a traced (process, device) pair zeroed (then proc_sample_sort_traced,
 * which sorts both kinds of pairs), or NULL on ENOMEM. */
struct proc_trace *proc_sample_add_trace(struct proc_sample *s, pid_t tgid, dev_t dev);
void proc_sample_sort_traced(struct proc_sample *s);
/* The traced pairs of tgid: *first and the count (0 when none). */
size_t proc_sample_traces(const struct proc_sample *s, pid_t tgid, size_t *first);
/* The pair (tgid, dev), or NULL. */
const struct proc_trace *proc_sample_trace(const struct proc_sample *s, pid_t tgid, dev_t dev);
/* Append a traced (cgroup, device) pair zeroed (then proc_sample_sort_traced),
 * or NULL on ENOMEM. */
struct proc_cgtrace *proc_sample_add_cgtrace(struct proc_sample *s, uint64_t cgroup_id, dev_t dev);
/* The traced pairs of cgroup_id: *first and the count (0 when none). */
size_t proc_sample_cgtraces(const struct proc_sample *s, uint64_t cgroup_id, size_t *first);
/* The pair (cgroup_id, dev), or NULL. */
const struct proc_cgtrace *proc_sample_cgtrace(const struct proc_sample *s, uint64_t cgroup_id, dev_t dev);
/* Append a device's loss counts zeroed (then proc_sample_sort_traced), or
 * NULL on ENOMEM. */
struct proc_loss *proc_sample_add_loss(struct proc_sample *s, dev_t dev);
/* The device's loss counts, or NULL. */
const struct proc_loss *proc_sample_loss(const struct proc_sample *s, dev_t dev);
/* The process s has under pid (whatever its start time), or NULL. */
const struct proc_entry *proc_sample_pid(const struct proc_sample *s, pid_t pid);
/* The same process (PID and start time) in s, or NULL. */
const struct proc_entry *proc_sample_find(const struct proc_sample *s, pid_t pid, uint64_t start);

#endif
