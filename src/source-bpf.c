#include "source-bpf.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blktune.skel.h"
#include "bpf-env.h"
#include "bpf-loader.h"
#include "root.h"

struct source_bpf {
	struct bpf_loaded *obj;
	int prog[SOURCE_BPF_PROGS]; /* index in obj, -1: not loaded */
	int devs_fd, globals_fd;
	unsigned ncpu; /* possible CPUs: the per-CPU map's value count */
	struct blktune_dev_cpu *vals;
	struct blktune_key *keys;
	size_t nkeys, cap_keys;
	bool keys_valid;   /* keys is every entry as of new_devs */
	bool walked;       /* keys were re-read since source_bpf_keys_changed */
	uint64_t new_devs; /* the programs' count of added entries at the last walk */
	uint64_t missed; /* the last recursion_misses read, summed */
	struct trace_topology topo;
	/* The queue-id slot array: which slots hold a disk (sorted by key,
	 * found by a walk of every slot when new_devs moves) and, per slot,
	 * the disk pruned from it (dev, seq), which a walk skips until a CPU
	 * claims the slot afresh. */
	int slots_fd;
	uint32_t nslots;
	struct slot_use *used;
	size_t nused;
	struct slot_use *dead; /* [nslots]; key.dev 0: none */
	struct blktune_dev_cpu *vals2;
	/* The programs' count of claims per slot (the claims map, mapped
	 * read-only; NULL where it cannot be: then read by lookups), the
	 * count each slot's owner was last read at, and that owner (key.dev
	 * 0: none). A walk looks up only the slots whose count moved. */
	int claims_fd;
	const volatile uint64_t *claims;
	size_t claims_len;
	uint64_t *seen;
	struct slot_use *own;
};

struct slot_use {
	struct blktune_key key;
	uint32_t slot;
	uint64_t seq;
};

static const char *const prog_names[SOURCE_BPF_PROGS + 1] = {
	"rq_complete", "bio_queue", "bio_complete", NULL,
};
static const char *const prog_tps[SOURCE_BPF_PROGS] = {
	"block_rq_complete", "block_bio_queue", "block_bio_complete",
};
/* Index of the first bio program: the ones before are always attached. */
#define BIO_FIRST 1

/* Without topology every completion off the submitting CPU is "elsewhere";
 * the same-CPU share stays exact. */
static void read_topology(struct trace_topology *topo)
{
	struct root *r = NULL;

	if (root_open("/", &r) == 0)
		trace_topology_read(r, topo);
	root_close(r);
}

static void set_topology(struct blktune *skel)
{
	struct trace_topology topo = { 0 };
	unsigned n;

	read_topology(&topo);
	n = topo.ncpu < BLKTUNE_MAX_CPUS ? topo.ncpu : BLKTUNE_MAX_CPUS;
	skel->rodata->topo_ncpu = n;
	for (unsigned c = 0; c < n; c++) {
		int llc = topo.llc[c], node = topo.node[c];

		skel->rodata->cpu_llc[c] = llc >= 0 && llc < BLKTUNE_TOPO_UNKNOWN
			? (__u16)llc : BLKTUNE_TOPO_UNKNOWN;
		skel->rodata->cpu_node[c] = node >= 0 && node < BLKTUNE_TOPO_UNKNOWN
			? (__u16)node : BLKTUNE_TOPO_UNKNOWN;
	}
	trace_topology_free(&topo);
}

/* Slots for the queue-id array: the disks there are now, with room for as
 * many again (queues come and go; some have no disk), within the limits
 * of blktune-bpf.h. */
static uint32_t slot_count(void)
{
	int ncpu = libbpf_num_possible_cpus();
	struct root *r = NULL;
	struct dirent *de;
	uint32_t n = 0, cap;
	DIR *d;

	if (root_open("/", &r) == 0 && (d = root_opendir(r, "sys/block"))) {
		while ((de = readdir(d)))
			n += de->d_name[0] != '.';
		closedir(d);
	}
	root_close(r);
	cap = BLKTUNE_SLOT_BYTES / ((ncpu > 0 ? (uint32_t)ncpu : 1) * sizeof(struct blktune_dev_cpu));
	if (cap > BLKTUNE_MAX_SLOTS)
		cap = BLKTUNE_MAX_SLOTS;
	n = 2 * n + 8;
	if (n > cap)
		n = cap;
	return n < BLKTUNE_MIN_SLOTS ? BLKTUNE_MIN_SLOTS : n;
}

