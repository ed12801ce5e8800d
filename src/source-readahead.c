#include "source-readahead.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "bpf-env.h"
#include "bpf-loader.h"
#include "readahead.skel.h"

/* A block device's identity when first counted: a new device with the same
 * number (a loop device detached and attached again) is another device. */
struct ra_seen {
	__u32 kdev;
	unsigned long long diskseq; /* 0: none (no such file on this kernel) */
};

struct source_ra {
	struct bpf_loaded *obj;
	int devs_fd, blocks_fd;
	struct root *root;
	unsigned ncpu;          /* possible CPUs: the per-CPU map's value count */
	unsigned page_size;
	struct ra_dev_cpu *vals;
	__u32 *keys;
	size_t nkeys, cap_keys;
	struct ra_seen *seen;   /* sorted by kdev */
	size_t nseen, cap_seen;
	char *mounts;           /* proc/self/mountinfo, read once per refresh */
	size_t mounts_size;
	int mounts_state;       /* 0 not read this refresh, 1 read, -1 unknown */
};

/* Every tracepoint the accounting needs: without one of them the identity
 * hit + mapped + waste + unread = pages cannot hold, so all are required. */
static const char *const tracepoints[] = {
	"page_cache_sync_ra", "page_cache_async_ra", "page_cache_ra_unbounded",
	"page_cache_ra_order", "mm_filemap_add_to_page_cache", "mm_filemap_get_pages",
	"mm_filemap_map_pages", "mm_filemap_fault", "mm_filemap_delete_from_page_cache",
	"sched_process_exit",
};
#define NTP (sizeof(tracepoints) / sizeof(tracepoints[0]))

/* Run in the helper (bpf-loader). The tracepoints are probed in the
 * kernel's BTF (btf_trace_<name>), never guessed from its version. */
int source_ra_helper_load(void **handle, struct bpf_object **obj, char *why, size_t whylen)
{
	struct readahead *skel;
	unsigned shift = 0, page_size = (unsigned)sysconf(_SC_PAGESIZE);
	int err;

	*handle = NULL;
	for (size_t i = 0; i < NTP; i++)
		if (libbpf_find_vmlinux_btf_id(tracepoints[i], BPF_TRACE_RAW_TP) < 0) {
			snprintf(why, whylen, "kernel lacks the readahead tracepoints (no %s)", tracepoints[i]);
			return -ENOTSUP;
		}
	skel = readahead__open();
	*handle = skel;
	if (!skel) {
		err = -errno;
		snprintf(why, whylen, "cannot open the BPF object: %s", strerror(-err));
		return err;
	}
	while ((1U << shift) < page_size)
		shift++;
	skel->rodata->page_shift = shift;
	/* A page table holds page_size / 8 entries. */
	skel->rodata->pmd_shift = shift + shift - 3;
	/* Where a user fault was (x86 only): without it a fault that
	 * fault-around serves cannot tell which page the process touched, and
	 * its pages count as mapped. */
	if (libbpf_find_vmlinux_btf_id("page_fault_user", BPF_TRACE_RAW_TP) < 0)
		bpf_program__set_autoload(skel->progs.fault_user, false);
	err = readahead__load(skel);
	if (err) {
		bpf_env_load_error(err, why, whylen);
		return err;
	}
	*obj = skel->obj;
	return 0;
}

void source_ra_helper_free(void *handle)
{
	readahead__destroy(handle);
}

int source_ra_open(struct source_ra **out, char *why, size_t whylen)
{
	struct source_ra *src;
	int err, n;

	*out = NULL;
	if (whylen)
		why[0] = '\0';
	src = calloc(1, sizeof(*src));
	if (!src)
		return -ENOMEM;
	err = root_open("/", &src->root);
	if (err) {
		snprintf(why, whylen, "cannot open /: %s", strerror(-err));
		free(src);
		return err;
	}
	err = bpf_env_check(src->root, why, whylen);
	n = libbpf_num_possible_cpus();
	if (!err && n <= 0) {
		err = n ? n : -EINVAL;
		snprintf(why, whylen, "cannot count possible CPUs: %s", strerror(-err));
	}
	if (!err) {
		src->ncpu = (unsigned)n;
		src->page_size = (unsigned)sysconf(_SC_PAGESIZE);
		src->vals = calloc((size_t)n, sizeof(*src->vals));
		err = src->vals ? bpf_loader_open("readahead", NULL, &src->obj, why, whylen) : -ENOMEM;
	}
	if (!err) {
		src->devs_fd = bpf_loaded_map_fd(src->obj, "ra_devs");
		src->blocks_fd = bpf_loaded_map_fd(src->obj, "ra_blocks");
		if (src->devs_fd < 0 || src->blocks_fd < 0) {
			snprintf(why, whylen, "the BPF object has no map ra_devs or ra_blocks");
			err = -ENOENT;
		}
	}
	if (err) {
		source_ra_close(src);
		return err;
	}
	*out = src;
	return 0;
}

