#include "record-codec.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "procs-bpf.h"
#include "record.h"

/* A recording holds whatever --trace-processes' maps can hold. */
_Static_assert(PROCS_BPF_MAX_PAIRS <= RECORD_MAX_PROC_TRACES, "every traced (process, device) pair is recorded");
_Static_assert(PROCS_BPF_MAX_CGROUPS <= RECORD_MAX_CG_TRACES, "every traced (cgroup, device) pair is recorded");
_Static_assert(PROCS_BPF_MAX_LOSS_DEVS <= RECORD_MAX_DISKS, "every device's loss is recorded");

/* The first format version with --trace-processes' requests, and with a
 * device's generation (a partition deleted and added again). */
#define V_PROCS_TRACED 5u
#define V_GENERATION 5u
/* ... and with why a sample has no traced counters (JSON trace_off) */
#define V_TRACE_OFF 5u

/* One walk over a sample, used both ways: encoding appends every field to
 * a flat list, decoding takes them back in the same order. Counts come
 * before what they count, so a decoder sizes its arrays from words it has
 * already read. */
struct walk {
	bool dec;
	unsigned version; /* the format version walked */
	struct record_flat *f;
	size_t pos, spos;
	int err;
	unsigned char group; /* of the words walked now */
};

const char *const record_group_name[RECORD_GROUPS] = {
	[RG_HEAD] = "times, counts, ids", [RG_DISK] = "diskstats counters", [RG_INFO] = "queue settings",
	[RG_HOST] = "cpu, memory, temps", [RG_CPUS] = "cpu view (per cpu)", [RG_TR_IO] = "traced requests, sizes",
	[RG_TR_SUM] = "traced latency sums", [RG_TR_LAT] = "traced latency hist", [RG_TR_QD] = "traced q/d-time hists",
	[RG_TR_CPU] = "traced per-cpu counts", [RG_TR_MAT] = "traced cpu matrix", [RG_RA] = "readahead",
	[RG_CGROUP] = "cgroups", [RG_PROCS] = "processes", [RG_PROC_TR] = "traced per process, cgroup",
};

void record_flat_init(struct record_flat *f)
{
	memset(f, 0, sizeof(*f));
}

void record_flat_free(struct record_flat *f)
{
	free(f->w);
	free(f->g);
	free(f->d);
	free(f->m);
	free(f->on);
	free(f->seg);
	free(f->sb);
	free(f->so);
	record_flat_init(f);
}

void record_flat_reset(struct record_flat *f)
{
	f->nw = f->nsb = f->ns = f->nseg = 0;
	f->over = NULL;
}

static int grow(void **p, size_t *cap, size_t want, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *np;

	if (want <= *cap)
		return 0;
	while (c < want)
		c *= 2;
	if (!(np = realloc(*p, c * size)))
		return -ENOMEM;
	*p = np;
	*cap = c;
	return 0;
}

static int push_word(struct record_flat *f, uint64_t v, unsigned char group)
{
	if (grow((void **)&f->w, &f->capw, f->nw + 1, sizeof(*f->w)) < 0 ||
	    grow((void **)&f->g, &f->capg, f->nw + 1, 1) < 0)
		return -ENOMEM;
	f->g[f->nw] = group;
	f->w[f->nw++] = v;
	return 0;
}

static int push_string(struct record_flat *f, const char *s, size_t len)
{
	if (grow((void **)&f->so, &f->caps, f->ns + 1, sizeof(*f->so)) < 0 ||
	    grow((void **)&f->sb, &f->capsb, f->nsb + len + 1, 1) < 0)
		return -ENOMEM;
	f->so[f->ns++] = f->nsb;
	memcpy(f->sb + f->nsb, s, len);
	f->sb[f->nsb + len] = '\0';
	f->nsb += len + 1;
	return 0;
}

static void wu(struct walk *w, uint64_t *v)
{
	if (w->err)
		return;
	if (!w->dec) {
		w->err = push_word(w->f, *v, w->group);
		return;
	}
	if (w->pos >= w->f->nw) {
		w->err = -EINVAL;
		*v = 0;
		return;
	}
	*v = w->f->w[w->pos++];
}

static void ws(struct walk *w, char *buf, size_t size)
{
	if (w->err)
		return;
	if (!w->dec) {
		w->err = push_string(w->f, buf, strnlen(buf, size));
		return;
	}
	if (w->spos >= w->f->ns) {
		w->err = -EINVAL;
		return;
	}
	snprintf(buf, size, "%s", w->f->sb + w->f->so[w->spos++]);
}

/* Any integer field; only a decoder writes it back. */
#define WU(w, x)                                         \
	do {                                             \
		uint64_t v_ = (uint64_t)(x);             \
		wu((w), &v_);                            \
		if ((w)->dec)                            \
			(x) = (__typeof__(x))v_;         \
	} while (0)
/* Doubles go as their bits: replay is exact, not rounded. */
#define WD(w, x)                                         \
	do {                                             \
		uint64_t v_;                             \
		memcpy(&v_, &(x), sizeof(v_));           \
		wu((w), &v_);                            \
		if ((w)->dec)                            \
			memcpy(&(x), &v_, sizeof(v_));   \
	} while (0)
#define WA(w, a, n)                                      \
	do {                                             \
		for (size_t i_ = 0; i_ < (size_t)(n); i_++) \
			WU(w, (a)[i_]);                  \
	} while (0)
#define WS(w, s) ws((w), (s), sizeof(s))
#define G(w, grp) ((w)->group = (grp))

/* A segment starts here: the words and strings up to the next one belong
 * to one thing (a device, a process, a cgroup, a part of the sample),
 * named by kind and id, and are coded against the same thing's words in
 * the record before wherever it stood there. Only the encoder keeps them;
 * the decoder learns the layout from the payload. */
static void seg(struct walk *w, unsigned kind, uint64_t id)
{
	struct record_flat *f = w->f;

	if (w->dec || w->err)
		return;
	if (grow((void **)&f->seg, &f->capseg, f->nseg + 1, sizeof(*f->seg)) < 0) {
		w->err = -ENOMEM;
		return;
	}
	f->seg[f->nseg++] = (struct record_seg){ .key = (uint64_t)kind << 56 ^ id * 0x9e3779b97f4a7c15ull,
						 .w0 = f->nw, .s0 = f->ns };
}

/* Note what of a sample is more than a reader takes. Returns -E2BIG. */
static int over(struct record_flat *f, const char *what, size_t n, size_t max)
{
	f->over = what;
	f->over_n = n;
	f->over_max = max;
	return -E2BIG;
}

