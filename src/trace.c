#include "trace.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "capacity.h"

void trace_sample_init(struct trace_sample *s)
{
	memset(s, 0, sizeof(*s));
}

void trace_sample_free(struct trace_sample *s)
{
	free(s->devs);
	free(s->cpu);
	free(s->matrix);
	trace_sample_init(s);
}

static unsigned matrix_cpus(unsigned ncpu)
{
	return ncpu < TRACE_MATRIX_CPUS ? ncpu : TRACE_MATRIX_CPUS;
}

void trace_sample_reset(struct trace_sample *s, unsigned ncpu)
{
	/* The per-CPU arrays are sized by cap * ncpu: a new CPU count needs
	 * fresh ones. */
	if (ncpu != s->ncpu) {
		free(s->cpu);
		free(s->matrix);
		s->cpu = NULL;
		s->matrix = NULL;
		s->cap = 0;
		free(s->devs);
		s->devs = NULL;
	}
	s->ncpu = ncpu;
	s->nmat = matrix_cpus(ncpu);
	s->ndevs = 0;
	s->missed = 0;
	s->map_full = 0;
}

static int grow(struct trace_sample *s, size_t want)
{
	size_t cap = s->cap ? s->cap : 8;
	size_t mat = (size_t)s->nmat * s->nmat;
	void *p;

	if (want <= s->cap)
		return 0;
	while (cap < want)
		cap *= 2;
	p = realloc(s->devs, cap * sizeof(*s->devs));
	if (!p)
		return -ENOMEM;
	s->devs = p;
	p = realloc(s->cpu, cap * s->ncpu * sizeof(*s->cpu) + 1);
	if (!p)
		return -ENOMEM;
	s->cpu = p;
	p = realloc(s->matrix, cap * mat * sizeof(*s->matrix) + 1);
	if (!p)
		return -ENOMEM;
	s->matrix = p;
	s->cap = cap;
	return 0;
}

bool trace_sample_compact(struct trace_sample *s)
{
	size_t cap = capacity_shrunk(s->ndevs, s->cap), mat = (size_t)s->nmat * s->nmat;
	struct trace_sample t = *s;

	if (cap >= s->cap)
		return false;
	/* Into new blocks, the old ones freed only when all three exist. */
	t.devs = malloc(cap * sizeof(*t.devs));
	t.cpu = malloc(cap * s->ncpu * sizeof(*t.cpu) + 1);
	t.matrix = malloc(cap * mat * sizeof(*t.matrix) + 1);
	if (!t.devs || !t.cpu || !t.matrix) {
		free(t.devs);
		free(t.cpu);
		free(t.matrix);
		return false;
	}
	if (s->ndevs) {
		memcpy(t.devs, s->devs, s->ndevs * sizeof(*s->devs));
		memcpy(t.cpu, s->cpu, s->ndevs * s->ncpu * sizeof(*s->cpu));
		memcpy(t.matrix, s->matrix, s->ndevs * mat * sizeof(*s->matrix));
	}
	free(s->devs);
	free(s->cpu);
	free(s->matrix);
	t.cap = cap;
	*s = t;
	return true;
}

int trace_sample_resize(struct trace_sample *s, unsigned ncpu, size_t ndevs)
{
	size_t mat;
	int err;

	trace_sample_reset(s, ncpu);
	if ((err = grow(s, ndevs)) < 0)
		return err;
	mat = (size_t)s->nmat * s->nmat;
	s->ndevs = ndevs;
	if (ndevs) {
		memset(s->devs, 0, ndevs * sizeof(*s->devs));
		memset(s->cpu, 0, ndevs * s->ncpu * sizeof(*s->cpu));
		memset(s->matrix, 0, ndevs * mat * sizeof(*s->matrix));
	}
	return 0;
}

int trace_sample_copy(struct trace_sample *dst, const struct trace_sample *src)
{
	size_t mat = (size_t)src->nmat * src->nmat;
	int err;

	trace_sample_reset(dst, src->ncpu);
	err = grow(dst, src->ndevs);
	if (err)
		return err;
	if (src->ndevs) {
		memcpy(dst->devs, src->devs, src->ndevs * sizeof(*src->devs));
		memcpy(dst->cpu, src->cpu, src->ndevs * src->ncpu * sizeof(*src->cpu));
		memcpy(dst->matrix, src->matrix, src->ndevs * mat * sizeof(*src->matrix));
	}
	dst->ndevs = src->ndevs;
	dst->missed = src->missed;
	dst->map_full = src->map_full;
	return 0;
}

