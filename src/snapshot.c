#include "snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "format.h"
#include "safe-file.h"

static const char *const pct_names[] = { "p50", "p90", "p99" };
static const char *const completion_names[] = { "kernel", "traced" };
static const double pct_at[] = { 0.50, 0.90, 0.99 };

const struct snapshot_vec_def snapshot_vecs[SNAP_VEC_COUNT] = {
	[SNAP_VEC_SIZE_READ] = { "trace", "size_read", SNAP_VEC_HIST, TRACE_SIZE_BUCKETS, "bytes",
				 trace_size_bucket_le, NULL, "read request sizes (traced)" },
	[SNAP_VEC_SIZE_WRITE] = { "trace", "size_write", SNAP_VEC_HIST, TRACE_SIZE_BUCKETS, "bytes",
				  trace_size_bucket_le, NULL, "write request sizes (traced)" },
	[SNAP_VEC_LAT] = { "trace", "lat_us", SNAP_VEC_HIST, TRACE_LAT_BUCKETS, "us", trace_lat_bucket_le_us,
			   NULL, "request latency, allocation to completion (traced)" },
	[SNAP_VEC_LAT_PCT] = { "trace", "lat_pct_us", SNAP_VEC_VALUES, 3, "us", NULL, pct_names,
			       "latency percentiles (bucket resolution)" },
	[SNAP_VEC_CPU_ISSUED] = { "trace", "cpu_issued", SNAP_VEC_PERCPU, 0, "requests", NULL, NULL,
				  "requests issued per CPU (traced)" },
	[SNAP_VEC_CPU_COMPLETED] = { "trace", "cpu_completed", SNAP_VEC_PERCPU, 0, "requests", NULL, NULL,
				     "requests completed per CPU (traced)" },
	[SNAP_VEC_COMPLETIONS] = { "trace", "completions", SNAP_VEC_VALUES, 2, "requests", NULL, completion_names,
				   "completions: the kernel's (diskstats) and traced" },
};

void snapshot_init(struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
}

static void dev_free(struct snapshot_dev *d)
{
	free(d->tun);
	for (size_t i = 0; i < d->nvec; i++)
		free(d->vec[i].v);
	free(d->vec);
}

void snapshot_free(struct snapshot *s)
{
	for (size_t i = 0; i < s->ndev; i++)
		dev_free(&s->dev[i]);
	free(s->dev);
	free(s->byname);
	snapshot_init(s);
}

static struct snapshot_dev *add_dev(struct snapshot *s)
{
	struct snapshot_dev *d;

	/* The capacity is ndev rounded up to a power of two: grow on reaching one. */
	if ((s->ndev & (s->ndev - 1)) == 0) {
		size_t cap = s->ndev ? s->ndev * 2 : 1;
		struct snapshot_dev *nd = realloc(s->dev, cap * sizeof(*nd));
		if (!nd)
			return NULL;
		s->dev = nd;
	}
	d = &s->dev[s->ndev++];
	memset(d, 0, sizeof(*d));
	return d;
}

static struct snapshot_tunable *add_tunable(struct snapshot_dev *d)
{
	if ((d->ntun & (d->ntun - 1)) == 0) {
		size_t cap = d->ntun ? d->ntun * 2 : 1;
		struct snapshot_tunable *nt = realloc(d->tun, cap * sizeof(*nt));
		if (!nt)
			return NULL;
		d->tun = nt;
	}
	return &d->tun[d->ntun++];
}

int snapshot_dev_add_vec(struct snapshot_dev *d, enum snapshot_vec_id id, const double *v, size_t n)
{
	struct snapshot_vec *nv;

	if (d->nvec && d->vec[d->nvec - 1].id >= id)
		return -EINVAL;
	if (!(nv = realloc(d->vec, (d->nvec + 1) * sizeof(*nv))))
		return -ENOMEM;
	d->vec = nv;
	nv = &d->vec[d->nvec];
	nv->id = id;
	nv->n = n;
	if (!(nv->v = malloc((n ? n : 1) * sizeof(double))))
		return -ENOMEM;
	memcpy(nv->v, v, n * sizeof(double));
	d->nvec++;
	return 0;
}

const struct snapshot_vec *snapshot_dev_vec(const struct snapshot_dev *d, enum snapshot_vec_id id)
{
	for (size_t i = 0; i < d->nvec; i++)
		if (d->vec[i].id == id)
			return &d->vec[i];
	return NULL;
}

bool snapshot_dev_counted(const struct snapshot_dev *d, enum column_id c)
{
	enum column_id rate = columns[c].per ? columns[c].per : c;

	return !columns[c].min_fields || !d->n || d->st[rate].n > 0;
}

struct name_idx {
	const char *name;
	size_t i;
};

