#include "sweep-info.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "safe-file.h"

#define SWEEP_INFO_MAGIC "blktune-sweep-info 1"

enum kind { K_STR, K_NUM };

struct field {
	const char *key;
	enum kind kind;
	size_t off, len;
};

#define S(k, f) { k, K_STR, offsetof(struct sweep_info, f), sizeof(((struct sweep_info *)0)->f) }
#define N(k, f) { k, K_NUM, offsetof(struct sweep_info, f), sizeof(double) }
static const struct field fields[] = {
	S("command", command), S("device", dev), S("swept", tunable), S("values", values),
	S("original", original), S("baseline", baseline), S("order", order), S("plot", plot),
	S("started", started), S("run", run), N("repeat", repeat), N("settle_s", settle),
	N("duration_s", duration), N("interval_s", interval), S("kernel", kernel), S("host", host),
	S("model", model), S("vendor", vendor), S("scheduler", scheduler), N("size_bytes", size_bytes),
	N("max_hw_sectors_kb", max_hw_sectors_kb), N("max_sectors_kb", max_sectors_kb),
	N("max_segments", max_segments), N("logical_block_size", logical_block_size),
	N("physical_block_size", physical_block_size), N("rotational", rotational),
	N("nr_hw_queues", nr_hw_queues), N("diskseq", diskseq),
};

void sweep_info_init(struct sweep_info *in)
{
	memset(in, 0, sizeof(*in));
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (fields[i].kind == K_NUM)
			*(double *)(void *)((char *)in + fields[i].off) = NAN;
}

/* Append s (n bytes) to out at *at if it fits whole; *at counts on
 * regardless, so the caller learns the length a whole copy needs (once a
 * piece does not fit, none after it does: out holds whole pieces only). */
static void put(char *out, size_t len, size_t *at, const char *s, size_t n)
{
	if (*at + n < len) {
		memcpy(out + *at, s, n);
		out[*at + n] = '\0';
	}
	*at += n;
}

size_t sweep_info_command(int argc, char **argv, char *out, size_t len)
{
	size_t at = 0;

	if (len)
		out[0] = '\0';
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		bool plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
					     "_-.,/=:+@%") == strlen(a);
		if (i)
			put(out, len, &at, " ", 1);
		if (plain) {
			put(out, len, &at, a, strlen(a));
			continue;
		}
		put(out, len, &at, "'", 1);
		for (; *a; a++)
			put(out, len, &at, *a == '\'' ? "'\\''" : a, *a == '\'' ? 4 : 1);
		put(out, len, &at, "'", 1);
	}
	return at;
}

size_t sweep_info_values(const struct sweep_opts *o, char *out, size_t len)
{
	size_t at = 0;

	if (len)
		out[0] = '\0';
	for (size_t v = 0; v < o->nvalues; v++) {
		if (v)
			put(out, len, &at, ",", 1);
		put(out, len, &at, o->values[v], strlen(o->values[v]));
	}
	return at;
}

static void read_str(const struct root *r, const char *rel, char *out, size_t len)
{
	ssize_t n = root_read(r, rel, out, len);

	if (n < 0) {
		out[0] = '\0';
		return;
	}
	while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = '\0';
}

static void read_num(const struct root *r, const char *rel, double *out)
{
	long long v;

	*out = root_read_s64(r, rel, &v) == 0 ? (double)v : NAN;
}

void sweep_info_device(const struct root *r, const char *dev, struct sweep_info *in)
{
	static const struct { const char *file; size_t off; } nums[] = {
		{ "queue/max_hw_sectors_kb", offsetof(struct sweep_info, max_hw_sectors_kb) },
		{ "queue/max_sectors_kb", offsetof(struct sweep_info, max_sectors_kb) },
		{ "queue/max_segments", offsetof(struct sweep_info, max_segments) },
		{ "queue/logical_block_size", offsetof(struct sweep_info, logical_block_size) },
		{ "queue/physical_block_size", offsetof(struct sweep_info, physical_block_size) },
		{ "queue/rotational", offsetof(struct sweep_info, rotational) },
		{ "size", offsetof(struct sweep_info, size_bytes) },
		{ "diskseq", offsetof(struct sweep_info, diskseq) },
	};
	char path[256];
	DIR *d;

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		snprintf(path, sizeof(path), "sys/block/%s/%s", dev, nums[i].file);
		read_num(r, path, (double *)(void *)((char *)in + nums[i].off));
	}
	in->size_bytes *= 512; /* sectors */
	snprintf(path, sizeof(path), "sys/block/%s/device/model", dev);
	read_str(r, path, in->model, sizeof(in->model));
	snprintf(path, sizeof(path), "sys/block/%s/device/vendor", dev);
	read_str(r, path, in->vendor, sizeof(in->vendor));
	if (!in->model[0]) {
		/* loop, zram, nvme...: no SCSI model; say what backs it */
		snprintf(path, sizeof(path), "sys/block/%s/loop/backing_file", dev);
		read_str(r, path, in->model, sizeof(in->model));
		if (in->model[0])
			snprintf(in->vendor, sizeof(in->vendor), "loop device");
	}
	snprintf(path, sizeof(path), "sys/block/%s/queue/scheduler", dev);
	read_str(r, path, in->scheduler, sizeof(in->scheduler));
	snprintf(path, sizeof(path), "sys/block/%s/mq", dev);
	in->nr_hw_queues = NAN;
	if ((d = root_opendir(r, path))) {
		struct dirent *e;
		in->nr_hw_queues = 0;
		while ((e = readdir(d)))
			if (e->d_name[0] != '.')
				in->nr_hw_queues++;
		closedir(d);
	}
}

