#include "model-procs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "model.h"
#include "trace.h"

const struct proc_column_info proc_columns[PROC_COLUMNS] = {
	[PROC_COL_PID] = { "PID", "pid", false, "process id" },
	[PROC_COL_USER] = { "USER", "user", false, "effective user" },
	[PROC_COL_RBYTES_S] = { "rB/s", "rbytes_s", true, "bytes read per second (read_bytes)" },
	[PROC_COL_WBYTES_S] = { "wB/s", "wbytes_s", true,
				"bytes written per second (write_bytes: counted when the page is dirtied)" },
	[PROC_COL_BYTES_S] = { "B/s", "bytes_s", true, "read and written per second" },
	[PROC_COL_RBYTES] = { "read", "rbytes", true, "bytes read since the process started" },
	[PROC_COL_WBYTES] = { "written", "wbytes", true, "bytes written since the process started" },
	[PROC_COL_REQS_S] = { "req/s", "req_s", true, "traced block requests submitted per second (--trace-processes)" },
	[PROC_COL_COMMAND] = { "COMMAND", "command", false, "command line (kernel threads: [name])" },
};

const struct proc_counts model_procs_zero;

void model_procs_free(struct proc_metrics *m)
{
	free(m->row);
	free(m->dev);
	model_procs_loss_free(&m->loss);
	memset(m, 0, sizeof(*m));
}

void model_procs_loss_free(struct proc_loss_figures *l)
{
	free(l->dev);
	memset(l, 0, sizeof(*l));
}

int model_procs_loss(const struct proc_sample *prev, const struct proc_sample *cur, struct proc_loss_figures *out)
{
	const struct proc_sample *pp = prev && prev->valid && prev->traced ? prev : NULL;

	out->ndev = 0;
	out->since_prev = pp != NULL;
	out->no_start = out->no_start_new = 0;
	out->skipped = cur->traced ? cur->skipped : 0;
	out->skipped_new = pp && cur->traced ? model_grown(cur->skipped, pp->skipped) : 0;
	out->not_kept = cur->traced ? cur->not_kept : 0;
	out->not_kept_new = pp && cur->traced ? model_grown(cur->not_kept, pp->not_kept) : 0;
	if (!cur->traced)
		return 0;
	if (cur->nloss > out->cap) {
		struct proc_loss_row *d = realloc(out->dev, cur->nloss * sizeof(*d));

		if (!d)
			return -ENOMEM;
		out->dev = d;
		out->cap = cur->nloss;
	}
	for (size_t i = 0; i < cur->nloss; i++) {
		const struct proc_loss *l = &cur->loss[i];
		const struct proc_loss *pl = pp ? proc_sample_loss(pp, l->dev) : NULL;
		struct proc_loss_row *d = &out->dev[out->ndev++];

		d->dev = l->dev;
		snprintf(d->dev_name, sizeof(d->dev_name), "%u:%u", major(l->dev), minor(l->dev));
		d->no_start = l->no_start;
		/* a device absent before had none then */
		d->no_start_new = pp ? model_grown(l->no_start, pl ? pl->no_start : 0) : 0;
		out->no_start += d->no_start;
		out->no_start_new += d->no_start_new;
	}
	return 0;
}

void model_procs_loss_names(struct proc_loss_figures *l, const struct sample *s)
{
	for (size_t i = 0; i < l->ndev; i++) {
		const struct disk_sample *d = sample_find(s, l->dev[i].dev, 0);

		if (d)
			snprintf(l->dev[i].dev_name, sizeof(l->dev[i].dev_name), "%s", d->st.name);
	}
}

