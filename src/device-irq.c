#include "device-irq.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line of /proc/interrupts that names an IRQ number. */
struct irq_line {
	unsigned irq;
	unsigned long long count;
	char actions[128]; /* "virtio1-req.0" or "ahci[0000:00:1f.2], i801_smbus" */
};

struct irq_table {
	size_t n;
	struct irq_line *line;
};

static void irq_table_free(struct irq_table *t)
{
	free(t->line);
}

static int irq_table_read(const struct root *r, struct irq_table *t)
{
	size_t cap = 0, ncpu = 0;
	char *buf, *save = NULL, *line;
	ssize_t len;
	int err = 0;

	memset(t, 0, sizeof(*t));
	buf = malloc(1 << 20);
	if (!buf)
		return -ENOMEM;
	len = root_read(r, "proc/interrupts", buf, 1 << 20);
	if (len < 0) {
		free(buf);
		return (int)len;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct irq_line l = { 0 };
		char *p = line, *end, *act;

		if (ncpu == 0) { /* header: "CPU0 CPU1 ..." */
			for (char *c = strstr(line, "CPU"); c; c = strstr(c + 3, "CPU"))
				ncpu++;
			continue;
		}
		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p))
			continue; /* NMI:, LOC:, ... are not device interrupts */
		l.irq = (unsigned)strtoul(p, &end, 10);
		if (*end != ':')
			continue;
		p = end + 1;
		for (size_t c = 0; c < ncpu; c++) {
			unsigned long long v = strtoull(p, &end, 10);
			if (end == p)
				break;
			l.count += v;
			p = end;
		}
		/* The action names follow the last run of two blanks. */
		act = NULL;
		for (char *q = strstr(p, "  "); q; q = strstr(q + 1, "  "))
			act = q;
		if (!act)
			continue;
		act += strspn(act, " ");
		snprintf(l.actions, sizeof(l.actions), "%s", act);
		if (t->n == cap) {
			struct irq_line *nl;
			cap = cap ? cap * 2 : 64;
			nl = realloc(t->line, cap * sizeof(*nl));
			if (!nl) {
				err = -ENOMEM;
				break;
			}
			t->line = nl;
		}
		t->line[t->n++] = l;
	}
	free(buf);
	if (err)
		irq_table_free(t);
	return err;
}

static const struct irq_line *irq_table_find(const struct irq_table *t, unsigned irq)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->line[i].irq == irq)
			return &t->line[i];
	return NULL;
}

void device_irq_path(unsigned irq, const char *file, char *buf, size_t size)
{
	snprintf(buf, size, "proc/irq/%u/%s", irq, file);
}

