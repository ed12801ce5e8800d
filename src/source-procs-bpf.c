#include "source-procs-bpf.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "bpf-env.h"
#include "bpf-loader.h"
#include "procs-bpf.h"
#include "procs.skel.h"

/* The object's maps, by name. */
enum map_id { MAP_PROCS, MAP_CGROUPS, MAP_LOSS, MAP_UNKEPT, NMAPS };
static const char *const map_names[NMAPS] = { "procs", "cgroups", "loss", "unkept" };

struct source_procs_bpf {
	struct root *root;
	struct bpf_loaded *obj;
	int fd[NMAPS]; /* by enum map_id */
	struct procs_entries pairs, cgs, losses;
};

int source_procs_bpf_helper_load(void **handle, struct bpf_object **obj, char *why, size_t whylen)
{
	struct procs *skel;
	int err;

	*handle = NULL;
	if (libbpf_find_vmlinux_btf_id("block_io_start", BPF_TRACE_RAW_TP) < 0 ||
	    libbpf_find_vmlinux_btf_id("block_io_done", BPF_TRACE_RAW_TP) < 0) {
		snprintf(why, whylen, "kernel lacks the block_io_start/block_io_done tracepoints (before 6.5)");
		return -ENOTSUP;
	}
	skel = procs__open();
	*handle = skel;
	if (!skel) {
		err = -errno;
		snprintf(why, whylen, "cannot open the BPF object: %s", strerror(-err));
		return err;
	}
	if ((err = procs__load(skel))) {
		bpf_env_load_error(err, why, whylen);
		return err;
	}
	*obj = skel->obj;
	return 0;
}

void source_procs_bpf_helper_free(void *handle)
{
	procs__destroy(handle);
}

int source_procs_bpf_open(const struct root *r, struct source_procs_bpf **out, char *why, size_t whylen)
{
	struct source_procs_bpf *src;
	int err;

	*out = NULL;
	if (!root_is_live(r)) {
		snprintf(why, whylen, "--trace-processes traces the live kernel, not --root");
		return -EOPNOTSUPP;
	}
	if (!(src = calloc(1, sizeof(*src))))
		return -ENOMEM;
	if ((err = root_open("/", &src->root)) < 0) {
		snprintf(why, whylen, "cannot open /: %s", strerror(-err));
		free(src);
		return err;
	}
	err = bpf_env_check(src->root, why, whylen);
	if (!err)
		err = bpf_loader_open("procs", NULL, &src->obj, why, whylen);
	for (int i = 0; !err && i < NMAPS; i++) {
		if ((src->fd[i] = bpf_loaded_map_fd(src->obj, map_names[i])) < 0) {
			err = src->fd[i];
			snprintf(why, whylen, "the process tracer has no map called %s", map_names[i]);
		}
	}
	if (err) {
		source_procs_bpf_close(src);
		return err;
	}
	*out = src;
	return 0;
}

void source_procs_bpf_close(struct source_procs_bpf *src)
{
	if (!src)
		return;
	bpf_loaded_close(src->obj);
	root_close(src->root);
	procs_entries_free(&src->pairs);
	procs_entries_free(&src->cgs);
	procs_entries_free(&src->losses);
	free(src);
}

static void copy(struct proc_counts *t, const struct procs_bpf_counts *v)
{
	for (int op = 0; op < PROC_OPS; op++) {
		t->requests[op] = v->requests[op];
		t->bytes[op] = v->bytes[op];
	}
	t->done = v->done;
	memcpy(t->lat, v->lat, sizeof(t->lat));
	t->lat_sum_ns = v->lat_sum_ns;
}

static dev_t kdev(__u32 dev)
{
	return makedev(dev >> 20, dev & 0xfffff);
}

/* Room for at least want more entries of ks + vs bytes. */
static int grow(struct procs_entries *e, size_t want, size_t ks, size_t vs)
{
	size_t cap = e->cap ? e->cap : 256;
	void *k, *v;

	while (cap - e->n < want)
		cap *= 2;
	if (cap == e->cap)
		return 0;
	if (!(k = realloc(e->keys, cap * ks)))
		return -ENOMEM;
	e->keys = k;
	if (!(v = realloc(e->vals, cap * vs)))
		return -ENOMEM;
	e->vals = v;
	e->cap = cap;
	return 0;
}

void procs_entries_free(struct procs_entries *e)
{
	free(e->keys);
	free(e->vals);
	memset(e, 0, sizeof(*e));
}

/* Bucket by bucket (bpf_map_lookup_batch: the kernel copies each hash
 * bucket whole under its lock), so an entry that lives through the read is
 * read exactly once: never missed, never twice. A key walk
 * (bpf_map_get_next_key) gives no such promise: it starts over from the
 * first key when the key it is handed has gone meanwhile (the LRU evicted
 * it), and a node the LRU reuses for another key while the walk stands on
 * it sends the walk into that key's bucket, past the buckets in between.
 * The model counts a pair absent from the previous sample from zero
 * (model_procs_zero): a pair missed by the read would count all it holds as
 * one interval's. */
