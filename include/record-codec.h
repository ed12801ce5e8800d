/* record-codec: a sample as a flat list of 64-bit words and a list of
 * strings, cut into segments (one per device, traced device, process,
 * cgroup, and the sample's other parts), and one recording record as the
 * difference between two such lists. The walk over the sample is written
 * once and used both ways, so what is recorded is exactly what the sampler
 * assembled.
 *
 * A segment's words are coded against the words of the segment with the
 * same identity in the record before (a device keyed by dev_t and diskseq,
 * a process by pid and start time, ...), wherever it stood there: a device
 * that comes or goes costs its own words, not a shift of all after it.
 * Each word has a delta (cur - prev, modulo 2^64), its residual (delta
 * minus the delta before) and a state: quiet (its delta repeats: it costs
 * nothing) or active (its residual is coded, in bits, Rice-coded with a
 * parameter that follows the size of its recent residuals). A quiet word
 * whose delta changes becomes active (its place and its step are coded);
 * an active word whose residual stays zero RECORD_QUIET records becomes
 * quiet again on both sides without a mark. A record's payload (varints
 * LEB128):
 *   layout  0 (the segments as in the record before) or nseg+1 and runs:
 *           2k (k segments continue as expected, same sizes) or 2c+1
 *           nwords nstrings (one segment: c 0 new, else zigzag of its
 *           place before minus the one expected, plus 1)
 *   nbytes  the bit stream's length, then the bit stream (LSB first):
 *           gamma(entries+1), per entry gamma(quiet words skipped+1) and
 *           its residual as gamma(bit length+1) and the bits below its
 *           top one; then per word active before, its Rice residual
 *   strings nchanged { skip len bytes }*nchanged
 * A residual is zigzag(delta - last delta), Rice-coded with k from the
 * word's running mean: the quotient in unary (ones, then a zero) and k
 * bits, or, at RECORD_ESC ones, 6 bits of its length and its bits. A key
 * record is coded against nothing (every segment new, every word quiet
 * with no delta) and leaves no delta and every word quiet behind it.
 * Bound: a record is at most 20 + 13 bytes per segment + 10.5 bytes per
 * word + what its strings take.
 *
 * The walk changes with the format version (record.h): version 4 ends
 * with the processes; 5 adds --trace-processes' requests after them (a
 * segment of counts, then one per (process, device) pair keyed by PID,
 * start time and device, per (cgroup, device) pair, per device's loss). A
 * reader walks a file's words the way its version wrote them. */
#ifndef BLKTUNE_RECORD_CODEC_H
#define BLKTUNE_RECORD_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

/* Limits a decoder enforces on what a file claims, and the encoder on what
 * it writes (a recording never holds a sample its reader refuses). Counts
 * first: devices (each list of them: diskstats, traced, readahead, a
 * cgroup's, --trace-processes' losses), CPUs, processes (the kernel's
 * PID_MAX_LIMIT), cgroups, and --trace-processes' (process, device) and
 * (cgroup, device) pairs (four times what its maps hold: procs-bpf.h's
 * PROCS_BPF_MAX_PAIRS and PROCS_BPF_MAX_CGROUPS, checked where the codec
 * is built). */
#define RECORD_MAX_DISKS 65536u
#define RECORD_MAX_CPUS 8192u
#define RECORD_MAX_PROCS (1u << 22)
#define RECORD_MAX_CGROUPS 65536u
#define RECORD_MAX_PROC_TRACES 65536u
#define RECORD_MAX_CG_TRACES 16384u
/* Strings and segments follow from the counts, so that no total refuses
 * what every count allows: a device has RECORD_DISK_STRINGS strings, a
 * process RECORD_PROC_STRINGS, a cgroup one, a traced (process, device)
 * pair RECORD_PROC_TRACE_STRINGS (its last thread's name), the rest of a
 * sample at most RECORD_OTHER_STRINGS (temperatures, IRQs, why a part is
 * missing, why it is untraced); a segment per device of each list, process, cgroup, traced
 * pair of either kind and device of a loss, and RECORD_OTHER_SEGS. The
 * record suite checks the per-item numbers against the walk. */
#define RECORD_DISK_STRINGS 12u
#define RECORD_PROC_STRINGS 3u
#define RECORD_PROC_TRACE_STRINGS 1u
#define RECORD_OTHER_STRINGS (5u + SAMPLE_TEMPS_MAX + SAMPLE_IRQ_MAX)
#define RECORD_OTHER_SEGS 8u
#define RECORD_MAX_STRINGS                                                                    \
	(RECORD_MAX_DISKS * RECORD_DISK_STRINGS + RECORD_MAX_PROCS * RECORD_PROC_STRINGS + \
	 RECORD_MAX_CGROUPS + RECORD_MAX_PROC_TRACES * RECORD_PROC_TRACE_STRINGS + RECORD_OTHER_STRINGS)
#define RECORD_MAX_SEGS                                                                       \
	(4u * RECORD_MAX_DISKS + RECORD_MAX_PROCS + RECORD_MAX_CGROUPS + RECORD_MAX_PROC_TRACES + \
	 RECORD_MAX_CG_TRACES + RECORD_OTHER_SEGS)
/* Words are a total of their own: a traced device has 6 per CPU, so the
 * counts alone allow far more. Devices and processes at their limits
 * (about 31 words a device, 5 a process) take a third of it; traced pairs
 * at theirs (45 words a process's, 44 a cgroup's) a twentieth more. */
