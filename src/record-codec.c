#include "record-codec.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One walk over a sample, used both ways: encoding appends every field to
 * a flat list, decoding takes them back in the same order. Counts come
 * before what they count, so a decoder sizes its arrays from words it has
 * already read. */
struct walk {
	bool dec;
	struct record_flat *f;
	size_t pos, spos;
	int err;
};

void record_flat_init(struct record_flat *f)
{
	memset(f, 0, sizeof(*f));
}

void record_flat_free(struct record_flat *f)
{
	free(f->w);
	free(f->d);
	free(f->on);
	free(f->sb);
	free(f->so);
	record_flat_init(f);
}

void record_flat_reset(struct record_flat *f)
{
	f->nw = f->nsb = f->ns = 0;
}

static int grow(void **p, size_t *cap, size_t want, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *np;

	if (want <= *cap)
		return 0;
	while (c < want)
		c *= 2;
	if (!(np = realloc(*p, c * size)))
		return -ENOMEM;
	*p = np;
	*cap = c;
	return 0;
}

static int push_word(struct record_flat *f, uint64_t v)
{
	if (grow((void **)&f->w, &f->capw, f->nw + 1, sizeof(*f->w)) < 0)
		return -ENOMEM;
	f->w[f->nw++] = v;
	return 0;
}

static int push_string(struct record_flat *f, const char *s, size_t len)
{
	if (grow((void **)&f->so, &f->caps, f->ns + 1, sizeof(*f->so)) < 0 ||
	    grow((void **)&f->sb, &f->capsb, f->nsb + len + 1, 1) < 0)
		return -ENOMEM;
	f->so[f->ns++] = f->nsb;
	memcpy(f->sb + f->nsb, s, len);
	f->sb[f->nsb + len] = '\0';
	f->nsb += len + 1;
	return 0;
}

static void wu(struct walk *w, uint64_t *v)
{
	if (w->err)
		return;
	if (!w->dec) {
		w->err = push_word(w->f, *v);
		return;
	}
	if (w->pos >= w->f->nw) {
		w->err = -EINVAL;
		*v = 0;
		return;
	}
	*v = w->f->w[w->pos++];
}

static void ws(struct walk *w, char *buf, size_t size)
{
	if (w->err)
		return;
	if (!w->dec) {
		w->err = push_string(w->f, buf, strnlen(buf, size));
		return;
	}
	if (w->spos >= w->f->ns) {
		w->err = -EINVAL;
		return;
	}
	snprintf(buf, size, "%s", w->f->sb + w->f->so[w->spos++]);
}

/* Any integer field; only a decoder writes it back. */
#define WU(w, x)                                         \
	do {                                             \
		uint64_t v_ = (uint64_t)(x);             \
		wu((w), &v_);                            \
		if ((w)->dec)                            \
			(x) = (__typeof__(x))v_;         \
	} while (0)
/* Doubles go as their bits: replay is exact, not rounded. */
#define WD(w, x)                                         \
	do {                                             \
		uint64_t v_;                             \
		memcpy(&v_, &(x), sizeof(v_));           \
		wu((w), &v_);                            \
		if ((w)->dec)                            \
			memcpy(&(x), &v_, sizeof(v_));   \
	} while (0)
#define WA(w, a, n)                                      \
	do {                                             \
		for (size_t i_ = 0; i_ < (size_t)(n); i_++) \
			WU(w, (a)[i_]);                  \
	} while (0)
#define WS(w, s) ws((w), (s), sizeof(s))

/* A count a decoder can trust: at most max. */
static size_t wcount(struct walk *w, size_t n, size_t max)
{
	WU(w, n);
	if (w->dec && !w->err && n > max)
		w->err = -EINVAL;
	return w->err ? 0 : n;
}