void trace_sample_swap(struct trace_sample *a, struct trace_sample *b)
{
	struct trace_sample t = *a;

	*a = *b;
	*b = t;
}

ssize_t trace_sample_find(const struct trace_sample *s, dev_t dev)
{
	size_t lo = 0, hi = s->ndevs;

	/* Sorted by dev, then path: the first entry of dev is found. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->devs[mid].dev < dev)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->ndevs && s->devs[lo].dev == dev ? (ssize_t)lo : -1;
}

const struct trace_cpu *trace_sample_cpu(const struct trace_sample *s, size_t i)
{
	return s->cpu + i * s->ncpu;
}

const uint64_t *trace_sample_matrix(const struct trace_sample *s, size_t i)
{
	return s->matrix + i * s->nmat * s->nmat;
}

dev_t trace_dev_from_kernel(uint32_t kdev)
{
	return makedev(kdev >> 20, kdev & 0xfffff);
}

int trace_key_cmp(const void *a, const void *b)
{
	const struct blktune_key *x = a, *y = b;
	dev_t dx = trace_dev_from_kernel(x->dev), dy = trace_dev_from_kernel(y->dev);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	return x->path < y->path ? -1 : x->path > y->path;
}

#define ADD_ARRAY(dst, src)                                            \
	for (size_t k_ = 0; k_ < sizeof(dst) / sizeof((dst)[0]); k_++) \
		(dst)[k_] += (src)[k_]

static void add_counts(struct trace_counts *t, const struct blktune_dev_cpu *v)
{
	ADD_ARRAY(t->issued, v->issued);
	ADD_ARRAY(t->bytes, v->bytes);
	for (int rw = 0; rw < 2; rw++) {
		ADD_ARRAY(t->size_count[rw], v->size_count[rw]);
		ADD_ARRAY(t->size_bytes[rw], v->size_bytes[rw]);
	}
	ADD_ARRAY(t->completed, v->completed);
	t->steps += v->steps;
	ADD_ARRAY(t->lat_sum_ns, v->lat_sum_ns);
	ADD_ARRAY(t->lat, v->lat);
	t->no_start += v->no_start;
	ADD_ARRAY(t->q_sum_ns, v->q_sum_ns);
	ADD_ARRAY(t->d_sum_ns, v->d_sum_ns);
	for (int op = 0; op < TRACE_OPS; op++) {
		ADD_ARRAY(t->qlat[op], v->qlat[op]);
		ADD_ARRAY(t->dlat[op], v->dlat[op]);
	}
	ADD_ARRAY(t->no_issue, v->no_issue);
	ADD_ARRAY(t->cls, v->cls);
}

static uint64_t sum4(const uint64_t *a)
{
	return a[0] + a[1] + a[2] + a[3];
}

int trace_sample_add(struct trace_sample *s, const struct blktune_key *key,
		     const struct blktune_dev_cpu *percpu)
{
	struct trace_dev *d;
	struct trace_cpu *cpu;
	uint64_t *mat, seq = 0;
	int err;

	if (key->path > BLKTUNE_PATH_BIO)
		return -EINVAL;
	if (s->ndevs) {
		const struct trace_dev *last = &s->devs[s->ndevs - 1];
		struct blktune_key lk = { .path = (uint32_t)last->path };

		lk.dev = (uint32_t)(major(last->dev) << 20 | minor(last->dev));
		if (trace_key_cmp(&lk, key) >= 0)
			return -EINVAL;
	}
	err = grow(s, s->ndevs + 1);
	if (err)
		return err;
	d = &s->devs[s->ndevs];
	cpu = s->cpu + s->ndevs * s->ncpu;
	mat = s->matrix + s->ndevs * s->nmat * s->nmat;
	memset(d, 0, sizeof(*d));
	memset(cpu, 0, s->ncpu * sizeof(*cpu));
	memset(mat, 0, (size_t)s->nmat * s->nmat * sizeof(*mat));
	d->dev = trace_dev_from_kernel(key->dev);
	d->path = (enum trace_path)key->path;
	/* The disk behind dev is the newest one any CPU saw (diskseq only
	 * grows); a CPU still holding an older disk's counters has done no
	 * I/O for the new one yet and zeroes its slot when it does. */
	for (unsigned c = 0; c < s->ncpu; c++)
		if (percpu[c].seq > seq)
			seq = percpu[c].seq;
	d->seq = seq;
	for (unsigned c = 0; c < s->ncpu; c++) {
		const struct blktune_dev_cpu *v = &percpu[c];

		if (v->seq != seq)
			continue;
		add_counts(&d->tot, v);
		cpu[c].completed = v->completed[0] + v->completed[1] + v->completed[2] + v->completed[3];
		memcpy(cpu[c].cls, v->cls, sizeof(cpu[c].cls));
		if (d->path == TRACE_PATH_BIO)
			cpu[c].issued = v->issued[0] + v->issued[1] + v->issued[2] + v->issued[3];
		if (c < s->nmat)
			memcpy(mat + c * s->nmat, v->from_cpu, s->nmat * sizeof(*mat));
	}
	if (d->path == TRACE_PATH_RQ) {
		/* One program, at completion: every counted request was issued,
		 * and its submitting CPU is the matrix column. */
		memcpy(d->tot.issued, d->tot.completed, sizeof(d->tot.issued));
		for (unsigned from = 0; from < s->nmat; from++)
			for (unsigned to = 0; to < s->nmat; to++)
				cpu[from].issued += mat[to * s->nmat + from];
	}
	s->ndevs++;
	return 0;
}