#define RECORD_MAX_WORDS (64u << 20)
/* New words and strings a record may bring per byte of its payload. A word
 * that is zero in a key costs next to nothing, so without this a few
 * bytes could declare RECORD_MAX_WORDS words and every delta after them a
 * pass over all. The densest sample the limits allow, a host of
 * RECORD_MAX_CPUS CPUs tracing devices diskstats does not list, brings
 * about 4000 per byte (each such device 50k words, mostly its per-CPU
 * counters, for 12 bytes of layout and id): twice that is refused. */
#define RECORD_NEW_PER_BYTE 8192u

/* What part of a sample a word belongs to (the size breakdown's groups:
 * tests/bench/record-breakdown.c). */
enum record_group {
	RG_HEAD,       /* times, counts, ids */
	RG_DISK,       /* /proc/diskstats counters */
	RG_INFO,       /* queue settings and sizes */
	RG_HOST,       /* CPU, memory, temperatures */
	RG_CPUS,       /* the CPU view's per-CPU counters */
	RG_TR_IO,      /* traced requests, bytes, sizes, classes */
	RG_TR_SUM,     /* traced latency sums (ns) */
	RG_TR_LAT,     /* traced latency histogram */
	RG_TR_QD,      /* traced queue and device time histograms */
	RG_TR_CPU,     /* traced per-CPU counts */
	RG_TR_MAT,     /* traced CPU matrix */
	RG_RA,         /* readahead */
	RG_CGROUP,
	RG_PROCS,
	RG_PROC_TR,    /* --trace-processes: per process and cgroup */
	RECORD_GROUPS
};
extern const char *const record_group_name[RECORD_GROUPS];

#define RECORD_QUIET 2
#define RECORD_ESC 12

/* Words w0 .. w0+nw and strings s0 .. s0+ns; key names what they are
 * (the encoder's; a decoder's segments have key 0). */
struct record_seg {
	uint64_t key;
	size_t w0, nw, s0, ns;
};

struct record_flat {
	uint64_t *w;
	unsigned char *g; /* each word's enum record_group (flatten sets it) */
	size_t nw, capw, capg;
	struct record_seg *seg;
	size_t nseg, capseg;
	char *sb;      /* strings, each NUL-terminated */
	size_t nsb, capsb;
	size_t *so;    /* string i starts at sb + so[i] */
	size_t ns, caps;
	/* the coder's state, set by record_encode and record_decode: each
	 * word's last delta, the running mean of its residuals (x16), its
	 * state (0 quiet, else active and 1 + records its residual was 0) */
	uint64_t *d, *m;
	unsigned char *on;
	size_t capd, capm, capon;
	/* record_encode adds each word's bits to its group here (a bench's) */
	double *cost;
	/* after -E2BIG from record_flatten or record_encode: what of the
	 * sample is more than a reader takes, how many, and the limit */
	const char *over;
	size_t over_n, over_max;
};

/* Growable byte buffer for payloads. */
struct record_buf {
	unsigned char *p;
	size_t n, cap;
};

void record_flat_init(struct record_flat *f);
void record_flat_free(struct record_flat *f);
void record_flat_reset(struct record_flat *f);

/* Flatten s into f (reset first), as the current format version walks it. Returns 0, -E2BIG (a count beyond its
 * limit: f->over says which) or -ENOMEM. */
int record_flatten(const struct sample *s, struct record_flat *f);
/* Rebuild s (cleared first) from f, walked as format version (record.h's
 * RECORD_VERSION_MIN to RECORD_VERSION) wrote it. Returns 0, -EINVAL (f
 * does not describe a sample: a count out of range, words or strings
 * missing, another version) or -ENOMEM. */
int record_unflatten(const struct record_flat *f, unsigned version, struct sample *s);
/* The first words of every flat sample: t's bits, wall seconds and
 * nanoseconds (the reader's index takes them without a full rebuild). */
int record_flat_times(const struct record_flat *f, double *t, struct timespec *wall);
/* A sample's clocks as a recording may hold them: a monotonic time of 0
 * to 1e15 s, a wall time from 1970 to 9999 with nanoseconds below 1e9.
 * 0 or -ERANGE. */
int record_times_check(double t, long long sec, long long nsec);

/* Append the payload of cur against prev (NULL: a key record), prev as
 * the last record_encode left it; sets cur's state. A list without
 * segments (words set straight) is one segment. Returns 0, -E2BIG (more
 * words, strings or segments than a decoder takes, or more new ones than
 * the payload's size allows it: cur->over says which) or -ENOMEM. */
int record_encode(const struct record_flat *prev, struct record_flat *cur, struct record_buf *out);
/* Apply a payload to f, which holds the previous record's list and state
 * (a key record starts f afresh). Returns 0, -EINVAL (malformed) or
 * -ENOMEM; after an error f is undefined until the next key. */
int record_decode(struct record_flat *f, bool key, const unsigned char *p, size_t n);

void record_buf_free(struct record_buf *b);
int record_buf_put(struct record_buf *b, const void *p, size_t n);
int record_buf_varint(struct record_buf *b, uint64_t v);
/* Read a varint at *p (advanced) before end. Returns 0 or -EINVAL. */
int record_varint(const unsigned char **p, const unsigned char *end, uint64_t *v);

#endif
