#include "sweep-csv.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "safe-file.h"

enum col_type { CT_STR, CT_LONG, CT_SIZE, CT_DOUBLE, CT_INT };

struct csv_col {
	const char *name;
	enum col_type type;
	size_t off, len;
};

#define COL(n, t, f) { n, t, offsetof(struct sweep_run, f), sizeof(((struct sweep_run *)0)->f) }
static const struct csv_col lead[] = {
	COL("value", CT_STR, value),
	COL("asked", CT_STR, asked),
	COL("repeat", CT_LONG, repeat),
	COL("order", CT_SIZE, order),
	COL("started", CT_DOUBLE, started),
	COL("window_s", CT_DOUBLE, window_s),
	COL("busy_s", CT_DOUBLE, busy_s),
	COL("head_idle_s", CT_DOUBLE, head_s),
	COL("tail_idle_s", CT_DOUBLE, tail_s),
	COL("idle_pct", CT_DOUBLE, idle_pct),
	COL("intervals", CT_SIZE, intervals),
};
static const struct csv_col tail[] = {
	COL("cmd_status", CT_INT, status),
	COL("snapshot", CT_STR, snapshot),
};
#define NLEAD (sizeof(lead) / sizeof(lead[0]))
#define NTAIL (sizeof(tail) / sizeof(tail[0]))

/* A string field: sanitised (no control or escape bytes, valid UTF-8, as
 * every string blktune writes), then quoted as RFC 4180 says when it holds
 * a comma, a quote or a line break (a quote doubled inside). */