/* ---- per-interval model ---- */

void trace_metrics_init(struct trace_metrics *m)
{
	memset(m, 0, sizeof(*m));
}

void trace_metrics_free(struct trace_metrics *m)
{
	free(m->cpu);
	free(m->matrix);
	trace_metrics_init(m);
}

/* Subtract arrays; a counter that went backwards sets *back. */
static void sub_array(uint64_t *out, const uint64_t *cur, const uint64_t *prev, size_t n, bool *back)
{
	for (size_t i = 0; i < n; i++) {
		if (cur[i] < prev[i])
			*back = true;
		out[i] = cur[i] - prev[i];
	}
}

#define SUB_FIELD(out, cur, prev, f, back) \
	sub_array((out)->f, (cur)->f, (prev)->f, sizeof((out)->f) / sizeof(uint64_t), back)

static void sub_counts(struct trace_counts *o, const struct trace_counts *c,
		       const struct trace_counts *p, bool *back)
{
	SUB_FIELD(o, c, p, issued, back);
	SUB_FIELD(o, c, p, bytes, back);
	for (int rw = 0; rw < 2; rw++) {
		SUB_FIELD(o, c, p, size_count[rw], back);
		SUB_FIELD(o, c, p, size_bytes[rw], back);
	}
	SUB_FIELD(o, c, p, completed, back);
	sub_array(&o->steps, &c->steps, &p->steps, 1, back);
	SUB_FIELD(o, c, p, lat_sum_ns, back);
	SUB_FIELD(o, c, p, lat, back);
	sub_array(&o->no_start, &c->no_start, &p->no_start, 1, back);
	SUB_FIELD(o, c, p, q_sum_ns, back);
	SUB_FIELD(o, c, p, d_sum_ns, back);
	for (int op = 0; op < TRACE_OPS; op++) {
		SUB_FIELD(o, c, p, qlat[op], back);
		SUB_FIELD(o, c, p, dlat[op], back);
	}
	SUB_FIELD(o, c, p, no_issue, back);
	SUB_FIELD(o, c, p, cls, back);
}

static int metrics_buffers(struct trace_metrics *m, unsigned ncpu, unsigned nmat)
{
	size_t mat = (size_t)nmat * nmat;
	void *p;

	if (ncpu > m->cap_cpu) {
		p = realloc(m->cpu, ncpu * sizeof(*m->cpu));
		if (!p)
			return -ENOMEM;
		m->cpu = p;
		m->cap_cpu = ncpu;
	}
	if (mat > m->cap_mat) {
		p = realloc(m->matrix, mat * sizeof(*m->matrix));
		if (!p)
			return -ENOMEM;
		m->matrix = p;
		m->cap_mat = mat;
	}
	m->ncpu = ncpu;
	m->nmat = nmat;
	return 0;
}

static void split_of(struct trace_split *sp, const uint64_t *q, const uint64_t *dv, uint64_t qsum,
		     uint64_t dsum)
{
	sp->n = 0;
	for (int i = 0; i < TRACE_LAT_BUCKETS; i++)
		sp->n += dv[i];
	sp->q_avg_us = sp->n ? (double)qsum / (double)sp->n / 1000.0 : NAN;
	sp->d_avg_us = sp->n ? (double)dsum / (double)sp->n / 1000.0 : NAN;
	sp->q_p50_us = trace_lat_percentile_us(q, 0.50);
	sp->q_p90_us = trace_lat_percentile_us(q, 0.90);
	sp->q_p99_us = trace_lat_percentile_us(q, 0.99);
	sp->d_p50_us = trace_lat_percentile_us(dv, 0.50);
	sp->d_p90_us = trace_lat_percentile_us(dv, 0.90);
	sp->d_p99_us = trace_lat_percentile_us(dv, 0.99);
}