static void walk_disk(struct walk *w, struct disk_sample *d)
{
	struct disk_stat *st = &d->st;
	struct disk_info *in = &d->info;

	WU(w, st->dev);
	WS(w, st->name);
	WU(w, st->nfields);
	WU(w, st->rd_ios); WU(w, st->rd_merges); WU(w, st->rd_sectors); WU(w, st->rd_ticks);
	WU(w, st->wr_ios); WU(w, st->wr_merges); WU(w, st->wr_sectors); WU(w, st->wr_ticks);
	WU(w, st->in_flight); WU(w, st->io_ticks); WU(w, st->time_in_queue);
	WU(w, st->dc_ios); WU(w, st->dc_merges); WU(w, st->dc_sectors); WU(w, st->dc_ticks);
	WU(w, st->fl_ios); WU(w, st->fl_ticks);
	WU(w, in->diskseq); WU(w, in->kind); WU(w, in->has_queue);
	WS(w, in->parent); WS(w, in->dm_name); WS(w, in->persistent); WS(w, in->slaves); WS(w, in->holders);
	WU(w, in->read_ahead_kb); WU(w, in->max_sectors_kb); WU(w, in->max_hw_sectors_kb); WU(w, in->nr_requests);
	WU(w, in->logical_block_size); WU(w, in->physical_block_size); WU(w, in->rotational);
	WU(w, in->nr_hw_queues);
	WS(w, in->scheduler);
	WU(w, in->size_sectors);
	WS(w, in->model); WS(w, in->vendor); WS(w, in->backing); WS(w, in->mounts); WS(w, in->fstype);
}

static void walk_cpu_stat(struct walk *w, struct cpu_stat *c)
{
	WU(w, c->valid); WU(w, c->user); WU(w, c->nice); WU(w, c->system); WU(w, c->idle);
	WU(w, c->iowait); WU(w, c->irq); WU(w, c->softirq); WU(w, c->steal);
}

static void walk_cpus(struct walk *w, struct cpus_sample *c)
{
	unsigned ncpu;

	WU(w, c->valid);
	if (!c->valid)
		return;
	WU(w, c->have_stat);
	ncpu = (unsigned)wcount(w, c->ncpu, RECORD_MAX_CPUS);
	if (w->dec && !w->err && sample_cpus_reserve(c, ncpu) < 0)
		w->err = -ENOMEM;
	if (w->err)
		return;
	if (c->have_stat)
		for (unsigned i = 0; i < ncpu; i++)
			walk_cpu_stat(w, &c->stat[i]);
	WA(w, c->block_softirq, ncpu);
	c->nirq = (unsigned)wcount(w, c->nirq, SAMPLE_IRQ_MAX);
	WA(w, c->irq, c->nirq);
	WS(w, c->irq_dev);
	for (unsigned i = 0; i < c->nirq; i++)
		WS(w, c->effective[i]);
	WA(w, c->irq_count, (size_t)c->nirq * ncpu);
}

/* A word stored as its difference to a prediction from words walked
 * before it (exact: modulo 2^64, whatever the value). */
static void wpred(struct walk *w, uint64_t *x, uint64_t pred)
{
	uint64_t v = *x - pred;

	wu(w, &v);
	if (w->dec)
		*x = v + pred;
}

static void walk_counts(struct walk *w, struct trace_counts *t)
{
	WA(w, t->issued, TRACE_OPS);
	/* Request sizes are mostly powers of two, each at the top of its
	 * bucket (<= 512 << b): a bucket's bytes are predicted as its count
	 * times that size, and an op's bytes as the sum of its buckets', so
	 * neither moves unless sizes do. */
	for (int o = 0; o < 2; o++) {
		WA(w, t->size_count[o], TRACE_SIZE_BUCKETS);
		for (int b = 0; b < TRACE_SIZE_BUCKETS; b++)
			wpred(w, &t->size_bytes[o][b], t->size_count[o][b] * (512ull << b));
	}
	for (int o = 0; o < TRACE_OPS; o++) {
		uint64_t sum = 0;
		for (int b = 0; o < 2 && b < TRACE_SIZE_BUCKETS; b++)
			sum += t->size_bytes[o][b];
		wpred(w, &t->bytes[o], sum);
	}
	WA(w, t->completed, TRACE_OPS);
	WA(w, t->lat_sum_ns, TRACE_OPS);
	WU(w, t->steps);
	WA(w, t->lat, TRACE_LAT_BUCKETS);
	WU(w, t->no_start);
	WA(w, t->q_sum_ns, TRACE_OPS);
	WA(w, t->d_sum_ns, TRACE_OPS);
	for (int o = 0; o < TRACE_OPS; o++) {
		WA(w, t->qlat[o], TRACE_LAT_BUCKETS);
		WA(w, t->dlat[o], TRACE_LAT_BUCKETS);
	}
	WA(w, t->no_issue, TRACE_OPS);
	WA(w, t->cls, TRACE_CLASSES);
}

