/* bpf-helper: the helper process bpf-loader starts ("blktune --bpf-helper
 * OBJECT SOCKFD [DEFERRED-PROGRAM...]"): it opens, configures and loads one
 * of the objects in its table, attaches its programs but the deferred ones,
 * sends every fd back on SOCKFD and exits. Its memory (libbpf's copy of the
 * kernel BTF) goes with it. */
#ifndef BLKTUNE_BPF_HELPER_H
#define BLKTUNE_BPF_HELPER_H

#include <stddef.h>

struct bpf_object;

/* Every program that can load a BPF object calls this first in main():
 * -1 when argv is not a helper's, else the exit status of the helper. */
int bpf_helper_main(int argc, char **argv);

/* An object's own part, run in the helper: open it, set what must be set
 * before loading (read-only globals, programs left out) and load it. On
 * success *obj is the loaded object and *handle what free takes; on failure
 * -errno and one line in why. */
struct bpf_helper_object {
	const char *name;
	int (*load)(void **handle, struct bpf_object **obj, char *why, size_t whylen);
	void (*free)(void *handle);
};

#endif
