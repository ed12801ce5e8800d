#include "model.h"

#include <errno.h>

#include <math.h>
#include <string.h>

static void untraced(struct disk_metrics *m)
{
	m->traced = m->t_metrics = false;
	m->t_lat_avg_us = m->t_lat_p99_us = m->t_same_cpu_pct = NAN;
	m->t_q_p99_us = m->t_d_p99_us = NAN;
	m->t_split = false;
	m->t_completed = m->t_gap_pct = NAN;
	m->ra_metrics = false;
	m->ra_hit_pct = NAN;
}

static double ratio(double num, double den)
{
	return den > 0 ? num / den : 0.0;
}

/* A 32-bit millisecond field (see ms_delta) that stepped back by less than
 * half its range: no wrap, which would take over 2^31 ms (24 days of busy
 * time, or 35000 requests in flight all through a 60 s interval) in one
 * interval, but a counter that went back. */
static bool ms_back(uint64_t prev, uint64_t cur)
{
	return cur < prev && prev <= UINT32_MAX && prev - cur < (uint64_t)1 << 31;
}

bool disk_stat_restarted(const struct disk_stat *p, const struct disk_stat *c)
{
	return c->rd_ios < p->rd_ios || c->rd_merges < p->rd_merges ||
	       c->rd_sectors < p->rd_sectors || c->wr_ios < p->wr_ios ||
	       c->wr_merges < p->wr_merges || c->wr_sectors < p->wr_sectors ||
	       c->dc_ios < p->dc_ios || c->dc_merges < p->dc_merges ||
	       c->dc_sectors < p->dc_sectors || c->fl_ios < p->fl_ios ||
	       ms_back(p->rd_ticks, c->rd_ticks) || ms_back(p->wr_ticks, c->wr_ticks) ||
	       ms_back(p->dc_ticks, c->dc_ticks) || ms_back(p->fl_ticks, c->fl_ticks) ||
	       ms_back(p->io_ticks, c->io_ticks) || ms_back(p->time_in_queue, c->time_in_queue);
}

/* The kernel prints the millisecond fields (ticks, io_ticks, time_in_queue)
 * with %u: they wrap at 2^32 (49.7 days of busy time) while the 64-bit
 * counters keep growing. A step back across the wrap (ms_back tells it
 * from a reset) counts modulo 2^32. */
static uint64_t ms_delta(uint64_t prev, uint64_t cur)
{
	if (cur >= prev)
		return cur - prev;
	if (prev <= UINT32_MAX)
		return cur + ((uint64_t)UINT32_MAX + 1) - prev;
	return 0;
}

void model_disk(const struct disk_sample *prev, const struct disk_sample *cur, double interval,
		struct disk_metrics *out)
{
	const struct disk_stat *c = &cur->st, *p;
	double rd, wr, dc, fl, rm, wm, dm, rs, ws, ds;

	memset(out, 0, sizeof(*out));
	out->dev = c->dev;
	memcpy(out->name, c->name, sizeof(out->name));
	out->info = &cur->info;
	out->nfields = c->nfields;
	out->in_flight = (double)c->in_flight;
	out->read_ahead_kb = (double)cur->info.read_ahead_kb;
	out->max_sectors_kb = (double)cur->info.max_sectors_kb;
	out->interval = interval;
	untraced(out);
	if (!prev || interval <= 0) {
		out->state = DISK_NEW;
		return;
	}
	p = &prev->st;
	if (disk_stat_restarted(p, c)) {
		out->state = DISK_RESTARTED;
		return;
	}
	out->state = DISK_OK;
	/* Unsigned differences: exact even next to 2^64. */
	out->d_rd_ios = c->rd_ios - p->rd_ios;
	out->d_wr_ios = c->wr_ios - p->wr_ios;
	out->d_rd_sectors = c->rd_sectors - p->rd_sectors;
	out->d_wr_sectors = c->wr_sectors - p->wr_sectors;
	rd = (double)out->d_rd_ios;
	wr = (double)out->d_wr_ios;
	dc = (double)(c->dc_ios - p->dc_ios);
	fl = (double)(c->fl_ios - p->fl_ios);
	rm = (double)(c->rd_merges - p->rd_merges);
	wm = (double)(c->wr_merges - p->wr_merges);
	dm = (double)(c->dc_merges - p->dc_merges);
	rs = (double)out->d_rd_sectors;
	ws = (double)out->d_wr_sectors;
	ds = (double)(c->dc_sectors - p->dc_sectors);

