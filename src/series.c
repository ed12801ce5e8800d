#include "series.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"

/* One interval's traced counts; 32 bits suffice for one interval. */
struct point_trace {
	uint32_t size[2][TRACE_SIZE_BUCKETS];
	uint32_t lat[TRACE_LAT_BUCKETS];
	uint32_t completed, kernel; /* traced completions, the kernel's (diskstats) */
	unsigned ncpu;
	uint32_t cpu[]; /* issued, completed per CPU */
};

/* A change and the values in force after it. Changes are numbered from 1
 * per device; 0 is "before any change seen". */
#define SEQ_STRADDLES UINT32_MAX

struct change {
	uint32_t seq;
	double t;
	struct series_tunable *tv; /* NULL: values unknown */
	size_t n;
};

struct point {
	double t, interval;
	uint32_t seq;          /* the change in force throughout, or SEQ_STRADDLES */
	bool idle;
	float v[COLUMN_COUNT]; /* float: 7 digits are plenty for a rate, half the memory */
	struct point_trace *tr;
};

struct device {
	dev_t dev;
	unsigned long long diskseq;
	unsigned generation; /* with diskseq: source-queue's count of re-creations */
	bool seq_known;       /* false until series_add saw the device */
	char name[SAMPLE_NAME_MAX];
	double last_change, last_seen;
	struct point *p;
	size_t cap, head, n; /* ring: oldest at head */
	struct change *ch;   /* oldest first, at most SERIES_CHANGES_MAX */
	size_t nch;
	uint32_t seq;        /* of the newest change */
};

/* Timer jitter between a change's clock and an interval's start. */
#define TOL 1e-3

struct series {
	double window;
	struct device *d;
	size_t n, cap;
};

static double clamp_window(double w)
{
	if (!(w >= 1))
		return 1;
	return w > SERIES_WINDOW_MAX ? SERIES_WINDOW_MAX : w;
}

int series_new(double window, struct series **out)
{
	struct series *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->window = clamp_window(window);
	*out = s;
	return 0;
}

static void drop_changes(struct device *d)
{
	for (size_t i = 0; i < d->nch; i++)
		free(d->ch[i].tv);
	free(d->ch);
	d->ch = NULL;
	d->nch = 0;
}

static void device_free(struct device *d)
{
	for (size_t i = 0; i < d->cap; i++)
		free(d->p[i].tr);
	free(d->p);
	drop_changes(d);
}

void series_free(struct series *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		device_free(&s->d[i]);
	free(s->d);
	free(s);
}

double series_window(const struct series *s)
{
	return s->window;
}

static struct device *find(const struct series *s, dev_t dev, const char *name, size_t hint)
{
	if (hint < s->n && s->d[hint].dev == dev && !strcmp(s->d[hint].name, name))
		return &s->d[hint];
	for (size_t i = 0; i < s->n; i++)
		if (s->d[i].dev == dev && !strcmp(s->d[i].name, name))
			return &s->d[i];
	return NULL;
}

static struct device *add_device(struct series *s, dev_t dev, const char *name)
{
	struct device *d;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct device *nd = realloc(s->d, cap * sizeof(*nd));
		if (!nd)
			return NULL;
		s->d = nd;
		s->cap = cap;
	}
	d = &s->d[s->n++];
	memset(d, 0, sizeof(*d));
	d->dev = dev;
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->last_change = -INFINITY;
	return d;
}

/* Another device under the same name and number (a loop device attached
 * again): nothing of the old one may enter its windows, neither its
 * intervals nor the values recorded at its changes, which were never in
 * force on this one. d->seq stays: the new intervals take the number of no
 * kept change (so none has recorded values) and the next change a new one. */
static void restart(struct device *d, unsigned long long diskseq)
{
	d->diskseq = diskseq;
	d->head = d->n = 0;
	d->last_change = -INFINITY;
	drop_changes(d);
}

/* The kernel gives a name to one device at a time: under another number
 * (an NVMe namespace re-created with another minor) it is another device,
 * and the old entry, whose window a capture by name would also find, goes
 * with this series_add's forget(). */
static void retire_namesakes(struct series *s, const struct device *d)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->d[i].dev != d->dev && !strcmp(s->d[i].name, d->name))
			s->d[i].last_seen = -INFINITY;
}

static struct point *at(const struct device *d, size_t i)
{
	return &d->p[(d->head + i) % d->cap];
}

/* Drop points that ended before the window could reach them. */
static void prune(struct device *d, double now, double window)
{
	while (d->n > 0 && at(d, 0)->t < now - window) {
		d->head = (d->head + 1) % d->cap;
		d->n--;
	}
}

/* Room for one more point: grow the ring (unwrapping it) up to
 * SERIES_POINTS_MAX, then overwrite the oldest. */
static struct point *push(struct device *d)
{
	struct point *p;

