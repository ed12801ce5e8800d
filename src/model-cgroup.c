#include "model-cgroup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

void model_cgroup_free(struct cgroup_metrics *m)
{
	free(m->row);
	model_procs_loss_free(&m->loss);
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

static void start_row(struct cgroup_row *r, const struct cgroup_group *g, uint64_t id, dev_t dev,
		      const struct sample *cur)
{
	memset(r, 0, sizeof(*r));
	r->id = id;
	if (g) {
		snprintf(r->path, sizeof(r->path), "%s", g->path);
		r->depth = g->depth;
	}
	r->dev = dev;
	dev_name(cur, dev, r->dev_name, sizeof(r->dev_name));
}

static void fill_row(struct cgroup_row *r, const struct cgroup_io *io, const struct cgroup_io *pio, double interval)
{
	r->counted = true;
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

static bool counted(const struct cgroup_io *io)
{
	return io->rbytes | io->wbytes | io->dbytes | io->rios | io->wios | io->dios;
}

/* The traced figures of pair t over the previous traced sample pp (NULL:
 * none, no rates): from its counts there, or from zero when pp lacks it
 * (created since: model_procs_zero says why that is sound; a cgroup id is
 * never reused while the kernel runs, so a cgroup re-created under the same
 * name is a new pair of another id). */
static void fill_traced(struct cgroup_row *r, const struct proc_cgtrace *t, const struct proc_sample *pp,
			double interval)
{
	const struct proc_cgtrace *pt = pp ? proc_sample_cgtrace(pp, t->cgroup_id, t->dev) : NULL;

	r->traced = true;
	model_procs_figures(&t->c, pt ? &pt->c : pp ? &model_procs_zero : NULL, interval, &r->t);
}

struct merge {
	const struct sample *cur;
	const struct cgroup_sample *pc;
	const struct proc_sample *tp, *ptp; /* traced pairs, now and before (NULL: none) */
	double interval, tinterval;
	const dev_t *only;
	size_t nonly;
	struct cgroup_metrics *out;
};

static struct cgroup_row *new_row(struct merge *mg, const struct cgroup_group *g, uint64_t id, dev_t dev)
{
	struct cgroup_row *r = &mg->out->row[mg->out->nrows++];

	start_row(r, g, id, dev, mg->cur);
	return r;
}

/* The rows of one cgroup: its counted devices in the kernel's order, each
 * with its traced figures, then the devices only traced, by dev_t. g is
 * NULL for a traced id the walk did not find. */
static void group_rows(struct merge *mg, const struct cgroup_group *g, const struct cgroup_group *pg, uint64_t id)
{
	const struct cgroup_sample *c = &mg->cur->cg;
	size_t tfirst = 0, tn = mg->tp ? proc_sample_cgtraces(mg->tp, id, &tfirst) : 0;

	for (size_t i = g ? g->first : 0; g && i < g->first + g->n; i++) {
		const struct cgroup_io *io = &c->io[i];
		const struct proc_cgtrace *t = mg->tp ? proc_sample_cgtrace(mg->tp, id, io->dev) : NULL;
		struct cgroup_row *r;

		if (!(counted(io) || t) || !wanted(mg->only, mg->nonly, io->dev))
			continue;
		r = new_row(mg, g, id, io->dev);
		if (counted(io)) {
			fill_row(r, io, pg ? cgroup_sample_io(mg->pc, pg, io->dev) : NULL, mg->interval);
			mg->out->counter_used[io->counter] = true;
		}
		if (t)
			fill_traced(r, t, mg->ptp, mg->tinterval);
	}
	for (size_t k = tfirst; k < tfirst + tn; k++) {
		const struct proc_cgtrace *t = &mg->tp->cg[k];

		if ((g && cgroup_sample_io(c, g, t->dev)) || !wanted(mg->only, mg->nonly, t->dev))
			continue;
		fill_traced(new_row(mg, g, id, t->dev), t, mg->ptp, mg->tinterval);
	}
}

static bool traced_sample(const struct proc_sample *ps)
{
	return ps && ps->valid && ps->traced;
}

int model_cgroup(const struct sample *prev, const struct sample *cur, const dev_t *only, size_t nonly,
		 struct cgroup_metrics *out)
{
	const struct cgroup_sample *c = &cur->cg;
	const struct cgroup_sample *pc = prev && prev->cg.valid ? &prev->cg : NULL;
	const struct proc_sample *tp = traced_sample(&cur->procs) ? &cur->procs : NULL;
	const struct proc_sample *ptp = tp && prev && traced_sample(&prev->procs) ? &prev->procs : NULL;
	/* the walk's own instants: a walk of many cgroups takes a while after
	 * the sample's diskstats instant, and not always as long */
	struct merge mg = { cur, pc, tp, ptp, pc ? c->t - pc->t : 0, ptp ? tp->t - ptp->t : 0, only, nonly, out };
	size_t need = c->nio + (tp ? tp->ncg : 0);

	out->nrows = 0;
	out->nuncounted = 0;
	memset(out->counter_used, 0, sizeof(out->counter_used));
	out->valid = c->valid;
	out->version = c->version;
	out->interval = mg.interval;
	out->skipped = c->skipped;
	out->bad_lines = c->bad_lines;
	out->traced = tp != NULL;
	out->trace_interval = mg.tinterval;
	snprintf(out->why, sizeof(out->why), "%s", c->why);
	snprintf(out->hierarchy, sizeof(out->hierarchy), "/%s", c->mount);
	if (tp) {
		if (model_procs_loss(ptp, tp, &out->loss) < 0)
			return -ENOMEM;
		model_procs_loss_names(&out->loss, cur);
	} else {
		out->loss.ndev = 0;
		out->loss.no_start = out->loss.no_start_new = out->loss.skipped = out->loss.skipped_new = 0;
	}
	if (!c->valid)
		return 0;
	if (need > out->cap) {
		struct cgroup_row *r = realloc(out->row, need * sizeof(*r));
		if (!r)
			return -ENOMEM;
		out->row = r;
		out->cap = need;
	}
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cgroup_group *grp = &c->groups[g];
		const struct cgroup_group *pg = pc ? cgroup_sample_find(pc, grp->id, grp->path, g) : NULL;

		group_rows(&mg, grp, pg, grp->id);
	}
	/* traced ids the walk did not find: a cgroup removed since, 0 (no bio) */
	for (size_t k = 0; tp && k < tp->ncg;) {
		size_t tfirst, tn = proc_sample_cgtraces(tp, tp->cg[k].cgroup_id, &tfirst);

		if (!cgroup_sample_find_id(c, tp->cg[k].cgroup_id))
			group_rows(&mg, NULL, NULL, tp->cg[k].cgroup_id);
		k = tfirst + tn;
	}
	if (c->version == 1)
		find_uncounted(cur, only, nonly, out);
	return 0;
}
