#include "history.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"

struct series {
	dev_t dev;
	unsigned long long diskseq;
	unsigned generation;
	char name[SAMPLE_NAME_MAX];
	float mbps[HISTORY_POINTS], iops[HISTORY_POINTS];
	float secs[HISTORY_POINTS]; /* how long each point's intervals were */
	int head, count;
	double acc_mb, acc_io, acc_s;
	bool seen;
};

struct history {
	struct series *s;
	size_t n, cap;
};

int history_new(struct history **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void history_free(struct history *h)
{
	if (!h)
		return;
	free(h->s);
	free(h);
}

static struct series *find(const struct history *h, dev_t dev, const char *name, size_t hint)
{
	if (hint < h->n && h->s[hint].dev == dev && !strcmp(h->s[hint].name, name))
		return &h->s[hint];
	for (size_t i = 0; i < h->n; i++)
		if (h->s[i].dev == dev && !strcmp(h->s[i].name, name))
			return &h->s[i];
	return NULL;
}

static void push(struct series *s)
{
	s->mbps[s->head] = (float)(s->acc_mb / s->acc_s);
	s->iops[s->head] = (float)(s->acc_io / s->acc_s);
	s->secs[s->head] = (float)s->acc_s;
	s->head = (s->head + 1) % HISTORY_POINTS;
	if (s->count < HISTORY_POINTS)
		s->count++;
	s->acc_mb = s->acc_io = s->acc_s = 0;
}

int history_add(struct history *h, const struct disk_metrics *m, size_t n)
{
	for (size_t i = 0; i < h->n; i++)
		h->s[i].seen = false;
	for (size_t i = 0; i < n; i++) {
		struct series *s = find(h, m[i].dev, m[i].name, i);
		if (!s) {
			if (h->n == h->cap) {
				size_t cap = h->cap ? h->cap * 2 : 32;
				struct series *ns = realloc(h->s, cap * sizeof(*ns));
				if (!ns)
					return -ENOMEM;
				h->s = ns;
				h->cap = cap;
			}
			s = &h->s[h->n++];
			s->dev = m[i].dev;
			memcpy(s->name, m[i].name, sizeof(s->name));
			s->diskseq = ~m[i].info->diskseq; /* reset just below */
		}
		if (s->diskseq != m[i].info->diskseq || s->generation != m[i].info->generation) {
			/* Another device under the same name and number: its
			 * sparkline starts afresh. */
			dev_t dev = s->dev;
			memset(s, 0, sizeof(*s));
			s->dev = dev;
			memcpy(s->name, m[i].name, sizeof(s->name));
			s->diskseq = m[i].info->diskseq;
			s->generation = m[i].info->generation;
		}
		s->seen = true;
		if (m[i].state != DISK_OK)
			continue;
		s->acc_mb += (m[i].rmb_s + m[i].wmb_s) * m[i].interval;
		s->acc_io += (m[i].r_s + m[i].w_s) * m[i].interval;
		s->acc_s += m[i].interval;
		if (s->acc_s >= 0.999)
			push(s);
	}
	for (size_t i = 0; i < h->n;) {
		if (!h->s[i].seen)
			h->s[i] = h->s[--h->n];
		else
			i++;
	}
	h->s = capacity_shrink(h->s, sizeof(*h->s), h->n, &h->cap);
	return 0;
}

int history_get(const struct history *h, dev_t dev, const char *name, float *mbps, float *iops)
{
	const struct series *s = find(h, dev, name, (size_t)-1);

	if (!s)
		return 0;
	for (int i = 0; i < s->count; i++) {
		int k = (s->head - s->count + i + HISTORY_POINTS) % HISTORY_POINTS;
		mbps[i] = s->mbps[k];
		iops[i] = s->iops[k];
	}
	return s->count;
}

double history_span(const struct history *h, dev_t dev, const char *name)
{
	const struct series *s = find(h, dev, name, (size_t)-1);
	double span = 0;

	for (int i = 0; s && i < s->count; i++)
		span += s->secs[(s->head - s->count + i + HISTORY_POINTS) % HISTORY_POINTS];
	return span;
}