static void fill_row(struct proc_row *r, const struct proc_entry *e, const struct proc_entry *pe, double interval)
{
	memset(r, 0, sizeof(*r));
	r->pid = e->pid;
	r->start = e->start;
	r->uid = e->uid;
	snprintf(r->user, sizeof(r->user), "%s", e->user);
	snprintf(r->comm, sizeof(r->comm), "%s", e->comm);
	snprintf(r->cmdline, sizeof(r->cmdline), "%s", e->cmdline);
	r->rbytes = e->rbytes;
	r->wbytes = e->wbytes;
	/* the counters only grow while a process lives */
	r->rates = pe && interval > 0 && e->rbytes >= pe->rbytes && e->wbytes >= pe->wbytes;
	if (r->rates) {
		r->rbytes_s = (double)(e->rbytes - pe->rbytes) / interval;
		r->wbytes_s = (double)(e->wbytes - pe->wbytes) / interval;
	}
}

static bool went_back(const struct proc_counts *p, const struct proc_counts *c)
{
	for (int op = 0; op < PROC_OPS; op++)
		if (c->requests[op] < p->requests[op] || c->bytes[op] < p->bytes[op])
			return true;
	return c->done < p->done;
}

void model_procs_figures(const struct proc_counts *c, const struct proc_counts *p, double interval,
			 struct proc_figures *f)
{
	uint64_t lat[PROC_LAT_BUCKETS], n = 0;

	memset(f, 0, sizeof(*f));
	memcpy(f->requests, c->requests, sizeof(f->requests));
	memcpy(f->bytes, c->bytes, sizeof(f->bytes));
	f->done = c->done;
	f->lat_p50_us = f->lat_p99_us = f->lat_avg_us = NAN;
	f->rates = p && interval > 0 && !went_back(p, c);
	if (!f->rates)
		return;
	for (int op = 0; op < PROC_OPS; op++) {
		f->req_s[op] = (double)(c->requests[op] - p->requests[op]) / interval;
		f->bytes_s[op] = (double)(c->bytes[op] - p->bytes[op]) / interval;
	}
	for (int i = 0; i < PROC_LAT_BUCKETS; i++)
		n += lat[i] = c->lat[i] >= p->lat[i] ? c->lat[i] - p->lat[i] : 0;
	if (!n)
		return;
	f->lat_p50_us = trace_lat_percentile_us(lat, 0.5);
	f->lat_p99_us = trace_lat_percentile_us(lat, 0.99);
	f->lat_avg_us = (double)(c->lat_sum_ns - p->lat_sum_ns) / 1e3 / (double)(c->done - p->done);
}

static void fill_dev(struct proc_dev_row *d, const struct proc_trace *t, const struct proc_counts *base,
		     double interval)
{
	memset(d, 0, sizeof(*d));
	d->dev = t->dev;
	snprintf(d->dev_name, sizeof(d->dev_name), "%u:%u", major(t->dev), minor(t->dev));
	d->cgroup_id = t->cgroup_id;
	memcpy(d->comm, t->comm, sizeof(d->comm));
	model_procs_figures(&t->c, base, interval, &d->f);
}

/* The baseline of pair t in the previous sample pp (NULL: none), same when
 * its process is the one pp had under that PID: the pair there, zero when
 * the pair is new since (model_procs_zero says why that is sound); none
 * when pp was not traced, or had the pair under a process the PID has
 * been reused since. */
static const struct proc_counts *baseline(const struct proc_sample *pp, const struct proc_trace *t, bool same)
{
	const struct proc_trace *pt;

	if (!pp || !pp->traced)
		return NULL;
	if (!(pt = proc_sample_trace(pp, t->tgid, t->dev)))
		return &model_procs_zero;
	return same ? &pt->c : NULL;
}