/* Every string written or read back is sanitised: no control or escape
 * bytes, valid UTF-8 (the report prints them on a terminal). */
static void clean(const char *s, char *out, size_t len)
{
	format_sanitize(s, out, len);
}

int sweep_info_write(FILE *f, const struct sweep_info *in)
{
	static char b[sizeof(in->command)]; /* the longest string field */

	fprintf(f, "%s\n", SWEEP_INFO_MAGIC);
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const void *p = (const char *)in + fields[i].off;
		if (fields[i].kind == K_STR)
			clean(p, b, sizeof(b));
		else
			format_exact(*(const double *)p, b, sizeof(b));
		fprintf(f, "%s %s\n", fields[i].key, b);
	}
	for (size_t i = 0; i < in->ntun; i++) {
		clean(in->tun[i].value, b, sizeof(b));
		char name[TUNABLE_NAME_MAX];

		clean(in->tun[i].name, name, sizeof(name));
		fprintf(f, "tunable %s %s\n", name, b);
	}
	for (size_t i = 0; i < in->nmetrics; i++) {
		char name[SWEEP_METRIC_NAME_MAX];

		clean(in->metric[i].name, name, sizeof(name));
		clean(in->metric[i].regex, b, sizeof(b));
		fprintf(f, "metric %s %s\n", name, b);
	}
	return ferror(f) ? -EIO : 0;
}

static int info_writer(FILE *f, const void *arg)
{
	return sweep_info_write(f, arg);
}

int sweep_info_save(const char *path, const struct sweep_info *in, char *msg, size_t msg_size)
{
	return safe_save(path, info_writer, in, msg, msg_size);
}

/* Whether v is one of the comma-separated values (as the report splits
 * them: an empty item is none). */
static bool one_of(const char *values, const char *v)
{
	size_t n = strlen(v);

	for (const char *p = values; *p; p += *p == ',') {
		size_t k = strcspn(p, ",");
		if (n && k == n && !strncmp(p, v, n))
			return true;
		p += k;
	}
	return false;
}

int sweep_info_read(FILE *f, struct sweep_info *in, char *msg, size_t len)
{
	static char line[sizeof(in->command) + 64]; /* the longest field whole */
	size_t lineno = 1, baseline_line = 0;

	sweep_info_init(in);
	if (!fgets(line, sizeof(line), f) || strncmp(line, SWEEP_INFO_MAGIC "\n", sizeof(SWEEP_INFO_MAGIC))) {
		snprintf(msg, len, "line 1: not a %s file", SWEEP_INFO_MAGIC);
		return -EINVAL;
	}
	while (fgets(line, sizeof(line), f)) {
		char *sp, *val;
		bool known = false;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!(sp = strchr(line, ' '))) {
			snprintf(msg, len, "line %zu: no value", lineno);
			return -EINVAL;
		}
		*sp = '\0';
		val = sp + 1;
		for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]) && !known; i++) {
			void *p = (char *)in + fields[i].off;
			char *end;
			if (strcmp(line, fields[i].key))
				continue;
			known = true;
			if (fields[i].off == offsetof(struct sweep_info, baseline))
				baseline_line = lineno;
			if (fields[i].kind == K_STR) {
				clean(val, p, fields[i].len);
			} else {
				*(double *)p = *val ? strtod(val, &end) : NAN;
				if (*val && *end) {
					snprintf(msg, len, "line %zu: %s is not a number", lineno, line);
					return -EINVAL;
				}
			}
		}
		if (known)
			continue;
		if ((!strcmp(line, "tunable") || !strcmp(line, "metric")) && (sp = strchr(val, ' '))) {
			*sp = '\0';
			if (line[0] == 't' && in->ntun < SWEEP_INFO_TUN_MAX) {
				clean(val, in->tun[in->ntun].name, TUNABLE_NAME_MAX);
				clean(sp + 1, in->tun[in->ntun++].value, TUNABLE_VALUE_MAX);
			} else if (line[0] == 'm' && in->nmetrics < SWEEP_METRICS_MAX) {
				clean(val, in->metric[in->nmetrics].name, SWEEP_METRIC_NAME_MAX);
				clean(sp + 1, in->metric[in->nmetrics++].regex, SWEEP_INFO_STR);
			}
			continue;
		}
		/* unknown keys from a later version are skipped */
	}
	/* A sweep judges against one of its values (--baseline must be one,
	 * the default is): any other baseline, verdicts against nothing the
	 * sweep ran. */
	if (!baseline_line) {
		snprintf(msg, len, "line %zu: no baseline line", lineno);
		return -EINVAL;
	}
	if (!one_of(in->values, in->baseline)) {
		snprintf(msg, len, "line %zu: baseline %.40s is not one of the swept values", baseline_line,
			 in->baseline);
		return -EINVAL;
	}
	return 0;
}