	out->r_s = rd / interval;
	out->w_s = wr / interval;
	out->d_s = dc / interval;
	out->f_s = fl / interval;
	out->rkb_s = rs / 2.0 / interval;
	out->wkb_s = ws / 2.0 / interval;
	out->dkb_s = ds / 2.0 / interval;
	out->rmb_s = out->rkb_s / 1024.0;
	out->wmb_s = out->wkb_s / 1024.0;
	out->rrqm_s = rm / interval;
	out->wrqm_s = wm / interval;
	out->drqm_s = dm / interval;
	out->rrqm_pct = ratio(rm, rm + rd) * 100.0;
	out->wrqm_pct = ratio(wm, wm + wr) * 100.0;
	out->drqm_pct = ratio(dm, dm + dc) * 100.0;
	out->r_await = ratio((double)ms_delta(p->rd_ticks, c->rd_ticks), rd);
	out->w_await = ratio((double)ms_delta(p->wr_ticks, c->wr_ticks), wr);
	out->d_await = ratio((double)ms_delta(p->dc_ticks, c->dc_ticks), dc);
	out->f_await = ratio((double)ms_delta(p->fl_ticks, c->fl_ticks), fl);
	out->rareq_sz = ratio(rs, rd) / 2.0;
	out->wareq_sz = ratio(ws, wr) / 2.0;
	out->dareq_sz = ratio(ds, dc) / 2.0;
	/* time_in_queue and io_ticks are milliseconds. */
	out->aqu_sz = (double)ms_delta(p->time_in_queue, c->time_in_queue) / (interval * 1000.0);
	out->util = (double)ms_delta(p->io_ticks, c->io_ticks) / (interval * 1000.0) * 100.0;
	if (out->util > 100.0)
		out->util = 100.0;
}

static const struct disk_sample *match(const struct sample *prev, const struct disk_sample *d, size_t i)
{
	const struct disk_sample *p = sample_find(prev, d->st.dev, i);

	return p && sample_same_disk(p, d) ? p : NULL;
}

void model_disks(const struct sample *prev, const struct sample *cur, struct disk_metrics *out)
{
	double interval = prev ? cur->t - prev->t : 0;

	for (size_t i = 0; i < cur->ndisks; i++)
		model_disk(prev ? match(prev, &cur->disks[i], i) : NULL, &cur->disks[i], interval, &out[i]);
}

uint64_t model_disk_completed(const struct disk_metrics *m)
{
	double other = (m->d_s + m->f_s) * m->interval;

	/* discards and flushes come as rates: their count times the interval
	 * again, up to rounding */
	return m->d_rd_ios + m->d_wr_ios + (other > 0 ? (uint64_t)llround(other) : 0);
}

bool model_disk_idle(const struct disk_metrics *m)
{
	return m->state != DISK_OK ||
	       (m->r_s == 0 && m->w_s == 0 && m->d_s == 0 && m->f_s == 0 && m->in_flight == 0);
}