/* The traced pairs of process e (identity matched in pp) as device rows. */
static int fill_devs(struct proc_metrics *out, struct proc_row *r, const struct proc_sample *cur,
		     const struct proc_sample *pp, bool same, double interval)
{
	size_t first, n = proc_sample_traces(cur, r->pid, &first);

	r->dfirst = out->ndev;
	r->req_rates = n == 0;
	if (out->ndev + n > out->devcap) {
		size_t cap = (out->ndev + n) * 2;
		struct proc_dev_row *d = realloc(out->dev, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		out->dev = d;
		out->devcap = cap;
	}
	for (size_t i = first; i < first + n; i++) {
		const struct proc_trace *t = &cur->tr[i];
		struct proc_dev_row *d = &out->dev[out->ndev++];

		fill_dev(d, t, baseline(pp, t, same), interval);
		r->req_rates |= d->f.rates;
		for (int op = 0; op < PROC_OPS; op++)
			r->req_s += d->f.req_s[op];
		r->ndev++;
	}
	return 0;
}

/* Processes that submitted requests and exited before the sample's walk
 * (a quick dd, many short jobs): their pairs' last counts, read before the
 * source deleted them, are rows of their own, so the interval's requests
 * are not lost with them. The pair's comm names them; a pair absent from
 * the previous sample counts from zero (baseline). */
static int exited_rows(struct proc_metrics *out, const struct proc_sample *pp, const struct proc_sample *cur,
		       bool all, double interval)
{
	for (size_t i = 0, n; i < cur->ntr; i += n) {
		pid_t pid = cur->tr[i].tgid;
		size_t first, ndev = out->ndev;
		struct proc_row *r;

		n = proc_sample_traces(cur, pid, &first);
		if (!n)
			n = 1;
		if (!cur->tr[i].gone)
			continue;
		if (out->nrows == out->cap) {
			size_t cap = out->cap ? out->cap * 2 : 16;
			struct proc_row *row = realloc(out->row, cap * sizeof(*row));
			if (!row)
				return -ENOMEM;
			out->row = row;
			out->cap = cap;
		}
		r = &out->row[out->nrows];
		memset(r, 0, sizeof(*r));
		r->pid = pid;
		r->exited = true;
		snprintf(r->comm, sizeof(r->comm), "%s", cur->tr[i].comm);
		if (fill_devs(out, r, cur, pp, true, interval) < 0)
			return -ENOMEM;
		if (all || r->req_s > 0)
			out->nrows++;
		else
			out->ndev = ndev;
	}
	return 0;
}

int model_procs(const struct proc_sample *prev, const struct proc_sample *cur, bool all, struct proc_metrics *out)
{
	const struct proc_sample *pp = prev && prev->valid ? prev : NULL;
	double interval = pp ? cur->t - pp->t : 0;

	out->nrows = 0;
	out->ndev = 0;
	out->traced = cur->traced;
	out->valid = cur->valid;
	out->interval = interval;
	out->all_users = cur->all_users;
	out->uid = cur->uid;
	out->unreadable = cur->unreadable;
	out->nprocs = cur->n;
	snprintf(out->why, sizeof(out->why), "%s", cur->why);
	if (model_procs_loss(prev, cur, &out->loss) < 0)
		return -ENOMEM;
	if (!cur->valid)
		return 0;
	if (cur->n > out->cap) {
		struct proc_row *r = realloc(out->row, cur->n * sizeof(*r));
		if (!r)
			return -ENOMEM;
		out->row = r;
		out->cap = cur->n;
	}
	for (size_t i = 0; i < cur->n; i++) {
		const struct proc_entry *e = &cur->p[i];
		const struct proc_entry *pe = pp ? proc_sample_find(pp, e->pid, e->start) : NULL;
		struct proc_row *r = &out->row[out->nrows];
		size_t ndev = out->ndev;

		fill_row(r, e, pe, interval);
		if (cur->traced && fill_devs(out, r, cur, pp, pe != NULL, interval) < 0)
			return -ENOMEM;
		/* writeback shows as requests of the flusher, which wrote no byte */
		if (all || (r->rates && (r->rbytes_s > 0 || r->wbytes_s > 0)) || r->req_s > 0)
			out->nrows++;
		else
			out->ndev = ndev;
	}
	return cur->traced ? exited_rows(out, pp, cur, all, interval) : 0;
}

static int cmp_num(double a, double b)
{
	return (a > b) - (a < b);
}

/* Ascending comparison of two rows by one column: -1, 0 or 1 (strcmp's
 * magnitude is the libc's own). */
static int cmp_col(const struct proc_row *a, const struct proc_row *b, enum proc_column col)
{
	switch (col) {
	case PROC_COL_PID:
		return cmp_num(a->pid, b->pid);
	case PROC_COL_USER:
		return cmp_num(strcmp(a->user, b->user), 0);
	case PROC_COL_RBYTES_S:
		return cmp_num(a->rbytes_s, b->rbytes_s);
	case PROC_COL_WBYTES_S:
		return cmp_num(a->wbytes_s, b->wbytes_s);
	case PROC_COL_BYTES_S:
		return cmp_num(a->rbytes_s + a->wbytes_s, b->rbytes_s + b->wbytes_s);
	case PROC_COL_RBYTES:
		return cmp_num((double)a->rbytes, (double)b->rbytes);
	case PROC_COL_WBYTES:
		return cmp_num((double)a->wbytes, (double)b->wbytes);
	case PROC_COL_REQS_S:
		return cmp_num(a->req_s, b->req_s);
	case PROC_COL_COMMAND:
		return cmp_num(strcmp(a->cmdline[0] ? a->cmdline : a->comm, b->cmdline[0] ? b->cmdline : b->comm), 0);
	case PROC_COLUMNS:
		break;
	}
	return 0;
}

struct sort_by {
	enum proc_column col;
	int sign;
};

static bool rate_col(enum proc_column c)
{
	return c == PROC_COL_RBYTES_S || c == PROC_COL_WBYTES_S || c == PROC_COL_BYTES_S || c == PROC_COL_REQS_S;
}

static int cmp_rows(const void *x, const void *y, void *arg)
{
	const struct proc_row *a = x, *b = y;
	const struct sort_by *by = arg;
	int c;

	if (rate_col(by->col) && a->rates != b->rates)
		return a->rates ? -1 : 1;
	if ((c = cmp_col(a, b, by->col)))
		return by->sign * c;
	return cmp_num(a->pid, b->pid);
}

void model_procs_sort(struct proc_metrics *m, enum proc_column col, bool reverse)
{
	struct sort_by by = { col < PROC_COLUMNS ? col : PROC_COL_BYTES_S, 1 };

	by.sign = proc_columns[by.col].descending != reverse ? -1 : 1;
	if (m->nrows > 1)
		qsort_r(m->row, m->nrows, sizeof(m->row[0]), cmp_rows, &by);
}

const struct proc_row *model_procs_find(const struct proc_metrics *m, pid_t pid)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (m->row[i].pid == pid)
			return &m->row[i];
	return NULL;
}

