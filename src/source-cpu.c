#include "source-cpu.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The "cpu" line comes first; a page holds it on any machine. */
#define STAT_HEAD 4096

struct source_cpu {
	int fd;
	char buf[STAT_HEAD];
};

int source_cpu_open(const struct root *r, struct source_cpu **out)
{
	struct source_cpu *src;

	if (!root_is_live(r))
		return -EOPNOTSUPP;
	if (!(src = calloc(1, sizeof(*src))))
		return -ENOMEM;
	src->fd = root_openat(r, "proc/stat", O_RDONLY);
	if (src->fd < 0) {
		int err = src->fd;

		free(src);
		return err;
	}
	*out = src;
	return 0;
}

void source_cpu_close(struct source_cpu *src)
{
	if (!src)
		return;
	close(src->fd);
	free(src);
}

int source_cpu_parse(const char *text, struct cpu_stat *out)
{
	uint64_t *dst[] = { &out->user,   &out->nice, &out->system,  &out->idle,
			    &out->iowait, &out->irq,  &out->softirq, &out->steal };
	const char *p = text;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (strncmp(p, "cpu ", 4))
		return -EINVAL;
	p += 4;
	while (n < sizeof(dst) / sizeof(dst[0])) {
		uint64_t v = 0;
		const char *start;

		while (*p == ' ')
			p++;
		start = p;
		while (*p >= '0' && *p <= '9' && p - start < 19)
			v = v * 10 + (uint64_t)(*p++ - '0');
		if (p == start)
			break;
		if (*p != ' ' && *p != '\n' && *p != '\0')
			return -EINVAL;
		*dst[n++] = v;
	}
	if (n < 4 || (*p != ' ' && *p != '\n' && *p != '\0'))
		return -EINVAL;
	out->valid = true;
	return 0;
}

int source_cpu_read(struct source_cpu *src, struct sample *s)
{
	ssize_t n = root_pread(src->fd, src->buf, sizeof(src->buf));
	int err;

	if (n < 0) {
		s->cpu.valid = false;
		return (int)n;
	}
	err = source_cpu_parse(src->buf, &s->cpu);
	if (err)
		s->cpu.valid = false;
	return err;
}