/* A count a decoder can trust: at most max. The encoder refuses what the
 * decoder would: a recording never holds a sample its reader refuses. */
static size_t wcount(struct walk *w, size_t n, size_t max, const char *what)
{
	if (!w->dec && !w->err && n > max)
		w->err = over(w->f, what, n, max);
	WU(w, n);
	if (w->dec && !w->err && n > max)
		w->err = -EINVAL;
	return w->err ? 0 : n;
}

static void walk_disk(struct walk *w, struct disk_sample *d)
{
	struct disk_stat *st = &d->st;
	struct disk_info *in = &d->info;
	size_t kind;

	seg(w, 2, (uint64_t)st->dev ^ (uint64_t)in->diskseq << 32);
	G(w, RG_HEAD);
	WU(w, st->dev);
	WS(w, st->name);
	WU(w, st->nfields);
	G(w, RG_DISK);
	WU(w, st->rd_ios); WU(w, st->rd_merges); WU(w, st->rd_sectors); WU(w, st->rd_ticks);
	WU(w, st->wr_ios); WU(w, st->wr_merges); WU(w, st->wr_sectors); WU(w, st->wr_ticks);
	WU(w, st->in_flight); WU(w, st->io_ticks); WU(w, st->time_in_queue);
	WU(w, st->dc_ios); WU(w, st->dc_merges); WU(w, st->dc_sectors); WU(w, st->dc_ticks);
	WU(w, st->fl_ios); WU(w, st->fl_ticks);
	G(w, RG_INFO);
	WU(w, in->diskseq);
	/* with diskseq the identity: a replay tells a re-created partition from
	 * the old one as live did (format 4 files have none: 0) */
	if (w->version >= V_GENERATION)
		WU(w, in->generation);
	/* the views and outputs name a kind from a table */
	kind = wcount(w, (size_t)in->kind, DISK_KIND_UNKNOWN, "as a device kind");
	if (w->dec)
		in->kind = (enum disk_kind)kind;
	WU(w, in->has_queue);
	/* a decoded disk gets its own text (kept only if not empty) */
	if (w->dec && disk_text_own(&in->text) < 0) {
		w->err = -ENOMEM;
		return;
	}
	WS(w, in->text->parent); WS(w, in->text->dm_name); WS(w, in->persistent); WS(w, in->text->slaves); WS(w, in->text->holders);
	WU(w, in->read_ahead_kb); WU(w, in->max_sectors_kb); WU(w, in->max_hw_sectors_kb); WU(w, in->nr_requests);
	WU(w, in->logical_block_size); WU(w, in->physical_block_size); WU(w, in->rotational);
	WU(w, in->nr_hw_queues);
	WS(w, in->scheduler);
	WU(w, in->size_sectors);
	WS(w, in->text->model); WS(w, in->text->vendor); WS(w, in->text->backing); WS(w, in->mounts); WS(w, in->fstype);
	if (w->dec)
		disk_text_shrink(&in->text);
}

static void walk_cpu_stat(struct walk *w, struct cpu_stat *c)
{
	WU(w, c->valid); WU(w, c->user); WU(w, c->nice); WU(w, c->system); WU(w, c->idle);
	WU(w, c->iowait); WU(w, c->irq); WU(w, c->softirq); WU(w, c->steal);
}

static void walk_cpus(struct walk *w, struct cpus_sample *c)
{
	unsigned ncpu;

	G(w, RG_CPUS);
	WU(w, c->valid);
	if (!c->valid)
		return;
	WU(w, c->have_stat);
	ncpu = (unsigned)wcount(w, c->ncpu, RECORD_MAX_CPUS, "CPUs");
	if (w->dec && !w->err && sample_cpus_reserve(c, ncpu) < 0)
		w->err = -ENOMEM;
	if (w->err)
		return;
	if (c->have_stat)
		for (unsigned i = 0; i < ncpu; i++)
			walk_cpu_stat(w, &c->stat[i]);
	WA(w, c->block_softirq, ncpu);
	c->nirq = (unsigned)wcount(w, c->nirq, SAMPLE_IRQ_MAX, "IRQs of a device");
	WA(w, c->irq, c->nirq);
	WS(w, c->irq_dev);
	for (unsigned i = 0; i < c->nirq; i++)
		WS(w, c->effective[i]);
	WA(w, c->irq_count, (size_t)c->nirq * ncpu);
}

/* A word stored as its difference to a prediction from words walked
 * before it (exact: modulo 2^64, whatever the value). */
static void wpred(struct walk *w, uint64_t *x, uint64_t pred)
{
	uint64_t v = *x - pred;

	wu(w, &v);
	if (w->dec)
		*x = v + pred;
}

static void walk_counts(struct walk *w, struct trace_counts *t)
{
	G(w, RG_TR_IO);
	WA(w, t->issued, TRACE_OPS);
	/* Request sizes are mostly powers of two, each at the top of its
	 * bucket (<= 512 << b): a bucket's bytes are predicted as its count
	 * times that size, and an op's bytes as the sum of its buckets', so
	 * neither moves unless sizes do. */
	for (int o = 0; o < 2; o++) {
		WA(w, t->size_count[o], TRACE_SIZE_BUCKETS);
		for (int b = 0; b < TRACE_SIZE_BUCKETS; b++)
			wpred(w, &t->size_bytes[o][b], t->size_count[o][b] * (512ull << b));
	}
	for (int o = 0; o < TRACE_OPS; o++) {
		uint64_t sum = 0;
		for (int b = 0; o < 2 && b < TRACE_SIZE_BUCKETS; b++)
			sum += t->size_bytes[o][b];
		wpred(w, &t->bytes[o], sum);
	}
	/* Request-based devices count each request once, at completion:
	 * completed is issued there, and costs nothing. */
	for (int o = 0; o < TRACE_OPS; o++)
		wpred(w, &t->completed[o], t->issued[o]);
	G(w, RG_TR_SUM);
	WA(w, t->lat_sum_ns, TRACE_OPS);
	G(w, RG_TR_IO);
	WU(w, t->steps);
	G(w, RG_TR_LAT);
	WA(w, t->lat, TRACE_LAT_BUCKETS);
	G(w, RG_TR_IO);
	WU(w, t->no_start);
	G(w, RG_TR_SUM);
	WA(w, t->q_sum_ns, TRACE_OPS);
	WA(w, t->d_sum_ns, TRACE_OPS);
	G(w, RG_TR_QD);
	for (int o = 0; o < TRACE_OPS; o++) {
		WA(w, t->qlat[o], TRACE_LAT_BUCKETS);
		WA(w, t->dlat[o], TRACE_LAT_BUCKETS);
	}
	G(w, RG_TR_IO);
	WA(w, t->no_issue, TRACE_OPS);
	WA(w, t->cls, TRACE_CLASSES);
}