void model_cpu(const struct cpu_stat *p, const struct cpu_stat *c, struct cpu_metrics *out)
{
	uint64_t d[8], total = 0;
	const uint64_t pv[8] = { p->user, p->nice, p->system, p->iowait, p->irq, p->softirq, p->steal, p->idle };
	const uint64_t cv[8] = { c->user, c->nice, c->system, c->iowait, c->irq, c->softirq, c->steal, c->idle };
	double *dst[8] = { &out->user, &out->nice,    &out->system, &out->iowait,
			   &out->irq,  &out->softirq, &out->steal,  &out->idle };

	memset(out, 0, sizeof(*out));
	if (!p->valid || !c->valid)
		return;
	for (int i = 0; i < 8; i++) {
		/* iowait and idle can step back on CPU hotplug: count that as 0. */
		d[i] = cv[i] >= pv[i] ? cv[i] - pv[i] : 0;
		total += d[i];
	}
	if (!total)
		return;
	for (int i = 0; i < 8; i++)
		*dst[i] = (double)d[i] * 100.0 / (double)total;
	out->valid = true;
}

void model_trace(const struct sample *prev, const struct sample *cur, struct disk_metrics *m,
		 struct trace_metrics *tm)
{
	for (size_t i = 0; i < cur->ndisks; i++) {
		struct disk_metrics *d = &m[i];
		double ds;
		int err;

		untraced(d);
		/* Partitions are traced as their disk; bio and rq events carry it. */
		if (!cur->traced || !prev || !prev->traced || d->state != DISK_OK ||
		    d->info->kind == DISK_KIND_PARTITION)
			continue;
		err = trace_metrics_compute(&prev->trace, &cur->trace, d->dev, &tm[i]);
		if (err == -ENOENT || err == -ENODATA) {
			/* No traced I/O yet, or none this interval: an idle
			 * device, not an unknown one. */
			d->traced = true;
			d->t_completed = 0;
			continue;
		}
		if (err)
			continue;
		d->traced = d->t_metrics = true;
		d->t_lat_avg_us = tm[i].lat_avg_us;
		d->t_lat_p99_us = tm[i].lat_p99_us;
		d->t_same_cpu_pct = tm[i].cls_share[TRACE_CLASS_SAME_CPU] * 100.0;
		d->t_split = tm[i].split;
		if (tm[i].split) {
			d->t_q_p99_us = tm[i].sp[TRACE_OPS].q_p99_us;
			d->t_d_p99_us = tm[i].sp[TRACE_OPS].d_p99_us;
		}
		d->t_completed = (double)tm[i].completed;
		/* Reconcile with diskstats: IRQ-context completions on an idle
		 * CPU are occasionally missed by the tracepoint path. */
		ds = (double)model_disk_completed(d);
		d->t_gap_pct = ds > 0 ? fabs(d->t_completed - ds) / ds * 100.0 : 0.0;
	}
}

uint64_t model_grown(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : now;
}

bool model_trace_loss(const struct sample *prev, const struct sample *cur, struct trace_loss *out)
{
	*out = (struct trace_loss){ 0 };
	if (!cur->traced)
		return false;
	out->skipped = cur->trace.missed;
	out->map_full = cur->trace.map_full;
	out->since_prev = prev && prev->traced;
	if (out->since_prev) {
		out->skipped_new = model_grown(cur->trace.missed, prev->trace.missed);
		out->map_full_new = model_grown(cur->trace.map_full, prev->trace.map_full);
	}
	return true;
}

void model_readahead(const struct sample *prev, const struct sample *cur, struct disk_metrics *m,
		     struct ra_metrics *ram, struct ra_metrics *total)
{
	for (size_t i = 0; i < cur->ndisks; i++) {
		m[i].ra_metrics = false;
		m[i].ra_hit_pct = NAN;
		/* The first interval after the mode is turned on has no baseline. */
		if (!prev || !prev->ra_valid || !cur->ra_valid || m[i].state != DISK_OK)
			continue;
		if (ra_metrics_compute(&prev->ra, &cur->ra, m[i].dev, &ram[i]) != 0 ||
		    ra_metrics_compute(NULL, &cur->ra, m[i].dev, &total[i]) != 0)
			continue;
		m[i].ra_metrics = true;
		m[i].ra_hit_pct = ram[i].hit_pct;
	}
}