static void put_str(FILE *f, const char *s)
{
	char b[4096];

	format_sanitize(s, b, sizeof(b));
	if (!strpbrk(b, ",\"\r\n")) {
		fputs(b, f);
		return;
	}
	fputc('"', f);
	for (const char *p = b; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

static void put_num(FILE *f, double v)
{
	char b[FORMAT_PLAIN_MAX];

	/* The fewest digits that read back as the same double: blktune report
	 * DIR computes from these what the sweep computed from memory, and a
	 * rate cut to 9 digits once turned a mean's last printed digit.
	 * Never an exponent (0.0000123, not 1.23e-05). */
	format_exact(v, b, sizeof(b));
	fputs(b, f);
}

static void put_col(FILE *f, const struct csv_col *c, const struct sweep_run *r)
{
	const void *p = (const char *)r + c->off;

	switch (c->type) {
	case CT_STR:
		put_str(f, p);
		break;
	case CT_LONG:
		fprintf(f, "%ld", *(const long *)p);
		break;
	case CT_SIZE:
		fprintf(f, "%zu", *(const size_t *)p);
		break;
	case CT_INT:
		fprintf(f, "%d", *(const int *)p);
		break;
	case CT_DOUBLE:
		put_num(f, *(const double *)p);
		break;
	}
}

int sweep_csv_write(FILE *f, const struct sweep_run *runs, size_t n, const struct sweep_metric_opt *metrics,
		    size_t nmetrics)
{
	unsigned ncpu = 0;

	for (size_t c = 0; c < NLEAD; c++)
		fprintf(f, "%s%s", c ? "," : "", lead[c].name);
	for (size_t i = 0; i < SF_COUNT; i++)
		fprintf(f, ",%s", sweep_figures[i].name);
	for (size_t m = 0; m < nmetrics; m++) {
		char h[SWEEP_METRIC_NAME_MAX + 8];

		snprintf(h, sizeof(h), "metric:%s", metrics[m].name);
		fputc(',', f);
		put_str(f, h);
	}
	for (size_t i = 0; i < n; i++)
		if (runs[i].ncpu > ncpu)
			ncpu = runs[i].ncpu;
	for (unsigned c = 0; c < ncpu; c++)
		for (int k = 0; k < SCP_COUNT; k++)
			fprintf(f, ",cpu%u_%s_pct", c, sweep_cpu_parts[k]);
	for (size_t c = 0; c < NTAIL; c++)
		fprintf(f, ",%s", tail[c].name);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		for (size_t c = 0; c < NLEAD; c++) {
			if (c)
				fputc(',', f);
			put_col(f, &lead[c], &runs[i]);
		}
		for (size_t k = 0; k < SF_COUNT; k++) {
			fputc(',', f);
			put_num(f, runs[i].fig[k]);
		}
		for (size_t m = 0; m < nmetrics; m++) {
			fputc(',', f);
			put_num(f, runs[i].metric[m]);
		}
		for (unsigned c = 0; c < ncpu; c++)
			for (int k = 0; k < SCP_COUNT; k++) {
				fputc(',', f);
				put_num(f, c < runs[i].ncpu ? runs[i].cpu[c][k] : NAN);
			}
		for (size_t c = 0; c < NTAIL; c++) {
			fputc(',', f);
			put_col(f, &tail[c], &runs[i]);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

struct csv_args {
	const struct sweep_run *runs;
	size_t n;
	const struct sweep_metric_opt *metrics;
	size_t nmetrics;
};

static int csv_writer(FILE *f, const void *arg)
{
	const struct csv_args *a = arg;

	return sweep_csv_write(f, a->runs, a->n, a->metrics, a->nmetrics);
}

int sweep_csv_save(const char *path, const struct sweep_run *runs, size_t n,
		   const struct sweep_metric_opt *metrics, size_t nmetrics, char *msg, size_t msg_size)
{
	struct csv_args a = { runs, n, metrics, nmetrics };

	return safe_save(path, csv_writer, &a, msg, msg_size);
}

/* Every column the writer can write: lead, figures, metrics, per-CPU
 * groups up to SWEEP_CPUS_MAX (the runner's limit), tail. */
#define CSV_FIELDS_MAX (NLEAD + SF_COUNT + SWEEP_METRICS_MAX + SWEEP_CPUS_MAX * SCP_COUNT + NTAIL)
/* Far above the longest line the writer writes (two quoted values, a
 * quoted snapshot path and CSV_FIELDS_MAX numbers of a few hundred
 * digits at most). */
#define CSV_LINE_MAX (1 << 20)

/* Split one CSV line in place (quotes honoured); returns the field count,
 * max + 1 when there are more than max (the rest is not split). */
static size_t split(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line, *w;

	for (;;) {
		if (n == max)
			return max + 1;
		fields[n++] = w = p;
		if (*p == '"') {
			p++;
			for (;;) {
				if (!*p)
					break;
				if (*p == '"' && p[1] == '"') {
					*w++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*w++ = *p++;
				}
			}
			while (*p && *p != ',')
				p++;
		} else {
			while (*p && *p != ',')
				*w++ = *p++;
		}
		if (*p != ',') {
			*w = '\0';
			return n;
		}
		p++;
		*w = '\0';
	}
}

static int get_col(const struct csv_col *c, const char *s, struct sweep_run *r)
{
	void *p = (char *)r + c->off;
	char *end;

	errno = 0;
	switch (c->type) {
	case CT_STR:
		/* What a file says reaches the report's terminal: sanitised. */
		if (strlen(s) >= c->len)
			return -EINVAL;
		format_sanitize(s, p, c->len);
		return 0;
	case CT_LONG:
		*(long *)p = strtol(s, &end, 10);
		break;
	case CT_SIZE:
		/* digits only: strtoull takes " -1" as 2^64 - 1 */
		if (s[strspn(s, "0123456789")])
			return -EINVAL;
		*(size_t *)p = (size_t)strtoull(s, &end, 10);
		break;
	case CT_INT: {
		long v = strtol(s, &end, 10);

		/* never wrapped: 2^32 + 3 is not an exit status of 3 */
		if (v < INT_MIN || v > INT_MAX)
			errno = ERANGE;
		*(int *)p = (int)v;
		break;
	}
	case CT_DOUBLE:
		if (!*s) {
			*(double *)p = NAN;
			return 0;
		}
		/* Decimal only (no blanks, hex, inf or nan; an exponent from
		 * files of older versions); a value too small for a normal
		 * double (the writer writes 4.9e-324 in full) is no error. */
		if (s[strspn(s, "0123456789.-+eE")])
			return -EINVAL;
		*(double *)p = strtod(s, &end);
		if (errno == ERANGE && fabs(*(double *)p) <= DBL_MIN)
			errno = 0;
		return *s && !*end && !errno && isfinite(*(double *)p) ? 0 : -EINVAL;
	}
	return *s && !*end && !errno ? 0 : -EINVAL;
}

/* The next line, its LF dropped: 1, 0 at the end, or -errno (msg names
 * the line). */
static int get_line(FILE *f, char **buf, size_t *cap, size_t lineno, char *msg, size_t len)
{
	ssize_t n;

	errno = 0;
	if ((n = getline(buf, cap, f)) < 0) {
		if (feof(f))
			return 0;
		snprintf(msg, len, "line %zu: %s", lineno, strerror(errno ? errno : EIO));
		return errno ? -errno : -EIO;
	}
	if ((size_t)n > CSV_LINE_MAX) {
		snprintf(msg, len, "line %zu: longer than %d bytes", lineno, CSV_LINE_MAX);
		return -EINVAL;
	}
	if (n && (*buf)[n - 1] == '\n')
		(*buf)[--n] = '\0';
	if (strlen(*buf) != (size_t)n) {
		snprintf(msg, len, "line %zu: a NUL byte", lineno);
		return -EINVAL;
	}
	return 1;
}

struct csv_head {
	char *name[CSV_FIELDS_MAX];
	/* per column: -1 unknown, else lead (0..), figure (100+), metric (1000+),
	 * tail (2000+), per-CPU split (3000 + cpu x parts + part) */
	int map[CSV_FIELDS_MAX];
	size_t n;
};

/* Where header column h goes. A column the runs cannot hold (a CPU past
 * SWEEP_CPUS_MAX, a ninth metric) is an error, never dropped; a name this
 * version does not know is skipped. */
static int head_column(const char *h, int *map, struct sweep_metric_opt *metrics, size_t *nmetrics, char *msg,
		       size_t len)
{
	unsigned cpu = 0;
	char part[16] = "";
	int used = 0, fig;

	*map = -1;
	for (size_t c = 0; c < NLEAD; c++)
		if (!strcmp(h, lead[c].name))
			*map = (int)c;
	for (size_t c = 0; c < NTAIL; c++)
		if (!strcmp(h, tail[c].name))
			*map = 2000 + (int)c;
	if ((fig = sweep_figure_lookup(h, NULL, 0)) >= 0)
		*map = 100 + fig;
	if (sscanf(h, "cpu%u_%15[a-z]_pct%n", &cpu, part, &used) == 2 && !h[used])
		for (int k = 0; k < SCP_COUNT; k++) {
			if (strcmp(part, sweep_cpu_parts[k]))
				continue;
			if (cpu >= SWEEP_CPUS_MAX) {
				snprintf(msg, len, "line 1: %.40s: more than %d CPUs", h, SWEEP_CPUS_MAX);
				return -EINVAL;
			}
			*map = 3000 + (int)cpu * SCP_COUNT + k;
		}
	if (!strncmp(h, "metric:", 7)) {
		if (*nmetrics == SWEEP_METRICS_MAX || strlen(h + 7) >= SWEEP_METRIC_NAME_MAX) {
			snprintf(msg, len, "line 1: %.40s: more than %d metrics or a name over %d bytes", h,
				 SWEEP_METRICS_MAX, SWEEP_METRIC_NAME_MAX - 1);
			return -EINVAL;
		}
		format_sanitize(h + 7, metrics[*nmetrics].name, SWEEP_METRIC_NAME_MAX);
		metrics[*nmetrics].regex = NULL;
		*map = 1000 + (int)(*nmetrics)++;
	}
	return 0;
}

static int read_head(char *line, struct csv_head *h, struct sweep_metric_opt *metrics, size_t *nmetrics, char *msg,
		     size_t len)
{
	int err;

	if ((h->n = split(line, h->name, CSV_FIELDS_MAX)) > CSV_FIELDS_MAX) {
		snprintf(msg, len, "line 1: more than %zu columns", (size_t)CSV_FIELDS_MAX);
		return -EINVAL;
	}
	for (size_t i = 0; i < h->n; i++)
		if ((err = head_column(h->name[i], &h->map[i], metrics, nmetrics, msg, len)) < 0)
			return err;
	if (h->n < 2 || h->map[0] != 0) {
		snprintf(msg, len, "line 1: not a blktune sweep CSV header");
		return -EINVAL;
	}
	return 0;
}

static int read_row(char *line, size_t lineno, const struct csv_head *h, struct sweep_run *r, char *msg, size_t len)
{
	char *vf[CSV_FIELDS_MAX];
	size_t nv;

	sweep_run_init(r);
	if ((nv = split(line, vf, CSV_FIELDS_MAX)) != h->n) {
		if (nv > CSV_FIELDS_MAX)
			snprintf(msg, len, "line %zu: more than %zu fields, the header has %zu", lineno,
				 (size_t)CSV_FIELDS_MAX, h->n);
		else
			snprintf(msg, len, "line %zu: %zu fields, the header has %zu", lineno, nv, h->n);
		return -EINVAL;
	}
	for (size_t i = 0; i < h->n; i++) {
		int err = 0, m = h->map[i];
		if (m < 0)
			continue;
		if (m < 100)
			err = get_col(&lead[m], vf[i], r);
		else if (m < 1000)
			err = get_col(&(struct csv_col){ "", CT_DOUBLE,
				offsetof(struct sweep_run, fig) + (size_t)(m - 100) * sizeof(double), 8 }, vf[i], r);
		else if (m < 2000)
			err = get_col(&(struct csv_col){ "", CT_DOUBLE,
				offsetof(struct sweep_run, metric) + (size_t)(m - 1000) * sizeof(double), 8 }, vf[i], r);
		else if (m < 3000)
			err = get_col(&tail[m - 2000], vf[i], r);
		else {
			unsigned cpu = (unsigned)(m - 3000) / SCP_COUNT;
			err = get_col(&(struct csv_col){ "", CT_DOUBLE,
				offsetof(struct sweep_run, cpu) + (size_t)(m - 3000) * sizeof(double), 8 }, vf[i], r);
			if (*vf[i] && cpu + 1 > r->ncpu)
				r->ncpu = cpu + 1;
		}
		if (err) {
			snprintf(msg, len, "line %zu: bad %s '%.40s'", lineno, h->name[i], vf[i]);
			return -EINVAL;
		}
	}
	return 0;
}

int sweep_csv_read(FILE *f, struct sweep_run *runs, size_t max, struct sweep_metric_opt *metrics,
		   size_t *nmetrics, char *msg, size_t len)
{
	struct csv_head h;
	char *head = NULL, *line = NULL;
	size_t hcap = 0, lcap = 0, n = 0, lineno = 1;
	int err;

	*nmetrics = 0;
	if ((err = get_line(f, &head, &hcap, lineno, msg, len)) <= 0) {
		if (!err) {
			snprintf(msg, len, "line 1: no CSV header");
			err = -EINVAL;
		}
		goto out;
	}
	if ((err = read_head(head, &h, metrics, nmetrics, msg, len)) < 0)
		goto out;
	while ((err = get_line(f, &line, &lcap, ++lineno, msg, len)) > 0) {
		if (!*line)
			continue;
		if (n == max) {
			snprintf(msg, len, "line %zu: more than %zu runs", lineno, max);
			err = -EINVAL;
			break;
		}
		if ((err = read_row(line, lineno, &h, &runs[n], msg, len)) < 0)
			break;
		n++;
	}
out:
	free(head);
	free(line);
	return err < 0 ? err : (int)n;
}
