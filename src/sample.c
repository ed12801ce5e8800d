#include "sample.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void sample_init(struct sample *s)
{
	memset(s, 0, sizeof(*s));
	trace_sample_init(&s->trace);
}

void sample_free(struct sample *s)
{
	free(s->disks);
	trace_sample_free(&s->trace);
	sample_init(s);
}

void sample_clear(struct sample *s)
{
	struct disk_sample *d = s->disks;
	struct trace_sample tr = s->trace;
	size_t cap = s->cap;

	memset(s, 0, sizeof(*s));
	s->disks = d;
	s->cap = cap;
	s->trace = tr;
	trace_sample_reset(&s->trace, tr.ncpu);
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

int sample_copy(struct sample *dst, const struct sample *src)
{
	struct disk_sample *d = NULL;

	if (src->ndisks) {
		d = malloc(src->ndisks * sizeof(*d));
		if (!d)
			return -ENOMEM;
		memcpy(d, src->disks, src->ndisks * sizeof(*d));
	}
	struct trace_sample tr = dst->trace;
	int err = trace_sample_copy(&tr, &src->trace);

	if (err) {
		free(d);
		return err;
	}
	free(dst->disks);
	*dst = *src;
	dst->disks = d;
	dst->cap = src->ndisks;
	dst->trace = tr;
	return 0;
}

void sample_swap(struct sample *a, struct sample *b)
{
	struct sample t = *a;
	*a = *b;
	*b = t;
}
