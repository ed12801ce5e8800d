#include "cgroup-stat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const struct cgroup_stat_dev *cgroup_stat_find(const struct cgroup_stat_dev *devs, size_t n, unsigned major,
					       unsigned minor)
{
	for (size_t i = 0; i < n; i++)
		if (devs[i].major == major && devs[i].minor == minor)
			return &devs[i];
	return NULL;
}

/* The entry for major:minor, appended (zeroed) when new; NULL when full. */
static struct cgroup_stat_dev *slot(struct cgroup_stat_dev *devs, size_t *n, size_t max, unsigned major,
				    unsigned minor)
{
	struct cgroup_stat_dev *d = (struct cgroup_stat_dev *)cgroup_stat_find(devs, *n, major, minor);

	if (d || *n >= max)
		return d;
	d = &devs[(*n)++];
	memset(d, 0, sizeof(*d));
	d->major = major;
	d->minor = minor;
	return d;
}

/* A decimal number that ends at a space, newline or the end. */
static bool number(const char *p, const char **end, uint64_t *v)
{
	char *e;

	if (*p < '0' || *p > '9')
		return false;
	errno = 0;
	*v = strtoull(p, &e, 10);
	if (errno || (*e && *e != ' ' && *e != '\n'))
		return false;
	*end = e;
	return true;
}

/* "MAJ:MIN" followed by a space. */
static bool device(const char *p, const char **end, unsigned *major, unsigned *minor)
{
	char *e;
	unsigned long ma, mi;

	if (*p < '0' || *p > '9')
		return false;
	ma = strtoul(p, &e, 10);
	if (*e != ':' || e[1] < '0' || e[1] > '9')
		return false;
	mi = strtoul(e + 1, &e, 10);
	if (*e != ' ' || ma > 0xfff || mi > 0xfffff)
		return false;
	*major = (unsigned)ma;
	*minor = (unsigned)mi;
	*end = e + 1;
	return true;
}

static const struct {
	const char *key;
	size_t off;
} v2_keys[] = {
	{ "rbytes", offsetof(struct cgroup_stat_dev, rbytes) }, { "wbytes", offsetof(struct cgroup_stat_dev, wbytes) },
	{ "dbytes", offsetof(struct cgroup_stat_dev, dbytes) }, { "rios", offsetof(struct cgroup_stat_dev, rios) },
	{ "wios", offsetof(struct cgroup_stat_dev, wios) },	{ "dios", offsetof(struct cgroup_stat_dev, dios) },
};

/* One io.stat line after "MAJ:MIN ": key=value pairs into vals (the known
 * keys), false when a pair is malformed or a known key's value is no
 * number. Other keys (cost.vrate=100.00, avg_lat=...) are skipped. */
static bool v2_pairs(const char *p, uint64_t vals[6], bool seen[6])
{
	while (*p && *p != '\n') {
		size_t klen = strcspn(p, "= \n"), k, nk = sizeof(v2_keys) / sizeof(v2_keys[0]);
		const char *end;

		if (!klen || p[klen] != '=')
			return false;
		for (k = 0; k < nk; k++)
			if (strlen(v2_keys[k].key) == klen && !memcmp(p, v2_keys[k].key, klen))
				break;
		if (k < nk) {
			if (!number(p + klen + 1, &end, &vals[k]))
				return false;
			seen[k] = true;
		} else {
			end = p + klen + 1 + strcspn(p + klen + 1, " \n");
		}
		p = end;
		while (*p == ' ')
			p++;
	}
	return true;
}

int cgroup_stat_parse_v2(const char *text, struct cgroup_stat_dev *devs, size_t *n, size_t max, unsigned *bad)
{
	int err = 0;

	for (const char *p = text; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		uint64_t vals[6] = { 0 };
		bool seen[6] = { false };
		unsigned major, minor;
		const char *q;
		struct cgroup_stat_dev *d;

		if (*p == '\n')
			continue;
		if (!device(p, &q, &major, &minor) || !v2_pairs(q, vals, seen)) {
			(*bad)++;
			continue;
		}
		if (!(d = slot(devs, n, max, major, minor))) {
			err = -E2BIG;
			continue;
		}
		for (size_t k = 0; k < sizeof(v2_keys) / sizeof(v2_keys[0]); k++)
			if (seen[k])
				*(uint64_t *)(void *)((char *)d + v2_keys[k].off) = vals[k];
	}
	return err;
}

static const struct {
	const char *op;
	size_t bytes, ios;
} v1_ops[] = {
	{ "Read", offsetof(struct cgroup_stat_dev, rbytes), offsetof(struct cgroup_stat_dev, rios) },
	{ "Write", offsetof(struct cgroup_stat_dev, wbytes), offsetof(struct cgroup_stat_dev, wios) },
	{ "Discard", offsetof(struct cgroup_stat_dev, dbytes), offsetof(struct cgroup_stat_dev, dios) },
};

int cgroup_stat_parse_v1(const char *text, enum cgroup_stat_unit unit, struct cgroup_stat_dev *devs, size_t *n,
			 size_t max, unsigned *bad)
{
	static const char *const sums[] = { "Sync", "Async", "Total" };
	int err = 0;

	for (const char *p = text; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		unsigned major, minor;
		const char *q, *end;
		size_t oplen;
		uint64_t v;
		struct cgroup_stat_dev *d;
		bool sum = false;
		int off = -1;

		if (*p == '\n')
			continue;
		if (!strncmp(p, "Total ", 6) && number(p + 6, &end, &v))
			continue; /* the file's grand total */
		if (!device(p, &q, &major, &minor) || !(oplen = strcspn(q, " \n")) || q[oplen] != ' ' ||
		    !number(q + oplen + 1, &end, &v) || (*end && *end != '\n')) {
			(*bad)++;
			continue;
		}
		for (size_t s = 0; s < sizeof(sums) / sizeof(sums[0]); s++)
			sum |= strlen(sums[s]) == oplen && !memcmp(q, sums[s], oplen);
		if (sum)
			continue;
		for (size_t o = 0; o < sizeof(v1_ops) / sizeof(v1_ops[0]); o++)
			if (strlen(v1_ops[o].op) == oplen && !memcmp(q, v1_ops[o].op, oplen))
				off = (int)(unit == CGROUP_STAT_BYTES ? v1_ops[o].bytes : v1_ops[o].ios);
		if (off < 0) {
			(*bad)++;
			continue;
		}
		if (!(d = slot(devs, n, max, major, minor))) {
			err = -E2BIG;
			continue;
		}
		*(uint64_t *)(void *)((char *)d + off) = v;
	}
	return err;
}

bool cgroup_stat_controller(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text; (p = strstr(p, name)); p += n)
		if ((p == text || p[-1] == ' ' || p[-1] == '\n') && (!p[n] || p[n] == ' ' || p[n] == '\n'))
			return true;
	return false;
}

int cgroup_stat_parse_cpu_v2(const char *text, uint64_t *user_ns, uint64_t *sys_ns)
{
	const char *u = strstr(text, "user_usec "), *s = strstr(text, "system_usec ");

	*user_ns = *sys_ns = 0;
	if (!u || !s)
		return -ENOENT;
	*user_ns = strtoull(u + 10, NULL, 10) * 1000;
	*sys_ns = strtoull(s + 12, NULL, 10) * 1000;
	return 0;
}
