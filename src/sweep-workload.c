#include "sweep-workload.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json-read.h"

/* A leading NAME=VALUE word (an environment assignment for the command). */
static size_t assignment(const char *w)
{
	size_t name = strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");

	return name > 0 && !(w[0] >= '0' && w[0] <= '9') && w[name] == '=' ? strcspn(w, " \t") : 0;
}

bool sweep_workload_is_fio(const char *cmd)
{
	size_t n;

	if (strpbrk(cmd, ";|&<>`$()\n\\'\"*?"))
		return false;
	cmd += strspn(cmd, " \t");
	while ((n = assignment(cmd)) > 0) {
		cmd += n;
		cmd += strspn(cmd, " \t");
	}
	n = strcspn(cmd, " \t");
	return (n == 3 && !strncmp(cmd, "fio", 3)) || (n > 4 && !strncmp(cmd + n - 4, "/fio", 4));
}

int sweep_workload_fio_cmd(const char *cmd, const char *json, char **out)
{
	static const char head[] = " --output-format=json --output='";
	size_t len = strlen(cmd) + sizeof(head) + 2, at;
	char *s;

	/* sh -c reads the path: each ' becomes '\'' (4 bytes), never dropped */
	for (const char *p = json; *p; p++)
		len += *p == '\'' ? 4 : 1;
	if (!(s = malloc(len)))
		return -ENOMEM;
	at = (size_t)snprintf(s, len, "%s%s", cmd, head);
	for (const char *p = json; *p; p++)
		at += (size_t)snprintf(s + at, len - at, *p == '\'' ? "'\\''" : "%c", *p);
	snprintf(s + at, len - at, "'");
	*out = s;
	return 0;
}

/* fio reports clat percentiles under "percentile" with keys like
 * "99.000000"; in ns since fio 3 (clat_ns), in us before (clat). */
static double pct(const struct json_doc *d, int dir, const char *key)
{
	int c = json_get(d, dir, "clat_ns"), p;
	double scale = 1e-3;

	if (c < 0) {
		c = json_get(d, dir, "clat");
		scale = 1;
	}
	p = json_get(d, c, "percentile");
	if (p < 0 || (p = json_get(d, p, key)) < 0 || d->n[p].type != JSON_NUM)
		return NAN;
	return d->n[p].num * scale;
}

struct fio_dir {
	const char *name;
	enum sweep_fig iops, mb_s, p50, p99;
};

static const struct fio_dir fio_dirs[] = {
	{ "read", SF_FIO_READ_IOPS, SF_FIO_READ_MB_S, SF_FIO_READ_P50, SF_FIO_READ_P99 },
	{ "write", SF_FIO_WRITE_IOPS, SF_FIO_WRITE_MB_S, SF_FIO_WRITE_P50, SF_FIO_WRITE_P99 },
};

int sweep_workload_fio_parse(const char *text, struct sweep_run *run)
{
	struct json_doc d;
	int jobs;
	double usr = 0, sys = 0, njobs = 0;

	if (json_read(text, &d) < 0)
		return -EINVAL;
	if ((jobs = json_get(&d, 0, "jobs")) < 0 || d.n[jobs].type != JSON_ARR) {
		json_free(&d);
		return -EINVAL;
	}
	for (size_t k = 0; k < sizeof(fio_dirs) / sizeof(fio_dirs[0]); k++) {
		const struct fio_dir *fd = &fio_dirs[k];
		double iops = 0, bw = 0, w50 = 0, w99 = 0, ios = 0;
		bool any = false;

		for (int j = d.n[jobs].child; j >= 0; j = d.n[j].next) {
			int dir = json_get(&d, j, fd->name);
			const char *io_path[] = { "total_ios" }, *iops_path[] = { "iops" },
				   *bw_path[] = { "bw_bytes" };
			double n = json_num_path(&d, dir, io_path, 1);
			if (dir < 0 || isnan(n))
				continue;
			any = true;
			iops += json_num_path(&d, dir, iops_path, 1);
			bw += json_num_path(&d, dir, bw_path, 1);
			if (n > 0) {
				w50 += pct(&d, dir, "50.000000") * n;
				w99 += pct(&d, dir, "99.000000") * n;
				ios += n;
			}
		}
		if (!any || ios == 0)
			continue; /* no I/O in this direction: not measured, not zero */
		run->fig[fd->iops] = iops;
		run->fig[fd->mb_s] = bw / 1048576.0;
		run->fig[fd->p50] = ios > 0 ? w50 / ios : NAN;
		run->fig[fd->p99] = ios > 0 ? w99 / ios : NAN;
	}
	for (int j = d.n[jobs].child; j >= 0; j = d.n[j].next) {
		const char *u[] = { "usr_cpu" }, *s[] = { "sys_cpu" };
		double a = json_num_path(&d, j, u, 1), b = json_num_path(&d, j, s, 1);
		if (isnan(a) || isnan(b))
			continue;
		usr += a;
		sys += b;
		njobs++;
	}
	if (njobs > 0) {
		/* fio's per-job CPU is a share of one CPU; jobs add up. */
		run->fig[SF_FIO_USR_CPU] = usr;
		run->fig[SF_FIO_SYS_CPU] = sys;
	}
	json_free(&d);
	return 0;
}

