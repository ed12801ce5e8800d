#include "ms-wrap.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

struct ms_wrap_dev {
	struct disk_sample last; /* identity and counters (its text not kept) */
	uint64_t wraps[MS_WRAP_FIELDS];
};

#define ST(f) offsetof(struct disk_stat, f)
static const size_t fields[MS_WRAP_FIELDS] = { ST(rd_ticks), ST(wr_ticks), ST(io_ticks),
					       ST(time_in_queue), ST(dc_ticks), ST(fl_ticks) };
#undef ST

static uint64_t field(const struct disk_stat *st, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)st + off, sizeof(v));
	return v;
}

/* The entry of disk d in the previous sample: the same index first (diskstats
 * keeps its order), then a scan; the same device only, as the model
 * matches (sample_same_disk). */
static const struct ms_wrap_dev *find(const struct ms_wrap *w, const struct disk_sample *d, size_t hint)
{
	if (hint < w->n && sample_same_disk(&w->d[hint].last, d))
		return &w->d[hint];
	for (size_t j = 0; j < w->n; j++)
		if (j != hint && sample_same_disk(&w->d[j].last, d))
			return &w->d[j];
	return NULL;
}

int ms_wrap_update(struct ms_wrap *w, const struct sample *s)
{
	struct ms_wrap_dev *nd = s->ndisks ? calloc(s->ndisks, sizeof(*nd)) : NULL;

	if (s->ndisks && !nd) {
		ms_wrap_free(w);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->ndisks; i++) {
		const struct disk_sample *d = &s->disks[i];
		const struct ms_wrap_dev *o = find(w, d, i);
		struct ms_wrap_dev *e = &nd[i];

		e->last = *d;
		e->last.info.text = NULL; /* the sample's, freed with it */
		if (!o || disk_stat_restarted(&o->last.st, &d->st))
			continue;
		for (size_t f = 0; f < MS_WRAP_FIELDS; f++) {
			uint64_t was = field(&o->last.st, fields[f]), now = field(&d->st, fields[f]);

			e->wraps[f] = o->wraps[f] + (now < was && was <= UINT32_MAX);
		}
	}
	free(w->d);
	w->d = nd;
	w->n = s->ndisks;
	return 0;
}

uint64_t ms_wrap_value(const struct ms_wrap *w, size_t i, size_t off, uint64_t raw)
{
	if (i >= w->n)
		return raw;
	for (size_t f = 0; f < MS_WRAP_FIELDS; f++)
		if (fields[f] == off)
			return raw + (w->d[i].wraps[f] << 32);
	return raw;
}

void ms_wrap_free(struct ms_wrap *w)
{
	free(w->d);
	w->d = NULL;
	w->n = 0;
}