static void walk_trace(struct walk *w, struct trace_sample *t)
{
	unsigned ncpu = (unsigned)wcount(w, t->ncpu, RECORD_MAX_CPUS, "traced CPUs");
	size_t n = wcount(w, t->ndevs, RECORD_MAX_DISKS, "traced devices"), mat;

	if (w->dec && !w->err && trace_sample_resize(t, ncpu, n) < 0)
		w->err = -ENOMEM;
	if (w->err)
		return;
	mat = (size_t)t->nmat * t->nmat;
	for (size_t i = 0; i < n && !w->err; i++) {
		struct trace_dev *d = &t->devs[i];
		seg(w, 5, (uint64_t)d->dev ^ (uint64_t)d->path << 30 ^ d->seq << 32);
		G(w, RG_HEAD);
		WU(w, d->dev); WU(w, d->path); WU(w, d->seq);
		walk_counts(w, &d->tot);
		G(w, RG_TR_CPU);
		for (size_t c = i * ncpu; c < (i + 1) * ncpu; c++) {
			WU(w, t->cpu[c].issued); WU(w, t->cpu[c].completed);
			WA(w, t->cpu[c].cls, TRACE_CLASSES);
		}
		G(w, RG_TR_MAT);
		WA(w, t->matrix + i * mat, mat);
	}
	seg(w, 6, 0);
	G(w, RG_TR_IO);
	WU(w, t->missed); WU(w, t->map_full);
}

static void walk_ra(struct walk *w, struct ra_sample *r)
{
	size_t n;

	G(w, RG_RA);
	WU(w, r->t_ns); WU(w, r->page_size);
	n = wcount(w, r->ndevs, RECORD_MAX_DISKS, "readahead devices");
	if (w->dec && !w->err && ra_sample_resize(r, n) < 0)
		w->err = -ENOMEM;
	if (w->err)
		return;
	for (size_t i = 0; i < n; i++) {
		struct ra_dev *d = &r->devs[i];
		struct ra_counts *c = &d->c;
		seg(w, 8, (uint64_t)d->dev ^ (uint64_t)d->kind << 32);
		WU(w, d->dev); WU(w, d->kind);
		WU(w, c->sync_triggers); WU(w, c->async_triggers); WU(w, c->windows); WU(w, c->window_pages);
		WA(w, c->win_hist, RA_HIST);
		WU(w, c->sync_pages); WU(w, c->async_pages); WU(w, c->demand); WU(w, c->read_pages);
		WU(w, c->hit); WU(w, c->mapped); WU(w, c->waste); WU(w, c->dropped); WU(w, c->clamped);
	}
}

static void walk_cgroups(struct walk *w, struct cgroup_sample *c)
{
	size_t ng;

	G(w, RG_CGROUP);
	WU(w, c->valid);
	WS(w, c->why);
	if (!c->valid)
		return;
	WD(w, c->t);
	WU(w, c->version); WU(w, c->skipped); WU(w, c->bad_lines);
	WS(w, c->mount);
	ng = wcount(w, c->ngroups, RECORD_MAX_CGROUPS, "cgroups");
	for (size_t g = 0; g < ng && !w->err; g++) {
		struct cgroup_group tmp, *gp = w->dec ? &tmp : &c->groups[g];
		size_t n;

		seg(w, 10, gp->id);
		WU(w, gp->id); WU(w, gp->depth);
		WS(w, gp->path);
		n = wcount(w, gp->n, RECORD_MAX_DISKS, "devices of a cgroup");
		if (w->dec && !w->err && !cgroup_sample_add_group(c, tmp.id, tmp.path, tmp.depth))
			w->err = -ENOMEM;
		for (size_t i = 0; i < n && !w->err; i++) {
			struct cgroup_io io, *ip = w->dec ? &io : &c->io[gp->first + i];
			struct cgroup_io *dst;

			WU(w, ip->dev); WU(w, ip->counter);
			WU(w, ip->rbytes); WU(w, ip->wbytes); WU(w, ip->dbytes);
			WU(w, ip->rios); WU(w, ip->wios); WU(w, ip->dios);
			if (!w->dec || w->err)
				continue;
			if (io.counter >= CGROUP_COUNTERS || !(dst = cgroup_sample_add_io(c, io.dev, io.counter))) {
				w->err = io.counter >= CGROUP_COUNTERS ? -EINVAL : -ENOMEM;
				break;
			}
			*dst = io;
		}
	}
}

static void walk_proc_entries(struct walk *w, struct proc_sample *ps)
{
	size_t n;

	G(w, RG_PROCS);
	WU(w, ps->valid);
	WS(w, ps->why);
	if (!ps->valid)
		return;
	WD(w, ps->t);
	WU(w, ps->all_users); WU(w, ps->uid); WU(w, ps->unreadable);
	n = wcount(w, ps->n, RECORD_MAX_PROCS, "processes");
	for (size_t i = 0; i < n && !w->err; i++) {
		struct proc_entry tmp, *e = w->dec ? &tmp : &ps->p[i];
		struct proc_entry *dst;

		seg(w, 12, (uint64_t)e->pid ^ e->start << 22);
		WU(w, e->pid); WU(w, e->start); WU(w, e->uid);
		WS(w, e->user); WS(w, e->comm); WS(w, e->cmdline);
		WU(w, e->rbytes); WU(w, e->wbytes);
		if (!w->dec || w->err)
			continue;
		if (!(dst = proc_sample_add(ps, tmp.pid, tmp.start))) {
			w->err = -ENOMEM;
			break;
		}
		*dst = tmp;
	}
}

static void walk_proc_counts(struct walk *w, struct proc_counts *c)
{
	WA(w, c->requests, PROC_OPS);
	WA(w, c->bytes, PROC_OPS);
	WU(w, c->done);
	WA(w, c->lat, PROC_LAT_BUCKETS);
	WU(w, c->lat_sum_ns);
}

/* A process's start time, its identity with its PID; 0 when the walk of
 * /proc did not see it (gone, or not ours to read). */
static uint64_t proc_start(const struct proc_sample *ps, pid_t pid)
{
	const struct proc_entry *e = proc_sample_pid(ps, pid);

	return e ? e->start : 0;
}

