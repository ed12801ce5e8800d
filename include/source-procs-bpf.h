/* source-procs-bpf: the --trace-processes mode. Loads bpf/procs.bpf.c
 * (tp_btf block_io_start in the submitting task, block_io_done) through the
 * BPF helper process (bpf-loader) and reads its cumulative per (process,
 * device) counters into the traced part of a proc_sample. Tracing is the
 * live kernel's: like source-procs, it works only on the live root. */
#ifndef BLKTUNE_SOURCE_PROCS_BPF_H
#define BLKTUNE_SOURCE_PROCS_BPF_H

#include <stddef.h>

#include "proc-sample.h"
#include "root.h"

struct source_procs_bpf;
struct bpf_object;

/* Returns 0 or -errno with one line in why ("not root and no CAP_BPF", the
 * helper's reason, or --root). */
int source_procs_bpf_open(const struct root *r, struct source_procs_bpf **out, char *why, size_t whylen);
void source_procs_bpf_close(struct source_procs_bpf *src);
/* Append every traced pair to out (after source_procs_read) and mark it
 * traced. Returns 0 or -errno. */
int source_procs_bpf_read(struct source_procs_bpf *src, struct proc_sample *out);

/* A hash map's entries: n keys, then n values, each array packed. */
struct procs_entries {
	void *keys, *vals;
	size_t n, cap;
};

/* Every entry of the hash map fd (keys of ks bytes, values of vs) into e,
 * whose memory it keeps for the next read: an entry that is in the map
 * throughout the read is in e exactly once. Returns 0 or -errno. */
int source_procs_bpf_read_map(int fd, size_t ks, size_t vs, struct procs_entries *e);
void procs_entries_free(struct procs_entries *e);

/* The helper's part (bpf-helper's table): open and load. */
int source_procs_bpf_helper_load(void **handle, struct bpf_object **obj, char *why, size_t whylen);
void source_procs_bpf_helper_free(void *handle);

#endif