static void walk_trace(struct walk *w, struct trace_sample *t)
{
	unsigned ncpu = (unsigned)wcount(w, t->ncpu, RECORD_MAX_CPUS);
	size_t n = wcount(w, t->ndevs, RECORD_MAX_DISKS), mat;

	if (w->dec && !w->err && trace_sample_resize(t, ncpu, n) < 0)
		w->err = -ENOMEM;
	if (w->err)
		return;
	mat = (size_t)t->nmat * t->nmat;
	for (size_t i = 0; i < n; i++) {
		struct trace_dev *d = &t->devs[i];
		WU(w, d->dev); WU(w, d->path); WU(w, d->seq);
		walk_counts(w, &d->tot);
	}
	for (size_t i = 0; i < n * ncpu; i++) {
		WU(w, t->cpu[i].issued); WU(w, t->cpu[i].completed);
		WA(w, t->cpu[i].cls, TRACE_CLASSES);
	}
	WA(w, t->matrix, n * mat);
	WU(w, t->missed); WU(w, t->map_full);
}

static void walk_ra(struct walk *w, struct ra_sample *r)
{
	size_t n;

	WU(w, r->t_ns); WU(w, r->page_size);
	n = wcount(w, r->ndevs, RECORD_MAX_DISKS);
	if (w->dec && !w->err && ra_sample_resize(r, n) < 0)
		w->err = -ENOMEM;
	if (w->err)
		return;
	for (size_t i = 0; i < n; i++) {
		struct ra_dev *d = &r->devs[i];
		struct ra_counts *c = &d->c;
		WU(w, d->dev); WU(w, d->kind);
		WU(w, c->sync_triggers); WU(w, c->async_triggers); WU(w, c->windows); WU(w, c->window_pages);
		WA(w, c->win_hist, RA_HIST);
		WU(w, c->sync_pages); WU(w, c->async_pages); WU(w, c->demand); WU(w, c->read_pages);
		WU(w, c->hit); WU(w, c->mapped); WU(w, c->waste); WU(w, c->dropped); WU(w, c->clamped);
	}
}

static void walk_cgroups(struct walk *w, struct cgroup_sample *c)
{
	size_t ng;

	WU(w, c->valid);
	WS(w, c->why);
	if (!c->valid)
		return;
	WD(w, c->t);
	WU(w, c->version); WU(w, c->skipped); WU(w, c->bad_lines);
	WS(w, c->mount);
	ng = wcount(w, c->ngroups, RECORD_MAX_DISKS);
	for (size_t g = 0; g < ng && !w->err; g++) {
		struct cgroup_group tmp, *gp = w->dec ? &tmp : &c->groups[g];
		size_t n;

		WU(w, gp->id); WU(w, gp->depth);
		WS(w, gp->path);
		n = wcount(w, gp->n, RECORD_MAX_DISKS);
		if (w->dec && !w->err && !cgroup_sample_add_group(c, tmp.id, tmp.path, tmp.depth))
			w->err = -ENOMEM;
		for (size_t i = 0; i < n && !w->err; i++) {
			struct cgroup_io io, *ip = w->dec ? &io : &c->io[gp->first + i];
			struct cgroup_io *dst;

			WU(w, ip->dev); WU(w, ip->counter);
			WU(w, ip->rbytes); WU(w, ip->wbytes); WU(w, ip->dbytes);
			WU(w, ip->rios); WU(w, ip->wios); WU(w, ip->dios);
			if (!w->dec || w->err)
				continue;
			if (io.counter >= CGROUP_COUNTERS || !(dst = cgroup_sample_add_io(c, io.dev, io.counter))) {
				w->err = io.counter >= CGROUP_COUNTERS ? -EINVAL : -ENOMEM;
				break;
			}
			*dst = io;
		}
	}
}