static void walk_proc_trace(struct walk *w, struct proc_sample *ps, size_t i)
{
	struct proc_trace tmp = { 0 }, *t = w->dec ? &tmp : &ps->tr[i], *dst;

	/* a PID reused by another process is another pair */
	seg(w, 14, (uint64_t)(uint32_t)t->tgid ^ proc_start(ps, t->tgid) << 22 ^ (uint64_t)t->dev * 0xff51afd7ed558ccdull);
	WU(w, t->tgid); WU(w, t->dev); WU(w, t->cgroup_id);
	WS(w, t->comm);
	WU(w, t->gone); /* its process had exited: a row of its own (model-procs) */
	walk_proc_counts(w, &t->c);
	if (!w->dec || w->err)
		return;
	if (!(dst = proc_sample_add_trace(ps, tmp.tgid, tmp.dev))) {
		w->err = -ENOMEM;
		return;
	}
	*dst = tmp;
}

static void walk_cg_trace(struct walk *w, struct proc_sample *ps, size_t i)
{
	struct proc_cgtrace tmp = { 0 }, *t = w->dec ? &tmp : &ps->cg[i], *dst;

	seg(w, 15, t->cgroup_id ^ (uint64_t)t->dev * 0xff51afd7ed558ccdull);
	WU(w, t->cgroup_id); WU(w, t->dev);
	walk_proc_counts(w, &t->c);
	if (!w->dec || w->err)
		return;
	if (!(dst = proc_sample_add_cgtrace(ps, tmp.cgroup_id, tmp.dev))) {
		w->err = -ENOMEM;
		return;
	}
	*dst = tmp;
}

static void walk_proc_loss(struct walk *w, struct proc_sample *ps, size_t i)
{
	struct proc_loss tmp = { 0 }, *l = w->dec ? &tmp : &ps->loss[i], *dst;

	seg(w, 16, l->dev);
	WU(w, l->dev); WU(w, l->no_start);
	if (!w->dec || w->err)
		return;
	if (!(dst = proc_sample_add_loss(ps, tmp.dev))) {
		w->err = -ENOMEM;
		return;
	}
	*dst = tmp;
}

/* --trace-processes' requests (format 5 on), whether or not the walk of
 * /proc worked: the counts first, then each pair and loss as a segment of
 * its own. A decoder grows its arrays as items arrive, never from a count
 * alone (a few bytes may claim the most pairs), and sorts them as the
 * source does (the models search them). */
static void walk_procs_traced(struct walk *w, struct proc_sample *ps)
{
	size_t ntr, ncg, nloss;

	seg(w, 13, 0);
	G(w, RG_PROC_TR);
	WU(w, ps->traced);
	if (!ps->traced)
		return;
	WU(w, ps->skipped); WU(w, ps->not_kept);
	ntr = wcount(w, ps->ntr, RECORD_MAX_PROC_TRACES, "traced (process, device) pairs");
	ncg = wcount(w, ps->ncg, RECORD_MAX_CG_TRACES, "traced (cgroup, device) pairs");
	nloss = wcount(w, ps->nloss, RECORD_MAX_DISKS, "devices with traced requests lost");
	for (size_t i = 0; i < ntr && !w->err; i++)
		walk_proc_trace(w, ps, i);
	for (size_t i = 0; i < ncg && !w->err; i++)
		walk_cg_trace(w, ps, i);
	for (size_t i = 0; i < nloss && !w->err; i++)
		walk_proc_loss(w, ps, i);
	if (w->dec && !w->err)
		proc_sample_sort_traced(ps);
}

static void walk_procs(struct walk *w, struct proc_sample *ps)
{
	walk_proc_entries(w, ps);
	if (w->version >= V_PROCS_TRACED && !w->err)
		walk_procs_traced(w, ps);
}

static void walk_sample(struct walk *w, struct sample *s)
{
	size_t n;

	seg(w, 1, 0);
	G(w, RG_HEAD);
	WD(w, s->t);
	WU(w, s->wall.tv_sec); WU(w, s->wall.tv_nsec);
	WD(w, s->uptime);
	n = wcount(w, s->ndisks, RECORD_MAX_DISKS, "devices");
	if (w->dec)
		for (size_t i = 0; i < n && !w->err; i++)
			if (!sample_add_disk(s))
				w->err = -ENOMEM;
	for (size_t i = 0; i < n && !w->err; i++)
		walk_disk(w, &s->disks[i]);
	seg(w, 3, 0);
	G(w, RG_HOST);
	walk_cpu_stat(w, &s->cpu);
	WU(w, s->mem.valid); WU(w, s->mem.total_kb); WU(w, s->mem.available_kb); WU(w, s->mem.cached_kb);
	WU(w, s->mem.dirty_kb); WU(w, s->mem.writeback_kb);
	s->ntemps = (int)wcount(w, (size_t)s->ntemps, SAMPLE_TEMPS_MAX, "temperatures");
	for (int i = 0; i < s->ntemps; i++) {
		WS(w, s->temps[i].label);
		WD(w, s->temps[i].celsius);
	}
	walk_cpus(w, &s->cpus);
	seg(w, 4, 0);
	G(w, RG_HEAD);
	WU(w, s->traced);
	if (s->traced)
		walk_trace(w, &s->trace);
	else if (w->version >= V_TRACE_OFF)
		WS(w, s->trace_off);
	seg(w, 7, 0);
	WU(w, s->ra_valid);
	if (s->ra_valid)
		walk_ra(w, &s->ra);
	seg(w, 9, 0);
	walk_cgroups(w, &s->cg);
	seg(w, 11, 0);
	walk_procs(w, &s->procs);
}

int record_flatten(const struct sample *s, struct record_flat *f)
{
	struct walk w = { .dec = false, .version = RECORD_VERSION, .f = f };

	record_flat_reset(f);
	/* Encoding only reads the sample. */
	walk_sample(&w, (struct sample *)s);
	/* Each segment ends where the next starts. */
	for (size_t i = 0; i < f->nseg; i++) {
		f->seg[i].nw = (i + 1 < f->nseg ? f->seg[i + 1].w0 : f->nw) - f->seg[i].w0;
		f->seg[i].ns = (i + 1 < f->nseg ? f->seg[i + 1].s0 : f->ns) - f->seg[i].s0;
	}
	return w.err;
}

int record_unflatten(const struct record_flat *f, unsigned version, struct sample *s)
{
	struct walk w = { .dec = true, .version = version, .f = (struct record_flat *)f };

	sample_clear(s);
	if (version < RECORD_VERSION_MIN || version > RECORD_VERSION)
		return -EINVAL;
	walk_sample(&w, s);
	if (!w.err && (w.pos != f->nw || w.spos != f->ns))
		w.err = -EINVAL; /* words left over: not what this walk wrote */
	return w.err;
}