	if (d->n == d->cap && d->cap < SERIES_POINTS_MAX) {
		size_t cap = d->cap ? d->cap * 2 : 8;
		struct point *np;

		if (cap > SERIES_POINTS_MAX)
			cap = SERIES_POINTS_MAX;
		if (!(np = calloc(cap, sizeof(*np))))
			return NULL;
		for (size_t i = 0; i < d->cap; i++)
			np[i] = d->p[(d->head + i) % d->cap];
		free(d->p);
		d->p = np;
		d->head = 0;
		d->cap = cap;
	}
	if (d->n == d->cap) {
		d->head = (d->head + 1) % d->cap;
		d->n--;
	}
	p = &d->p[(d->head + d->n) % d->cap];
	d->n++;
	return p;
}

static uint32_t u32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* tm NULL: untraced, or traced with no event in the interval; the latter
 * still holds the kernel's completions when it had any (every one of them
 * was lost to the tracer), so a window's traced figures say what they lack. */
static int set_trace(struct point *p, const struct disk_metrics *m, const struct trace_metrics *tm)
{
	unsigned ncpu = tm ? tm->ncpu : 0;

	if (!tm && !(m->traced && model_disk_completed(m) > 0)) {
		free(p->tr);
		p->tr = NULL;
		return 0;
	}
	if (!p->tr || p->tr->ncpu != ncpu) {
		struct point_trace *tr = realloc(p->tr, sizeof(*tr) + 2 * ncpu * sizeof(tr->cpu[0]));
		if (!tr)
			return -ENOMEM;
		p->tr = tr;
	}
	if (!tm) {
		memset(p->tr, 0, sizeof(*p->tr));
		p->tr->kernel = u32(model_disk_completed(m));
		return 0;
	}
	for (int o = 0; o < 2; o++)
		for (int b = 0; b < TRACE_SIZE_BUCKETS; b++)
			p->tr->size[o][b] = u32(tm->d.size_count[o][b]);
	for (int b = 0; b < TRACE_LAT_BUCKETS; b++)
		p->tr->lat[b] = u32(tm->d.lat[b]);
	p->tr->completed = u32(tm->completed);
	p->tr->kernel = u32(model_disk_completed(m));
	p->tr->ncpu = tm->ncpu;
	for (unsigned c = 0; c < tm->ncpu; c++) {
		p->tr->cpu[2 * c] = u32(tm->cpu[c].issued);
		p->tr->cpu[2 * c + 1] = u32(tm->cpu[c].completed);
	}
	return 0;
}

/* The change in force at time x: the newest one at or before it. */
static uint32_t seq_at(const struct device *d, double x)
{
	for (size_t i = d->nch; i-- > 0;)
		if (d->ch[i].t <= x)
			return d->ch[i].seq;
	return d->nch ? d->ch[0].seq - 1 : d->seq;
}

static const struct change *change_of(const struct device *d, uint32_t seq)
{
	for (size_t i = 0; i < d->nch; i++)
		if (d->ch[i].seq == seq)
			return &d->ch[i];
	return NULL;
}

const char *series_tunable_find(const struct series_tunable *tv, size_t n, const char *name)
{
	for (size_t i = 0; tv && i < n; i++)
		if (!strcmp(tv[i].name, name))
			return tv[i].value;
	return NULL;
}

/* Gauge columns named like a tunable take the value in force: the sampler
 * re-reads tunables only every few seconds. */
static void recorded_gauges(struct point *p, const struct change *c)
{
	for (int k = 0; c && c->tv && k < COLUMN_COUNT; k++) {
		const char *v;
		char *end;
		double x;

		if (columns[k].type != COL_NUM || !(columns[k].flags & COLUMN_GAUGE) ||
		    !(v = series_tunable_find(c->tv, c->n, columns[k].json)))
			continue;
		x = strtod(v, &end);
		if (end != v && !*end)
			p->v[k] = (float)x;
	}
}

static void forget(struct series *s, double t)
{
	size_t j = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (t - s->d[i].last_seen > s->window)
			device_free(&s->d[i]);
		else
			s->d[j++] = s->d[i];
	}
	s->n = j;
	s->d = capacity_shrink(s->d, sizeof(*s->d), s->n, &s->cap);
}