#define DIGIT(c) ((c) >= '0' && (c) <= '9')

/* The last number in s[0, len). A '-' is a minus sign only where it starts
 * a number, not after a digit or a point: "10-20" is 10 and 20 (the last
 * is 20), never -20. */
static double last_number(const char *s, size_t len)
{
	double v = NAN;

	for (size_t i = 0; i < len; i++) {
		char *end, buf[64];
		size_t n;
		bool sign = s[i] == '-' && !(i > 0 && (DIGIT(s[i - 1]) || s[i - 1] == '.'));
		if (!(DIGIT(s[i]) || ((sign || s[i] == '.') && i + 1 < len && DIGIT(s[i + 1]))))
			continue;
		n = strspn(s + i, "0123456789.-eE+");
		if (n > len - i)
			n = len - i;
		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, s + i, n);
		buf[n] = '\0';
		v = strtod(buf, &end);
		i += (size_t)(end - buf) > 0 ? (size_t)(end - buf) - 1 : 0;
	}
	return v;
}

double sweep_workload_metric(const char *text, const char *regex)
{
	regex_t re;
	regmatch_t m[2];
	const char *p = text, *hit = NULL;
	size_t hitlen = 0;
	double v;

	if (regcomp(&re, regex, REG_EXTENDED | REG_NEWLINE) != 0)
		return NAN;
	while (*p && regexec(&re, p, 2, m, p == text ? 0 : REG_NOTBOL) == 0) {
		int g = re.re_nsub > 0 && m[1].rm_so >= 0 ? 1 : 0;
		hit = p + m[g].rm_so;
		hitlen = (size_t)(m[g].rm_eo - m[g].rm_so);
		p += m[0].rm_eo > m[0].rm_so ? m[0].rm_eo : m[0].rm_so + 1;
	}
	regfree(&re);
	v = hit ? last_number(hit, hitlen) : NAN;
	return isfinite(v) ? v : NAN; /* "1e400" reads as inf: no figure, as no number */
}

int sweep_workload_read_tail(const char *path, size_t max, char **out)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 16, n = 0;
	bool cut = false;
	struct stat st;
	char *buf, *nl;

	if (!f)
		return -errno;
	/* a regular file: start max bytes before its end */
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max) {
		if (fseeko(f, st.st_size - (off_t)max, SEEK_SET) < 0) {
			int err = -errno;
			fclose(f);
			return err;
		}
		cut = true;
	}
	if (cap > max + 1)
		cap = max + 1;
	if (!(buf = malloc(cap))) {
		fclose(f);
		return -ENOMEM;
	}
	for (;;) {
		int c;

		n += fread(buf + n, 1, cap - n - 1, f);
		if (n < cap - 1 || (c = getc(f)) == EOF)
			break;
		ungetc(c, f);
		if (cap == max + 1) {
			/* full and more to come (it grew, or no seek): keep the
			 * newer half */
			memmove(buf, buf + n - max / 2, max / 2);
			n = max / 2;
			cut = true;
			continue;
		}
		char *nb = realloc(buf, cap * 2 < max + 1 ? cap * 2 : max + 1);
		if (!nb)
			break;
		buf = nb;
		cap = cap * 2 < max + 1 ? cap * 2 : max + 1;
	}
	buf[n] = '\0';
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return -EIO;
	}
	fclose(f);
	/* a line cut at its head could match what the whole line does not */
	if (cut) {
		nl = strchr(buf, '\n');
		n = nl ? n - (size_t)(nl + 1 - buf) : 0;
		memmove(buf, nl ? nl + 1 : buf + n, n + 1);
	}
	*out = buf;
	return 0;
}