int record_times_check(double t, long long sec, long long nsec)
{
	return t >= 0 && t < 1e15 && sec >= 0 && (double)sec < FORMAT_DATE_END && nsec >= 0 && nsec < 1000000000
		       ? 0
		       : -ERANGE;
}

int record_flat_times(const struct record_flat *f, double *t, struct timespec *wall)
{
	if (f->nw < 3)
		return -EINVAL;
	memcpy(t, &f->w[0], sizeof(*t));
	/* Words no clock gives are no sample: a replay would show them as
	 * dates, and a snapshot taken there could not be read back. */
	if (f->w[1] > (uint64_t)LLONG_MAX || f->w[2] > (uint64_t)LLONG_MAX ||
	    record_times_check(*t, (long long)f->w[1], (long long)f->w[2]) < 0)
		return -EINVAL;
	wall->tv_sec = (time_t)f->w[1];
	wall->tv_nsec = (long)f->w[2];
	return 0;
}

void record_buf_free(struct record_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

int record_buf_put(struct record_buf *b, const void *p, size_t n)
{
	if (!n)
		return 0;
	if (grow((void **)&b->p, &b->cap, b->n + n, 1) < 0)
		return -ENOMEM;
	memcpy(b->p + b->n, p, n);
	b->n += n;
	return 0;
}

int record_buf_varint(struct record_buf *b, uint64_t v)
{
	unsigned char tmp[10];
	size_t n = 0;

	do {
		tmp[n] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			tmp[n] |= 0x80;
		n++;
	} while (v);
	return record_buf_put(b, tmp, n);
}

int record_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	uint64_t r = 0;

	for (unsigned shift = 0; shift < 64; shift += 7) {
		unsigned char c;
		if (*p >= end)
			return -EINVAL;
		c = *(*p)++;
		if (shift == 63 && c > 1)
			return -EINVAL;
		r |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = r;
			return 0;
		}
	}
	return -EINVAL;
}

static uint64_t zigzag(uint64_t d)
{
	return (d << 1) ^ (uint64_t)-(int64_t)(d >> 63);
}

static uint64_t unzigzag(uint64_t z)
{
	return (z >> 1) ^ (uint64_t)-(int64_t)(z & 1);
}

static unsigned bitlen(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0;
}

/* Bits, least significant first, into a byte buffer. */
struct bitw {
	struct record_buf *b;
	uint64_t acc, total;
	unsigned n;
	int err;
};

static void put_bits(struct bitw *w, uint64_t v, unsigned n)
{
	w->total += n;
	while (n) {
		unsigned take = n < 32 ? n : 32;
		w->acc |= (v & ((1ull << take) - 1)) << w->n;
		w->n += take;
		v >>= take;
		n -= take;
		for (; w->n >= 8; w->n -= 8, w->acc >>= 8) {
			unsigned char c = (unsigned char)w->acc;
			if (!w->err)
				w->err = record_buf_put(w->b, &c, 1);
		}
	}
}

static void put_gamma(struct bitw *w, uint64_t x) /* x >= 1 */
{
	unsigned z = bitlen(x) - 1;

	put_bits(w, 0, z);
	put_bits(w, 1, 1);
	put_bits(w, x, z);
}

/* The Rice parameter for a running mean of residuals (x16). */
static unsigned rice_k(uint64_t m)
{
	return bitlen(m >> 5);
}

static void put_rice(struct bitw *w, uint64_t z, unsigned k)
{
	uint64_t q = z >> k;

	if (q < RECORD_ESC) {
		put_bits(w, (1ull << q) - 1, (unsigned)q + 1);
		put_bits(w, z, k);
		return;
	}
	put_bits(w, (1ull << RECORD_ESC) - 1, RECORD_ESC);
	put_bits(w, bitlen(z) - 1, 6);
	put_bits(w, z, bitlen(z) - 1);
}

/* A value of any size: gamma of its bit length plus 1, then the bits
 * below its top one (an entry's step: no measure of its size yet). */
static void put_len(struct bitw *w, uint64_t z)
{
	unsigned nb = bitlen(z);

	put_gamma(w, nb + 1);
	if (nb > 1)
		put_bits(w, z, nb - 1);
}

struct bitr {
	const unsigned char *p;
	size_t nbits, pos;
	int err;
};

static uint64_t get_bits(struct bitr *r, unsigned n)
{
	uint64_t v = 0;
	unsigned got = 0;

	if (n > r->nbits - r->pos) {
		r->err = -EINVAL;
		r->pos = r->nbits;
		return 0;
	}
	while (got < n) {
		unsigned off = r->pos & 7, take = 8 - off;
		if (take > n - got)
			take = n - got;
		v |= (uint64_t)((r->p[r->pos >> 3] >> off) & ((1u << take) - 1)) << got;
		got += take;
		r->pos += take;
	}
	return v;
}

static uint64_t get_gamma(struct bitr *r)
{
	unsigned z = 0;

	while (!r->err && !get_bits(r, 1))
		if (++z > 63) {
			r->err = -EINVAL;
			return 0;
		}
	return r->err ? 0 : (1ull << z) | get_bits(r, z);
}

static uint64_t get_len(struct bitr *r)
{
	uint64_t nb = get_gamma(r) - 1;

	if (nb > 64) {
		r->err = -EINVAL;
		return 0;
	}
	return nb < 2 ? nb : 1ull << (nb - 1) | get_bits(r, (unsigned)nb - 1);
}

static uint64_t get_rice(struct bitr *r, unsigned k)
{
	unsigned q = 0, nb;

	while (q < RECORD_ESC && get_bits(r, 1))
		q++;
	if (q < RECORD_ESC)
		return (uint64_t)q << k | get_bits(r, k);
	nb = (unsigned)get_bits(r, 6);
	return 1ull << nb | get_bits(r, nb);
}

/* A word's running mean of residuals and its state after a residual z
 * was coded (the same on both sides). */
static uint64_t mean_next(uint64_t m, uint64_t z)
{
	uint64_t c = z < (1ull << 40) ? z : 1ull << 40;

	return (uint64_t)((int64_t)m + ((int64_t)(c << 4) - (int64_t)m) / 4);
}

static unsigned char state_next(unsigned char st, uint64_t z)
{
	if (z)
		return 1;
	return st + 1 > RECORD_QUIET ? 0 : (unsigned char)(st + 1);
}

static const char *flat_string(const struct record_flat *f, size_t i, size_t *len)
{
	const char *s = f->sb + f->so[i];

	*len = strlen(s);
	return s;
}

