/* bpf-env: what every BPF source needs before and around libbpf: whether
 * this machine and process can trace at all (BTF, capabilities, lockdown),
 * libbpf's messages captured instead of printed, and a load failure said in
 * words. Shared by source-bpf (block tracing) and source-readahead. */
#ifndef BLKTUNE_BPF_ENV_H
#define BLKTUNE_BPF_ENV_H

#include <stddef.h>

#include "root.h"

/* 0, or -errno with one line in why: no BTF, not root and no CAP_BPF +
 * CAP_PERFMON, kernel lockdown. Checked before libbpf tries, so the user reads
 * the cause rather than a verifier message. */
int bpf_env_check(const struct root *r, char *why, size_t whylen);
/* Between begin and end, libbpf's first warning is kept (library code does
 * not print) and bpf_env_message() returns it, "" if none. */
void bpf_env_capture_begin(void);
void bpf_env_capture_end(void);
const char *bpf_env_message(void);
/* Every key of a BPF hash map whose entries are never deleted, into a
 * growing array (*keys, *cap in keys) of key_size bytes each; *n gets the
 * count. Returns 0, -EOVERFLOW past max keys, -ENOMEM or -errno. */
int bpf_env_map_keys(int fd, size_t key_size, void **keys, size_t *n, size_t *cap, size_t max);
/* why for a failed skeleton load: refused for permission, or by the verifier. */
void bpf_env_load_error(int err, char *why, size_t whylen);

#endif