static void read_trimmed(const struct root *r, const char *rel, char *buf, size_t size)
{
	ssize_t n = root_read(r, rel, buf, size);

	if (n < 0)
		n = 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

int device_irq_read_affinity(const struct root *r, struct device_irq *irq)
{
	char path[64];

	device_irq_path(irq->irq, "smp_affinity_list", path, sizeof(path));
	if (!root_exists(r, path))
		return -ENOENT;
	read_trimmed(r, path, irq->affinity, sizeof(irq->affinity));
	device_irq_path(irq->irq, "effective_affinity_list", path, sizeof(path));
	read_trimmed(r, path, irq->effective, sizeof(irq->effective));
	return 0;
}

static void add(const struct root *r, struct device_irq_set *out, const struct irq_line *l)
{
	struct device_irq *d;

	if (out->n == DEVICE_IRQ_MAX)
		return;
	d = &out->irq[out->n++];
	d->irq = l->irq;
	d->count = l->count;
	snprintf(d->name, sizeof(d->name), "%s", l->actions);
	device_irq_read_affinity(r, d);
}

/* sys/block/DEV is a link like ../devices/pci0000:00/0000:00:02.0/virtio1/block/vda:
 * resolve it to a '..'-free path below the root, as root.c requires. */
static int device_dir(const struct root *r, const char *dev, char *out, size_t size)
{
	char rel[PATH_MAX], link[PATH_MAX], path[PATH_MAX] = "sys/block";
	ssize_t n;

	snprintf(rel, sizeof(rel), "sys/block/%s", dev);
	n = root_readlink(r, rel, link, sizeof(link));
	if (n < 0) {
		snprintf(out, size, "%s", rel); /* a real directory, not a link */
		return root_exists(r, rel) ? 0 : -ENOENT;
	}
	for (char *save = NULL, *c = strtok_r(link, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		size_t len = strlen(path);
		if (strcmp(c, "..") == 0) {
			char *slash = strrchr(path, '/');
			if (!slash)
				return -EINVAL; /* escapes the root */
			*slash = '\0';
		} else if (strcmp(c, ".") != 0) {
			snprintf(path + len, sizeof(path) - len, "%s%s", len ? "/" : "", c);
		}
	}
	snprintf(out, size, "%s", path);
	return 0;
}

/* Drop the last component; false when nothing is left below sys/devices. */
static bool parent(char *path)
{
	char *slash = strrchr(path, '/');

	if (!slash || strcmp(path, "sys/devices") == 0)
		return false;
	*slash = '\0';
	return strncmp(path, "sys/devices/", 12) == 0;
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static int find_nvme(const struct root *r, const char *dev, const struct irq_table *t,
		     struct device_irq_set *out)
{
	char rel[PATH_MAX], link[PATH_MAX], prefix[80];
	size_t plen, total = 0;

	if (strncmp(dev, "nvme", 4) != 0)
		return 0;
	snprintf(rel, sizeof(rel), "sys/block/%s/device", dev);
	if (root_readlink(r, rel, link, sizeof(link)) < 0)
		return 0;
	snprintf(prefix, sizeof(prefix), "%.60sq", base(link)); /* nvme0 -> "nvme0q" */
	plen = strlen(prefix);
	for (size_t i = 0; i < t->n; i++) {
		const char *a = t->line[i].actions;
		if (strncmp(a, prefix, plen) == 0 && isdigit((unsigned char)a[plen]) &&
		    a[plen + strspn(a + plen, "0123456789")] == '\0') {
			add(r, out, &t->line[i]);
			total++;
		}
	}
	if (out->n)
		snprintf(out->how, sizeof(out->how), "NVMe queues of %.60s%s", base(link),
			 total > out->n ? " (first 64 shown)" : "");
	return (int)out->n;
}

static bool is_config_irq(const char *actions)
{
	size_t n = strlen(actions);
	return n > 7 && strcmp(actions + n - 7, "-config") == 0;
}

static int find_msi(const struct root *r, const char *dir, const struct irq_table *t,
		    struct device_irq_set *out)
{
	char path[PATH_MAX], msi[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s", dir);
	do {
		DIR *d;
		struct dirent *e;

		snprintf(msi, sizeof(msi), "%s/msi_irqs", path);
		d = root_opendir(r, msi);
		if (!d)
			continue;
		while ((e = readdir(d))) {
			const struct irq_line *l;
			char *end;
			unsigned long irq = strtoul(e->d_name, &end, 10);

			if (e->d_name[0] == '.' || *end)
				continue;
			/* virtio's config-change interrupt carries no I/O completions. */
			l = irq_table_find(t, (unsigned)irq);
			if (l && !is_config_irq(l->actions))
				add(r, out, l);
		}
		closedir(d);
		snprintf(out->how, sizeof(out->how), "MSI interrupts of %.60s", base(path));
		return (int)out->n;
	} while (parent(path));
	return 0;
}

static int find_driver(const struct root *r, const char *dir, const struct irq_table *t,
		       struct device_irq_set *out)
{
	char path[PATH_MAX], rel[PATH_MAX + 16], link[PATH_MAX];

	snprintf(path, sizeof(path), "%s", dir);
	while (parent(path)) {
		const char *drv;
		size_t len;

		snprintf(rel, sizeof(rel), "%s/driver", path);
		if (root_readlink(r, rel, link, sizeof(link)) < 0)
			continue;
		drv = base(link);
		len = strlen(drv);
		for (size_t i = 0; i < t->n; i++) {
			/* An action list "ahci[0000:00:1f.2], i801_smbus": match each name. */
			for (const char *a = t->line[i].actions; *a; a += strspn(a, ", ")) {
				size_t n = strcspn(a, ",[ ");
				if (n == len && strncmp(a, drv, len) == 0) {
					add(r, out, &t->line[i]);
					break;
				}
				a += strcspn(a, ",");
			}
		}
		if (out->n) {
			snprintf(out->how, sizeof(out->how), "interrupts named after driver %.60s", drv);
			return (int)out->n;
		}
	}
	return 0;
}

int device_irq_find(const struct root *r, const char *dev, struct device_irq_set *out)
{
	struct irq_table t;
	char dir[PATH_MAX];
	int err;

	memset(out, 0, sizeof(*out));
	err = device_dir(r, dev, dir, sizeof(dir));
	if (err)
		return err;
	if (strstr(dir, "/virtual/")) {
		snprintf(out->how, sizeof(out->how),
			 "none: %.40s is a virtual device (its I/O completes on the devices below it)", dev);
		return 0;
	}
	err = irq_table_read(r, &t);
	if (err) {
		snprintf(out->how, sizeof(out->how), "none: /proc/interrupts unreadable (%s)", strerror(-err));
		return 0;
	}
	if (find_nvme(r, dev, &t, out) == 0 && find_msi(r, dir, &t, out) == 0 &&
	    find_driver(r, dir, &t, out) == 0 && !out->how[0])
		snprintf(out->how, sizeof(out->how), "none found for %.60s", dev);
	irq_table_free(&t);
	return 0;
}