/* Size the coder's state for n words. */
static int state_reserve(struct record_flat *f, size_t n)
{
	if (grow((void **)&f->d, &f->capd, n, sizeof(*f->d)) < 0 ||
	    grow((void **)&f->m, &f->capm, n, sizeof(*f->m)) < 0 ||
	    grow((void **)&f->on, &f->capon, n, sizeof(*f->on)) < 0)
		return -ENOMEM;
	return 0;
}

/* No delta, no mean, every word quiet (after a key). */
static void state_clear(struct record_flat *f)
{
	if (!f->nw)
		return;
	memset(f->d, 0, f->nw * sizeof(*f->d));
	memset(f->m, 0, f->nw * sizeof(*f->m));
	memset(f->on, 0, f->nw);
}

/* A list set word by word is one segment. */
static int ensure_segments(struct record_flat *f)
{
	if (f->nseg)
		return 0;
	if (grow((void **)&f->seg, &f->capseg, 1, sizeof(*f->seg)) < 0)
		return -ENOMEM;
	f->seg[0] = (struct record_seg){ 0, 0, f->nw, 0, f->ns };
	f->nseg = 1;
	return 0;
}

#define NONE SIZE_MAX

/* from[j]: the segment of prev with cur's segment j's key (the one after
 * the last match first, else any), NONE when prev has none. */
static int align(const struct record_flat *prev, const struct record_flat *cur, size_t *from)
{
	size_t expect = 0, hsize = 0, *h = NULL;

	for (size_t j = 0; j < cur->nseg; j++) {
		uint64_t key = cur->seg[j].key;
		from[j] = NONE;
		if (!prev)
			continue;
		if (expect < prev->nseg && prev->seg[expect].key == key) {
			from[j] = expect++;
			continue;
		}
		if (!h) { /* a hash of prev's keys, on the first miss */
			for (hsize = 64; hsize < 2 * prev->nseg; hsize *= 2)
				;
			if (!(h = calloc(hsize, sizeof(*h))))
				return -ENOMEM;
			for (size_t i = 0; i < prev->nseg; i++) {
				size_t at = (size_t)(prev->seg[i].key * 0x9e3779b97f4a7c15ull >> 20) & (hsize - 1);
				while (h[at] && prev->seg[h[at] - 1].key != prev->seg[i].key)
					at = (at + 1) & (hsize - 1);
				if (!h[at])
					h[at] = i + 1;
			}
		}
		for (size_t at = (size_t)(key * 0x9e3779b97f4a7c15ull >> 20) & (hsize - 1); h[at];
		     at = (at + 1) & (hsize - 1))
			if (prev->seg[h[at] - 1].key == key) {
				from[j] = h[at] - 1;
				expect = from[j] + 1;
				break;
			}
	}
	free(h);
	return 0;
}

static bool same_size(const struct record_seg *a, const struct record_seg *b)
{
	return a->nw == b->nw && a->ns == b->ns;
}

static int encode_layout(const struct record_flat *prev, const struct record_flat *cur, const size_t *from,
			 struct record_buf *out)
{
	size_t expect = 0, run = 0;
	bool same = prev && prev->nseg == cur->nseg;
	int err;

	for (size_t j = 0; same && j < cur->nseg; j++)
		same = from[j] == j && same_size(&cur->seg[j], &prev->seg[j]);
	if (same)
		return record_buf_varint(out, 0);
	if ((err = record_buf_varint(out, cur->nseg + 1)) < 0)
		return err;
	for (size_t j = 0; j < cur->nseg; j++) {
		const struct record_seg *s = &cur->seg[j];
		size_t f = from[j];
		if (f != NONE && f == expect && same_size(s, &prev->seg[f])) {
			run++;
			expect++;
			continue;
		}
		if (run && (err = record_buf_varint(out, run * 2)) < 0)
			return err;
		run = 0;
		if ((err = record_buf_varint(out, (f == NONE ? 0 : zigzag((uint64_t)f - expect) + 1) * 2 + 1)) < 0 ||
		    (err = record_buf_varint(out, s->nw)) < 0 || (err = record_buf_varint(out, s->ns)) < 0)
			return err;
		if (f != NONE)
			expect = f + 1;
	}
	return run ? record_buf_varint(out, run * 2) : 0;
}

/* Each word's (or string's) place in prev, NONE for none. */
static void place_map(const struct record_flat *prev, const struct record_seg *seg, size_t nseg, const size_t *from,
		      bool strings, size_t *map)
{
	for (size_t j = 0; j < nseg; j++) {
		const struct record_seg *s = &seg[j], *p = from[j] == NONE ? NULL : &prev->seg[from[j]];
		size_t n = strings ? s->ns : s->nw, pn = p ? (strings ? p->ns : p->nw) : 0;
		size_t at = strings ? s->s0 : s->w0, pat = p ? (strings ? p->s0 : p->w0) : 0;
		for (size_t o = 0; o < n; o++)
			map[at + o] = o < pn ? pat + o : NONE;
	}
}

static int encode_strings(const struct record_flat *prev, const struct record_flat *cur, const size_t *smap,
			  struct record_buf *out)
{
	size_t changed = 0, last = 0;
	int err;

	for (int pass = 0; pass < 2; pass++) {
		if (pass && (err = record_buf_varint(out, changed)) < 0)
			return err;
		for (size_t i = 0; i < cur->ns; i++) {
			size_t a, b = 0;
			const char *sa = flat_string(cur, i, &a),
				   *sb = smap[i] != NONE ? flat_string(prev, smap[i], &b) : "";
			if (a == b && !memcmp(sa, sb, a))
				continue;
			if (!pass) {
				changed++;
				continue;
			}
			if ((err = record_buf_varint(out, i - last)) < 0 || (err = record_buf_varint(out, a)) < 0 ||
			    (err = record_buf_put(out, sa, a)) < 0)
				return err;
			last = i + 1;
		}
	}
	return 0;
}

/* Words and strings a segment has that the one it continues had not. */
static uint64_t fresh(const struct record_flat *f, const struct record_seg *s, size_t fr)
{
	const struct record_seg *o = fr != NONE && f ? &f->seg[fr] : &(struct record_seg){ 0 };

	return (s->nw > o->nw ? s->nw - o->nw : 0) + (s->ns > o->ns ? s->ns - o->ns : 0);
}

