/* sampler: takes one sample from every source at one instant. The only place
 * that knows which sources exist; each source fills its own part. */
#ifndef BLKTUNE_SAMPLER_H
#define BLKTUNE_SAMPLER_H

#include <stdbool.h>

#include "names.h"
#include "root.h"
#include "sample.h"

struct sampler;
struct source_bpf;

struct sampler_host {
	char hostname[64];
	char kernel[64];
};

#define SAMPLER_NO_TRACE 1u /* --no-trace: never load the BPF programs */
/* Load the tracer in a thread behind the first samples (the TUI: its first
 * frame comes from diskstats and sysfs at once; sampler_tracing says
 * "loading" meanwhile and the programs are adopted by the first
 * sampler_take after the load). The load starts when the caller says its
 * first frame is drawn (sampler_frame_drawn), or 2 s after the open. The
 * environment variable BLKTUNE_TRACE_LOAD_DELAY_MS (tests) delays the
 * load by that much more. */
#define SAMPLER_DEFER_TRACE 2u

int sampler_open(const struct root *r, unsigned flags, struct sampler **out);
/* The first frame is on the screen: a deferred tracer load may start. Any
 * number of times; nothing without SAMPLER_DEFER_TRACE. */
void sampler_frame_drawn(struct sampler *sp);
/* Samples from a recording (-r FILE) instead of the kernel: host and kernel
 * are the recording's, mode switches (CPU detail, readahead, cgroups) show
 * what was recorded. Returns 0 or -errno with one line in why. */
int sampler_open_replay(const char *path, struct sampler **out, char *why, size_t whylen);
/* The recording being replayed, or NULL (live). */
struct source_replay;
struct source_replay *sampler_replay(const struct sampler *sp);
void sampler_close(struct sampler *sp);
/* Fill s (cleared first). Returns 0 or -errno; a source that fails only
 * leaves its part invalid, except diskstats which is required. */
int sampler_take(struct sampler *sp, struct sample *s);
/* (A replay returns -ENODATA after its last sample.) */
const struct sampler_host *sampler_host(const struct sampler *sp);
/* Last problem worth a status line ("diskstats line 3: ..."), "" if none. */
const char *sampler_error(const struct sampler *sp);
/* After a tunable write: re-read that device's tunables next time. */
void sampler_invalidate(struct sampler *sp, dev_t dev);
/* Tracing state for the header: true when the BPF programs run; otherwise
 * why holds one line ("off (--no-trace)", "not root and no CAP_BPF ..."). */
bool sampler_tracing(const struct sampler *sp, const char **why);
/* The CPU view's per-CPU detail: on while the view is shown, watching the
 * IRQs of dev. Returns 0 or -errno. */
int sampler_cpu_detail(struct sampler *sp, bool on, const char *dev);
/* Readahead mode on or off (loads or unloads its BPF programs: off costs
 * nothing). Returns 0 or -errno with a one-line reason in why. */
int sampler_readahead(struct sampler *sp, bool on, char *why, size_t whylen);
bool sampler_readahead_on(const struct sampler *sp);
/* Per-cgroup counters (source-cgroup) on or off: read only while the
 * cgroup view is shown or --cgroups asks. Returns 0 or -errno. */
int sampler_cgroups(struct sampler *sp, bool on);
/* Per-process counters (source-procs) on or off: read only while the
 * process view is shown or --top-processes asks. Returns 0 or -errno with a
 * one-line reason in why. */
int sampler_procs(struct sampler *sp, bool on, char *why, size_t whylen);
/* Start --trace-processes (for the session): per (process, device) block
 * requests, read with the per-process counters (a replay: nothing to start,
 * the recording has them or not). Returns 0 or -errno with a one-line
 * reason in why. */
int sampler_procs_trace(struct sampler *sp, char *why, size_t whylen);
/* Persistent names (-j): fill info.persistent from dev/disk/by-TYPE, or
 * stop (NAMES_NONE). Returns 0 or -errno. */
int sampler_names(struct sampler *sp, enum names_type t);
/* proc/uptime's first field now, in seconds. Returns 0 or -errno
 * (-EINVAL: not a positive number). */
int sampler_uptime(const struct sampler *sp, double *out);
/* The loaded tracer, or NULL (CPU topology, program statistics). */
const struct source_bpf *sampler_bpf(const struct sampler *sp);

#endif
