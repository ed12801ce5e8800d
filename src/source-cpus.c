#include "source-cpus.h"

#include <errno.h>
#include <fcntl.h>
#include <libproc2/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device-irq.h"

struct source_cpus {
	const struct root *root;
	struct stat_info *stat; /* NULL on a captured root: libproc2 reads the live /proc */
	int fd_irq, fd_soft;
	char *buf;
	size_t cap;
	unsigned nirq;
	unsigned irq[SAMPLE_IRQ_MAX];
	char dev[SAMPLE_NAME_MAX];
	char effective[SAMPLE_IRQ_MAX][64];
};

static enum stat_item items[] = {
	STAT_TIC_ID, STAT_TIC_USER, STAT_TIC_NICE, STAT_TIC_SYSTEM, STAT_TIC_IDLE,
	STAT_TIC_IOWAIT, STAT_TIC_IRQ, STAT_TIC_SOFTIRQ, STAT_TIC_STOLEN,
};
#define NITEMS ((int)(sizeof(items) / sizeof(items[0])))

int source_cpus_open(const struct root *r, struct source_cpus **out)
{
	struct source_cpus *src = calloc(1, sizeof(*src));

	if (!src)
		return -ENOMEM;
	src->root = r;
	src->fd_irq = root_openat(r, "proc/interrupts", O_RDONLY);
	src->fd_soft = root_openat(r, "proc/softirqs", O_RDONLY);
	if (root_is_live(r) && procps_stat_new(&src->stat) < 0)
		src->stat = NULL;
	*out = src;
	return 0;
}

void source_cpus_close(struct source_cpus *src)
{
	if (!src)
		return;
	if (src->fd_irq >= 0)
		close(src->fd_irq);
	if (src->fd_soft >= 0)
		close(src->fd_soft);
	if (src->stat)
		procps_stat_unref(&src->stat);
	free(src->buf);
	free(src);
}

int source_cpus_watch(struct source_cpus *src, const char *dev)
{
	struct device_irq_set *set;
	int err;

	src->nirq = 0;
	src->dev[0] = '\0';
	if (!dev)
		return 0;
	snprintf(src->dev, sizeof(src->dev), "%s", dev);
	if (!(set = malloc(sizeof(*set))))
		return -ENOMEM;
	err = device_irq_find(src->root, dev, set);
	for (size_t i = 0; err == 0 && i < set->n && src->nirq < SAMPLE_IRQ_MAX; i++) {
		src->irq[src->nirq] = set->irq[i].irq;
		snprintf(src->effective[src->nirq], sizeof(src->effective[0]), "%s",
			 set->irq[i].effective[0] ? set->irq[i].effective : set->irq[i].affinity);
		src->nirq++;
	}
	free(set);
	return err;
}

int source_cpus_parse_ncpu(const char *header)
{
	int n = 0;
	const char *p = header;

	/* "           CPU0       CPU1" up to the first newline */
	while ((p = strstr(p, "CPU")) && (!strchr(header, '\n') || p < strchr(header, '\n'))) {
		n++;
		p += 3;
	}
	return n;
}

int source_cpus_parse_row(const char *text, const char *row, unsigned ncpu, uint64_t *out)
{
	size_t len = strlen(row);
	const char *line = text;

	while (line && *line) {
		const char *p = line;
		while (*p == ' ')
			p++;
		if (!strncmp(p, row, len)) {
			p += len;
			for (unsigned c = 0; c < ncpu; c++) {
				char *end;
				while (*p == ' ' || *p == '\t')
					p++;
				if (*p < '0' || *p > '9')
					return -EINVAL;
				out[c] = strtoull(p, &end, 10);
				p = end;
			}
			return 0;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -ENOENT;
}

/* Whole file through a kept fd into src->buf. */
static int slurp(struct source_cpus *src, int fd)
{
	size_t len = 0;

	if (fd < 0)
		return -ENOENT;
	for (;;) {
		ssize_t n;
		if (len + 4096 > src->cap) {
			size_t cap = src->cap ? src->cap * 2 : 65536;
			char *b = realloc(src->buf, cap);
			if (!b)
				return -ENOMEM;
			src->buf = b;
			src->cap = cap;
		}
		n = pread(fd, src->buf + len, src->cap - len - 1, (off_t)len);
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	src->buf[len] = '\0';
	return 0;
}

static void read_stat(struct source_cpus *src, struct cpus_sample *c)
{
	struct stat_reaped *r;

	if (!src->stat || !(r = procps_stat_reap(src->stat, STAT_REAP_CPUS_ONLY, items, NITEMS)))
		return;
	for (int i = 0; i < r->cpus->total; i++) {
		struct stat_result *v = r->cpus->stacks[i]->head;
		int id = v[0].result.s_int;
		struct cpu_stat *st;
		if (id < 0 || (unsigned)id >= c->ncpu)
			continue;
		st = &c->stat[id];
		st->user = v[1].result.ull_int;
		st->nice = v[2].result.ull_int;
		st->system = v[3].result.ull_int;
		st->idle = v[4].result.ull_int;
		st->iowait = v[5].result.ull_int;
		st->irq = v[6].result.ull_int;
		st->softirq = v[7].result.ull_int;
		st->steal = v[8].result.ull_int;
		st->valid = true;
	}
	c->have_stat = true;
}

int source_cpus_read(struct source_cpus *src, struct sample *s)
{
	struct cpus_sample *c = &s->cpus;
	char name[16];
	int ncpu, err;

	c->valid = false;
	if ((err = slurp(src, src->fd_soft)) < 0)
		return err;
	/* The header names every possible CPU: the row width of both files. */
	if ((ncpu = source_cpus_parse_ncpu(src->buf)) <= 0)
		return -EINVAL;
	if ((err = sample_cpus_reserve(c, (unsigned)ncpu)) < 0)
		return err;
	if (source_cpus_parse_row(src->buf, "BLOCK:", c->ncpu, c->block_softirq) < 0)
		memset(c->block_softirq, 0, c->ncpu * sizeof(*c->block_softirq));
	c->nirq = 0;
	snprintf(c->irq_dev, sizeof(c->irq_dev), "%s", src->dev);
	if (src->nirq && slurp(src, src->fd_irq) == 0 &&
	    source_cpus_parse_ncpu(src->buf) == ncpu) {
		for (unsigned i = 0; i < src->nirq; i++) {
			snprintf(name, sizeof(name), "%u:", src->irq[i]);
			if (source_cpus_parse_row(src->buf, name, c->ncpu, &c->irq_count[c->nirq * c->ncpu]) < 0)
				continue;
			c->irq[c->nirq] = src->irq[i];
			memcpy(c->effective[c->nirq], src->effective[i], sizeof(c->effective[0]));
			c->nirq++;
		}
	}
	read_stat(src, c);
	c->valid = true;
	return 0;
}