int record_encode(const struct record_flat *prev, struct record_flat *cur, struct record_buf *out)
{
	size_t *from = NULL, *map = NULL, entries = 0, active = 0, start = out->n;
	uint64_t added = 0;
	struct record_buf bits = { 0 };
	struct bitw bw = { .b = &bits };
	int err;

	/* the totals a decoder takes (decode_layout) */
	if (cur->nw > RECORD_MAX_WORDS)
		return over(cur, "words", cur->nw, RECORD_MAX_WORDS);
	if (cur->ns > RECORD_MAX_STRINGS)
		return over(cur, "strings", cur->ns, RECORD_MAX_STRINGS);
	if (cur->nseg > RECORD_MAX_SEGS)
		return over(cur, "segments", cur->nseg, RECORD_MAX_SEGS);
	if ((err = ensure_segments(cur)) < 0 || (err = state_reserve(cur, cur->nw)) < 0)
		return err;
	if (!(from = malloc((cur->nseg + 1) * sizeof(*from))) ||
	    !(map = malloc((cur->nw > cur->ns ? cur->nw : cur->ns) * sizeof(*map) + 1))) {
		err = -ENOMEM;
		goto out;
	}
	if ((err = align(prev, cur, from)) < 0 || (err = encode_layout(prev, cur, from, out)) < 0)
		goto out;
	place_map(prev, cur->seg, cur->nseg, from, false, map);
	/* The new deltas and, against the old state, who enters and who is
	 * coded as active. */
	for (size_t i = 0; i < cur->nw; i++) {
		size_t p = map[i];
		uint64_t pw = p != NONE ? prev->w[p] : 0, pd = p != NONE ? prev->d[p] : 0;
		unsigned char pst = p != NONE ? prev->on[p] : 0;
		cur->d[i] = cur->w[i] - pw;
		cur->m[i] = p != NONE ? prev->m[p] : 0;
		cur->on[i] = pst;
		entries += !pst && cur->d[i] != pd;
		active += pst != 0;
	}
	if (entries || active) {
		put_gamma(&bw, entries + 1);
		for (int pass = 0; pass < 2; pass++) {
			for (size_t i = 0, quiet = 0; i < cur->nw; i++) {
				size_t p = map[i];
				uint64_t pd = p != NONE ? prev->d[p] : 0, z = zigzag(cur->d[i] - pd), before = bw.total;
				if (!pass && cur->on[i]) /* entries first, then the active words */
					continue;
				if (pass && (!cur->on[i] || (cur->on[i] & 0x80)))
					continue;
				if (!pass && !z) {
					quiet++;
					continue;
				}
				if (!pass) {
					put_gamma(&bw, quiet + 1);
					quiet = 0;
				}
				if (pass)
					put_rice(&bw, z, rice_k(cur->m[i]));
				else
					put_len(&bw, z);
				/* an entry's residual is the step from a steady rate,
				 * no measure of the noise that follows */
				if (pass)
					cur->m[i] = mean_next(cur->m[i], z);
				/* entries are marked: the second pass leaves them */
				cur->on[i] = pass ? state_next(cur->on[i], z) : (unsigned char)(0x80 | state_next(0, z));
				if (cur->cost && cur->g)
					cur->cost[cur->g[i]] += (double)(bw.total - before);
			}
		}
		for (size_t i = 0; i < cur->nw; i++)
			cur->on[i] &= 0x7f;
		put_bits(&bw, 0, (8 - bw.n % 8) % 8);
	}
	if ((err = bw.err) < 0 || (err = record_buf_varint(out, bits.n)) < 0 ||
	    (err = record_buf_put(out, bits.p, bits.n)) < 0)
		goto out;
	place_map(prev, cur->seg, cur->nseg, from, true, map);
	if ((err = encode_strings(prev, cur, map, out)) < 0)
		goto out;
	/* the decoder's budget of new words and strings for the payload's
	 * size (decode_layout counts them the same way) */
	for (size_t j = 0; j < cur->nseg; j++)
		added += fresh(prev, &cur->seg[j], from[j]);
	if (added > (uint64_t)(out->n - start) * RECORD_NEW_PER_BYTE) {
		err = over(cur, "new words and strings for its payload's size", (size_t)added,
			   (out->n - start) * RECORD_NEW_PER_BYTE);
		goto out;
	}
	/* A key's values are no rate: the record after it starts from no
	 * delta and every word quiet. */
	if (!prev)
		state_clear(cur);
out:
	free(from);
	free(map);
	record_buf_free(&bits);
	return err;
}

/* The strings of a record: those of the record before where they stood
 * (smap, NULL: in place), the changed ones from the payload. */
static int decode_strings(struct record_flat *f, size_t ns, const size_t *smap, const unsigned char **p,
			  const unsigned char *end)
{
	struct record_flat nf;
	uint64_t changed, skip, len;
	size_t i = 0;
	int err = -EINVAL;

	if (record_varint(p, end, &changed) < 0 || changed > ns)
		return -EINVAL;
	record_flat_init(&nf);
	for (uint64_t c = 0; c <= changed; c++) {
		uint64_t upto;
		if (c < changed) {
			if (record_varint(p, end, &skip) < 0 || skip > ns - i)
				goto out;
			upto = i + skip;
		} else {
			upto = ns;
		}
		for (; i < upto; i++) {
			size_t l = 0, from = smap ? smap[i] : i < f->ns ? i : NONE;
			const char *s = from != NONE ? flat_string(f, from, &l) : "";
			if ((err = push_string(&nf, s, l)) < 0)
				goto out;
		}
		err = -EINVAL;
		if (c == changed)
			break;
		if (i >= ns || record_varint(p, end, &len) < 0 || len > (uint64_t)(end - *p) ||
		    memchr(*p, '\0', len))
			goto out;
		if ((err = push_string(&nf, (const char *)*p, len)) < 0)
			goto out;
		err = -EINVAL;
		*p += len;
		i++;
	}
	/* Take the new strings over. */
	free(f->sb);
	free(f->so);
	f->sb = nf.sb, f->nsb = nf.nsb, f->capsb = nf.capsb;
	f->so = nf.so, f->ns = nf.ns, f->caps = nf.caps;
	nf.sb = NULL;
	nf.so = NULL;
	err = 0;
out:
	record_flat_free(&nf);
	return err;
}

static int push_seg(struct record_seg **seg, size_t *n, size_t *cap, size_t **from, size_t *fcap,
		    const struct record_seg *s, size_t fr)
{
	if (grow((void **)seg, cap, *n + 1, sizeof(**seg)) < 0 || grow((void **)from, fcap, *n + 1, sizeof(**from)) < 0)
		return -ENOMEM;
	(*seg)[*n] = *s;
	(*from)[(*n)++] = fr;
	return 0;
}

/* The layout of a record against f's (the record before). *same: as
 * before; else the segments and where each stood before. A record of n
 * payload bytes brings at most n * RECORD_NEW_PER_BYTE new words and
 * strings. */
