/* source-bpf: loads bpf/blktune.bpf.c (tp_btf programs on block_rq_complete,
 * and on block_bio_queue, block_bio_complete while a bio-based disk exists) and reads its
 * cumulative per-device, per-CPU counters into a trace_sample. The only code
 * that touches BPF. Tracing always concerns the live kernel, so the CPU
 * topology it needs is read from "/". */
#ifndef BLKTUNE_SOURCE_BPF_H
#define BLKTUNE_SOURCE_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "root.h"
#include "trace.h"
#include "trace-topology.h"

struct source_bpf;

/* Open, configure (CPU topology), load and attach, in a helper process
 * (bpf-loader): this process never holds libbpf's copy of the kernel BTF.
 * Returns 0 or -errno; on
 * failure `why` holds one line for the header, e.g. "not root and no
 * CAP_BPF/CAP_PERFMON", "kernel has no BTF", "kernel lockdown forbids BPF",
 * "kernel refused the BPF program: ...", "BPF helper killed by signal 9
 * (Killed)". Nothing is printed (libbpf's messages are captured by the
 * helper). */
int source_bpf_open(struct source_bpf **out, char *why, size_t whylen);
void source_bpf_close(struct source_bpf *src);
/* The helper's part (bpf-helper's table): open, configure, load. */
struct bpf_object;
int source_bpf_helper_load(void **handle, struct bpf_object **obj, char *why, size_t whylen);
void source_bpf_helper_free(void *handle);

/* Fill `out` with the cumulative counters of every device that did I/O since
 * the programs were attached (sorted by dev_t; trace_dev.path tells whether
 * it was traced request-based or bio-based). Returns 0 or -errno. */
int source_bpf_read(struct source_bpf *src, struct trace_sample *out);

/* Free the kernel-side state of disks that went away: delete the map entry
 * of every traced dev_t that is neither in `live` (sorted ascending; the
 * disks of the current sample) nor in sys/dev/block below `r`. The sampler
 * calls it when the set of disks changes. Returns the number deleted. */
int source_bpf_prune(struct source_bpf *src, const struct root *r, const dev_t *live, size_t nlive);

/* True once after each read that found devices the programs added (and
 * re-read the map's keys): a disk may have come, done I/O and gone between
 * two samples without changing the set of disks the sampler sees, so it
 * prunes then too. */
bool source_bpf_keys_changed(struct source_bpf *src);

/* The topology the kernel side classes completions with. */
const struct trace_topology *source_bpf_topology(const struct source_bpf *src);
/* The bio programs fire for every bio of every device, request-based ones
 * included, where they only filter (about 60 ns per bio measured). So they are
 * attached only while a bio-based disk (zram, dm, md: no mq/ directory) with
 * a non-zero size exists: source_bpf_open checks once; the sampler calls
 * source_bpf_set_bio(src, source_bpf_bio_needed(root)) when disks come and go.
 * set_bio returns 0 or -errno (-ENOTSUP: the kernel lacks the tracepoints). */
bool source_bpf_bio_needed(const struct root *r);
int source_bpf_set_bio(struct source_bpf *src, bool on);
/* True while the bio programs are attached. */
bool source_bpf_bio_traced(const struct source_bpf *src);

/* Per-program kernel statistics (run_cnt/run_time_ns need the sysctl
 * kernel.bpf_stats_enabled=1; recursion_misses counts runs the kernel skipped
 * because the same program was already running on that CPU). */
struct source_bpf_prog_stat {
	const char *name; /* "rq_complete", "bio_queue", "bio_complete" */
	bool attached;
	uint64_t run_cnt, run_time_ns, recursion_misses;
};
#define SOURCE_BPF_PROGS 3
/* Fills out[SOURCE_BPF_PROGS]. Returns 0 or -errno. */
int source_bpf_prog_stats(const struct source_bpf *src, struct source_bpf_prog_stat out[SOURCE_BPF_PROGS]);

#endif