static void derive_split(struct trace_metrics *m)
{
	const struct trace_counts *d = &m->d;
	uint64_t qs = 0, ds = 0;

	m->split = m->path == TRACE_PATH_RQ;
	memset(m->qall, 0, sizeof(m->qall));
	memset(m->dall, 0, sizeof(m->dall));
	for (int op = 0; op < TRACE_OPS; op++) {
		split_of(&m->sp[op], d->qlat[op], d->dlat[op], d->q_sum_ns[op], d->d_sum_ns[op]);
		for (int i = 0; i < TRACE_LAT_BUCKETS; i++) {
			m->qall[i] += d->qlat[op][i];
			m->dall[i] += d->dlat[op][i];
		}
		qs += d->q_sum_ns[op];
		ds += d->d_sum_ns[op];
	}
	split_of(&m->sp[TRACE_OPS], m->qall, m->dall, qs, ds);
}

static void derive(struct trace_metrics *m)
{
	const struct trace_counts *d = &m->d;
	uint64_t ncls = 0, lat_sum = 0;

	m->issued = sum4(d->issued);
	m->completed = sum4(d->completed);
	m->lat_n = 0;
	for (int i = 0; i < TRACE_LAT_BUCKETS; i++)
		m->lat_n += d->lat[i];
	for (int op = 0; op < TRACE_OPS; op++) {
		lat_sum += d->lat_sum_ns[op];
		/* Without a start time a completion adds to completed but not
		 * to lat_sum: the per-op average would be too low. */
		m->lat_avg_op_us[op] = d->completed[op] && !d->no_start
			? (double)d->lat_sum_ns[op] / (double)d->completed[op] / 1000.0 : NAN;
	}
	m->lat_avg_us = m->lat_n ? (double)lat_sum / (double)m->lat_n / 1000.0 : NAN;
	m->lat_p50_us = trace_lat_percentile_us(d->lat, 0.50);
	m->lat_p90_us = trace_lat_percentile_us(d->lat, 0.90);
	m->lat_p99_us = trace_lat_percentile_us(d->lat, 0.99);
	m->lat_max_us = trace_lat_max_us(d->lat);
	for (int c = 0; c < TRACE_CLASSES; c++)
		ncls += d->cls[c];
	for (int c = 0; c < TRACE_CLASSES; c++)
		m->cls_share[c] = ncls ? (double)d->cls[c] / (double)ncls : NAN;
	derive_split(m);
}

int trace_metrics_compute(const struct trace_sample *prev, const struct trace_sample *cur,
			  dev_t dev, struct trace_metrics *m)
{
	static const struct trace_counts zero_counts;
	const struct trace_cpu *cc, *pc = NULL;
	const uint64_t *cm, *pm = NULL;
	ssize_t ic = trace_sample_find(cur, dev), ip = -1;
	const struct trace_counts *pt = &zero_counts;
	size_t mat;
	bool back = false;
	int err;

	if (ic < 0)
		return -ENOENT;
	err = metrics_buffers(m, cur->ncpu, cur->nmat);
	if (err)
		return err;
	/* CPUs came or went (the possible-CPU count never changes while the
	 * map lives, so this is a different map): no interval. */
	if (prev && prev->ncpu != cur->ncpu)
		return -ERANGE;
	if (prev)
		ip = trace_sample_find(prev, dev);
	/* Another path or another disk behind the same dev_t: the counters
	 * started over, so this interval counts from zero. */
	if (ip >= 0 && (prev->devs[ip].path != cur->devs[ic].path || prev->devs[ip].seq != cur->devs[ic].seq))
		ip = -1;
	/* Idle: no event since prev (the counters only grow, so equal totals
	 * mean equal per-CPU counts too). Nothing to derive, nothing to draw:
	 * most devices of a large machine, every refresh. */
	if (ip >= 0 && !memcmp(&prev->devs[ip].tot, &cur->devs[ic].tot, sizeof(cur->devs[ic].tot)))
		return -ENODATA;
	if (ip >= 0) {
		pt = &prev->devs[ip].tot;
		pc = trace_sample_cpu(prev, (size_t)ip);
		pm = trace_sample_matrix(prev, (size_t)ip);
	}
	m->dev = dev;
	m->path = cur->devs[ic].path;
	sub_counts(&m->d, &cur->devs[ic].tot, pt, &back);
	cc = trace_sample_cpu(cur, (size_t)ic);
	cm = trace_sample_matrix(cur, (size_t)ic);
	mat = (size_t)cur->nmat * cur->nmat;
	for (unsigned c = 0; c < cur->ncpu; c++) {
		static const struct trace_cpu zero_cpu;
		const struct trace_cpu *p = pc ? &pc[c] : &zero_cpu;

		sub_array(&m->cpu[c].issued, &cc[c].issued, &p->issued, 1, &back);
		sub_array(&m->cpu[c].completed, &cc[c].completed, &p->completed, 1, &back);
		sub_array(m->cpu[c].cls, cc[c].cls, p->cls, TRACE_CLASSES, &back);
	}
	for (size_t k = 0; k < mat; k++) {
		uint64_t p = pm ? pm[k] : 0;

		if (cm[k] < p)
			back = true;
		m->matrix[k] = cm[k] - p;
	}
	if (back)
		return -ERANGE;
	derive(m);
	return 0;
}

