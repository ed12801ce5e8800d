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
	proc_sample_init(s);
}

void proc_sample_reset(struct proc_sample *s)
{
	struct proc_entry *p = s->p;
	size_t cap = s->cap;

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->cap = cap;
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

const struct proc_entry *proc_sample_find(const struct proc_sample *s, pid_t pid, uint64_t start)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->p[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->p[lo].pid == pid && s->p[lo].start == start ? &s->p[lo] : NULL;
}