int source_bpf_helper_load(void **handle, struct bpf_object **obj, char *why, size_t whylen)
{
	struct blktune *skel = blktune__open();
	int err;

	*handle = skel;
	if (!skel) {
		err = -errno;
		snprintf(why, whylen, "cannot open the BPF object: %s", strerror(-err));
		return err;
	}
	/* Probe the tracepoints instead of guessing from kernel versions: the
	 * request ones are required, the bio ones optional. */
	for (int i = 0; i < SOURCE_BPF_PROGS; i++) {
		if (libbpf_find_vmlinux_btf_id(prog_tps[i], BPF_TRACE_RAW_TP) >= 0)
			continue;
		if (i < BIO_FIRST) {
			snprintf(why, whylen, "kernel has no tracepoint %s", prog_tps[i]);
			return -ENOTSUP;
		}
		bpf_program__set_autoload(bpf_object__find_program_by_name(skel->obj, prog_names[i]), false);
	}
	set_topology(skel);
	skel->rodata->nslots = slot_count();
	err = bpf_map__set_max_entries(skel->maps.slots, skel->rodata->nslots);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.claims, skel->rodata->nslots);
	if (err) {
		snprintf(why, whylen, "cannot size the slot array: %s", strerror(-err));
		return err;
	}
	err = blktune__load(skel);
	if (err) {
		bpf_env_load_error(err, why, whylen);
		return err;
	}
	*obj = skel->obj;
	return 0;
}

void source_bpf_helper_free(void *handle)
{
	blktune__destroy(handle);
}

static int attach(struct source_bpf *src, int i)
{
	if (src->prog[i] < 0)
		return -ENOTSUP;
	return bpf_loaded_attach(src->obj, (size_t)src->prog[i]);
}

static bool attached(const struct source_bpf *src, int i)
{
	return src->prog[i] >= 0 && bpf_loaded_attached(src->obj, (size_t)src->prog[i]);
}

static void detach(struct source_bpf *src, int i)
{
	if (src->prog[i] >= 0)
		bpf_loaded_detach(src->obj, (size_t)src->prog[i]);
}

/* The claim counts, read in place: a page or two, no system call per
 * walk. A kernel that cannot map the array leaves claims NULL: lookups. */
static void map_claims(struct source_bpf *src)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)src->nslots * sizeof(uint64_t);
	void *p;

	if (page <= 0 || !src->nslots)
		return;
	len = (len + (size_t)page - 1) / (size_t)page * (size_t)page;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, src->claims_fd, 0);
	if (p == MAP_FAILED)
		return;
	src->claims = p;
	src->claims_len = len;
}

/* Loaded in a helper process (bpf-loader): the bio programs are left
 * detached there, attached below when a bio-based disk exists. */
static int load(struct source_bpf *src, char *why, size_t whylen)
{
	int err = bpf_loader_open("blktune", prog_names + BIO_FIRST, &src->obj, why, whylen);

	if (err)
		return err;
	src->devs_fd = bpf_loaded_map_fd(src->obj, "devs");
	src->globals_fd = bpf_loaded_map_fd(src->obj, "globals");
	src->slots_fd = bpf_loaded_map_fd(src->obj, "slots");
	src->claims_fd = bpf_loaded_map_fd(src->obj, "claims");
	if (src->devs_fd < 0 || src->globals_fd < 0 || src->slots_fd < 0 || src->claims_fd < 0) {
		snprintf(why, whylen, "the BPF object has no map devs, slots, claims or globals");
		return -ENOENT;
	}
	{
		struct bpf_map_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(src->slots_fd, &info, &len))
			return -errno;
		src->nslots = info.max_entries;
		src->dead = calloc(src->nslots ? src->nslots : 1, sizeof(*src->dead));
		src->used = calloc(src->nslots ? src->nslots : 1, sizeof(*src->used));
		src->own = calloc(src->nslots ? src->nslots : 1, sizeof(*src->own));
		src->seen = calloc(src->nslots ? src->nslots : 1, sizeof(*src->seen));
		if (!src->dead || !src->used || !src->own || !src->seen)
			return -ENOMEM;
	}
	map_claims(src);
	for (int i = 0; i < SOURCE_BPF_PROGS; i++)
		src->prog[i] = bpf_loaded_prog_find(src->obj, prog_names[i]);
	for (int i = 0; i < BIO_FIRST; i++)
		if (!attached(src, i)) {
			snprintf(why, whylen, "BPF helper did not attach %s", prog_names[i]);
			return -ENOENT;
		}
	return 0;
}

