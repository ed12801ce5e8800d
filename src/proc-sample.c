#include "proc-sample.h"

#include <stdlib.h>
#include <string.h>

void proc_sample_init(struct proc_sample *s)
{
	memset(s, 0, sizeof(*s));
}

void proc_sample_free(struct proc_sample *s)
{
	free(s->p);
	free(s->tr);
	free(s->cg);
	free(s->loss);
	proc_sample_init(s);
}

void proc_sample_reset(struct proc_sample *s)
{
	struct proc_entry *p = s->p;
	struct proc_trace *tr = s->tr;
	struct proc_cgtrace *cg = s->cg;
	struct proc_loss *loss = s->loss;
	size_t cap = s->cap, trcap = s->trcap, cgcap = s->cgcap, losscap = s->losscap;

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->cap = cap;
	s->tr = tr;
	s->trcap = trcap;
	s->cg = cg;
	s->cgcap = cgcap;
	s->loss = loss;
	s->losscap = losscap;
}

struct proc_entry *proc_sample_add(struct proc_sample *s, pid_t pid, uint64_t start)
{
	struct proc_entry *e;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		if (!(e = realloc(s->p, cap * sizeof(*e))))
			return NULL;
		s->p = e;
		s->cap = cap;
	}
	e = &s->p[s->n++];
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->start = start;
	return e;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = ((const struct proc_entry *)a)->pid, y = ((const struct proc_entry *)b)->pid;

	return (x > y) - (x < y);
}

void proc_sample_sort(struct proc_sample *s)
{
	if (s->n > 1)
		qsort(s->p, s->n, sizeof(s->p[0]), cmp_pid);
}

const struct proc_entry *proc_sample_pid(const struct proc_sample *s, pid_t pid)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->p[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->p[lo].pid == pid ? &s->p[lo] : NULL;
}

const struct proc_entry *proc_sample_find(const struct proc_sample *s, pid_t pid, uint64_t start)
{
	const struct proc_entry *e = proc_sample_pid(s, pid);

	return e && e->start == start ? e : NULL;
}

struct proc_trace *proc_sample_add_trace(struct proc_sample *s, pid_t tgid, dev_t dev)
{
	struct proc_trace *t;

	if (s->ntr == s->trcap) {
		size_t cap = s->trcap ? s->trcap * 2 : 64;
		if (!(t = realloc(s->tr, cap * sizeof(*t))))
			return NULL;
		s->tr = t;
		s->trcap = cap;
	}
	t = &s->tr[s->ntr++];
	memset(t, 0, sizeof(*t));
	t->tgid = tgid;
	t->dev = dev;
	return t;
}

static int cmp_trace(const void *a, const void *b)
{
	const struct proc_trace *x = a, *y = b;

	if (x->tgid != y->tgid)
		return (x->tgid > y->tgid) - (x->tgid < y->tgid);
	return (x->dev > y->dev) - (x->dev < y->dev);
}

static int cmp_cgtrace(const void *a, const void *b)
{
	const struct proc_cgtrace *x = a, *y = b;

	if (x->cgroup_id != y->cgroup_id)
		return (x->cgroup_id > y->cgroup_id) - (x->cgroup_id < y->cgroup_id);
	return (x->dev > y->dev) - (x->dev < y->dev);
}

static int cmp_loss(const void *a, const void *b)
{
	const struct proc_loss *x = a, *y = b;

	return (x->dev > y->dev) - (x->dev < y->dev);
}

void proc_sample_sort_traced(struct proc_sample *s)
{
	if (s->ntr > 1)
		qsort(s->tr, s->ntr, sizeof(s->tr[0]), cmp_trace);
	if (s->ncg > 1)
		qsort(s->cg, s->ncg, sizeof(s->cg[0]), cmp_cgtrace);
	if (s->nloss > 1)
		qsort(s->loss, s->nloss, sizeof(s->loss[0]), cmp_loss);
}

struct proc_loss *proc_sample_add_loss(struct proc_sample *s, dev_t dev)
{
	struct proc_loss *l;

	if (s->nloss == s->losscap) {
		size_t cap = s->losscap ? s->losscap * 2 : 8;

		if (!(l = realloc(s->loss, cap * sizeof(*l))))
			return NULL;
		s->loss = l;
		s->losscap = cap;
	}
	l = &s->loss[s->nloss++];
	memset(l, 0, sizeof(*l));
	l->dev = dev;
	return l;
}

const struct proc_loss *proc_sample_loss(const struct proc_sample *s, dev_t dev)
{
	const struct proc_loss key = { .dev = dev };

	return s->nloss ? bsearch(&key, s->loss, s->nloss, sizeof(s->loss[0]), cmp_loss) : NULL;
}

struct proc_cgtrace *proc_sample_add_cgtrace(struct proc_sample *s, uint64_t cgroup_id, dev_t dev)
{
	struct proc_cgtrace *t;

	if (s->ncg == s->cgcap) {
		size_t cap = s->cgcap ? s->cgcap * 2 : 16;
		if (!(t = realloc(s->cg, cap * sizeof(*t))))
			return NULL;
		s->cg = t;
		s->cgcap = cap;
	}
	t = &s->cg[s->ncg++];
	memset(t, 0, sizeof(*t));
	t->cgroup_id = cgroup_id;
	t->dev = dev;
	return t;
}

size_t proc_sample_cgtraces(const struct proc_sample *s, uint64_t cgroup_id, size_t *first)
{
	size_t lo = 0, hi = s->ncg, n = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->cg[mid].cgroup_id < cgroup_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo + n < s->ncg && s->cg[lo + n].cgroup_id == cgroup_id)
		n++;
	return n;
}

const struct proc_cgtrace *proc_sample_cgtrace(const struct proc_sample *s, uint64_t cgroup_id, dev_t dev)
{
	const struct proc_cgtrace key = { .cgroup_id = cgroup_id, .dev = dev };

	return s->ncg ? bsearch(&key, s->cg, s->ncg, sizeof(s->cg[0]), cmp_cgtrace) : NULL;
}

/* The first pair of tgid or later (binary search). */
static size_t lower(const struct proc_sample *s, pid_t tgid)
{
	size_t lo = 0, hi = s->ntr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->tr[mid].tgid < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t proc_sample_traces(const struct proc_sample *s, pid_t tgid, size_t *first)
{
	size_t i = lower(s, tgid), n = 0;

	*first = i;
	while (i + n < s->ntr && s->tr[i + n].tgid == tgid)
		n++;
	return n;
}

const struct proc_trace *proc_sample_trace(const struct proc_sample *s, pid_t tgid, dev_t dev)
{
	size_t first, n = proc_sample_traces(s, tgid, &first);

	for (size_t i = first; i < first + n; i++)
		if (s->tr[i].dev == dev)
			return &s->tr[i];
	return NULL;
}
