#include "source-diskstats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "format.h"

struct source_diskstats {
	int fd;
	char *buf;
	size_t cap;
	char err[160];
};

/* Field order after major, minor, name (Documentation/admin-guide/iostats.rst). */
static const size_t field_offsets[] = {
	offsetof(struct disk_stat, rd_ios),     offsetof(struct disk_stat, rd_merges),
	offsetof(struct disk_stat, rd_sectors), offsetof(struct disk_stat, rd_ticks),
	offsetof(struct disk_stat, wr_ios),     offsetof(struct disk_stat, wr_merges),
	offsetof(struct disk_stat, wr_sectors), offsetof(struct disk_stat, wr_ticks),
	offsetof(struct disk_stat, in_flight),  offsetof(struct disk_stat, io_ticks),
	offsetof(struct disk_stat, time_in_queue),
	offsetof(struct disk_stat, dc_ios),     offsetof(struct disk_stat, dc_merges),
	offsetof(struct disk_stat, dc_sectors), offsetof(struct disk_stat, dc_ticks),
	offsetof(struct disk_stat, fl_ios),     offsetof(struct disk_stat, fl_ticks),
};
#define NFIELDS (sizeof(field_offsets) / sizeof(field_offsets[0]))

/* Strict unsigned parse: digits only, so "-1" or "12x" are errors, not wraps.
 * 19 digits never overflow: only digits past them are checked (a division). */
static const char *parse_u64(const char *p, uint64_t *out)
{
	const char *end = p + 19;
	uint64_t v = 0;
	unsigned d;

	if ((d = (unsigned)(*p - '0')) > 9)
		return NULL;
	do {
		v = v * 10 + d;
		p++;
	} while ((d = (unsigned)(*p - '0')) <= 9 && p < end);
	for (; d <= 9; d = (unsigned)(*p - '0')) { /* a 20th digit, or more */
		if (v > (UINT64_MAX - d) / 10)
			return NULL;
		v = v * 10 + d;
		p++;
	}
	*out = v;
	return p;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

int source_diskstats_parse_line(const char *line, struct disk_stat *out, char *err, size_t errlen)
{
	const char *p = skip_blank(line), *name;
	uint64_t maj, min, v;
	size_t n = 0, namelen;

	memset(out, 0, sizeof(*out));
	if (!(p = parse_u64(p, &maj)) || maj > 0xfff) {
		snprintf(err, errlen, "bad major number");
		return -EINVAL;
	}
	if (!(p = parse_u64(skip_blank(p), &min)) || min > 0xfffff) {
		snprintf(err, errlen, "bad minor number");
		return -EINVAL;
	}
	name = skip_blank(p);
	namelen = strcspn(name, " \t\n");
	if (namelen == 0) {
		snprintf(err, errlen, "missing device name");
		return -EINVAL;
	}
	if (namelen >= SAMPLE_NAME_MAX) {
		snprintf(err, errlen, "device name longer than %d bytes", SAMPLE_NAME_MAX - 1);
		return -EINVAL;
	}
	memcpy(out->name, name, namelen);
	out->name[namelen] = '\0';
	/* The kernel never names a disk with control bytes or non-UTF-8: such
	 * a line comes from a doctored tree and would reach the terminal. */
	if (!format_text_ok(out->name, true)) {
		snprintf(err, errlen, "device name with control characters or bytes that are not UTF-8");
		return -EINVAL;
	}
	p = name + namelen;
	for (;;) {
		p = skip_blank(p);
		if (*p == '\0' || *p == '\n')
			break;
		if (n == NFIELDS) {
			snprintf(err, errlen, "more than %zu fields", NFIELDS + 3);
			return -EINVAL;
		}
		if (!(p = parse_u64(p, &v)) || (*p && *p != ' ' && *p != '\t' && *p != '\n')) {
			snprintf(err, errlen, "field %zu is not an unsigned number", n + 4);
			return -EINVAL;
		}
		memcpy((char *)out + field_offsets[n++], &v, sizeof(v));
	}
	/* 11 fields before 4.18, 15 with discards, 17 with flushes (5.5). */
	if (n != 11 && n != 15 && n != 17) {
		snprintf(err, errlen, "expected 14, 18 or 20 fields, got %zu", n + 3);
		return -EINVAL;
	}
	out->dev = makedev((unsigned)maj, (unsigned)min);
	out->nfields = (int)n + 3;
	return 0;
}

int source_diskstats_parse(const char *text, struct sample *s, char *err, size_t errlen)
{
	const char *line = text;
	int bad = 0, lineno = 0;

	if (errlen)
		err[0] = '\0';
	while (*line) {
		const char *nl = strchr(line, '\n');
		char why[96];
		struct disk_stat st;

		lineno++;
		if (line == nl || !*skip_blank(line) || *skip_blank(line) == '\n') {
			/* blank lines carry nothing; not an error */
		} else if (source_diskstats_parse_line(line, &st, why, sizeof(why)) == 0) {
			struct disk_sample *d = sample_add_disk(s);
			if (!d)
				return -ENOMEM;
			d->st = st;
		} else {
			if (bad++ == 0 && errlen)
				snprintf(err, errlen, "diskstats line %d: %s", lineno, why);
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return bad;
}

int source_diskstats_open(const struct root *r, struct source_diskstats **out)
{
	struct source_diskstats *src = calloc(1, sizeof(*src));

	if (!src)
		return -ENOMEM;
	src->fd = root_openat(r, "proc/diskstats", O_RDONLY);
	if (src->fd < 0) {
		int err = src->fd;
		free(src);
		return err;
	}
	*out = src;
	return 0;
}

void source_diskstats_close(struct source_diskstats *src)
{
	if (!src)
		return;
	close(src->fd);
	free(src->buf);
	free(src);
}

int source_diskstats_read(struct source_diskstats *src, struct sample *s)
{
	/* The whole file from the kept fd: the kernel hands /proc/diskstats
	 * out a page (about 70 devices) per read, so a short read is not the
	 * end, and the buffer grows to the whole file. */
	ssize_t n = root_pread_all(src->fd, &src->buf, &src->cap, SIZE_MAX);

	if (n < 0)
		return (int)n;
	return source_diskstats_parse(src->buf, s, src->err, sizeof(src->err));
}

const char *source_diskstats_error(const struct source_diskstats *src)
{
	return src->err;
}