static void walk_procs(struct walk *w, struct proc_sample *ps)
{
	size_t n;

	WU(w, ps->valid);
	WS(w, ps->why);
	if (!ps->valid)
		return;
	WD(w, ps->t);
	WU(w, ps->all_users); WU(w, ps->uid); WU(w, ps->unreadable);
	n = wcount(w, ps->n, RECORD_MAX_PROCS);
	for (size_t i = 0; i < n && !w->err; i++) {
		struct proc_entry tmp, *e = w->dec ? &tmp : &ps->p[i];
		struct proc_entry *dst;

		WU(w, e->pid); WU(w, e->start); WU(w, e->uid);
		WS(w, e->user); WS(w, e->comm); WS(w, e->cmdline);
		WU(w, e->rbytes); WU(w, e->wbytes);
		if (!w->dec || w->err)
			continue;
		if (!(dst = proc_sample_add(ps, tmp.pid, tmp.start))) {
			w->err = -ENOMEM;
			break;
		}
		*dst = tmp;
	}
}

static void walk_sample(struct walk *w, struct sample *s)
{
	size_t n;

	WD(w, s->t);
	WU(w, s->wall.tv_sec); WU(w, s->wall.tv_nsec);
	WD(w, s->uptime);
	n = wcount(w, s->ndisks, RECORD_MAX_DISKS);
	if (w->dec)
		for (size_t i = 0; i < n && !w->err; i++)
			if (!sample_add_disk(s))
				w->err = -ENOMEM;
	for (size_t i = 0; i < n && !w->err; i++)
		walk_disk(w, &s->disks[i]);
	walk_cpu_stat(w, &s->cpu);
	WU(w, s->mem.valid); WU(w, s->mem.total_kb); WU(w, s->mem.available_kb); WU(w, s->mem.cached_kb);
	WU(w, s->mem.dirty_kb); WU(w, s->mem.writeback_kb);
	s->ntemps = (int)wcount(w, (size_t)s->ntemps, SAMPLE_TEMPS_MAX);
	for (int i = 0; i < s->ntemps; i++) {
		WS(w, s->temps[i].label);
		WD(w, s->temps[i].celsius);
	}
	walk_cpus(w, &s->cpus);
	WU(w, s->traced);
	if (s->traced)
		walk_trace(w, &s->trace);
	WU(w, s->ra_valid);
	if (s->ra_valid)
		walk_ra(w, &s->ra);
	walk_cgroups(w, &s->cg);
	walk_procs(w, &s->procs);
}

int record_flatten(const struct sample *s, struct record_flat *f)
{
	struct walk w = { .dec = false, .f = f };

	record_flat_reset(f);
	/* Encoding only reads the sample. */
	walk_sample(&w, (struct sample *)s);
	return w.err;
}

int record_unflatten(const struct record_flat *f, struct sample *s)
{
	struct walk w = { .dec = true, .f = (struct record_flat *)f };

	sample_clear(s);
	walk_sample(&w, s);
	if (!w.err && (w.pos != f->nw || w.spos != f->ns))
		w.err = -EINVAL; /* words left over: not what this walk wrote */
	return w.err;
}

int record_flat_times(const struct record_flat *f, double *t, struct timespec *wall)
{
	if (f->nw < 3)
		return -EINVAL;
	memcpy(t, &f->w[0], sizeof(*t));
	wall->tv_sec = (time_t)f->w[1];
	wall->tv_nsec = (long)f->w[2];
	return 0;
}