int source_bpf_open(struct source_bpf **out, char *why, size_t whylen)
{
	struct source_bpf *src;
	struct root *r;
	bool bio;
	int err, n;

	*out = NULL;
	if (whylen)
		why[0] = '\0';
	err = root_open("/", &r);
	if (err) {
		snprintf(why, whylen, "cannot open /: %s", strerror(-err));
		return err;
	}
	err = bpf_env_check(r, why, whylen);
	if (err) {
		root_close(r);
		return err;
	}
	n = libbpf_num_possible_cpus();
	if (n <= 0) {
		root_close(r);
		snprintf(why, whylen, "cannot count possible CPUs: %s", strerror(n ? -n : EINVAL));
		return n ? n : -EINVAL;
	}
	src = calloc(1, sizeof(*src));
	if (!src || !(src->vals = calloc((size_t)n, sizeof(*src->vals))) ||
	    !(src->vals2 = calloc((size_t)n, sizeof(*src->vals2)))) {
		if (src)
			free(src->vals);
		root_close(r);
		free(src);
		return -ENOMEM;
	}
	src->ncpu = (unsigned)n;
	read_topology(&src->topo);
	err = load(src, why, whylen);
	if (err) {
		root_close(r);
		source_bpf_close(src);
		return err;
	}
	bio = source_bpf_bio_needed(r);
	root_close(r);
	if (bio) {
		err = source_bpf_set_bio(src, true);
		if (err) {
			snprintf(why, whylen, "cannot attach to the bio tracepoints: %s", strerror(-err));
			source_bpf_close(src);
			return err;
		}
	}
	*out = src;
	return 0;
}

bool source_bpf_bio_needed(const struct root *r)
{
	char path[300];
	struct dirent *de;
	bool found = false;
	DIR *d = root_opendir(r, "sys/block");

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		unsigned long long sectors;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "sys/block/%s/mq", de->d_name);
		if (root_exists(r, path))
			continue;
		snprintf(path, sizeof(path), "sys/block/%s/size", de->d_name);
		found = root_read_u64(r, path, &sectors) == 0 && sectors > 0;
	}
	closedir(d);
	return found;
}

int source_bpf_set_bio(struct source_bpf *src, bool on)
{
	int err;

	if (!on) {
		detach(src, BIO_FIRST);
		detach(src, BIO_FIRST + 1);
		return 0;
	}
	err = attach(src, BIO_FIRST);
	if (!err)
		err = attach(src, BIO_FIRST + 1);
	if (err) {
		detach(src, BIO_FIRST);
		detach(src, BIO_FIRST + 1);
	}
	return err;
}

void source_bpf_close(struct source_bpf *src)
{
	if (!src)
		return;
	bpf_loaded_close(src->obj);
	trace_topology_free(&src->topo);
	free(src->vals);
	free(src->vals2);
	free(src->keys);
	free(src->used);
	free(src->dead);
	free(src->own);
	free(src->seen);
	if (src->claims)
		munmap((void *)src->claims, src->claims_len);
	free(src);
}

/* The disk a slot holds: that of its CPU value with the newest diskseq
 * (a CPU still holding a gone disk's counters has not completed anything
 * since the id was reused). 0 when no CPU has claimed it. */
static uint32_t slot_owner(const struct blktune_dev_cpu *v, unsigned ncpu, uint64_t *seq)
{
	uint32_t dev = 0;

	*seq = 0;
	for (unsigned c = 0; c < ncpu; c++)
		if (v[c].dev && (!dev || v[c].seq > *seq)) {
			dev = (uint32_t)v[c].dev;
			*seq = v[c].seq;
		}
	return dev;
}

/* By key, the newest disk first. */
static int use_cmp(const void *a, const void *b)
{
	const struct slot_use *x = a, *y = b;
	int c = trace_key_cmp(&x->key, &y->key);

	return c ? c : (x->seq < y->seq) - (x->seq > y->seq);
}

static int claim_count(const struct source_bpf *src, uint32_t i, uint64_t *n)
{
	if (src->claims) {
		*n = src->claims[i];
		return 0;
	}
	return bpf_map_lookup_elem(src->claims_fd, &i, n) ? -errno : 0;
}