/* ---- histograms ---- */

uint64_t trace_size_bucket_le(unsigned i)
{
	return i + 1 < TRACE_SIZE_BUCKETS ? 512ULL << i : 0;
}

uint64_t trace_lat_bucket_le_us(unsigned i)
{
	return i + 1 < TRACE_LAT_BUCKETS ? 1ULL << i : 0;
}

/* Bounds of latency bucket i in µs; the open last bucket is taken as one
 * more doubling so it can be interpolated. */
static void lat_bounds(unsigned i, double *lo, double *hi)
{
	*hi = ldexp(1.0, (int)i);
	*lo = i ? *hi / 2 : 0;
}

double trace_lat_percentile_us(const uint64_t lat[TRACE_LAT_BUCKETS], double p)
{
	uint64_t n = 0, cum = 0;
	double rank, lo, hi;

	for (int i = 0; i < TRACE_LAT_BUCKETS; i++)
		n += lat[i];
	if (!n)
		return NAN;
	if (p < 0)
		p = 0;
	if (p > 1)
		p = 1;
	rank = p * (double)n;
	for (unsigned i = 0; i < TRACE_LAT_BUCKETS; i++) {
		if (!lat[i])
			continue;
		if ((double)(cum + lat[i]) >= rank) {
			lat_bounds(i, &lo, &hi);
			return lo + (hi - lo) * (rank - (double)cum) / (double)lat[i];
		}
		cum += lat[i];
	}
	return NAN; /* not reached: rank <= n */
}

double trace_lat_max_us(const uint64_t lat[TRACE_LAT_BUCKETS])
{
	double lo, hi;

	for (int i = TRACE_LAT_BUCKETS - 1; i >= 0; i--) {
		if (lat[i]) {
			lat_bounds((unsigned)i, &lo, &hi);
			return hi;
		}
	}
	return NAN;
}

void trace_matrix_group(const struct trace_topology *t, const uint64_t *matrix, unsigned n,
			uint64_t out[TRACE_CLASSES])
{
	memset(out, 0, TRACE_CLASSES * sizeof(*out));
	for (unsigned to = 0; to < n; to++)
		for (unsigned from = 0; from < n; from++)
			out[trace_topology_class(t, from, to)] += matrix[to * n + from];
}

/* ---- JSON ---- */

static void json_num(FILE *f, const char *key, double v)
{
	if (isnan(v))
		fprintf(f, ", \"%s\": null", key);
	else
		fprintf(f, ", \"%s\": %.1f", key, v);
}


const char *const trace_op_names[TRACE_OPS] = { "read", "write", "discard", "flush" };

static void json_lat_hist(FILE *f, const uint64_t *h)
{
	fputc('[', f);
	for (unsigned i = 0; i < TRACE_LAT_BUCKETS; i++) {
		uint64_t le = trace_lat_bucket_le_us(i);

		fputs(i ? ", " : "", f);
		if (le)
			fprintf(f, "{\"us_le\": %llu", (unsigned long long)le);
		else
			fputs("{\"us_le\": null", f);
		fprintf(f, ", \"count\": %llu}", (unsigned long long)h[i]);
	}
	fputc(']', f);
}