void record_buf_free(struct record_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

int record_buf_put(struct record_buf *b, const void *p, size_t n)
{
	if (grow((void **)&b->p, &b->cap, b->n + n, 1) < 0)
		return -ENOMEM;
	memcpy(b->p + b->n, p, n);
	b->n += n;
	return 0;
}

int record_buf_varint(struct record_buf *b, uint64_t v)
{
	unsigned char tmp[10];
	size_t n = 0;

	do {
		tmp[n] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			tmp[n] |= 0x80;
		n++;
	} while (v);
	return record_buf_put(b, tmp, n);
}

int record_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	uint64_t r = 0;

	for (unsigned shift = 0; shift < 64; shift += 7) {
		unsigned char c;
		if (*p >= end)
			return -EINVAL;
		c = *(*p)++;
		if (shift == 63 && c > 1)
			return -EINVAL;
		r |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = r;
			return 0;
		}
	}
	return -EINVAL;
}

static uint64_t zigzag(uint64_t d)
{
	return (d << 1) ^ (uint64_t)-(int64_t)(d >> 63);
}

static uint64_t unzigzag(uint64_t z)
{
	return (z >> 1) ^ (uint64_t)-(int64_t)(z & 1);
}

static const char *flat_string(const struct record_flat *f, size_t i, size_t *len)
{
	const char *s = f->sb + f->so[i];

	*len = strlen(s);
	return s;
}

/* The strings' part of a payload: nstrings nchanged { skip len bytes }. */
static int encode_strings(const struct record_flat *prev, const struct record_flat *cur, struct record_buf *out)
{
	size_t changed = 0, last = 0;
	int err;

	for (size_t i = 0; i < cur->ns; i++) {
		size_t a, b = 0;
		const char *sa = flat_string(cur, i, &a), *sb = prev && i < prev->ns ? flat_string(prev, i, &b) : "";
		changed += a != b || memcmp(sa, sb, a);
	}
	if ((err = record_buf_varint(out, cur->ns)) < 0 || (err = record_buf_varint(out, changed)) < 0)
		return err;
	for (size_t i = 0; i < cur->ns; i++) {
		size_t a, b = 0;
		const char *sa = flat_string(cur, i, &a), *sb = prev && i < prev->ns ? flat_string(prev, i, &b) : "";
		if (a == b && !memcmp(sa, sb, a))
			continue;
		if ((err = record_buf_varint(out, i - last)) < 0 || (err = record_buf_varint(out, a)) < 0 ||
		    (err = record_buf_put(out, sa, a)) < 0)
			return err;
		last = i + 1;
	}
	return 0;
}

/* Size the coder's state (last deltas, moving flags) for f's words. */
static int state_reserve(struct record_flat *f, size_t n)
{
	if (grow((void **)&f->d, &f->capd, n, sizeof(*f->d)) < 0 ||
	    grow((void **)&f->on, &f->capon, n, sizeof(*f->on)) < 0)
		return -ENOMEM;
	return 0;
}

/* No delta and no word moving, from word `from` to the end of f's list. */
static void state_clear(struct record_flat *f, size_t from)
{
	if (from >= f->nw)
		return;
	memset(f->d + from, 0, (f->nw - from) * sizeof(*f->d));
	memset(f->on + from, 0, f->nw - from);
}

/* Word i's state in prev: its value, last delta, moving flag (zero past
 * the end of the list, and for a key record). */
static void prev_state(const struct record_flat *prev, size_t i, uint64_t *w, uint64_t *d, bool *on)
{
	bool have = prev && i < prev->nw;

	*w = have ? prev->w[i] : 0;
	*d = have ? prev->d[i] : 0;
	*on = have && prev->on[i];
}

int record_encode(const struct record_flat *prev, struct record_flat *cur, struct record_buf *out)
{
	size_t toggles = 0, last = 0;
	int err;

	if ((err = state_reserve(cur, cur->nw)) < 0)
		return err;
	for (size_t i = 0; i < cur->nw; i++) {
		uint64_t pw, pd;
		bool pon;
		prev_state(prev, i, &pw, &pd, &pon);
		cur->d[i] = cur->w[i] - pw;
		cur->on[i] = cur->d[i] != pd;
		toggles += cur->on[i] != pon;
	}
	if ((err = record_buf_varint(out, cur->nw)) < 0 || (err = record_buf_varint(out, toggles)) < 0)
		return err;
	for (size_t i = 0; i < cur->nw; i++) {
		uint64_t pw, pd;
		bool pon;
		prev_state(prev, i, &pw, &pd, &pon);
		if (cur->on[i] == pon)
			continue;
		if ((err = record_buf_varint(out, i - last)) < 0)
			return err;
		last = i + 1;
	}
	for (size_t i = 0; i < cur->nw; i++) {
		uint64_t pw, pd;
		bool pon;
		if (!cur->on[i])
			continue;
		prev_state(prev, i, &pw, &pd, &pon);
		if ((err = record_buf_varint(out, zigzag(cur->d[i] - pd))) < 0)
			return err;
	}
	/* A key's values are no rate: the record after it starts from no
	 * delta and no word moving. */
	if (!prev)
		state_clear(cur, 0);
	return encode_strings(prev, cur, out);
}

