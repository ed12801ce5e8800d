#include "sweep-cgroup.h"

#include "cgroup-stat.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define V1_BLKIO "sys/fs/cgroup/blkio"
#define V1_CPUACCT "sys/fs/cgroup/cpuacct"
/* Devices one stat file may list before the sweep's device is missed. */
#define SWEEP_CGROUP_DEVS 64

/* The v2 hierarchy: /sys/fs/cgroup itself, or the hybrid "unified" mount. */
static const char *const v2_roots[] = { "sys/fs/cgroup", "sys/fs/cgroup/unified" };

static int make(const struct root *r, char *out, const char *base, const char *name)
{
	int err;

	snprintf(out, SWEEP_CGROUP_PATH_MAX, "%s/blktune-sweep-%s", base, name);
	err = root_mkdir(r, out, 0755);
	return err == -EEXIST ? 0 : err;
}

static int v2_create(const struct root *r, const char *name, struct sweep_cgroup *cg)
{
	char path[SWEEP_CGROUP_PATH_MAX], text[512];

	int err;

	for (size_t i = 0; i < sizeof(v2_roots) / sizeof(v2_roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", v2_roots[i]);
		if (root_read(r, path, text, sizeof(text)) < 0 || !cgroup_stat_controller(text, "io"))
			continue;
		if ((err = make(r, cg->io, v2_roots[i], name)) < 0) {
			cg->io[0] = '\0';
			return err;
		}
		cg->version = 2;
		snprintf(cg->cpu, sizeof(cg->cpu), "%s", cg->io); /* cpu.stat is always there */
		return 0;
	}
	return -ENOENT;
}

int sweep_cgroup_create(const struct root *r, const char *name, unsigned major, unsigned minor,
			struct sweep_cgroup *cg, char *msg, size_t len)
{
	char rule[64], path[SWEEP_CGROUP_PATH_MAX + 40];
	int err;

	memset(cg, 0, sizeof(*cg));
	cg->major = major;
	cg->minor = minor;
	if (v2_create(r, name, cg) == 0)
		return 0;
	if (!root_exists(r, V1_BLKIO "/blkio.throttle.io_service_bytes")) {
		snprintf(msg, len, "no cgroup v2 io controller and no v1 blkio hierarchy");
		return -ENOENT;
	}
	if ((err = make(r, cg->io, V1_BLKIO, name)) < 0) {
		snprintf(msg, len, "%s: %s", cg->io, strerror(-err));
		cg->io[0] = '\0';
		return err;
	}
	cg->version = 1;
	/* A rule with no limit makes the throttle layer count this device. */
	snprintf(rule, sizeof(rule), "%u:%u %" PRIu64, major, minor, UINT64_MAX);
	snprintf(path, sizeof(path), "%s/blkio.throttle.read_bps_device", cg->io);
	if ((err = root_write(r, path, rule)) < 0) {
		snprintf(msg, len, "%s: %s", path, strerror(-err));
		sweep_cgroup_destroy(r, cg);
		return err;
	}
	if (root_exists(r, V1_CPUACCT "/cpuacct.usage_user") && make(r, cg->cpu, V1_CPUACCT, name) < 0)
		cg->cpu[0] = '\0';
	return 0;
}

static int attach_one(const struct root *r, const char *dir, pid_t pid)
{
	char path[SWEEP_CGROUP_PATH_MAX + 16], val[24];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(val, sizeof(val), "%d", (int)pid);
	return root_write(r, path, val);
}

int sweep_cgroup_attach(const struct root *r, const struct sweep_cgroup *cg, pid_t pid)
{
	int err;

	if (!cg->io[0])
		return -ENOENT;
	if ((err = attach_one(r, cg->io, pid)) < 0)
		return err;
	if (cg->cpu[0] && strcmp(cg->cpu, cg->io) && attach_one(r, cg->cpu, pid) < 0)
		return 0; /* CPU then comes from rusage; the I/O is what matters */
	return 0;
}

static int read_file(const struct root *r, const char *dir, const char *file, char *buf, size_t size)
{
	char path[SWEEP_CGROUP_PATH_MAX + 48];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	n = root_read(r, path, buf, size);
	return n < 0 ? (int)n : 0;
}

/* A device without a line has had no I/O from the cgroup yet: zero. */
static void copy_dev(const struct cgroup_stat_dev *devs, size_t n, const struct sweep_cgroup *cg,
		     struct sweep_cgroup_io *out)
{
	const struct cgroup_stat_dev *d = cgroup_stat_find(devs, n, cg->major, cg->minor);

	if (d) {
		out->rbytes = d->rbytes;
		out->wbytes = d->wbytes;
		out->rios = d->rios;
		out->wios = d->wios;
	}
	out->valid = true;
}

int sweep_cgroup_read_io(const struct root *r, const struct sweep_cgroup *cg, struct sweep_cgroup_io *out)
{
	struct cgroup_stat_dev devs[SWEEP_CGROUP_DEVS];
	char buf[8192];
	size_t n = 0;
	unsigned bad = 0;
	int err;

	memset(out, 0, sizeof(*out));
	if (!cg->io[0])
		return -ENOENT;
	if (cg->version == 2) {
		if ((err = read_file(r, cg->io, "io.stat", buf, sizeof(buf))) < 0)
			return err;
		cgroup_stat_parse_v2(buf, devs, &n, SWEEP_CGROUP_DEVS, &bad);
		copy_dev(devs, n, cg, out);
		return 0;
	}
	if ((err = read_file(r, cg->io, "blkio.throttle.io_service_bytes", buf, sizeof(buf))) < 0)
		return err;
	cgroup_stat_parse_v1(buf, CGROUP_STAT_BYTES, devs, &n, SWEEP_CGROUP_DEVS, &bad);
	if ((err = read_file(r, cg->io, "blkio.throttle.io_serviced", buf, sizeof(buf))) < 0)
		return err;
	cgroup_stat_parse_v1(buf, CGROUP_STAT_IOS, devs, &n, SWEEP_CGROUP_DEVS, &bad);
	copy_dev(devs, n, cg, out);
	return 0;
}

int sweep_cgroup_read_cpu(const struct root *r, const struct sweep_cgroup *cg, struct sweep_cgroup_cpu *out)
{
	char buf[4096];
	unsigned long long v;
	int err;

	memset(out, 0, sizeof(*out));
	if (!cg->cpu[0])
		return -ENOENT;
	if (cg->version == 2) {
		if ((err = read_file(r, cg->cpu, "cpu.stat", buf, sizeof(buf))) < 0)
			return err;
		if ((err = cgroup_stat_parse_cpu_v2(buf, &out->user_ns, &out->sys_ns)) < 0)
			return err;
		out->valid = true;
		return 0;
	}
	if ((err = read_file(r, cg->cpu, "cpuacct.usage_user", buf, sizeof(buf))) < 0 ||
	    sscanf(buf, "%llu", &v) != 1)
		return err < 0 ? err : -EINVAL;
	out->user_ns = v;
	if ((err = read_file(r, cg->cpu, "cpuacct.usage_sys", buf, sizeof(buf))) < 0 ||
	    sscanf(buf, "%llu", &v) != 1)
		return err < 0 ? err : -EINVAL;
	out->sys_ns = v;
	out->valid = true;
	return 0;
}

/* Kill what is left (a command that backgrounded something), then rmdir,
 * retrying while the dead tasks leave. */
static int remove_dir(const struct root *r, const char *dir)
{
	char buf[4096];
	int err = 0;

	for (int tries = 0; tries < 200; tries++) {
		if (read_file(r, dir, "cgroup.procs", buf, sizeof(buf)) == 0)
			for (char *p = buf, *e; *p; p = e) {
				long pid = strtol(p, &e, 10);
				if (e == p)
					break;
				if (pid > 0)
					kill((pid_t)pid, SIGKILL);
			}
		if ((err = root_rmdir(r, dir)) == 0 || err == -ENOENT)
			return 0;
		if (err != -EBUSY)
			return err;
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	return err;
}

int sweep_cgroup_destroy(const struct root *r, struct sweep_cgroup *cg)
{
	int err = 0, e;

	if (cg->cpu[0] && strcmp(cg->cpu, cg->io) && (e = remove_dir(r, cg->cpu)) < 0)
		err = e;
	if (cg->io[0] && (e = remove_dir(r, cg->io)) < 0 && !err)
		err = e;
	cg->io[0] = cg->cpu[0] = '\0';
	cg->version = 0;
	return err;
}