static void json_split(FILE *f, const struct trace_split *sp)
{
	fprintf(f, "\"requests\": %llu", (unsigned long long)sp->n);
	json_num(f, "queue_avg_us", sp->q_avg_us);
	json_num(f, "queue_p50_us", sp->q_p50_us);
	json_num(f, "queue_p90_us", sp->q_p90_us);
	json_num(f, "queue_p99_us", sp->q_p99_us);
	json_num(f, "device_avg_us", sp->d_avg_us);
	json_num(f, "device_p50_us", sp->d_p50_us);
	json_num(f, "device_p90_us", sp->d_p90_us);
	json_num(f, "device_p99_us", sp->d_p99_us);
}

/* "lat_split": per op, queue and device time; null where the device has
 * no queue part (bio-based). */
static void json_lat_split(FILE *f, const struct trace_metrics *m)
{
	if (!m->split) {
		fputs(", \"lat_split\": null, \"q_p99_us\": null, \"d_p99_us\": null", f);
		return;
	}
	fputs(", \"lat_split\": {", f);
	for (int op = 0; op < TRACE_OPS; op++) {
		fprintf(f, "%s\"%s\": {", op ? ", " : "", trace_op_names[op]);
		json_split(f, &m->sp[op]);
		fprintf(f, ", \"no_issue_time\": %llu, \"lat_hist_us\": {\"queue\": ",
			(unsigned long long)m->d.no_issue[op]);
		json_lat_hist(f, m->d.qlat[op]);
		fputs(", \"device\": ", f);
		json_lat_hist(f, m->d.dlat[op]);
		fputs("}}", f);
	}
	fputs(", \"all\": {", f);
	json_split(f, &m->sp[TRACE_OPS]);
	fputs("}}", f);
	json_num(f, "q_p99_us", m->sp[TRACE_OPS].q_p99_us);
	json_num(f, "d_p99_us", m->sp[TRACE_OPS].d_p99_us);
}

static void json_size_hist(FILE *f, const struct trace_metrics *m, int rw)
{
	for (unsigned i = 0; i < TRACE_SIZE_BUCKETS; i++) {
		uint64_t le = trace_size_bucket_le(i);

		fputs(i ? ", " : "", f);
		if (le)
			fprintf(f, "{\"bytes_le\": %llu", (unsigned long long)le);
		else
			fputs("{\"bytes_le\": null", f);
		fprintf(f, ", \"count\": %llu, \"bytes\": %llu}",
			(unsigned long long)m->d.size_count[rw][i],
			(unsigned long long)m->d.size_bytes[rw][i]);
	}
}

int trace_metrics_json(FILE *f, const struct trace_metrics *m)
{
	bool first = true;

	fputs(", \"rq_size_hist\": {\"read\": [", f);
	json_size_hist(f, m, TRACE_OP_READ);
	fputs("], \"write\": [", f);
	json_size_hist(f, m, TRACE_OP_WRITE);
	fputs("]}, \"lat_hist_us\": ", f);
	json_lat_hist(f, m->d.lat);
	json_num(f, "lat_p50_us", m->lat_p50_us);
	json_num(f, "lat_p90_us", m->lat_p90_us);
	json_num(f, "lat_p99_us", m->lat_p99_us);
	json_num(f, "lat_max_us", m->lat_max_us);
	json_num(f, "lat_avg_us", m->lat_avg_us);
	fprintf(f, ", \"no_start_time\": %llu", (unsigned long long)m->d.no_start);
	fputs(", \"per_cpu\": [", f);
	for (unsigned c = 0; c < m->ncpu; c++) {
		if (!m->cpu[c].issued && !m->cpu[c].completed)
			continue;
		fprintf(f, "%s{\"cpu\": %u, \"issued\": %llu, \"completed\": %llu}", first ? "" : ", ", c,
			(unsigned long long)m->cpu[c].issued, (unsigned long long)m->cpu[c].completed);
		first = false;
	}
	fprintf(f, "], \"trace_path\": \"%s\", \"trace_issued\": %llu, \"trace_completed\": %llu",
		m->path == TRACE_PATH_BIO ? "bio" : "rq", (unsigned long long)m->issued,
		(unsigned long long)m->completed);
	fputs(", \"cpu_completion\": {", f);
	for (int c = 0; c < TRACE_CLASSES; c++)
		fprintf(f, "%s\"%s\": %llu", c ? ", " : "", trace_class_names[c],
			(unsigned long long)m->d.cls[c]);
	fputc('}', f);
	json_lat_split(f, m);
	return ferror(f) ? -EIO : 0;
}