void model_procs_names(struct proc_metrics *m, const struct sample *s)
{
	for (size_t i = 0; i < m->ndev; i++) {
		const struct disk_sample *d = sample_find(s, m->dev[i].dev, 0);

		if (d)
			snprintf(m->dev[i].dev_name, sizeof(m->dev[i].dev_name), "%s", d->st.name);
	}
	model_procs_loss_names(&m->loss, s);
}

static double dev_req_s(const struct proc_metrics *m, const struct proc_row *r, dev_t dev)
{
	double s = 0;

	for (size_t i = r->dfirst; i < r->dfirst + r->ndev; i++)
		if (m->dev[i].dev == dev)
			for (int op = 0; op < PROC_OPS; op++)
				s += m->dev[i].f.req_s[op];
	return s;
}

size_t model_procs_top(const struct proc_metrics *m, dev_t dev, size_t *idx, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < m->nrows; i++) {
		double v = dev_req_s(m, &m->row[i], dev);
		size_t j;

		if (v <= 0)
			continue;
		/* insertion into the top n, largest first */
		for (j = k < n ? k : n; j > 0 && dev_req_s(m, &m->row[idx[j - 1]], dev) < v; j--)
			if (j < n)
				idx[j] = idx[j - 1];
		if (j < n) {
			idx[j] = i;
			if (k < n)
				k++;
		}
	}
	return k;
}