int series_add_traced(struct series *s, const struct disk_metrics *m, const struct trace_metrics *tm,
		      size_t n, double t)
{
	for (size_t i = 0; i < n; i++) {
		struct device *d = find(s, m[i].dev, m[i].name, i);
		struct point *p;

		if (!d && !(d = add_device(s, m[i].dev, m[i].name)))
			return -ENOMEM;
		if (!d->seq_known) {
			d->diskseq = m[i].info->diskseq;
			d->generation = m[i].info->generation;
			retire_namesakes(s, d);
		} else if (d->diskseq != m[i].info->diskseq || d->generation != m[i].info->generation) {
			restart(d, m[i].info->diskseq);
			d->generation = m[i].info->generation;
		}
		d->seq_known = true;
		d->last_seen = t;
		if (m[i].state != DISK_OK || !(m[i].interval > 0))
			continue;
		prune(d, t, s->window);
		if (!(p = push(d)))
			return -ENOMEM;
		p->t = t;
		p->interval = m[i].interval;
		p->seq = seq_at(d, t - p->interval + TOL);
		if (seq_at(d, t) != p->seq)
			p->seq = SEQ_STRADDLES;
		p->idle = model_disk_idle(&m[i]);
		for (int c = 0; c < COLUMN_COUNT; c++) {
			const struct column *col = &columns[c];
			/* no requests of its kind, or no count at all: an older
			 * kernel's line has no discard or flush fields */
			bool undefined = col->type != COL_NUM || !column_counted(col, &m[i]) ||
					 (col->per && column_value(&columns[col->per], &m[i]) <= 0);
			p->v[c] = undefined ? NAN : (float)column_value(col, &m[i]);
		}
		if (p->seq != SEQ_STRADDLES)
			recorded_gauges(p, change_of(d, p->seq));
		if (set_trace(p, &m[i], tm && m[i].t_metrics ? &tm[i] : NULL) < 0)
			return -ENOMEM;
	}
	forget(s, t);
	return 0;
}

int series_add(struct series *s, const struct disk_metrics *m, size_t n, double t)
{
	return series_add_traced(s, m, NULL, n, t);
}

static int mark(struct series *s, dev_t dev, const char *name, double t, const struct series_tunable *tv, size_t n)
{
	struct device *d = find(s, dev, name, 0);
	struct change *c;
	int err = 0;

	if (!d && !(d = add_device(s, dev, name)))
		return -ENOMEM; /* the window simply starts later */
	if (d->nch && t < d->ch[d->nch - 1].t)
		t = d->ch[d->nch - 1].t; /* out of order: keep the records sorted */
	d->last_change = t;
	d->last_seen = t;
	if (d->nch == SERIES_CHANGES_MAX) {
		free(d->ch[0].tv);
		memmove(d->ch, d->ch + 1, (d->nch - 1) * sizeof(*d->ch));
		d->nch--;
	} else if ((d->nch & (d->nch - 1)) == 0) {
		struct change *nc = realloc(d->ch, (d->nch ? d->nch * 2 : 1) * sizeof(*nc));
		if (!nc)
			return -ENOMEM;
		d->ch = nc;
	}
	c = &d->ch[d->nch++];
	c->seq = ++d->seq;
	c->t = t;
	c->tv = NULL;
	c->n = 0;
	if (tv && n) {
		if ((c->tv = malloc(n * sizeof(*tv))))
			c->n = n;
		else
			err = -ENOMEM;
		for (size_t i = 0; c->tv && i < n; i++) {
			snprintf(c->tv[i].name, sizeof(c->tv[i].name), "%s", tv[i].name);
			snprintf(c->tv[i].value, sizeof(c->tv[i].value), "%s", tv[i].value);
		}
	}
	return err;
}

int series_set_tunables(struct series *s, dev_t dev, const char *name, double t, const struct series_tunable *tv,
			size_t n)
{
	return mark(s, dev, name, t, tv, n);
}

void series_mark_change(struct series *s, dev_t dev, const char *name, double t)
{
	mark(s, dev, name, t, NULL, 0);
}

size_t series_points(const struct series *s, dev_t dev, const char *name)
{
	const struct device *d = find(s, dev, name, 0);

	return d ? d->n : 0;
}

int series_point_get(const struct series *s, dev_t dev, const char *name, size_t i, struct series_point *out)
{
	const struct device *d = find(s, dev, name, 0);
	const struct point *p;
	const struct change *c;

	if (!d || i >= d->n)
		return -ENOENT;
	p = at(d, i);
	c = p->seq == SEQ_STRADDLES ? NULL : change_of(d, p->seq);
	*out = (struct series_point){
		.t = p->t, .interval = p->interval, .idle = p->idle, .straddles = p->seq == SEQ_STRADDLES,
		.tun = c ? c->tv : NULL, .ntun = c && c->tv ? c->n : 0, .v = p->v,
	};
	return 0;
}

size_t series_count(const struct series *s)
{
	return s->n;
}

void series_device(const struct series *s, size_t i, dev_t *dev, const char **name,
		   unsigned long long *diskseq)
{
	*dev = s->d[i].dev;
	*name = s->d[i].name;
	*diskseq = s->d[i].diskseq;
}

void series_window_init(struct series_window *w)
{
	memset(w, 0, sizeof(*w));
}