void source_ra_close(struct source_ra *src)
{
	if (!src)
		return;
	bpf_loaded_close(src->obj);
	root_close(src->root);
	free(src->vals);
	free(src->keys);
	free(src->seen);
	free(src->mounts);
	free(src);
}

static dev_t dev_from_kernel(__u32 kdev)
{
	return makedev(kdev >> 20, kdev & 0xfffff);
}

int source_ra_disk_of(const struct root *r, dev_t dev, dev_t *disk)
{
	char path[96], link[512], buf[32], *slash, *name;
	unsigned maj, min;
	ssize_t n;

	*disk = 0;
	snprintf(path, sizeof(path), "sys/dev/block/%u:%u", major(dev), minor(dev));
	n = root_readlink(r, path, link, sizeof(link));
	if (n < 0)
		return n == -ENOENT ? 0 : (int)n;
	snprintf(path, sizeof(path), "sys/dev/block/%u:%u/partition", major(dev), minor(dev));
	if (!root_exists(r, path)) {
		*disk = dev;
		return 0;
	}
	/* .../block/sda/sda1: the partition's parent directory is its disk. */
	slash = strrchr(link, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	slash = strrchr(link, '/');
	name = slash ? slash + 1 : link;
	if (!*name || !strcmp(name, "..") || !strcmp(name, "."))
		return -EINVAL;
	snprintf(path, sizeof(path), "sys/block/%s/dev", name);
	n = root_read(r, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if (sscanf(buf, "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	*disk = makedev(maj, min);
	return 0;
}

/* Whether anonymous device dev (major 0: tmpfs, overlay, btrfs...) is
 * still mounted in this mount namespace. Unsure (unreadable, too long) counts
 * as mounted: state is freed only for what is surely gone. */
static bool anon_mounted(struct source_ra *src, dev_t dev)
{
	char want[32];
	size_t wl;

	if (src->mounts_state == 0) {
		ssize_t n;

		if (!src->mounts) {
			src->mounts_size = 1 << 16;
			src->mounts = malloc(src->mounts_size);
		}
		n = src->mounts ? root_read(src->root, "proc/self/mountinfo", src->mounts, src->mounts_size) : -ENOMEM;
		src->mounts_state = n < 0 || (size_t)n >= src->mounts_size - 1 ? -1 : 1;
	}
	if (src->mounts_state < 0)
		return true;
	/* "ID PARENT MAJ:MIN ..." */
	wl = (size_t)snprintf(want, sizeof(want), " %u:%u ", major(dev), minor(dev));
	for (const char *l = src->mounts; *l;) {
		const char *sp = strchr(l, ' '), *nl = strchr(l, '\n');

		sp = sp ? strchr(sp + 1, ' ') : NULL;
		if (sp && (!nl || sp < nl) && !strncmp(sp, want, wl))
			return true;
		if (!nl)
			break;
		l = nl + 1;
	}
	return false;
}

static struct ra_seen *seen_find(struct source_ra *src, __u32 kdev, size_t *at)
{
	size_t lo = 0, hi = src->nseen;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (src->seen[mid].kdev < kdev)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < src->nseen && src->seen[lo].kdev == kdev ? &src->seen[lo] : NULL;
}

/* Whether the filesystem device kdev is gone: an anonymous one unmounted, a
 * block device removed or replaced by another with the same number (its
 * diskseq changed). */
static bool dev_gone(struct source_ra *src, __u32 kdev)
{
	dev_t dev = dev_from_kernel(kdev);
	unsigned long long seq = 0;
	char path[96];
	struct ra_seen *e;
	size_t at;

	if (major(dev) == 0)
		return !anon_mounted(src, dev);
	snprintf(path, sizeof(path), "sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!root_exists(src->root, path))
		return true;
	snprintf(path, sizeof(path), "sys/dev/block/%u:%u/diskseq", major(dev), minor(dev));
	if (root_read_u64(src->root, path, &seq))
		seq = 0;
	e = seen_find(src, kdev, &at);
	if (e)
		return e->diskseq != seq;
	if (src->nseen == src->cap_seen) {
		size_t c = src->cap_seen ? src->cap_seen * 2 : 16;
		void *p = realloc(src->seen, c * sizeof(*src->seen));

		if (!p)
			return false;
		src->seen = p;
		src->cap_seen = c;
	}
	memmove(&src->seen[at + 1], &src->seen[at], (src->nseen - at) * sizeof(*src->seen));
	src->seen[at] = (struct ra_seen){ .kdev = kdev, .diskseq = seq };
	src->nseen++;
	return false;
}

/* Free everything the kernel side keeps for device kdev: its counters and
 * any page state left (pages it had no room to forget, a device that went
 * with pages cached). */
static int forget(struct source_ra *src, __u32 kdev)
{
	int bfd = src->blocks_fd;
	struct ra_block_key key, next;
	void *prev = NULL;
	size_t at;

	if (bpf_map_delete_elem(src->devs_fd, &kdev) && errno != ENOENT)
		return -errno;
	if (seen_find(src, kdev, &at)) {
		memmove(&src->seen[at], &src->seen[at + 1], (src->nseen - at - 1) * sizeof(*src->seen));
		src->nseen--;
	}
	for (;;) {
		if (bpf_map_get_next_key(bfd, prev, &next))
			return errno == ENOENT ? 0 : -errno;
		if (next.dev == kdev) {
			/* Deleted: the walk goes on from the key before it. */
			bpf_map_delete_elem(bfd, &next);
			continue;
		}
		key = next;
		prev = &key;
	}
}

int source_ra_read(struct source_ra *src, struct ra_sample *out)
{
	int fd = src->devs_fd;
	struct timespec ts;
	int err;

	err = bpf_env_map_keys(fd, sizeof(*src->keys), (void **)&src->keys, &src->nkeys, &src->cap_keys, RA_MAX_DEVS);
	if (err)
		return err;
	src->mounts_state = 0;
	ra_sample_reset(out);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	out->t_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	out->page_size = src->page_size;
	for (size_t i = 0; i < src->nkeys; i++) {
		dev_t dev = dev_from_kernel(src->keys[i]), disk;
		struct ra_counts c;

		if (dev_gone(src, src->keys[i])) {
			err = forget(src, src->keys[i]);
			if (err)
				return err;
			continue;
		}
		if (bpf_map_lookup_elem(fd, &src->keys[i], src->vals))
			return -errno;
		ra_counts_from_cpus(&c, src->vals, src->ncpu);
		/* A device that vanished since still has its own entry. */
		if (source_ra_disk_of(src->root, dev, &disk))
			disk = 0;
		err = ra_sample_add(out, dev, disk, &c);
		if (err)
			return err;
	}
	return 0;
}

int source_ra_live_pages(struct source_ra *src, dev_t dev, uint64_t *pages)
{
	int fd = src->blocks_fd;
	struct ra_block_key key, next;
	struct ra_block v;
	void *prev = NULL;
	uint64_t n = 0;

	for (;;) {
		if (bpf_map_get_next_key(fd, prev, &next)) {
			if (errno != ENOENT)
				return -errno;
			break;
		}
		key = next;
		prev = &key;
		/* An entry deleted during the walk may restart it (the kernel
		 * starts over when prev is gone): exact only while idle. */
		if (dev_from_kernel(key.dev) == dev && bpf_map_lookup_elem(fd, &key, &v) == 0)
			n += ra_popcount(v.bits);
	}
	*pages = n;
	return 0;
}

int source_ra_has(struct source_ra *src, dev_t dev)
{
	__u32 kdev = (major(dev) << 20) | minor(dev);

	if (bpf_map_lookup_elem(src->devs_fd, &kdev, src->vals) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

int source_ra_stats(const struct source_ra *src, const char *name, struct source_ra_stat *out)
{
	int found = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < bpf_loaded_nprogs(src->obj); i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		if (name && strcmp(bpf_loaded_prog_name(src->obj, i), name))
			continue;
		found = 1;
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_loaded_prog_fd(src->obj, i), &info, &len))
			return -errno;
		out->run_cnt += info.run_cnt;
		out->run_time_ns += info.run_time_ns;
		out->recursion_misses += info.recursion_misses;
	}
	return found ? 0 : -ENOENT;
}
