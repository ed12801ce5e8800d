#include "model-cgroup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

void model_cgroup_free(struct cgroup_metrics *m)
{
	free(m->row);
	memset(m, 0, sizeof(*m));
}

static void dev_name(const struct sample *s, dev_t dev, char *out, size_t len)
{
	const struct disk_sample *d = sample_find(s, dev, 0);

	if (d)
		snprintf(out, len, "%s", d->st.name);
	else
		snprintf(out, len, "%u:%u", major(dev), minor(dev));
}

static double rate(uint64_t prev, uint64_t cur, double interval)
{
	return (double)(cur - prev) / interval;
}

static bool went_back(const struct cgroup_io *p, const struct cgroup_io *c)
{
	return c->rbytes < p->rbytes || c->wbytes < p->wbytes || c->rios < p->rios || c->wios < p->wios ||
	       c->counter != p->counter;
}

static void fill_row(struct cgroup_row *r, const struct cgroup_group *g, const struct cgroup_io *io,
		     const struct cgroup_io *pio, double interval, const struct sample *cur)
{
	memset(r, 0, sizeof(*r));
	r->id = g->id;
	snprintf(r->path, sizeof(r->path), "%s", g->path);
	r->depth = g->depth;
	r->dev = io->dev;
	dev_name(cur, io->dev, r->dev_name, sizeof(r->dev_name));
	r->counter = io->counter;
	r->rbytes = io->rbytes;
	r->wbytes = io->wbytes;
	r->rios = io->rios;
	r->wios = io->wios;
	r->rates = pio && interval > 0 && !went_back(pio, io);
	if (r->rates) {
		r->rbytes_s = rate(pio->rbytes, io->rbytes, interval);
		r->wbytes_s = rate(pio->wbytes, io->wbytes, interval);
		r->rios_s = rate(pio->rios, io->rios, interval);
		r->wios_s = rate(pio->wios, io->wios, interval);
	}
}

static bool wanted(const dev_t *only, size_t nonly, dev_t dev)
{
	if (!only)
		return true;
	for (size_t i = 0; i < nonly; i++)
		if (only[i] == dev)
			return true;
	return false;
}

/* v1: a whole disk with no line in the root cgroup is counted by nobody. */
static void find_uncounted(const struct sample *cur, const dev_t *only, size_t nonly, struct cgroup_metrics *out)
{
	const struct cgroup_sample *c = &cur->cg;
	const struct cgroup_group *root = c->ngroups && c->groups[0].depth == 0 ? &c->groups[0] : NULL;

	for (size_t i = 0; i < cur->ndisks; i++) {
		const struct disk_sample *d = &cur->disks[i];

		if (d->info.kind == DISK_KIND_PARTITION || (root && cgroup_sample_io(c, root, d->st.dev)) ||
		    !wanted(only, nonly, d->st.dev))
			continue;
		if (out->nuncounted < MODEL_CGROUP_UNCOUNTED)
			snprintf(out->uncounted[out->nuncounted], SAMPLE_NAME_MAX, "%s", d->st.name);
		out->nuncounted++;
	}
}

int model_cgroup(const struct sample *prev, const struct sample *cur, const dev_t *only, size_t nonly,
		 struct cgroup_metrics *out)
{
	const struct cgroup_sample *c = &cur->cg;
	const struct cgroup_sample *pc = prev && prev->cg.valid ? &prev->cg : NULL;
	/* the walk's own instants: a walk of many cgroups takes a while after
	 * the sample's diskstats instant, and not always as long */
	double interval = pc ? c->t - pc->t : 0;

	out->nrows = 0;
	out->nuncounted = 0;
	memset(out->counter_used, 0, sizeof(out->counter_used));
	out->valid = c->valid;
	out->version = c->version;
	out->interval = interval;
	out->skipped = c->skipped;
	out->bad_lines = c->bad_lines;
	snprintf(out->why, sizeof(out->why), "%s", c->why);
	snprintf(out->hierarchy, sizeof(out->hierarchy), "/%s", c->mount);
	if (!c->valid)
		return 0;
	if (c->nio > out->cap) {
		struct cgroup_row *r = realloc(out->row, c->nio * sizeof(*r));
		if (!r)
			return -ENOMEM;
		out->row = r;
		out->cap = c->nio;
	}
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cgroup_group *grp = &c->groups[g];
		const struct cgroup_group *pg = pc ? cgroup_sample_find(pc, grp->id, grp->path, g) : NULL;

		for (size_t i = grp->first; i < grp->first + grp->n; i++) {
			const struct cgroup_io *io = &c->io[i];

			if (!(io->rbytes | io->wbytes | io->dbytes | io->rios | io->wios | io->dios) ||
			    !wanted(only, nonly, io->dev))
				continue;
			fill_row(&out->row[out->nrows++], grp, io, pg ? cgroup_sample_io(pc, pg, io->dev) : NULL,
				 interval, cur);
			out->counter_used[io->counter] = true;
		}
	}
	if (c->version == 1)
		find_uncounted(cur, only, nonly, out);
	return 0;
}