void series_window_free(struct series_window *w)
{
	free(w->tun);
	free(w->trace.cpu_issued);
	free(w->trace.cpu_completed);
	series_window_init(w);
}

static int add_trace(struct series_trace *st, const struct point_trace *tr)
{
	if (st->ncpu < tr->ncpu) {
		uint64_t *is = realloc(st->cpu_issued, tr->ncpu * sizeof(*is)), *co;
		if (!is)
			return -ENOMEM;
		st->cpu_issued = is;
		if (!(co = realloc(st->cpu_completed, tr->ncpu * sizeof(*co))))
			return -ENOMEM;
		st->cpu_completed = co;
		for (unsigned c = st->ncpu; c < tr->ncpu; c++)
			st->cpu_issued[c] = st->cpu_completed[c] = 0;
		st->ncpu = tr->ncpu;
	}
	st->intervals++;
	for (int o = 0; o < 2; o++)
		for (int b = 0; b < TRACE_SIZE_BUCKETS; b++)
			st->size[o][b] += tr->size[o][b];
	for (int b = 0; b < TRACE_LAT_BUCKETS; b++)
		st->lat[b] += tr->lat[b];
	st->completed += tr->completed;
	st->kernel += tr->kernel;
	for (unsigned c = 0; c < tr->ncpu; c++) {
		st->cpu_issued[c] += tr->cpu[2 * c];
		st->cpu_completed[c] += tr->cpu[2 * c + 1];
	}
	return 0;
}

static int set_window_tunables(struct series_window *w, const struct change *c)
{
	if (!c || !c->tv)
		return 0;
	if (!(w->tun = malloc(c->n * sizeof(*w->tun))))
		return -ENOMEM;
	memcpy(w->tun, c->tv, c->n * sizeof(*w->tun));
	w->ntun = c->n;
	return 0;
}

/* A point covers (t - interval, t]: it belongs to the window when it started
 * at or after both the last change and end - window (the tolerance absorbs
 * timer jitter in t - interval), unless it straddles a change. */
static bool in_window(const struct point *p, double from)
{
	return p->t - p->interval >= from - TOL && p->seq != SEQ_STRADDLES;
}

/* A busy interval next to an idle one: the load started or stopped inside
 * it, so its rates are a fraction of the load's. */
static bool edge(const struct device *d, size_t i)
{
	return !at(d, i)->idle && ((i > 0 && at(d, i - 1)->idle) || (i + 1 < d->n && at(d, i + 1)->idle));
}

static int window_get(const struct series *s, dev_t dev, const char *name, bool busy, struct series_window *w)
{
	const struct device *d = find(s, dev, name, 0);
	struct stats_acc acc[COLUMN_COUNT];
	uint32_t seq = SEQ_STRADDLES;
	bool skip_edges = false;
	double end, from;
	int err;

	series_window_free(w);
	if (!d)
		return -ENOENT;
	w->last_change = d->last_change;
	for (int c = 0; c < COLUMN_COUNT; c++)
		stats_acc_init(&acc[c]);
	end = d->n ? at(d, d->n - 1)->t : d->last_seen;
	from = fmax(d->last_change, end - s->window);
	w->t_start = w->t_end = end;
	if (busy) {
		size_t nbusy = 0, nedge = 0;
		for (size_t i = 0; i < d->n; i++)
			if (in_window(at(d, i), from) && !at(d, i)->idle) {
				nbusy++;
				nedge += edge(d, i);
			}
		/* A load too bursty to have steady intervals keeps its edges. */
		skip_edges = nbusy - nedge >= 2;
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct point *p = at(d, i);

		if (!in_window(p, from))
			continue;
		if (p->idle)
			w->idle++;
		if (p->idle && busy)
			continue;
		if (skip_edges && edge(d, i)) {
			w->partial++;
			continue;
		}
		if (w->n++ == 0) {
			w->t_start = p->t - p->interval;
			seq = p->seq;
		}
		for (int c = 0; c < COLUMN_COUNT; c++) {
			if (isnan(p->v[c]) || ((columns[c].flags & COLUMN_GAUGE) && p->v[c] < 0))
				continue;
			stats_acc_add(&acc[c], p->v[c]);
		}
		if (p->tr) {
			w->traced = true;
			if ((err = add_trace(&w->trace, p->tr)) < 0)
				return err;
		}
	}
	for (int c = 0; c < COLUMN_COUNT; c++)
		stats_acc_summary(&acc[c], &w->st[c]);
	return w->n ? set_window_tunables(w, change_of(d, seq)) : 0;
}

int series_window_get(const struct series *s, dev_t dev, const char *name, struct series_window *w)
{
	return window_get(s, dev, name, false, w);
}

int series_window_get_busy(const struct series *s, dev_t dev, const char *name, struct series_window *w)
{
	return window_get(s, dev, name, true, w);
}
