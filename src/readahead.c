#include "readahead.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void ra_sample_init(struct ra_sample *s)
{
	memset(s, 0, sizeof(*s));
}

void ra_sample_free(struct ra_sample *s)
{
	free(s->devs);
	ra_sample_init(s);
}

void ra_sample_reset(struct ra_sample *s)
{
	s->ndevs = 0;
	s->t_ns = 0;
}

static int grow(struct ra_sample *s, size_t want)
{
	size_t cap = s->cap ? s->cap : 8;
	void *p;

	if (want <= s->cap)
		return 0;
	while (cap < want)
		cap *= 2;
	p = realloc(s->devs, cap * sizeof(*s->devs));
	if (!p)
		return -ENOMEM;
	s->devs = p;
	s->cap = cap;
	return 0;
}

int ra_sample_resize(struct ra_sample *s, size_t ndevs)
{
	int err = grow(s, ndevs);

	if (err)
		return err;
	if (ndevs)
		memset(s->devs, 0, ndevs * sizeof(*s->devs));
	s->ndevs = ndevs;
	return 0;
}

int ra_sample_copy(struct ra_sample *dst, const struct ra_sample *src)
{
	int err = grow(dst, src->ndevs);

	if (err)
		return err;
	if (src->ndevs)
		memcpy(dst->devs, src->devs, src->ndevs * sizeof(*src->devs));
	dst->ndevs = src->ndevs;
	dst->t_ns = src->t_ns;
	dst->page_size = src->page_size;
	return 0;
}

void ra_sample_swap(struct ra_sample *a, struct ra_sample *b)
{
	struct ra_sample t = *a;

	*a = *b;
	*b = t;
}

/* Index of dev, or where it would be inserted. */
static size_t lower_bound(const struct ra_sample *s, dev_t dev)
{
	size_t lo = 0, hi = s->ndevs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->devs[mid].dev < dev)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

ssize_t ra_sample_find(const struct ra_sample *s, dev_t dev)
{
	size_t i = lower_bound(s, dev);

	return i < s->ndevs && s->devs[i].dev == dev ? (ssize_t)i : -1;
}

#define ADD_ARRAY(dst, src)                                            \
	for (size_t k_ = 0; k_ < sizeof(dst) / sizeof((dst)[0]); k_++) \
		(dst)[k_] += (src)[k_]

static void counts_add(struct ra_counts *t, const struct ra_counts *c)
{
	t->sync_triggers += c->sync_triggers;
	t->async_triggers += c->async_triggers;
	t->windows += c->windows;
	t->window_pages += c->window_pages;
	ADD_ARRAY(t->win_hist, c->win_hist);
	t->sync_pages += c->sync_pages;
	t->async_pages += c->async_pages;
	t->demand += c->demand;
	t->read_pages += c->read_pages;
	t->hit += c->hit;
	t->mapped += c->mapped;
	t->waste += c->waste;
	t->dropped += c->dropped;
	t->clamped += c->clamped;
}

static int add_to(struct ra_sample *s, dev_t dev, unsigned kind, const struct ra_counts *c)
{
	size_t i = lower_bound(s, dev);
	int err;

	if (i == s->ndevs || s->devs[i].dev != dev) {
		err = grow(s, s->ndevs + 1);
		if (err)
			return err;
		memmove(&s->devs[i + 1], &s->devs[i], (s->ndevs - i) * sizeof(*s->devs));
		memset(&s->devs[i], 0, sizeof(*s->devs));
		s->devs[i].dev = dev;
		s->ndevs++;
	}
	s->devs[i].kind |= kind;
	counts_add(&s->devs[i].c, c);
	return 0;
}

int ra_sample_add(struct ra_sample *s, dev_t dev, dev_t disk, const struct ra_counts *c)
{
	int err;

	/* A filesystem on a whole disk is both its own entry and the disk's. */
	err = add_to(s, dev, disk == dev ? RA_DEV_FS | RA_DEV_DISK : RA_DEV_FS, c);
	if (err || !disk || disk == dev)
		return err;
	return add_to(s, disk, RA_DEV_DISK, c);
}

void ra_counts_from_cpus(struct ra_counts *c, const struct ra_dev_cpu *percpu, unsigned ncpu)
{
	memset(c, 0, sizeof(*c));
	for (unsigned i = 0; i < ncpu; i++) {
		const struct ra_dev_cpu *v = &percpu[i];

		c->sync_triggers += v->sync_triggers;
		c->async_triggers += v->async_triggers;
		c->windows += v->windows;
		c->window_pages += v->window_pages;
		ADD_ARRAY(c->win_hist, v->win_hist);
		c->sync_pages += v->sync_pages;
		c->async_pages += v->async_pages;
		c->demand += v->demand;
		c->read_pages += v->read_pages;
		c->hit += v->hit;
		c->mapped += v->mapped;
		c->waste += v->waste;
		c->dropped += v->dropped;
		c->clamped += v->clamped;
	}
}

