#include "source-cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "cgroup-stat.h"

#define BUF_START (16 * 1024)
#define BUF_MAX (4 * 1024 * 1024)
/* Devices one cgroup may list. */
#define DEVS_MAX 1024

/* The v2 hierarchy: /sys/fs/cgroup itself, or the hybrid "unified" mount. */
static const char *const v2_mounts[] = { "sys/fs/cgroup", "sys/fs/cgroup/unified" };
static const char v1_mount[] = "sys/fs/cgroup/blkio";

/* One v1 counter: its two files. */
static const struct {
	enum cgroup_counter counter;
	const char *bytes, *ios;
} v1_files[] = {
	{ CGROUP_COUNTER_THROTTLE, "blkio.throttle.io_service_bytes_recursive", "blkio.throttle.io_serviced_recursive" },
	{ CGROUP_COUNTER_BFQ, "blkio.bfq.io_service_bytes_recursive", "blkio.bfq.io_serviced_recursive" },
};
#define V1_COUNTERS (sizeof(v1_files) / sizeof(v1_files[0]))

struct source_cgroup {
	const struct root *root;
	int version;
	char mount[64];
	char why[160];
	char *buf;
	size_t cap;
	struct cgroup_stat_dev *devs[V1_COUNTERS];
	size_t ndevs[V1_COUNTERS];
	/* v1: the counters the root cgroup has lines of. A policy keeps
	 * counters for a device in every cgroup or in none, the root always
	 * among them: a counter the root lacks is not read below it (a
	 * hundred cgroups cost half the reads where bfq is not in use). */
	bool active[V1_COUNTERS];
	/* the walk's stack of directories still to visit */
	struct pending {
		char path[CGROUP_PATH_MAX];
		uint64_t id;
		int depth;
	} *stack;
	size_t nstack, stackcap;
};

static void find_hierarchy(struct source_cgroup *src)
{
	char path[128], text[512];

	for (size_t i = 0; i < sizeof(v2_mounts) / sizeof(v2_mounts[0]); i++) {
		snprintf(path, sizeof(path), "%s/cgroup.controllers", v2_mounts[i]);
		if (root_read(src->root, path, text, sizeof(text)) >= 0 && cgroup_stat_controller(text, "io")) {
			src->version = 2;
			snprintf(src->mount, sizeof(src->mount), "%s", v2_mounts[i]);
			return;
		}
	}
	snprintf(path, sizeof(path), "%s/%s", v1_mount, v1_files[0].bytes);
	if (root_exists(src->root, path)) {
		src->version = 1;
		snprintf(src->mount, sizeof(src->mount), "%s", v1_mount);
		return;
	}
	snprintf(src->why, sizeof(src->why), "no cgroup v2 io controller and no v1 blkio hierarchy under %s",
		 "sys/fs/cgroup");
}

int source_cgroup_open(const struct root *r, struct source_cgroup **out)
{
	struct source_cgroup *src = calloc(1, sizeof(*src));

	if (!src)
		return -ENOMEM;
	src->root = r;
	src->cap = BUF_START;
	src->buf = malloc(src->cap);
	for (size_t i = 0; i < V1_COUNTERS; i++)
		src->devs[i] = calloc(DEVS_MAX, sizeof(*src->devs[i]));
	if (!src->buf || !src->devs[0] || !src->devs[1]) {
		source_cgroup_close(src);
		return -ENOMEM;
	}
	find_hierarchy(src);
	*out = src;
	return 0;
}

void source_cgroup_close(struct source_cgroup *src)
{
	if (!src)
		return;
	for (size_t i = 0; i < V1_COUNTERS; i++)
		free(src->devs[i]);
	free(src->buf);
	free(src->stack);
	free(src);
}

/* Read dir/file whole into src->buf, growing it for a file past one buffer.
 * Returns the length or -errno. */
static ssize_t read_whole(struct source_cgroup *src, const char *dir, const char *file)
{
	char path[CGROUP_PATH_MAX + 160];

	snprintf(path, sizeof(path), "%s%s/%s", src->mount, dir, file);
	return root_read_all(src->root, path, &src->buf, &src->cap, BUF_MAX);
}

/* One v1 counter's two files into devs[c]; a missing file is no device. */
static int read_v1_counter(struct source_cgroup *src, const char *dir, size_t c, unsigned *bad)
{
	src->ndevs[c] = 0;
	if (!src->active[c] || read_whole(src, dir, v1_files[c].bytes) < 0)
		return 0;
	if (cgroup_stat_parse_v1(src->buf, CGROUP_STAT_BYTES, src->devs[c], &src->ndevs[c], DEVS_MAX, bad) < 0)
		return -E2BIG;
	if (!src->ndevs[c])
		return 0;
	if (read_whole(src, dir, v1_files[c].ios) < 0) {
		src->ndevs[c] = 0; /* bytes without I/Os: not a figure to show */
		return 0;
	}
	return cgroup_stat_parse_v1(src->buf, CGROUP_STAT_IOS, src->devs[c], &src->ndevs[c], DEVS_MAX, bad);
}

static int add_dev(struct cgroup_sample *out, const struct cgroup_stat_dev *d, enum cgroup_counter counter)
{
	struct cgroup_io *io = cgroup_sample_add_io(out, makedev(d->major, d->minor), counter);

	if (!io)
		return -ENOMEM;
	io->rbytes = d->rbytes;
	io->wbytes = d->wbytes;
	io->dbytes = d->dbytes;
	io->rios = d->rios;
	io->wios = d->wios;
	io->dios = d->dios;
	return 0;
}