/* Which slots hold a disk, only when the programs claimed one since the
 * last walk: a slot's values are looked up only when its claim count
 * moved (the programs write the owner before the count), the rest keep
 * the owner read before. */
static int walk_slots(struct source_bpf *src)
{
	src->nused = 0;
	for (uint32_t i = 0; i < src->nslots; i++) {
		struct slot_use *u = &src->used[src->nused];
		uint64_t seq, n;
		uint32_t dev;
		int err = claim_count(src, i, &n);

		if (err)
			return err;
		if (n != src->seen[i]) {
			if (bpf_map_lookup_elem(src->slots_fd, &i, src->vals))
				return -errno;
			src->own[i].key.dev = slot_owner(src->vals, src->ncpu, &src->own[i].seq);
			src->seen[i] = n;
		}
		dev = src->own[i].key.dev;
		seq = src->own[i].seq;
		if (!dev || (src->dead[i].key.dev == dev && src->dead[i].seq == seq))
			continue;
		src->dead[i].key.dev = 0;
		u->key.dev = dev;
		u->key.path = BLKTUNE_PATH_RQ;
		u->slot = i;
		u->seq = seq;
		src->nused++;
	}
	qsort(src->used, src->nused, sizeof(*src->used), use_cmp);
	/* One slot per dev_t: a removed disk's queue id may still hold its
	 * counters when a new disk with the same dev_t got another id. */
	for (size_t i = 1, k = src->nused ? 1 : 0; i <= src->nused; i++) {
		if (i == src->nused) {
			src->nused = k;
			break;
		}
		if (trace_key_cmp(&src->used[i].key, &src->used[k - 1].key))
			src->used[k++] = src->used[i];
	}
	return 0;
}

/* Read slot u into v; CPU values holding another disk (the id's previous
 * queue, or a claim since the walk) count as nothing. Returns the newest
 * diskseq among the rest. */
static int read_slot(struct source_bpf *src, const struct slot_use *u, struct blktune_dev_cpu *v, uint64_t *seq)
{
	if (bpf_map_lookup_elem(src->slots_fd, &u->slot, v))
		return -errno;
	*seq = 0;
	for (unsigned c = 0; c < src->ncpu; c++) {
		if (v[c].dev != u->key.dev)
			memset(&v[c], 0, sizeof(v[c]));
		else if (v[c].seq > *seq)
			*seq = v[c].seq;
	}
	return 0;
}

static uint64_t newest_seq(const struct blktune_dev_cpu *v, unsigned ncpu)
{
	uint64_t seq = 0;

	for (unsigned c = 0; c < ncpu; c++)
		if (v[c].seq > seq)
			seq = v[c].seq;
	return seq;
}

int source_bpf_read(struct source_bpf *src, struct trace_sample *out)
{
	struct source_bpf_prog_stat st[SOURCE_BPF_PROGS];
	int fd = src->devs_fd;
	struct blktune_global *g = (struct blktune_global *)src->vals;
	uint64_t new_devs = 0;
	__u32 zero = 0;
	int err;

	trace_sample_reset(out, src->ncpu);
	/* vals is big enough for ncpu blktune_global values too. */
	if (bpf_map_lookup_elem(src->globals_fd, &zero, g) == 0)
		for (unsigned c = 0; c < src->ncpu; c++) {
			out->map_full += g[c].map_full;
			new_devs += g[c].new_devs;
		}
	/* Walking the keys scans every bucket of the map: only when the
	 * programs added a device since the last walk (or on the first read).
	 * A device added after the globals were read is found next time. */
	if (!src->keys_valid || new_devs != src->new_devs) {
		err = bpf_env_map_keys(fd, sizeof(*src->keys), (void **)&src->keys, &src->nkeys, &src->cap_keys,
				       BLKTUNE_MAX_DEVS);
		if (!err)
			err = walk_slots(src);
		if (err)
			return err;
		qsort(src->keys, src->nkeys, sizeof(*src->keys), trace_key_cmp);
		src->new_devs = new_devs;
		src->keys_valid = true;
		src->walked = true;
	}
	/* Merge the two sorted lists. A dev_t in both (its old disk in one,
	 * the new one in the other: a queue id and a dev_t are reused
	 * independently) is the disk with the newer diskseq. */
	for (size_t i = 0, j = 0; i < src->nkeys || j < src->nused;) {
		const struct blktune_key *key;
		uint64_t seq = 0, seq2;
		bool hashed = false;
		int c = i == src->nkeys ? 1 : j == src->nused ? -1 : trace_key_cmp(&src->keys[i], &src->used[j].key);

		if (c <= 0) {
			key = &src->keys[i++];
			if (bpf_map_lookup_elem(fd, key, src->vals)) {
				if (errno != ENOENT) /* else deleted since the walk */
					return -errno;
				if (c < 0)
					continue;
			} else {
				seq = newest_seq(src->vals, src->ncpu);
				hashed = true;
			}
		}
		if (c >= 0) {
			key = &src->used[j].key;
			err = read_slot(src, &src->used[j++], c ? src->vals : src->vals2, c ? &seq : &seq2);
			if (err)
				return err;
			if (!c && (seq2 > seq || !hashed))
				memcpy(src->vals, src->vals2, src->ncpu * sizeof(*src->vals));
		}
		err = trace_sample_add(out, key, src->vals);
		if (err)
			return err;
	}
	/* Each read: the JSON's per-interval runs_skipped_new must count this
	 * interval's (one syscall a program, about a microsecond each). A
	 * failed read carries the last figure. */
	if (source_bpf_prog_stats(src, st) == 0) {
		src->missed = 0;
		for (int i = 0; i < SOURCE_BPF_PROGS; i++)
			src->missed += st[i].recursion_misses;
	}
	out->missed = src->missed;
	return 0;
}

