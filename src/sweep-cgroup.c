#include "sweep-cgroup.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define V1_BLKIO "sys/fs/cgroup/blkio"
#define V1_CPUACCT "sys/fs/cgroup/cpuacct"

/* The v2 hierarchy: /sys/fs/cgroup itself, or the hybrid "unified" mount. */
static const char *const v2_roots[] = { "sys/fs/cgroup", "sys/fs/cgroup/unified" };

static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; (p = strstr(p, word)); p += n)
		if ((p == text || p[-1] == ' ' || p[-1] == '\n') && (!p[n] || p[n] == ' ' || p[n] == '\n'))
			return true;
	return false;
}

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
		if (root_read(r, path, text, sizeof(text)) < 0 || !has_word(text, "io"))
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

static const char *line_for(const char *text, unsigned major, unsigned minor, const char **end)
{
	char key[32];
	size_t n = (size_t)snprintf(key, sizeof(key), "%u:%u ", major, minor);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, n)) {
			*end = strchr(p, '\n');
			if (!*end)
				*end = p + strlen(p);
			return p + n;
		}
	return NULL;
}

int sweep_cgroup_parse_v1(const char *text, unsigned major, unsigned minor, uint64_t *read, uint64_t *write)
{
	bool any = false;
	const char *p = text, *end;

	*read = *write = 0;
	while (p && (p = line_for(p, major, minor, &end))) {
		unsigned long long v;
		char op[16];
		if (sscanf(p, "%15s %llu", op, &v) == 2) {
			if (!strcmp(op, "Read"))
				*read = v, any = true;
			else if (!strcmp(op, "Write"))
				*write = v, any = true;
		}
		p = *end ? end + 1 : NULL;
	}
	return any ? 0 : -ENOENT;
}

int sweep_cgroup_parse_v2(const char *text, unsigned major, unsigned minor, struct sweep_cgroup_io *out)
{
	const char *end, *p = line_for(text, major, minor, &end);
	static const struct { const char *key; size_t off; } keys[] = {
		{ "rbytes=", offsetof(struct sweep_cgroup_io, rbytes) },
		{ "wbytes=", offsetof(struct sweep_cgroup_io, wbytes) },
		{ "rios=", offsetof(struct sweep_cgroup_io, rios) },
		{ "wios=", offsetof(struct sweep_cgroup_io, wios) },
	};

	memset(out, 0, sizeof(*out));
	if (!p)
		return -ENOENT;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *q = p;
		size_t n = strlen(keys[k].key);
		while ((q = strstr(q, keys[k].key)) && q < end && q[-1] != ' ')
			q += n;
		if (q && q < end)
			*(uint64_t *)(void *)((char *)out + keys[k].off) = strtoull(q + n, NULL, 10);
	}
	out->valid = true;
	return 0;
}

int sweep_cgroup_parse_cpu_v2(const char *text, struct sweep_cgroup_cpu *out)
{
	const char *u = strstr(text, "user_usec "), *s = strstr(text, "system_usec ");

	memset(out, 0, sizeof(*out));
	if (!u || !s)
		return -ENOENT;
	out->user_ns = strtoull(u + 10, NULL, 10) * 1000;
	out->sys_ns = strtoull(s + 12, NULL, 10) * 1000;
	out->valid = true;
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

int sweep_cgroup_read_io(const struct root *r, const struct sweep_cgroup *cg, struct sweep_cgroup_io *out)
{
	char buf[8192];
	int err;

	memset(out, 0, sizeof(*out));
	if (!cg->io[0])
		return -ENOENT;
	if (cg->version == 2) {
		if ((err = read_file(r, cg->io, "io.stat", buf, sizeof(buf))) < 0)
			return err;
		if (sweep_cgroup_parse_v2(buf, cg->major, cg->minor, out) < 0)
			memset(out, 0, sizeof(*out)); /* no line: no I/O on it yet */
		out->valid = true;
		return 0;
	}
	if ((err = read_file(r, cg->io, "blkio.throttle.io_service_bytes", buf, sizeof(buf))) < 0)
		return err;
	sweep_cgroup_parse_v1(buf, cg->major, cg->minor, &out->rbytes, &out->wbytes);
	if ((err = read_file(r, cg->io, "blkio.throttle.io_serviced", buf, sizeof(buf))) < 0)
		return err;
	sweep_cgroup_parse_v1(buf, cg->major, cg->minor, &out->rios, &out->wios);
	out->valid = true;
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
		return sweep_cgroup_parse_cpu_v2(buf, out);
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
