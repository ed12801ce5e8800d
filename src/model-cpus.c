#include "model-cpus.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void model_cpus_free(struct cpus_metrics *m)
{
	free(m->row);
	memset(m, 0, sizeof(*m));
}

bool model_cpulist_has(const char *list, unsigned cpu)
{
	const char *p = list;

	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b;
		if (end == p)
			return false;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p)
				return false;
		}
		if (cpu >= a && cpu <= b)
			return true;
		p = end;
		if (*p == ',')
			p++;
		else
			break;
	}
	return false;
}

static double pct(uint64_t part, uint64_t total)
{
	return total ? (double)part * 100.0 / (double)total : 0.0;
}

static uint64_t d64(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

/* The entry of prev holding the same disk as cur's device d (dev_t, path
 * and diskseq), or NULL: trace_metrics_compute's match. */
static const struct trace_cpu *prev_cpus(const struct trace_sample *prev, const struct trace_dev *d)
{
	ssize_t j = trace_sample_find(prev, d->dev);

	/* sorted by dev, then path: at most two entries of one dev_t */
	for (; j >= 0 && (size_t)j < prev->ndevs && prev->devs[j].dev == d->dev; j++)
		if (prev->devs[j].path == d->path)
			return prev->devs[j].seq == d->seq ? trace_sample_cpu(prev, (size_t)j) : NULL;
	return NULL;
}

/* Per-CPU issues and completions of every traced device together over the
 * interval: each device's own difference, as trace_metrics_compute takes
 * it. A device new since prev, or another disk behind the same dev_t (a
 * loop device detached and attached again: its counters start over),
 * counts from zero, and one gone is no part of it. A difference of the
 * sums instead lost the other devices' interval whenever one disk's
 * counters started over or went: every CPU showed 0. */
static void trace_all(const struct trace_sample *prev, const struct trace_sample *t, unsigned cpu,
		      uint64_t *issued, uint64_t *completed)
{
	*issued = *completed = 0;
	if (cpu >= t->ncpu || cpu >= prev->ncpu)
		return;
	for (size_t i = 0; i < t->ndevs; i++) {
		const struct trace_cpu *c = &trace_sample_cpu(t, i)[cpu], *p = prev_cpus(prev, &t->devs[i]);

		*issued += d64(p ? p[cpu].issued : 0, c->issued);
		*completed += d64(p ? p[cpu].completed : 0, c->completed);
	}
}

int model_cpus(const struct sample *prev, const struct sample *cur, const struct trace_metrics *dev_tm,
	       struct cpus_metrics *out)
{
	const struct cpus_sample *p = &prev->cpus, *c = &cur->cpus;
	double iv = cur->t - prev->t;
	bool traced = prev->traced && cur->traced && prev->trace.ncpu == cur->trace.ncpu;
	size_t used = 0;

	out->valid = false;
	if (!p->valid || !c->valid || p->ncpu != c->ncpu || iv <= 0)
		return 0;
	if (c->ncpu > out->cap) {
		struct cpu_row *r = realloc(out->row, c->ncpu * sizeof(*r));
		if (!r)
			return -ENOMEM;
		out->row = r;
		out->cap = c->ncpu;
	}
	out->ncpu = c->ncpu;
	snprintf(out->dev, sizeof(out->dev), "%s", c->irq_dev);
	/* IRQ rows only compare when both samples watched the same ones. */
	out->nirq = p->nirq == c->nirq && !memcmp(p->irq, c->irq, c->nirq * sizeof(c->irq[0])) ? c->nirq : 0;
	out->irqs[0] = '\0';
	for (unsigned i = 0; i < out->nirq; i++) {
		int n = snprintf(out->irqs + used, sizeof(out->irqs) - used, "%s%u", i ? "," : "", c->irq[i]);
		if (n < 0 || (size_t)n >= sizeof(out->irqs) - used) {
			out->irqs[used] = '\0'; /* no cut IRQ number: a wrong one */
			break;
		}
		used += (size_t)n;
	}
	for (unsigned cpu = 0; cpu < c->ncpu; cpu++) {
		struct cpu_row *r = &out->row[cpu];
		const struct cpu_stat *a = &p->stat[cpu], *b = &c->stat[cpu];
		uint64_t irq = 0;

		memset(r, 0, sizeof(*r));
		if (p->have_stat && c->have_stat && a->valid && b->valid) {
			uint64_t tot = d64(a->user, b->user) + d64(a->nice, b->nice) + d64(a->system, b->system) +
				       d64(a->idle, b->idle) + d64(a->iowait, b->iowait) + d64(a->irq, b->irq) +
				       d64(a->softirq, b->softirq) + d64(a->steal, b->steal);
			r->irq_pct = pct(d64(a->irq, b->irq), tot);
			r->softirq_pct = pct(d64(a->softirq, b->softirq), tot);
			r->iowait_pct = pct(d64(a->iowait, b->iowait), tot);
		} else {
			r->irq_pct = r->softirq_pct = r->iowait_pct = NAN;
		}
		r->block_softirq_s = (double)d64(p->block_softirq[cpu], c->block_softirq[cpu]) / iv;
		for (unsigned i = 0; i < out->nirq; i++) {
			irq += d64(p->irq_count[i * p->ncpu + cpu], c->irq_count[i * c->ncpu + cpu]);
			if (model_cpulist_has(c->effective[i], cpu))
				r->in_affinity = true;
		}
		r->dev_irq_s = (double)irq / iv;
		r->dev_issued_s = r->dev_completed_s = r->all_issued_s = r->all_completed_s = NAN;
		if (dev_tm && cpu < dev_tm->ncpu) {
			/* Request-based: the submitting CPU is known per CPU
			 * only below the completion matrix's size. */
			r->dev_issued_s = dev_tm->path == TRACE_PATH_RQ && cpu >= dev_tm->nmat
				? NAN : (double)dev_tm->cpu[cpu].issued / iv;
			r->dev_completed_s = (double)dev_tm->cpu[cpu].completed / iv;
		}
		if (traced) {
			uint64_t is, cs;
			trace_all(&prev->trace, &cur->trace, cpu, &is, &cs);
			r->all_issued_s = cpu >= cur->trace.nmat ? NAN : (double)is / iv;
			/* a CPU the tracer does not know: unknown, not 0 */
			r->all_completed_s = cpu >= cur->trace.ncpu ? NAN : (double)cs / iv;
		}
	}
	out->valid = true;
	return 0;
}