int source_procs_bpf_read_map(int fd, size_t ks, size_t vs, struct procs_entries *e)
{
	__u32 in = 0, out = 0, count;
	size_t want = 64;
	bool first = true;
	int err;

	e->n = 0;
	for (;;) {
		if ((err = grow(e, want, ks, vs)) < 0)
			return err;
		count = (__u32)(e->cap - e->n);
		err = bpf_map_lookup_batch(fd, first ? NULL : &in, &out, (char *)e->keys + e->n * ks,
					   (char *)e->vals + e->n * vs, &count, NULL);
		if (err == -ENOSPC) { /* a bucket larger than the room left */
			want = e->cap - e->n + 1;
			continue;
		}
		if (err < 0 && err != -ENOENT)
			return err;
		e->n += count;
		if (err == -ENOENT) /* past the last bucket */
			return 0;
		want = 64;
		in = out;
		first = false;
	}
}

/* A process that has exited keeps its pairs in the map until the LRU
 * evicts them; a new process given its PID would inherit their counts.
 * So a pair whose process is neither in this sample's /proc walk nor alive
 * now is deleted (a process started after the walk is alive: kept).
 * Returns whether it was: the sample keeps the pair's last counts, the
 * requests of a process that exited within the interval. */
static bool prune(struct source_procs_bpf *src, const struct proc_sample *out, const struct procs_bpf_key *key)
{
	size_t lo = 0, hi = out->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (out->p[mid].pid < (pid_t)key->tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < out->n && out->p[lo].pid == (pid_t)key->tgid)
		return false;
	if (kill((pid_t)key->tgid, 0) == 0 || errno != ESRCH)
		return false;
	bpf_map_delete_elem(src->fd[MAP_PROCS], key);
	return true;
}

/* The (cgroup, device) pairs: kept as long as the map keeps them (a cgroup
 * removed keeps its id, never reused while the kernel runs). */
static int read_cgroups(struct source_procs_bpf *src, struct proc_sample *out)
{
	const struct procs_bpf_cgkey *keys;
	const struct procs_bpf_counts *vals;
	int err;

	out->ncg = 0;
	if ((err = source_procs_bpf_read_map(src->fd[MAP_CGROUPS], sizeof(*keys), sizeof(*vals), &src->cgs)) < 0)
		return err;
	keys = src->cgs.keys;
	vals = src->cgs.vals;
	for (size_t i = 0; i < src->cgs.n; i++) {
		struct proc_cgtrace *t = proc_sample_add_cgtrace(out, keys[i].cgroup_id, kdev(keys[i].dev));

		if (!t)
			return -ENOMEM;
		copy(&t->c, &vals[i]);
	}
	return 0;
}

/* What the mode could not follow: per device, completions without a
 * recorded start; in all, program runs the kernel skipped because one of
 * its programs was running on that CPU already (recursion_misses). */
static int read_loss(struct source_procs_bpf *src, struct proc_sample *out)
{
	const struct procs_bpf_loss *vals;
	struct procs_bpf_unkept u;
	const __u32 *keys, zero = 0;
	int err;

	out->nloss = 0;
	out->skipped = 0;
	if (bpf_map_lookup_elem(src->fd[MAP_UNKEPT], &zero, &u))
		return -errno;
	out->not_kept = u.starts + u.no_starts;
	if ((err = source_procs_bpf_read_map(src->fd[MAP_LOSS], sizeof(*keys), sizeof(*vals), &src->losses)) < 0)
		return err;
	keys = src->losses.keys;
	vals = src->losses.vals;
	for (size_t i = 0; i < src->losses.n; i++) {
		struct proc_loss *l = proc_sample_add_loss(out, kdev(keys[i]));

		if (!l)
			return -ENOMEM;
		l->no_start = vals[i].no_start;
	}
	for (size_t i = 0; i < bpf_loaded_nprogs(src->obj); i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_loaded_prog_fd(src->obj, i), &info, &len))
			return -errno;
		out->skipped += info.recursion_misses;
	}
	return 0;
}

int source_procs_bpf_read(struct source_procs_bpf *src, struct proc_sample *out)
{
	const struct procs_bpf_key *keys;
	const struct procs_bpf_val *vals;
	int err;

	out->ntr = 0;
	if ((err = source_procs_bpf_read_map(src->fd[MAP_PROCS], sizeof(*keys), sizeof(*vals), &src->pairs)) < 0)
		return err;
	keys = src->pairs.keys;
	vals = src->pairs.vals;
	for (size_t i = 0; i < src->pairs.n; i++) {
		struct proc_trace *t = proc_sample_add_trace(out, (pid_t)keys[i].tgid, kdev(keys[i].dev));

		if (!t)
			return -ENOMEM;
		t->cgroup_id = vals[i].cgroup_id;
		memcpy(t->comm, vals[i].comm, sizeof(t->comm));
		t->comm[sizeof(t->comm) - 1] = '\0';
		copy(&t->c, &vals[i].c);
		if (out->valid && out->all_users)
			t->gone = prune(src, out, &keys[i]);
	}
	if ((err = read_cgroups(src, out)) < 0)
		return err;
	if ((err = read_loss(src, out)) < 0)
		return err;
	proc_sample_sort_traced(out);
	out->traced = true;
	return 0;
}
