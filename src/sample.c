#include "sample.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"

struct disk_text disk_text_none;

struct disk_text *disk_text_new(void)
{
	struct disk_text *t = calloc(1, sizeof(*t));

	if (t)
		t->refs = 1;
	return t;
}

struct disk_text *disk_text_ref(struct disk_text *t)
{
	if (t && t->refs)
		t->refs++;
	return t;
}

void disk_text_put(struct disk_text *t)
{
	if (t && t->refs && --t->refs == 0)
		free(t);
}

int disk_text_own(struct disk_text **t)
{
	struct disk_text *c;

	if (*t && (*t)->refs == 1)
		return 0;
	if (!(c = malloc(sizeof(*c))))
		return -ENOMEM;
	if (*t)
		memcpy(c, *t, sizeof(*c));
	else
		memset(c, 0, sizeof(*c));
	c->refs = 1;
	disk_text_put(*t);
	*t = c;
	return 0;
}

bool disk_text_empty(const struct disk_text *x)
{
	return !x->parent[0] && !x->dm_name[0] && !x->slaves[0] && !x->holders[0] && !x->model[0] &&
	       !x->vendor[0] && !x->backing[0];
}

void disk_text_shrink(struct disk_text **t)
{
	if (!*t || !(*t)->refs || !disk_text_empty(*t))
		return;
	disk_text_put(*t);
	*t = &disk_text_none;
}

/* Each disk's reference to its text. */
static void put_texts(struct sample *s)
{
	for (size_t i = 0; i < s->ndisks; i++) {
		disk_text_put(s->disks[i].info.text);
		s->disks[i].info.text = NULL;
	}
}

void sample_init(struct sample *s)
{
	memset(s, 0, sizeof(*s));
	trace_sample_init(&s->trace);
	ra_sample_init(&s->ra);
	cgroup_sample_init(&s->cg);
	proc_sample_init(&s->procs);
}

static void cpus_free(struct cpus_sample *c)
{
	free(c->stat);
	free(c->block_softirq);
	free(c->irq_count);
	memset(c, 0, sizeof(*c));
}

int sample_cpus_reserve(struct cpus_sample *c, unsigned ncpu)
{
	if (ncpu > c->cap) {
		struct cpu_stat *st = realloc(c->stat, ncpu * sizeof(*st));
		uint64_t *b, *i;
		if (!st)
			return -ENOMEM;
		c->stat = st;
		if (!(b = realloc(c->block_softirq, ncpu * sizeof(*b))))
			return -ENOMEM;
		c->block_softirq = b;
		if (!(i = realloc(c->irq_count, (size_t)ncpu * SAMPLE_IRQ_MAX * sizeof(*i))))
			return -ENOMEM;
		c->irq_count = i;
		c->cap = ncpu;
	}
	c->ncpu = ncpu;
	/* none (a replayed sample that read no CPU): the arrays may not
	 * exist, and memset takes no NULL even for no bytes */
	if (!ncpu)
		return 0;
	memset(c->stat, 0, ncpu * sizeof(*c->stat));
	memset(c->block_softirq, 0, ncpu * sizeof(*c->block_softirq));
	memset(c->irq_count, 0, (size_t)ncpu * SAMPLE_IRQ_MAX * sizeof(*c->irq_count));
	return 0;
}

void sample_free(struct sample *s)
{
	cpus_free(&s->cpus);
	put_texts(s);
	free(s->disks);
	trace_sample_free(&s->trace);
	ra_sample_free(&s->ra);
	cgroup_sample_free(&s->cg);
	proc_sample_free(&s->procs);
	sample_init(s);
}

void sample_clear(struct sample *s)
{
	struct disk_sample *d = s->disks;
	struct trace_sample tr = s->trace;
	struct ra_sample ra = s->ra;
	struct cpus_sample cpus = s->cpus;
	struct cgroup_sample cg = s->cg;
	struct proc_sample procs = s->procs;
	size_t cap = s->cap;

	put_texts(s);
	memset(s, 0, sizeof(*s));
	s->cg = cg;
	cgroup_sample_reset(&s->cg);
	s->procs = procs;
	proc_sample_reset(&s->procs);
	s->ra = ra;
	ra_sample_reset(&s->ra);
	s->disks = d;
	s->cap = cap;
	s->trace = tr;
	s->cpus.stat = cpus.stat;
	s->cpus.block_softirq = cpus.block_softirq;
	s->cpus.irq_count = cpus.irq_count;
	s->cpus.cap = cpus.cap;
	trace_sample_reset(&s->trace, tr.ncpu);
}

bool sample_compact(struct sample *s)
{
	size_t cap = s->cap;
	bool shrank = trace_sample_compact(&s->trace);

	s->disks = capacity_shrink(s->disks, sizeof(*s->disks), s->ndisks, &s->cap);
	return shrank || s->cap < cap;
}

struct disk_sample *sample_add_disk(struct sample *s)
{
	if (s->ndisks == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		struct disk_sample *d = realloc(s->disks, cap * sizeof(*d));
		if (!d)
			return NULL;
		s->disks = d;
		s->cap = cap;
	}
	memset(&s->disks[s->ndisks], 0, sizeof(s->disks[0]));
	s->disks[s->ndisks].info.text = &disk_text_none;
	return &s->disks[s->ndisks++];
}

const struct disk_sample *sample_find(const struct sample *s, dev_t dev, size_t hint)
{
	if (hint < s->ndisks && s->disks[hint].st.dev == dev)
		return &s->disks[hint];
	for (size_t i = 0; i < s->ndisks; i++)
		if (s->disks[i].st.dev == dev)
			return &s->disks[i];
	return NULL;
}

void sample_swap(struct sample *a, struct sample *b)
{
	struct sample t = *a;
	*a = *b;
	*b = t;
}

bool sample_same_disk(const struct disk_sample *a, const struct disk_sample *b)
{
	return a->st.dev == b->st.dev && a->info.diskseq == b->info.diskseq &&
	       a->info.generation == b->info.generation && !strcmp(a->st.name, b->st.name);
}

bool disk_has_scheduler(const struct disk_info *in)
{
	return in->has_queue && in->scheduler[0] && strcmp(in->scheduler, "-") != 0;
}