static int by_name(const void *a, const void *b)
{
	const struct name_idx *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* s's device indices sorted by name, equal names in dev order: an array
 * of ndev, or NULL (none, or out of memory). */
static size_t *sort_names(const struct snapshot *s)
{
	struct name_idx *t = s->ndev ? malloc(s->ndev * sizeof(*t)) : NULL;
	size_t *idx = t ? malloc(s->ndev * sizeof(*idx)) : NULL;

	if (!idx) {
		free(t);
		return NULL;
	}
	for (size_t i = 0; i < s->ndev; i++)
		t[i] = (struct name_idx){ s->dev[i].name, i };
	qsort(t, s->ndev, sizeof(*t), by_name);
	for (size_t i = 0; i < s->ndev; i++)
		idx[i] = t[i].i;
	free(t);
	return idx;
}

/* Of the devices whose name an earlier device has, the first in dev order
 * (the one a reader stops at), or SIZE_MAX; *first is that earlier one. */
static size_t second_name(const struct snapshot *s, const size_t *idx, size_t *first)
{
	size_t second = SIZE_MAX;

	for (size_t k = 0; k + 1 < s->ndev; k++)
		if (!strcmp(s->dev[idx[k]].name, s->dev[idx[k + 1]].name) && idx[k + 1] < second) {
			second = idx[k + 1];
			*first = idx[k];
		}
	return second;
}

/* Make s->byname; out of memory leaves it NULL (snapshot_find scans). */
static void index_names(struct snapshot *s)
{
	free(s->byname);
	s->byname = sort_names(s);
	s->nbyname = s->byname ? s->ndev : 0;
}

const struct snapshot_dev *snapshot_find(const struct snapshot *s, const char *name)
{
	size_t lo = 0, hi = s->nbyname;

	if (!s->byname || s->nbyname != s->ndev) {
		for (size_t i = 0; i < s->ndev; i++)
			if (!strcmp(s->dev[i].name, name))
				return &s->dev[i];
		return NULL;
	}
	/* the lowest position whose name is not below name: the first of equals */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(s->dev[s->byname[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nbyname && !strcmp(s->dev[s->byname[lo]].name, name) ? &s->dev[s->byname[lo]] : NULL;
}

const char *snapshot_tunable(const struct snapshot_dev *d, const char *name)
{
	for (size_t i = 0; i < d->ntun; i++)
		if (!strcmp(d->tun[i].name, name))
			return d->tun[i].value;
	return NULL;
}

/* ---- capture ---- */

static int add_counts(struct snapshot_dev *d, enum snapshot_vec_id id, const uint64_t *c, size_t n)
{
	double v[SNAPSHOT_VEC_MAX];

	if (n > SNAPSHOT_VEC_MAX)
		n = SNAPSHOT_VEC_MAX;
	for (size_t i = 0; i < n; i++)
		v[i] = (double)c[i];
	return snapshot_dev_add_vec(d, id, v, n);
}

static int capture_trace(struct snapshot_dev *d, const struct series_trace *t)
{
	double pct[3], done[2];
	int err;

	for (int i = 0; i < 3; i++)
		pct[i] = trace_lat_percentile_us(t->lat, pct_at[i]);
	if ((err = add_counts(d, SNAP_VEC_SIZE_READ, t->size[0], TRACE_SIZE_BUCKETS)) < 0 ||
	    (err = add_counts(d, SNAP_VEC_SIZE_WRITE, t->size[1], TRACE_SIZE_BUCKETS)) < 0 ||
	    (err = add_counts(d, SNAP_VEC_LAT, t->lat, TRACE_LAT_BUCKETS)) < 0 ||
	    (err = snapshot_dev_add_vec(d, SNAP_VEC_LAT_PCT, pct, 3)) < 0)
		return err;
	/* none when no interval of the window had a traced event */
	if (t->ncpu && ((err = add_counts(d, SNAP_VEC_CPU_ISSUED, t->cpu_issued, t->ncpu)) < 0 ||
			(err = add_counts(d, SNAP_VEC_CPU_COMPLETED, t->cpu_completed, t->ncpu)) < 0))
		return err;
	done[0] = (double)t->kernel;
	done[1] = (double)t->completed;
	return snapshot_dev_add_vec(d, SNAP_VEC_COMPLETIONS, done, 2);
}

double snapshot_trace_gap_pct(const struct snapshot_dev *d)
{
	const struct snapshot_vec *v = snapshot_dev_vec(d, SNAP_VEC_COMPLETIONS);

	if (!v || v->n != 2 || !(v->v[0] > 0))
		return NAN;
	return (v->v[0] - v->v[1]) / v->v[0] * 100.0;
}

bool snapshot_trace_gap(const struct snapshot_dev *d, double *pct, double *kernel, double *traced)
{
	double gap = snapshot_trace_gap_pct(d);
	const struct snapshot_vec *v;

	if (!(fabs(gap) > SNAPSHOT_TRACE_GAP_WARN_PCT))
		return false;
	v = snapshot_dev_vec(d, SNAP_VEC_COMPLETIONS);
	*pct = gap;
	*kernel = v->v[0];
	*traced = v->v[1];
	return true;
}

/* Writable or not, every tunable the panel lists: a read-only one (a
 * managed IRQ) still explains a difference between A and B. */
static int capture_tunables(struct snapshot_dev *d, struct tunable_session *ts, struct tunable_info *info)
{
	char msg[TUNABLE_MSG_MAX];
	int n = tunable_list(ts, d->name, info, TUNABLE_LIST_MAX, msg, sizeof(msg));

	/* Partitions and bio-based devices without a queue have none. */
	for (int i = 0; i < n; i++) {
		struct snapshot_tunable *t = add_tunable(d);
		if (!t)
			return -ENOMEM;
		/* Values come from sysfs files: keep them to text a reader accepts. */
		format_sanitize(info[i].name, t->name, sizeof(t->name));
		format_sanitize(info[i].value, t->value, sizeof(t->value));
	}
	return 0;
}

int snapshot_record_change(struct series *se, struct tunable_session *ts, dev_t dev, const char *name, double t)
{
	struct tunable_info *info = ts ? calloc(TUNABLE_LIST_MAX, sizeof(*info)) : NULL;
	struct series_tunable *tv = ts ? calloc(TUNABLE_LIST_MAX, sizeof(*tv)) : NULL;
	char msg[TUNABLE_MSG_MAX];
	int n = 0, err;

	if (ts && (!info || !tv)) {
		free(info);
		free(tv);
		series_mark_change(se, dev, name, t);
		return -ENOMEM;
	}
	if (ts && (n = tunable_list(ts, name, info, TUNABLE_LIST_MAX, msg, sizeof(msg))) < 0)
		n = 0; /* no queue (a partition): the change is still a boundary */
	for (int i = 0; i < n; i++) {
		snprintf(tv[i].name, sizeof(tv[i].name), "%s", info[i].name);
		snprintf(tv[i].value, sizeof(tv[i].value), "%s", info[i].value);
	}
	err = series_set_tunables(se, dev, name, t, tv, (size_t)n);
	free(info);
	free(tv);
	return err;
}

/* The values the series recorded in force during the window. */
static int recorded_tunables(struct snapshot_dev *d, const struct series_window *w)
{
	for (size_t i = 0; i < w->ntun; i++) {
		struct snapshot_tunable *t = add_tunable(d);
		if (!t)
			return -ENOMEM;
		snprintf(t->name, sizeof(t->name), "%s", w->tun[i].name);
		snprintf(t->value, sizeof(t->value), "%s", w->tun[i].value);
	}
	return 0;
}

int snapshot_capture(struct snapshot *s, const struct snapshot_source *src, char *msg, size_t len)
{
	double wall = (double)src->wall_now.tv_sec + src->wall_now.tv_nsec / 1e9;
	struct tunable_info *info = src->ts ? calloc(TUNABLE_LIST_MAX, sizeof(*info)) : NULL;
	struct series_window w;
	struct utsname u;
	size_t idle_only = 0;
	int err = 0;

	snapshot_init(s);
	if (src->ts && !info)
		return -ENOMEM;
	uname(&u);
	format_sanitize(src->host ? src->host : u.nodename, s->host, sizeof(s->host));
	format_sanitize(src->kernel ? src->kernel : u.release, s->kernel, sizeof(s->kernel));
	s->time = wall;
	s->window = series_window(src->series);
	series_window_init(&w);
	for (size_t i = 0; i < series_count(src->series) && !err; i++) {
		struct snapshot_dev *d;
		unsigned long long diskseq;
		const char *name;
		dev_t dev;

		series_device(src->series, i, &dev, &name, &diskseq);
		if (src->only && strcmp(src->only, name))
			continue;
		err = src->busy_only ? series_window_get_busy(src->series, dev, name, &w)
				     : series_window_get(src->series, dev, name, &w);
		if (err < 0)
			break;
		if (w.n == 0) {
			idle_only += w.idle;
			continue;
		}
		if (!(d = add_dev(s))) {
			err = -ENOMEM;
			break;
		}
		snprintf(d->name, sizeof(d->name), "%s", name);
		d->major = major(dev);
		d->minor = minor(dev);
		d->diskseq = diskseq;
		d->start = wall - (src->t_now - w.t_start);
		d->end = wall - (src->t_now - w.t_end);
		d->n = w.n;
		d->idle = src->busy_only ? w.idle : 0;
		d->partial = w.partial;
		memcpy(d->st, w.st, sizeof(d->st));
		if (w.tun)
			err = recorded_tunables(d, &w);
		else if (info)
			err = capture_tunables(d, src->ts, info);
		if (err < 0)
			break;
		if (w.traced && (err = capture_trace(d, &w.trace)) < 0)
			break;
	}
	series_window_free(&w);
	free(info);
	if (!err)
		index_names(s);
	if (err) {
		snapshot_free(s);
		snprintf(msg, len, "snapshot: %s", strerror(-err));
	}
	else if (s->ndev == 0) {
		err = -ENOENT;
		if (idle_only && src->only)
			snprintf(msg, len, "%s had no I/O since its last change (%zu idle intervals)", src->only,
				 idle_only);
		else if (src->only)
			snprintf(msg, len, "%s has no complete interval since its last change yet", src->only);
		else
			snprintf(msg, len, "no device has a complete interval since its last change yet");
	}
	return err;
}

/* ---- writer ---- */

/* What a span and a stat line may hold, for the writer and the reader
 * alike: a span is two dates from 1970 to 9999 (as time is), the end not
 * before the start. */
static bool date_ok(double t)
{
	return t >= 0 && t < FORMAT_DATE_END;
}

static bool span_ok(double start, double end)
{
	return date_ok(start) && date_ok(end) && end >= start;
}

/* Relative slack of a mean against its bounds: the writer's %.17g comes
 * back bit for bit, so this is only for the arithmetic that made the mean
 * (a mean of values all in [min, max] rounds at most a few ulps out). */
#define STAT_MEAN_SLACK 1e-9

/* A summary some data could have: n values; the mean within [min, max];
 * an sd (not negative) exactly when n >= 2, 0 when every value was the
 * same (min == max); one value is its own min and max. */
static bool stat_ok(const struct stats_summary *st)
{
	double slack = STAT_MEAN_SLACK * fmax(fabs(st->min), fabs(st->max));

	if (st->n == 0 || isnan(st->mean) || isnan(st->min) || isnan(st->max) || !(st->min <= st->max) ||
	    (st->n >= 2) == isnan(st->sd) || st->sd < 0)
		return false;
	if (!(st->mean >= st->min - slack && st->mean <= st->max + slack))
		return false;
	if (st->n == 1)
		return st->min == st->max;
	return st->min < st->max || st->sd == 0;
}

/* Whether every span and stat of s passes its reader, so nothing is
 * written that would be refused. */
static bool spans_stats_ok(const struct snapshot *s)
{
	for (size_t i = 0; i < s->ndev; i++) {
		const struct snapshot_dev *d = &s->dev[i];

		if (!span_ok(d->start, d->end))
			return false;
		for (int c = 0; c < COLUMN_COUNT; c++)
			if (columns[c].type == COL_NUM && d->st[c].n && !stat_ok(&d->st[c]))
				return false;
	}
	return true;
}

static void put_num(FILE *f, double v)
{
	if (isnan(v))
		fputs(" nan", f);
	else
		fprintf(f, " %.17g", v);
}

/* Names are single words; values run to the end of the line. Reader and
 * writer accept exactly the same text: format_text_ok. */
static bool word_ok(const char *s)
{
	return format_text_ok(s, true);
}

static bool rest_ok(const char *s)
{
	return format_text_ok(s, false);
}

/* The second device under a name (the reader refuses it), or NULL; *first
 * the first one. -ENOMEM when there is no memory to tell. */
static int name_twice(const struct snapshot *s, const struct snapshot_dev **first,
		      const struct snapshot_dev **twice)
{
	size_t *idx = sort_names(s), a = 0, b;

	*twice = NULL;
	if (!idx)
		return s->ndev ? -ENOMEM : 0;
	if ((b = second_name(s, idx, &a)) != SIZE_MAX) {
		*first = &s->dev[a];
		*twice = &s->dev[b];
	}
	free(idx);
	return 0;
}

/* What of s its reader would refuse, checked once before a byte is
 * written: -EINVAL for a device name twice, -ERANGE for a span or stat no
 * interval could give (msg, when not NULL, says which), -ENOMEM, or 0. */
static int refusal(const struct snapshot *s, char *msg, size_t len)
{
	const struct snapshot_dev *twice, *first = NULL;
	int err = name_twice(s, &first, &twice);

	if (err < 0) {
		if (msg)
			snprintf(msg, len, "%s", strerror(-err));
		return err;
	}
	if (twice) {
		if (msg)
			snprintf(msg, len, "device %s appears twice (%u:%u and %u:%u): not saved", twice->name,
				 first->major, first->minor, twice->major, twice->minor);
		return -EINVAL;
	}
	if (!spans_stats_ok(s)) {
		if (msg)
			snprintf(msg, len, "a span or figure no interval could give (its reader would refuse it): not saved");
		return -ERANGE;
	}
	return 0;
}

/* The records of s, refusal() already passed. */
static int write_records(const struct snapshot *s, FILE *f)
{
	fprintf(f, "%s %d\nhost %s\nkernel %s\ntime %.6f\nwindow %.17g\n", SNAPSHOT_MAGIC, SNAPSHOT_VERSION,
		word_ok(s->host) ? s->host : "unknown", word_ok(s->kernel) ? s->kernel : "unknown", s->time,
		s->window);
	for (size_t i = 0; i < s->ndev; i++) {
		const struct snapshot_dev *d = &s->dev[i];

		if (!word_ok(d->name))
			return -EINVAL;
		fprintf(f, "device %s %u:%u %llu\nspan %.6f %.6f %zu %zu %zu\n", d->name, d->major, d->minor,
			d->diskseq, d->start, d->end, d->n, d->idle, d->partial);
		for (int c = 0; c < COLUMN_COUNT; c++) {
			const struct stats_summary *st = &d->st[c];
			if (columns[c].type != COL_NUM || st->n == 0)
				continue;
			fprintf(f, "stat %s %zu", columns[c].json, st->n);
			put_num(f, st->mean);
			put_num(f, st->sd);
			put_num(f, st->min);
			put_num(f, st->max);
			fputc('\n', f);
		}
		for (size_t t = 0; t < d->ntun; t++) {
			if (!word_ok(d->tun[t].name) || !rest_ok(d->tun[t].value))
				return -EINVAL;
			fprintf(f, "tunable %s %s\n", d->tun[t].name, d->tun[t].value);
		}
		for (size_t v = 0; v < d->nvec; v++) {
			const struct snapshot_vec_def *def = &snapshot_vecs[d->vec[v].id];
			fprintf(f, "vec %s %s", def->block, def->key);
			for (size_t k = 0; k < d->vec[v].n; k++)
				put_num(f, d->vec[v].v[k]);
			fputc('\n', f);
		}
		fputs("end-device\n", f);
	}
	fprintf(f, "end %zu\n", s->ndev);
	return ferror(f) ? -EIO : 0;
}

int snapshot_write(const struct snapshot *s, FILE *f)
{
	int err = refusal(s, NULL, 0);

	return err < 0 ? err : write_records(s, f);
}

int snapshot_default_dir(char *out, size_t len, char *msg, size_t msg_size)
{
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	int n;

	/* The XDG spec says a relative XDG_STATE_HOME is invalid: ignore it. */
	if (xdg && xdg[0] == '/')
		n = snprintf(out, len, "%s/blktune", xdg);
	else if (home && home[0] == '/')
		n = snprintf(out, len, "%s/.local/state/blktune", home);
	else {
		snprintf(msg, msg_size, "neither XDG_STATE_HOME nor HOME is an absolute path");
		return -ENOENT;
	}
	if (n < 0 || (size_t)n >= len) {
		/* the reason first: a name that long would push it out of msg */
		snprintf(msg, msg_size, "state directory name too long (%d bytes, at most %zu): %.60s...", n, len - 1,
			 out);
		return -ENAMETOOLONG;
	}
	return safe_dir_check(out, true, msg, msg_size);
}

/* Write, flush and fsync s into fd (closed here). */
static int write_fd(const struct snapshot *s, int fd)
{
	FILE *f = fdopen(fd, "w");
	int err;

	if (!f) {
		err = -errno;
		close(fd);
		return err;
	}
	err = write_records(s, f);
	if (fflush(f) != 0 && !err)
		err = -errno;
	if (!err && fsync(fileno(f)) < 0)
		err = -errno;
	if (fclose(f) != 0 && !err)
		err = -errno;
	return err;
}

int snapshot_save(const struct snapshot *s, const char *dir, const char *label, char *path, size_t plen,
		  char *msg, size_t len)
{
	char def[PATH_MAX], tmp[64], name[NAME_MAX + 1], stamp[32], why[SNAPSHOT_MSG_MAX];
	struct safe_dir d;
	int fd, err;

	/* A file its own reader refuses is never written, nor its temporary. */
	if (!date_ok(s->time)) {
		snprintf(msg, len, "the snapshot's time %.0f is no date from 1970 to 9999: not saved", s->time);
		return -ERANGE;
	}
	if ((err = refusal(s, msg, len)) < 0)
		return err;
	if (!dir) {
		if ((err = snapshot_default_dir(def, sizeof(def), why, sizeof(why))) < 0) {
			/* Which directory could not be written, and where else to put them. */
			snprintf(msg, len, "%s (set XDG_STATE_HOME)", why);
			return err;
		}
		dir = def;
	}
	/* The journal's rules: a directory only this user controls, a new
	 * temporary file, never a link followed. */
	if ((err = safe_dir_open(dir, true, &d, why, sizeof(why))) < 0) {
		snprintf(msg, len, "snapshot directory %s", why);
		return err;
	}
	/* Every save holds the directory's lock while its temporary file
	 * exists, so one found under the lock was left by a killed save. */
	if ((err = safe_dir_lock(&d)) < 0) {
		snprintf(msg, len, "locking %s: %s", dir, strerror(-err));
		safe_dir_close(&d);
		return err;
	}
	safe_remove_stale(&d, ".snapshot");
	if ((fd = safe_create_tmp(&d, ".snapshot", tmp, sizeof(tmp), why, sizeof(why))) < 0) {
		snprintf(msg, len, "%s", why);
		safe_dir_close(&d); /* closing the last descriptor drops the lock */
		return fd;
	}
	if ((err = write_fd(s, fd)) < 0) {
		safe_unlink(&d, tmp);
		snprintf(msg, len, "writing %s/%s: %s", dir, tmp, strerror(-err));
		safe_dir_close(&d);
		return err;
	}
	/* No date, no "n/a" in a file name: zeros. */
	if (format_time(s->time, "%Y%m%d-%H%M%S", stamp, sizeof(stamp)) < 0)
		snprintf(stamp, sizeof(stamp), "00000000-000000");
	/* A link is a rename that never replaces an existing snapshot: another
	 * take in the same second gets the next number. */
	for (int k = 1;; k++) {
		if (k == 1)
			snprintf(name, sizeof(name), "%s-%s.snap", stamp, label);
		else
			snprintf(name, sizeof(name), "%s-%s-%d.snap", stamp, label, k);
		if ((err = safe_link(&d, tmp, name)) == 0)
			break;
		if (err != -EEXIST || k == 1000) {
			safe_unlink(&d, tmp);
			snprintf(msg, len, "%s/%s: %s", dir, name, strerror(-err));
			safe_dir_close(&d);
			return err;
		}
	}
	snprintf(path, plen, "%s/%s", dir, name);
	safe_unlink(&d, tmp);
	err = safe_dir_sync(&d);
	safe_dir_close(&d);
	if (err < 0) {
		snprintf(msg, len, "fsync %s: %s", dir, strerror(-err));
		return err;
	}
	snprintf(msg, len, "saved %s", path);
	return 0;
}

/* ---- reader ---- */

enum rec { REC_MAGIC, REC_HOST, REC_KERNEL, REC_TIME, REC_WINDOW, REC_DEVICE, REC_SPAN, REC_STAT,
	   REC_TUNABLE, REC_VEC, REC_END_DEVICE, REC_END, REC_COUNT };

/* Order of the records: each may follow only the records whose rank is at
 * most its own (device blocks repeat: device follows end-device). */
static const char *const rec_names[REC_COUNT] = {
	[REC_MAGIC] = SNAPSHOT_MAGIC, [REC_HOST] = "host", [REC_KERNEL] = "kernel", [REC_TIME] = "time",
	[REC_WINDOW] = "window", [REC_DEVICE] = "device", [REC_SPAN] = "span", [REC_STAT] = "stat",
	[REC_TUNABLE] = "tunable", [REC_VEC] = "vec", [REC_END_DEVICE] = "end-device", [REC_END] = "end",
};

struct parser {
	const char *name;
	size_t line;
	char *msg;
	size_t len;
	enum rec last;      /* previous record */
	int version;
	int last_stat, last_vec;
	struct snapshot *s;
	size_t *dev_line; /* the line of each device record: a name twice is checked at 'end' */
};

static int perr(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(struct parser *p, const char *fmt, ...)
{
	char why[256], full[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	/* The reason may quote the file: never let it move the terminal. */
	snprintf(full, sizeof(full), "%s:%zu: %s", p->name, p->line, why);
	format_sanitize(full, p->msg, p->len);
	return -EINVAL;
}

/* Next space-separated word of *pos (NUL-terminated in place), or NULL. */
static char *word(char **pos)
{
	char *w = *pos, *e;

	if (!w || !*w)
		return NULL;
	e = strchr(w, ' ');
	if (e) {
		*e = '\0';
		*pos = e + 1;
	} else {
		*pos = w + strlen(w);
	}
	return w;
}

static int num(struct parser *p, char **pos, const char *what, double *out)
{
	char *w = word(pos), *end;

	if (!w)
		return perr(p, "missing %s", what);
	errno = 0;
	*out = strtod(w, &end);
	if (*end || end == w || errno == ERANGE || isinf(*out))
		return perr(p, "%s '%.40s' is not a number", what, w);
	return 0;
}

static int count(struct parser *p, char **pos, const char *what, size_t max, size_t *out)
{
	char *w = word(pos), *end;
	unsigned long long v;

	if (!w)
		return perr(p, "missing %s", what);
	if (w[0] < '0' || w[0] > '9')
		return perr(p, "%s '%.40s' is not a count", what, w);
	errno = 0;
	v = strtoull(w, &end, 10);
	if (*end || errno || v > max)
		return perr(p, "%s '%.40s' is not a count up to %zu", what, w, max);
	*out = (size_t)v;
	return 0;
}

static int no_more(struct parser *p, char **pos)
{
	return *pos && **pos ? perr(p, "unexpected '%.40s' at the end of the line", *pos) : 0;
}

static struct snapshot_dev *cur_dev(struct parser *p)
{
	return &p->s->dev[p->s->ndev - 1];
}

static int rec_device(struct parser *p, char **pos)
{
	char *name = word(pos), *mm = word(pos), *end;
	struct snapshot_dev *d;
	unsigned long ma, mi;

	if (!name || !mm)
		return perr(p, p->version == 1 ? "expected 'device NAME MAJOR:MINOR'"
					       : "expected 'device NAME MAJOR:MINOR DISKSEQ'");
	if (strlen(name) >= sizeof(d->name))
		return perr(p, "device name too long");
	if (!word_ok(name))
		return perr(p, "device name with control characters or bytes that are not UTF-8");
	if (p->s->ndev >= SNAPSHOT_DEVS_MAX)
		return perr(p, "more than %d devices", SNAPSHOT_DEVS_MAX);
	if (mm[0] < '0' || mm[0] > '9')
		return perr(p, "'%.40s' is not MAJOR:MINOR", mm);
	ma = strtoul(mm, &end, 10);
	if (*end != ':' || end[1] < '0' || end[1] > '9' || ma > 4095)
		return perr(p, "'%.40s' is not MAJOR:MINOR", mm);
	mi = strtoul(end + 1, &end, 10);
	if (*end || mi > 1048575)
		return perr(p, "'%.40s' is not MAJOR:MINOR", mm);
	if ((p->s->ndev & (p->s->ndev - 1)) == 0) {
		size_t *nl = realloc(p->dev_line, (p->s->ndev ? p->s->ndev * 2 : 1) * sizeof(*nl));

		if (!nl)
			return -ENOMEM;
		p->dev_line = nl;
	}
	p->dev_line[p->s->ndev] = p->line;
	if (!(d = add_dev(p->s)))
		return -ENOMEM;
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->major = (unsigned)ma;
	d->minor = (unsigned)mi;
	p->last_stat = p->last_vec = -1;
	/* Version 1 files predate diskseq: 0, "unknown", as where the kernel has none. */
	if (p->version >= 2) {
		char *seq = word(pos);
		errno = 0;
		if (!seq || seq[0] < '0' || seq[0] > '9' || (d->diskseq = strtoull(seq, &end, 10), *end) || errno)
			return perr(p, "expected 'device NAME MAJOR:MINOR DISKSEQ'");
	}
	return no_more(p, pos);
}

static int rec_span(struct parser *p, char **pos)
{
	struct snapshot_dev *d = cur_dev(p);
	int err;

	if ((err = num(p, pos, "start", &d->start)) || (err = num(p, pos, "end", &d->end)) ||
	    (err = count(p, pos, "intervals", SIZE_MAX / 2, &d->n)))
		return err;
	/* Idle intervals left out: absent in files written before it existed. */
	if (**pos && (err = count(p, pos, "idle intervals", SIZE_MAX / 2, &d->idle)))
		return err;
	if (**pos && (err = count(p, pos, "partial intervals", SIZE_MAX / 2, &d->partial)))
		return err;
	if (!date_ok(d->start) || !date_ok(d->end))
		return perr(p, "span start or end is not a date between 1970 and 9999");
	if (!span_ok(d->start, d->end))
		return perr(p, "span ends before it starts");
	return no_more(p, pos);
}

static int rec_stat(struct parser *p, char **pos)
{
	struct snapshot_dev *d = cur_dev(p);
	char *key = word(pos);
	struct stats_summary st;
	int c, err;

	if (!key)
		return perr(p, "expected 'stat KEY N MEAN SD MIN MAX'");
	c = column_find(key);
	if (c < 0 || columns[c].type != COL_NUM || strcmp(columns[c].json, key))
		return perr(p, "unknown metric '%.40s'", key);
	if (c <= p->last_stat)
		return perr(p, "metric %s %s", key, c == p->last_stat ? "twice" : "out of order");
	p->last_stat = c;
	if ((err = count(p, pos, "n", d->n, &st.n)) || (err = num(p, pos, "mean", &st.mean)) ||
	    (err = num(p, pos, "sd", &st.sd)) || (err = num(p, pos, "min", &st.min)) ||
	    (err = num(p, pos, "max", &st.max)))
		return err;
	if (!stat_ok(&st))
		return perr(p, "metric %s: inconsistent n, mean, sd, min, max", key);
	d->st[c] = st;
	return no_more(p, pos);
}

static int rec_tunable(struct parser *p, char **pos)
{
	struct snapshot_dev *d = cur_dev(p);
	struct snapshot_tunable *t;
	char *name = word(pos);

	if (!name || !*name)
		return perr(p, "expected 'tunable NAME VALUE'");
	if (strlen(name) >= sizeof(t->name) || strlen(*pos) >= sizeof(t->value))
		return perr(p, "tunable name or value too long");
	if (!word_ok(name) || !rest_ok(*pos))
		return perr(p, "tunable name or value with control characters or bytes that are not UTF-8");
	/* what a capture writes at most; and each is checked against the others */
	if (d->ntun >= TUNABLE_LIST_MAX)
		return perr(p, "more than %d tunables for device %s", TUNABLE_LIST_MAX, d->name);
	if (snapshot_tunable(d, name))
		return perr(p, "tunable %s twice", name);
	if (!(t = add_tunable(d)))
		return -ENOMEM;
	snprintf(t->name, sizeof(t->name), "%s", name);
	snprintf(t->value, sizeof(t->value), "%s", *pos);
	*pos += strlen(*pos);
	return 0;
}

static int rec_vec(struct parser *p, char **pos)
{
	double v[SNAPSHOT_VEC_MAX];
	struct snapshot_dev *d = cur_dev(p);
	char *block = word(pos), *key = word(pos);
	const struct snapshot_vec_def *def = NULL;
	size_t n = 0;
	int id, err;

	if (!block || !key)
		return perr(p, "expected 'vec BLOCK KEY VALUES'");
	for (id = 0; id < SNAP_VEC_COUNT; id++)
		if (!strcmp(snapshot_vecs[id].block, block) && !strcmp(snapshot_vecs[id].key, key))
			break;
	if (id == SNAP_VEC_COUNT)
		return perr(p, "unknown block '%.40s %.40s'", block, key);
	def = &snapshot_vecs[id];
	if (id <= p->last_vec)
		return perr(p, "%s %s %s", block, key, id == p->last_vec ? "twice" : "out of order");
	p->last_vec = id;
	while (**pos) {
		if (n == SNAPSHOT_VEC_MAX)
			return perr(p, "%s %s: more than %d values", block, key, SNAPSHOT_VEC_MAX);
		if ((err = num(p, pos, "value", &v[n])))
			return err;
		if (def->kind != SNAP_VEC_VALUES && !(v[n] >= 0))
			return perr(p, "%s %s: negative count", block, key);
		n++;
	}
	if (def->len ? n != def->len : n == 0)
		return perr(p, "%s %s: %zu values, expected %zu", block, key, n, def->len);
	return snapshot_dev_add_vec(d, (enum snapshot_vec_id)id, v, n);
}

static int rec_text(struct parser *p, char **pos, char *out, size_t size, const char *what)
{
	char *w = word(pos);

	if (!w || !*w)
		return perr(p, "expected '%s VALUE'", what);
	if (strlen(w) >= size)
		return perr(p, "%s too long", what);
	if (!word_ok(w))
		return perr(p, "%s with control characters or bytes that are not UTF-8", what);
	snprintf(out, size, "%s", w);
	return no_more(p, pos);
}

/* Which record may come after which. */
static bool may_follow(enum rec prev, enum rec r, bool first)
{
	if (first)
		return r == REC_MAGIC;
	switch (r) {
	case REC_HOST: case REC_KERNEL: case REC_TIME: case REC_WINDOW:
		return prev == r - 1;
	case REC_DEVICE:
		return prev == REC_WINDOW || prev == REC_END_DEVICE;
	case REC_SPAN:
		return prev == REC_DEVICE;
	case REC_STAT: case REC_TUNABLE: case REC_VEC: case REC_END_DEVICE:
		return prev >= REC_SPAN && prev <= r;
	case REC_END:
		return prev == REC_WINDOW || prev == REC_END_DEVICE;
	default:
		return false;
	}
}

/* A name given to two devices: the reader stops at the second one's line
 * (all devices are in by 'end': one sort, not a scan per device). Then the
 * index snapshot_find uses. */
static int names_once(struct parser *p)
{
	struct snapshot *s = p->s;
	size_t first = 0, twice, at = p->line;
	int err = 0;

	index_names(s);
	if (!s->byname && s->ndev)
		return -ENOMEM;
	if ((twice = second_name(s, s->byname, &first)) != SIZE_MAX) {
		p->line = p->dev_line[twice];
		err = perr(p, "device %s appears twice (first on line %zu)", s->dev[twice].name, p->dev_line[first]);
		p->line = at;
	}
	return err;
}


static int record(struct parser *p, char *line, bool first)
{
	char *pos = line, *kw = word(&pos);
	size_t ndev;
	int r, err;

	if (first && (!kw || strcmp(kw, SNAPSHOT_MAGIC)))
		return perr(p, "not a blktune snapshot (no '%s' line)", SNAPSHOT_MAGIC);
	if (!kw || !*kw)
		return perr(p, "empty line");
	for (r = 0; r < REC_COUNT; r++)
		if (!strcmp(kw, rec_names[r]))
			break;
	if (r == REC_COUNT)
		return perr(p, "unknown record '%.40s'", kw);
	if (!may_follow(p->last, (enum rec)r, first))
		return perr(p, "'%s' cannot follow '%s' (sections out of order, repeated or missing)", kw,
			    rec_names[p->last]);
	p->last = (enum rec)r;
	switch (r) {
	case REC_MAGIC: {
		char *v = word(&pos);
		if (!v || (strcmp(v, "1") && strcmp(v, "2")))
			return perr(p, "unknown version '%.20s' (this blktune reads %s 1 and %d)", v ? v : "",
				    SNAPSHOT_MAGIC, SNAPSHOT_VERSION);
		p->version = v[0] - '0';
		return no_more(p, &pos);
	}
	case REC_HOST:
		return rec_text(p, &pos, p->s->host, sizeof(p->s->host), "host");
	case REC_KERNEL:
		return rec_text(p, &pos, p->s->kernel, sizeof(p->s->kernel), "kernel");
	case REC_TIME:
		if ((err = num(p, &pos, "time", &p->s->time)))
			return err;
		if (!date_ok(p->s->time))
			return perr(p, "time is not a date between 1970 and 9999");
		return no_more(p, &pos);
	case REC_WINDOW:
		if ((err = num(p, &pos, "window", &p->s->window)))
			return err;
		if (!(p->s->window > 0))
			return perr(p, "window must be positive");
		return no_more(p, &pos);
	case REC_DEVICE:
		return rec_device(p, &pos);
	case REC_SPAN:
		return rec_span(p, &pos);
	case REC_STAT:
		return rec_stat(p, &pos);
	case REC_TUNABLE:
		return rec_tunable(p, &pos);
	case REC_VEC:
		return rec_vec(p, &pos);
	case REC_END_DEVICE:
		return no_more(p, &pos);
	default: /* REC_END */
		if ((err = count(p, &pos, "device count", SNAPSHOT_DEVS_MAX, &ndev)))
			return err;
		if (ndev != p->s->ndev)
			return perr(p, "end says %zu devices, the file has %zu", ndev, p->s->ndev);
		if ((err = no_more(p, &pos)))
			return err;
		return names_once(p);
	}
}

int snapshot_parse(const char *buf, size_t size, const char *name, struct snapshot *out, char *msg,
		   size_t len)
{
	struct parser p = { .name = name, .msg = msg, .len = len, .s = out };
	char *copy, *line, *nl;
	int err = 0;

	snapshot_init(out);
	if (size > SNAPSHOT_FILE_MAX) {
		snprintf(msg, len, "%s: larger than %u bytes", name, SNAPSHOT_FILE_MAX);
		return -EINVAL;
	}
	if (!(copy = malloc(size + 1)))
		return -ENOMEM;
	memcpy(copy, buf, size);
	copy[size] = '\0';
	for (line = copy; !err && line < copy + size; line = nl + 1) {
		p.line++;
		nl = memchr(line, '\n', (size_t)(copy + size - line));
		if (!nl) {
			err = perr(&p, "truncated: the last line has no newline");
			break;
		}
		*nl = '\0';
		if (strlen(line) != (size_t)(nl - line))
			err = perr(&p, "garbage: a NUL byte");
		else if (p.last == REC_END && p.line > 1)
			err = perr(&p, "data after 'end'");
		else
			err = record(&p, line, p.line == 1);
	}
	if (!err && p.line == 0)
		err = perr(&p, "empty file");
	else if (!err && p.last != REC_END)
		err = perr(&p, "truncated: no 'end' line%s", p.last >= REC_DEVICE ? " (file ends inside a device)" : "");
	free(copy);
	free(p.dev_line);
	if (err)
		snapshot_free(out);
	return err;
}

int snapshot_read(const char *path, struct snapshot *out, char *msg, size_t len)
{
	/* O_NONBLOCK: a FIFO without a writer must not hang the open */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	FILE *f;
	int err;

	snapshot_init(out);
	if (fd < 0 || fstat(fd, &st) < 0) {
		err = -errno;
		snprintf(msg, len, "%s: %s", path, strerror(-err));
		if (fd >= 0)
			close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(msg, len, "%s: not a regular file", path);
		close(fd);
		return -EINVAL;
	}
	if (!(f = fdopen(fd, "r"))) {
		err = -errno;
		snprintf(msg, len, "%s: %s", path, strerror(-err));
		close(fd);
		return err;
	}
	/* Read up to one byte past the limit so that snapshot_parse sees it. */
	for (;;) {
		size_t r;
		if (n == cap) {
			char *nb;
			cap = cap ? cap * 2 : 65536;
			if (cap > SNAPSHOT_FILE_MAX + 1)
				cap = SNAPSHOT_FILE_MAX + 1;
			if (n == cap)
				break;
			if (!(nb = realloc(buf, cap))) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		err = -EIO;
		snprintf(msg, len, "%s: read error", path);
	} else {
		err = snapshot_parse(buf ? buf : "", n, path, out, msg, len);
	}
	fclose(f);
	free(buf);
	return err;
}