static int decode_layout(const struct record_flat *f, bool key, const unsigned char **p, const unsigned char *end,
			 size_t n_bytes, struct record_seg **segp, size_t **fromp, size_t *nsegp, bool *same)
{
	struct record_seg *seg = NULL;
	size_t *from = NULL, n = 0, cap = 0, fcap = 0, expect = 0, nw = 0, ns = 0;
	uint64_t l, v, budget = (uint64_t)n_bytes * RECORD_NEW_PER_BYTE, added = 0;
	int err = -EINVAL;

	if (record_varint(p, end, &l) < 0 || (key && !l))
		return -EINVAL;
	*same = !l;
	if (*same)
		return 0;
	if (l - 1 > RECORD_MAX_SEGS)
		return -EINVAL;
	while (n < l - 1) {
		struct record_seg s = { .w0 = nw, .s0 = ns };
		size_t fr = NONE;
		uint64_t k = 1;
		bool one;
		if (record_varint(p, end, &v) < 0)
			goto bad;
		if ((one = v & 1)) {
			if (v >> 1) {
				fr = expect + (size_t)unzigzag((v >> 1) - 1);
				if (fr >= f->nseg)
					goto bad;
				expect = fr + 1;
			}
			if (record_varint(p, end, &k) < 0 || k > RECORD_MAX_WORDS || record_varint(p, end, &v) < 0 ||
			    v > RECORD_MAX_STRINGS)
				goto bad;
			s.nw = (size_t)k;
			s.ns = (size_t)v;
			k = 1;
		} else if (!(k = v >> 1) || k > l - 1 - n || k > f->nseg - expect) {
			goto bad;
		}
		for (; k; k--) {
			if (!one) {
				fr = expect++;
				s.w0 = nw, s.s0 = ns;
				s.nw = f->seg[fr].nw, s.ns = f->seg[fr].ns;
			}
			if (s.nw > RECORD_MAX_WORDS - nw || s.ns > RECORD_MAX_STRINGS - ns)
				goto bad;
			if ((added += fresh(f, &s, fr)) > budget)
				goto bad; /* far more than a sample this size holds */
			nw += s.nw;
			ns += s.ns;
			if ((err = push_seg(&seg, &n, &cap, &from, &fcap, &s, fr)) < 0)
				goto bad;
			err = -EINVAL;
		}
	}
	*segp = seg;
	*fromp = from;
	*nsegp = n;
	return 0;
bad:
	free(seg);
	free(from);
	return err;
}

/* f's words and state moved to the new layout. */
static int relayout(struct record_flat *f, struct record_seg *seg, size_t nseg, const size_t *from, size_t *map)
{
	struct record_flat nf;
	size_t nw = nseg ? seg[nseg - 1].w0 + seg[nseg - 1].nw : 0;

	record_flat_init(&nf);
	if (grow((void **)&nf.w, &nf.capw, nw, sizeof(*nf.w)) < 0 || state_reserve(&nf, nw) < 0) {
		record_flat_free(&nf);
		return -ENOMEM;
	}
	place_map(f, seg, nseg, from, false, map);
	for (size_t i = 0; i < nw; i++) {
		size_t p = map[i];
		nf.w[i] = p != NONE ? f->w[p] : 0;
		nf.d[i] = p != NONE ? f->d[p] : 0;
		nf.m[i] = p != NONE ? f->m[p] : 0;
		nf.on[i] = p != NONE ? f->on[p] : 0;
	}
#define TAKE(x) do { __typeof__(f->x) t_ = f->x; f->x = nf.x; nf.x = t_; } while (0)
	TAKE(w); TAKE(capw); TAKE(d); TAKE(capd); TAKE(m); TAKE(capm); TAKE(on); TAKE(capon);
#undef TAKE
	f->nw = nw;
	record_flat_free(&nf);
	return 0;
}

int record_decode(struct record_flat *f, bool key, const unsigned char *p, size_t n)
{
	const unsigned char *end = p + n;
	struct record_seg *seg = NULL;
	size_t *from = NULL, *map = NULL, nseg = 0, ns, entries = 0;
	uint64_t nb;
	struct bitr r = { 0 };
	bool same;
	int err;

	if (key)
		record_flat_reset(f);
	if ((err = decode_layout(f, key, &p, end, n, &seg, &from, &nseg, &same)) < 0)
		return err;
	ns = same ? f->ns : nseg ? seg[nseg - 1].s0 + seg[nseg - 1].ns : 0;
	if (!same) {
		size_t nw = nseg ? seg[nseg - 1].w0 + seg[nseg - 1].nw : 0;
		if (!(map = malloc((nw > ns ? nw : ns) * sizeof(*map) + 1)) || (err = relayout(f, seg, nseg, from, map)) < 0) {
			err = -ENOMEM;
			goto out;
		}
	}
	err = -EINVAL;
	if (record_varint(&p, end, &nb) < 0 || nb > (uint64_t)(end - p))
		goto out;
	r.p = p;
	r.nbits = (size_t)nb * 8;
	p += nb;
	if (nb && (entries = (size_t)(get_gamma(&r) - 1)) > f->nw)
		goto out;
	for (size_t e = 0, i = 0; e < entries && !r.err; e++, i++) {
		uint64_t skip = get_gamma(&r) - 1, z;
		for (; i < f->nw && (f->on[i] || skip); i++)
			skip -= !f->on[i];
		if (i >= f->nw)
			goto out;
		z = get_len(&r);
		f->d[i] += unzigzag(z);
		f->on[i] = (unsigned char)(0x80 | state_next(0, z));
	}
	for (size_t i = 0; i < f->nw && !r.err; i++) {
		uint64_t z;
		if (f->on[i] & 0x80) {
			f->on[i] &= 0x7f;
			continue;
		}
		if (!f->on[i])
			continue;
		z = get_rice(&r, rice_k(f->m[i]));
		f->d[i] += unzigzag(z);
		f->m[i] = mean_next(f->m[i], z);
		f->on[i] = state_next(f->on[i], z);
	}
	if (r.err || (r.pos + 7) / 8 != nb)
		goto out;
	for (size_t i = 0; i < f->nw; i++)
		f->w[i] += f->d[i];
	if (!same)
		place_map(f, seg, nseg, from, true, map);
	/* place_map read f's old segments; now the new ones are f's */
	if ((err = decode_strings(f, ns, same ? NULL : map, &p, end)) < 0)
		goto out;
	if (!same) {
		free(f->seg);
		f->seg = seg;
		f->nseg = f->capseg = nseg;
		seg = NULL;
	}
	if (key)
		state_clear(f);
	err = p == end ? 0 : -EINVAL;
out:
	free(seg);
	free(from);
	free(map);
	return err;
}