/* Strings are rebuilt whole: they change seldom and are short. */
static int decode_strings(struct record_flat *f, const unsigned char **p, const unsigned char *end)
{
	struct record_flat nf;
	uint64_t ns, changed, skip, len;
	size_t i = 0;
	int err = -EINVAL;

	if (record_varint(p, end, &ns) < 0 || record_varint(p, end, &changed) < 0 || ns > RECORD_MAX_STRINGS ||
	    changed > ns)
		return -EINVAL;
	record_flat_init(&nf);
	for (uint64_t c = 0; c <= changed; c++) {
		uint64_t upto;
		if (c < changed) {
			if (record_varint(p, end, &skip) < 0 || skip > ns - i)
				goto out;
			upto = i + skip;
		} else {
			upto = ns;
		}
		for (; i < upto; i++) {
			size_t l = 0;
			const char *s = i < f->ns ? flat_string(f, i, &l) : "";
			if ((err = push_string(&nf, s, l)) < 0)
				goto out;
		}
		err = -EINVAL;
		if (c == changed)
			break;
		if (i >= ns || record_varint(p, end, &len) < 0 || len > (uint64_t)(end - *p) ||
		    memchr(*p, '\0', len))
			goto out;
		if ((err = push_string(&nf, (const char *)*p, len)) < 0)
			goto out;
		err = -EINVAL;
		*p += len;
		i++;
	}
	/* Take the new strings over. */
	free(f->sb);
	free(f->so);
	f->sb = nf.sb, f->nsb = nf.nsb, f->capsb = nf.capsb;
	f->so = nf.so, f->ns = nf.ns, f->caps = nf.caps;
	nf.sb = NULL;
	nf.so = NULL;
	err = 0;
out:
	record_flat_free(&nf);
	return err;
}

int record_decode(struct record_flat *f, bool key, const unsigned char *p, size_t n)
{
	const unsigned char *end = p + n;
	uint64_t nw, toggles, skip, z;
	size_t i = 0, old;

	if (key)
		record_flat_reset(f);
	old = f->nw;
	if (record_varint(&p, end, &nw) < 0 || record_varint(&p, end, &toggles) < 0 || nw > RECORD_MAX_WORDS ||
	    toggles > nw)
		return -EINVAL;
	if (grow((void **)&f->w, &f->capw, nw, sizeof(*f->w)) < 0 || state_reserve(f, nw) < 0)
		return -ENOMEM;
	/* Words past the previous list start from zero. */
	f->nw = nw;
	if (old < nw) {
		memset(f->w + old, 0, (nw - old) * sizeof(*f->w));
		state_clear(f, old);
	}
	for (uint64_t c = 0; c < toggles; c++) {
		if (record_varint(&p, end, &skip) < 0 || skip >= nw - i)
			return -EINVAL;
		i += skip;
		f->on[i] ^= 1;
		i++;
	}
	/* A word that is not moving keeps its last delta; a moving one adds
	 * its residual to it. */
	for (i = 0; i < nw; i++) {
		if (f->on[i]) {
			if (record_varint(&p, end, &z) < 0)
				return -EINVAL;
			f->d[i] += unzigzag(z);
		}
		f->w[i] += f->d[i];
	}
	if (key)
		state_clear(f, 0);
	if (decode_strings(f, &p, end) < 0)
		return -EINVAL;
	return p == end ? 0 : -EINVAL;
}
