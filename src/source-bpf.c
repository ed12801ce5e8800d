#include "source-bpf.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	uint64_t reads, missed;
	struct trace_topology topo;
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

/* Loaded in a helper process (bpf-loader): the bio programs are left
 * detached there, attached below when a bio-based disk exists. */
static int load(struct source_bpf *src, char *why, size_t whylen)
{
	int err = bpf_loader_open("blktune", prog_names + BIO_FIRST, &src->obj, why, whylen);

	if (err)
		return err;
	src->devs_fd = bpf_loaded_map_fd(src->obj, "devs");
	src->globals_fd = bpf_loaded_map_fd(src->obj, "globals");
	if (src->devs_fd < 0 || src->globals_fd < 0) {
		snprintf(why, whylen, "the BPF object has no map devs or globals");
		return -ENOENT;
	}
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
	if (!src || !(src->vals = calloc((size_t)n, sizeof(*src->vals)))) {
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
	free(src->keys);
	free(src);
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
		if (err)
			return err;
		qsort(src->keys, src->nkeys, sizeof(*src->keys), trace_key_cmp);
		src->new_devs = new_devs;
		src->keys_valid = true;
		src->walked = true;
	}
	for (size_t i = 0; i < src->nkeys; i++) {
		if (bpf_map_lookup_elem(fd, &src->keys[i], src->vals)) {
			if (errno == ENOENT) /* deleted since the walk */
				continue;
			return -errno;
		}
		err = trace_sample_add(out, &src->keys[i], src->vals);
		if (err)
			return err;
	}
	/* Recursion misses move seldom: two syscalls per program, so a few
	 * times a minute is enough; the figure is carried in between. */
	if (src->reads++ % 32 == 0 && source_bpf_prog_stats(src, st) == 0) {
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