uint64_t ra_counts_unread(const struct ra_counts *c)
{
	uint64_t pages = c->sync_pages + c->async_pages, used = c->hit + c->mapped + c->waste;

	return pages > used ? pages - used : 0;
}

uint64_t ra_win_bucket_lt(unsigned i)
{
	return i + 1 < RA_HIST ? 1ULL << (i + 1) : 0;
}

/* d = b - a for every counter; false if one went backwards. */
static bool delta(const struct ra_counts *a, const struct ra_counts *b, struct ra_counts *d)
{
	const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
	uint64_t *z = (uint64_t *)d;

	/* struct ra_counts is all uint64_t: walk it as an array. */
	for (size_t k = 0; k < sizeof(*d) / sizeof(uint64_t); k++) {
		if (y[k] < x[k])
			return false;
		z[k] = y[k] - x[k];
	}
	return true;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : NAN;
}

int ra_metrics_compute(const struct ra_sample *prev, const struct ra_sample *cur, dev_t dev,
		       struct ra_metrics *m)
{
	static const struct ra_counts zero;
	const struct ra_counts *a = &zero;
	struct ra_counts d;
	ssize_t i = ra_sample_find(cur, dev), j;
	uint64_t decided;

	memset(m, 0, sizeof(*m));
	if (i < 0)
		return -ENOENT;
	if (prev && (j = ra_sample_find(prev, dev)) >= 0)
		a = &prev->devs[j].c;
	if (!delta(a, &cur->devs[i].c, &d))
		return -ERANGE;
	m->dev = dev;
	m->kind = cur->devs[i].kind;
	m->interval_s = prev && cur->t_ns > prev->t_ns ? (double)(cur->t_ns - prev->t_ns) / 1e9 : 0;
	m->sync_pages = d.sync_pages;
	m->async_pages = d.async_pages;
	m->pages = d.sync_pages + d.async_pages;
	m->sync_triggers = d.sync_triggers;
	m->async_triggers = d.async_triggers;
	m->hit = d.hit;
	m->mapped = d.mapped;
	m->waste = d.waste;
	m->dropped = d.dropped;
	m->unread = ra_counts_unread(&cur->devs[i].c);
	m->windows = d.windows;
	m->window_pages = d.window_pages;
	memcpy(m->win_hist, d.win_hist, sizeof(m->win_hist));
	m->demand = d.demand;
	m->read_pages = d.read_pages;
	decided = d.hit + d.mapped + d.waste;
	m->hit_pct = pct(d.hit, decided);
	m->mapped_pct = pct(d.mapped, decided);
	m->waste_pct = pct(d.waste, decided);
	m->waste_mb = (double)d.waste * cur->page_size / (1024.0 * 1024.0);
	m->avg_window_kb = d.windows ? (double)d.window_pages * cur->page_size / 1024.0 / (double)d.windows
				     : NAN;
	/* Per-CPU slots are read one after another, so an interval may see a
	 * page added for a reader before the read that asked for it. */
	if (d.read_pages)
		m->cache_hit_pct = d.demand >= d.read_pages ? 0 : pct(d.read_pages - d.demand, d.read_pages);
	else
		m->cache_hit_pct = NAN;
	m->pages_per_s = m->interval_s > 0 ? (double)m->pages / m->interval_s : NAN;
	return 0;
}

static void put_double(FILE *f, const char *key, double v)
{
	if (isnan(v))
		fprintf(f, ", \"%s\": null", key);
	else
		fprintf(f, ", \"%s\": %.2f", key, v);
}

int ra_metrics_json(FILE *f, const struct ra_metrics *m)
{
	fprintf(f, ", \"readahead\": {\"pages\": %llu, \"sync_pages\": %llu, \"async_pages\": %llu, "
		   "\"hit\": %llu, \"mapped\": %llu, \"waste\": %llu, \"unread\": %llu",
		(unsigned long long)m->pages, (unsigned long long)m->sync_pages,
		(unsigned long long)m->async_pages, (unsigned long long)m->hit,
		(unsigned long long)m->mapped, (unsigned long long)m->waste,
		(unsigned long long)m->unread);
	put_double(f, "hit_pct", m->hit_pct);
	put_double(f, "waste_pct", m->waste_pct);
	put_double(f, "avg_window_kb", m->avg_window_kb);
	put_double(f, "cache_hit_pct", m->cache_hit_pct);
	fputc('}', f);
	return ferror(f) ? -EIO : 0;
}

int ra_window_note(double avg_window_kb, double read_ahead_kb, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	/* half a KiB for a window that is read_ahead_kb itself, rounded */
	if (!(avg_window_kb > read_ahead_kb + 0.5) || !(read_ahead_kb > 0))
		return 0;
	if (avg_window_kb <= 2.0 * read_ahead_kb + 0.5)
		return snprintf(buf, len, "above read_ahead_kb: fadvise SEQUENTIAL doubles a file's window (fio does it)");
	return snprintf(buf, len, "above 2x read_ahead_kb: reads larger than it grow it, up to max_sectors_kb");
}