/* A v1 cgroup's devices: throttle's counters where it keeps them, else
 * bfq's (throttle counts bios as fio or dd submit them, bfq requests). */
static int read_v1(struct source_cgroup *src, const char *dir, struct cgroup_sample *out)
{
	int err;

	for (size_t c = 0; c < V1_COUNTERS; c++)
		if (read_v1_counter(src, dir, c, &out->bad_lines) == -E2BIG)
			out->bad_lines++;
	for (size_t c = 0; c < V1_COUNTERS; c++)
		for (size_t i = 0; i < src->ndevs[c]; i++) {
			const struct cgroup_stat_dev *d = &src->devs[c][i];
			if (c > 0 && cgroup_stat_find(src->devs[0], src->ndevs[0], d->major, d->minor))
				continue;
			if ((err = add_dev(out, d, v1_files[c].counter)) < 0)
				return err;
		}
	return 0;
}

static int read_v2(struct source_cgroup *src, const char *dir, struct cgroup_sample *out)
{
	int err;

	src->ndevs[0] = 0;
	if (read_whole(src, dir, "io.stat") < 0)
		return 0; /* the io controller is not enabled for this cgroup */
	if (cgroup_stat_parse_v2(src->buf, src->devs[0], &src->ndevs[0], DEVS_MAX, &out->bad_lines) < 0)
		out->bad_lines++;
	for (size_t i = 0; i < src->ndevs[0]; i++)
		if ((err = add_dev(out, &src->devs[0][i], CGROUP_COUNTER_V2)) < 0)
			return err;
	return 0;
}

static int push(struct source_cgroup *src, const char *path, uint64_t id, int depth)
{
	if (src->nstack == src->stackcap) {
		size_t cap = src->stackcap ? src->stackcap * 2 : 64;
		struct pending *s = realloc(src->stack, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		src->stack = s;
		src->stackcap = cap;
	}
	snprintf(src->stack[src->nstack].path, CGROUP_PATH_MAX, "%s", path);
	src->stack[src->nstack].id = id;
	src->stack[src->nstack++].depth = depth;
	return 0;
}

static int cmp_pending(const void *a, const void *b)
{
	/* pushed in reverse, so the stack pops them by name */
	return strcmp(((const struct pending *)b)->path, ((const struct pending *)a)->path);
}

/* Push the subdirectories of path (the cgroup's children). */
static int push_children(struct source_cgroup *src, const char *path, int depth)
{
	char dir[CGROUP_PATH_MAX + 64], child[CGROUP_PATH_MAX];
	size_t first = src->nstack;
	struct dirent *de;
	DIR *d;
	int err = 0;

	snprintf(dir, sizeof(dir), "%s%s", src->mount, strcmp(path, "/") ? path : "");
	if (!(d = root_opendir(src->root, dir)))
		return 0; /* removed meanwhile */
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		if (strlen(path) + 1 + strlen(de->d_name) >= CGROUP_PATH_MAX)
			continue;
		snprintf(child, sizeof(child), "%s/%s", strcmp(path, "/") ? path : "", de->d_name);
		if ((err = push(src, child, de->d_ino, depth + 1)) < 0)
			break;
	}
	closedir(d);
	if (src->nstack - first > 1)
		qsort(&src->stack[first], src->nstack - first, sizeof(src->stack[0]), cmp_pending);
	return err;
}

/* The hierarchy root's id: the inode of its directory (1 on kernfs). */
static uint64_t root_id(const struct source_cgroup *src)
{
	struct stat st;
	int fd = root_openat(src->root, src->mount, O_PATH | O_DIRECTORY);
	uint64_t id = 0;

	if (fd >= 0) {
		if (fstat(fd, &st) == 0)
			id = st.st_ino;
		close(fd);
	}
	return id;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int source_cgroup_read(struct source_cgroup *src, struct cgroup_sample *out)
{
	double t0 = now();
	int err = 0;

	cgroup_sample_reset(out);
	out->version = src->version;
	snprintf(out->mount, sizeof(out->mount), "%s", src->mount);
	if (!src->version) {
		snprintf(out->why, sizeof(out->why), "%s", src->why);
		return 0;
	}
	src->nstack = 0;
	for (size_t c = 0; c < V1_COUNTERS; c++)
		src->active[c] = true;
	if ((err = push(src, "/", root_id(src), 0)) < 0)
		return err;
	while (src->nstack) {
		struct pending p = src->stack[--src->nstack];
		struct cgroup_group *g;

		if (out->ngroups >= SOURCE_CGROUP_MAX) {
			out->skipped++;
			continue;
		}
		if (!(g = cgroup_sample_add_group(out, p.id, p.path, p.depth)))
			return -ENOMEM;
		err = src->version == 2 ? read_v2(src, strcmp(p.path, "/") ? p.path : "", out)
					: read_v1(src, strcmp(p.path, "/") ? p.path : "", out);
		if (err < 0)
			return err;
		if (p.depth == 0)
			for (size_t c = 0; c < V1_COUNTERS; c++)
				src->active[c] = src->ndevs[c] > 0;
		if (p.depth < SOURCE_CGROUP_DEPTH && (err = push_children(src, p.path, p.depth)) < 0)
			return err;
	}
	out->valid = true;
	out->t = (t0 + now()) / 2;
	return 0;
}