static int dev_cmp(const void *a, const void *b)
{
	dev_t x = *(const dev_t *)a, y = *(const dev_t *)b;

	return x < y ? -1 : x > y;
}

int source_bpf_prune(struct source_bpf *src, const struct root *r, const dev_t *live, size_t nlive)
{
	int fd = src->devs_fd;
	size_t kept = 0;
	int gone = 0;

	for (size_t i = 0; i < src->nkeys; i++) {
		dev_t dev = trace_dev_from_kernel(src->keys[i].dev);
		char path[64];

		/* Not in diskstats: gone, or a disk diskstats hides (an NVMe
		 * multipath path device), which sysfs still has. */
		if (bsearch(&dev, live, nlive, sizeof(*live), dev_cmp)) {
			src->keys[kept++] = src->keys[i];
			continue;
		}
		snprintf(path, sizeof(path), "sys/dev/block/%u:%u", major(dev), minor(dev));
		if (root_exists(r, path)) {
			src->keys[kept++] = src->keys[i];
			continue;
		}
		if (bpf_map_delete_elem(fd, &src->keys[i]) && errno != ENOENT) {
			src->keys[kept++] = src->keys[i];
			continue;
		}
		gone++;
	}
	src->nkeys = kept;
	/* A slot cannot be deleted: the disk it held is remembered and the
	 * slot skipped until a CPU claims it for another. */
	kept = 0;
	for (size_t i = 0; i < src->nused; i++) {
		struct slot_use *u = &src->used[i];
		dev_t dev = trace_dev_from_kernel(u->key.dev);
		char path[64];

		snprintf(path, sizeof(path), "sys/dev/block/%u:%u", major(dev), minor(dev));
		if (bsearch(&dev, live, nlive, sizeof(*live), dev_cmp) || root_exists(r, path)) {
			src->used[kept++] = *u;
			continue;
		}
		src->dead[u->slot] = *u;
		gone++;
	}
	src->nused = kept;
	return gone;
}

bool source_bpf_keys_changed(struct source_bpf *src)
{
	bool w = src->walked;

	src->walked = false;
	return w;
}

const struct trace_topology *source_bpf_topology(const struct source_bpf *src)
{
	return &src->topo;
}

bool source_bpf_bio_traced(const struct source_bpf *src)
{
	return attached(src, BIO_FIRST) && attached(src, BIO_FIRST + 1);
}

int source_bpf_prog_stats(const struct source_bpf *src, struct source_bpf_prog_stat out[SOURCE_BPF_PROGS])
{
	for (int i = 0; i < SOURCE_BPF_PROGS; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&out[i], 0, sizeof(out[i]));
		out[i].name = prog_names[i];
		out[i].attached = attached(src, i);
		if (!out[i].attached)
			continue;
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_loaded_prog_fd(src->obj, (size_t)src->prog[i]), &info, &len))
			return -errno;
		out[i].run_cnt = info.run_cnt;
		out[i].run_time_ns = info.run_time_ns;
		out[i].recursion_misses = info.recursion_misses;
	}
	return 0;
}
