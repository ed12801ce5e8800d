#include "app.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capacity.h"
#include "columns.h"
#include "exporter.h"
#include "model-boot.h"
#include "record.h"
#include "replay-nav.h"
#include "snapshot.h"
#include "source-names.h"
#include "source-replay.h"

void app_options_default(struct app_options *o)
{
	memset(o, 0, sizeof(*o));
	o->root_dir = "/";
	o->interval = 1.0;
	o->ab_window = SERIES_WINDOW_DEFAULT;
}

/* A -p naming no device is a typing error, said before any screen is
 * drawn: a sample of its own, so the first interval is still a whole one. */
static int check_devs(struct app *a)
{
	struct sample s;
	int err = 0;

	if (!a->opt.ndevs)
		return 0;
	sample_init(&s);
	if ((err = sampler_take(a->sampler, &s)) < 0) {
		snprintf(a->error, sizeof(a->error), "cannot read the devices: %s", strerror(-err));
		goto out;
	}
	for (size_t i = 0; i < a->opt.ndevs; i++) {
		size_t j = 0;
		while (j < s.ndisks && !names_match_info(a->devptrs[i], s.disks[j].st.name, &s.disks[j].info))
			j++;
		if (j == s.ndisks) {
			snprintf(a->error, sizeof(a->error), "-p %s: no such block device", a->opt.devs[i]);
			a->bad_arg = true;
			err = -ENODEV;
			break;
		}
	}
out:
	/* A replay starts from its first sample all the same. */
	if (sampler_replay(a->sampler))
		source_replay_seek(sampler_replay(a->sampler), 0);
	sample_free(&s);
	return err;
}

static int open_record(struct app *a)
{
	const struct sampler_host *h = sampler_host(a->sampler);
	struct record_meta m = { .interval = a->opt.interval, .start = (long long)time(NULL) };

	snprintf(m.host, sizeof(m.host), "%s", h->hostname);
	snprintf(m.kernel, sizeof(m.kernel), "%s", h->kernel);
	snprintf(m.version, sizeof(m.version), "%s", a->opt.version ? a->opt.version : "?");
	int err = record_create(a->opt.record, &m, &a->rec, a->error, sizeof(a->error));

	a->bad_arg = err == -EEXIST; /* the command line named a file that exists */
	return err;
}

int app_open(struct app *a, const struct app_options *o)
{
	int err;

	memset(a, 0, sizeof(*a));
	a->opt = *o;
	sample_init(&a->prev);
	sample_init(&a->cur);
	a->filter.sort_column = COLUMN_DEVICE;
	a->filter.partitions = o->partitions;
	a->filter.omit_zero = o->omit_zero;
	if ((err = root_open(o->root_dir, &a->root)) < 0) {
		snprintf(a->error, sizeof(a->error), "cannot open root %s: %s", o->root_dir, strerror(-err));
		return err;
	}
	for (size_t i = 0; i < o->ndevs; i++) {
		if ((err = source_names_resolve(a->root, o->devs[i], a->devnames[i], sizeof(a->devnames[i]))) < 0) {
			snprintf(a->error, sizeof(a->error), "-p %s: no such block device (%s)", o->devs[i],
				 strerror(-err));
			a->bad_arg = true;
			return err;
		}
		a->devptrs[i] = a->devnames[i];
	}
	a->filter.devs = a->devptrs;
	a->filter.ndevs = o->ndevs;
	if (o->replay) {
		if ((err = sampler_open_replay(o->replay, &a->sampler, a->error, sizeof(a->error))) < 0) {
			a->bad_arg = true; /* the file named is no recording, or none */
			return err;
		}
	} else if ((err = sampler_open(a->root, o->no_trace ? SAMPLER_NO_TRACE : o->frame_first ? SAMPLER_DEFER_TRACE : 0,
				&a->sampler)) < 0) {
		snprintf(a->error, sizeof(a->error), "cannot read %s/proc/diskstats: %s",
			 strcmp(o->root_dir, "/") ? o->root_dir : "", root_strerror(err));
		return err;
	}
	if ((err = sampler_names(a->sampler, o->names)) < 0 || (err = check_devs(a)) < 0)
		return err;
	/* Batch output needs neither: their cost per device is the TUI's alone. */
	if (o->history && ((err = history_new(&a->hist)) < 0 || (err = series_new(o->ab_window, &a->series)) < 0))
		return err;
	if (o->cgroups && (err = app_cgroup_view(a, true)) < 0)
		return err;
	a->proc_sort = PROC_COL_BYTES_S;
	/* traced per process: the per-process sampling stays on all session,
	 * for the detail pane's top processes as well as the process view */
	if (o->trace_processes) {
		if ((err = sampler_procs_trace(a->sampler, a->error, sizeof(a->error))) < 0 ||
		    (err = app_proc_view(a, true)) < 0) {
			char why[sizeof(a->error)];

			snprintf(why, sizeof(why), "%s", a->error);
			snprintf(a->error, sizeof(a->error), "--trace-processes: %s", why);
			a->bad_arg = err == -EOPNOTSUPP;
			return err;
		}
	}
	if (o->top_processes && (err = app_proc_view(a, true)) < 0) {
		char why[sizeof(a->error)];

		snprintf(why, sizeof(why), "%s", a->error);
		snprintf(a->error, sizeof(a->error), "--top-processes: %s", why);
		a->bad_arg = err == -EOPNOTSUPP;
		return err;
	}
	if (o->readahead && (err = sampler_readahead(a->sampler, true, a->error, sizeof(a->error))) < 0)
		return err;
	if (o->record && (err = open_record(a)) < 0)
		return err;
	if ((o->listen || o->textfile) &&
	    (err = exporter_open(o->listen, o->textfile, &a->exporter, a->error, sizeof(a->error))) < 0) {
		a->bad_arg = err == -EINVAL; /* an address that is none: exit status 2 */
		return err;
	}
	return 0;
}

void app_close(struct app *a)
{
	exporter_close(a->exporter);
	record_close(a->rec);
	sampler_close(a->sampler);
	root_close(a->root);
	history_free(a->hist);
	series_free(a->series);
	sample_free(&a->prev);
	sample_free(&a->cur);
	for (size_t i = 0; i < a->mcap; i++)
		trace_metrics_free(&a->tm[i]);
	free(a->tm);
	free(a->ram);
	free(a->ra_total);
	free(a->m);
	free(a->rows);
	model_cpus_free(&a->cpus);
	model_cgroup_free(&a->cgm);
	model_procs_free(&a->pm);
	free(a->cg_devs);
	memset(a, 0, sizeof(*a));
}

void app_rows(struct app *a)
{
	a->nrows = rows_build_from(a->m, a->nm, &a->filter, a->rows, a->nrows);
	a->ntotal = rows_total(a->m, a->nm, &a->filter);
}

/* The cgroup view follows the device filter (-p, /), not the idle ones:
 * a cgroup's totals matter when the device is quiet now. */
static int cgroup_rows(struct app *a)
{
	struct rows_filter f = a->filter;
	dev_t *devs = realloc(a->cg_devs, (a->nm ? a->nm : 1) * sizeof(*devs));
	size_t n = 0;
	bool all = !f.name[0] && !f.ndevs;

	if (!devs)
		return -ENOMEM;
	a->cg_devs = devs;
	f.hide_idle = f.omit_zero = false;
	f.partitions = true;
	for (size_t i = 0; i < a->nm; i++)
		if (rows_visible(&a->m[i], &f))
			devs[n++] = a->m[i].dev;
	return model_cgroup(a->have_prev ? &a->prev : NULL, &a->cur, all ? NULL : devs, n, &a->cgm);
}

/* A replay marks the series as the changes were marked live, with the
 * values the recording knows (replay_tunables): every device at the first
 * sample of a replayed stretch, then each recorded change before the
 * interval that straddles it is added. */
static int replay_marks(struct app *a, size_t idx)
{
	const struct record_reader *r = source_replay_reader(sampler_replay(a->sampler));
	const struct record_change *c;
	const size_t *before;
	size_t nch = record_reader_changes(r, &c, &before);
	struct series_tunable tv[16];
	int err = 0;

	for (size_t i = 0; i < a->cur.ndisks && !err; i++) {
		const struct disk_sample *d = &a->cur.disks[i];
		size_t n;

		if (a->have_prev) {
			for (size_t k = 0; k < nch && !err; k++) {
				if (before[k] != idx || strcmp(c[k].dev, d->st.name))
					continue;
				n = replay_tunables(c, before, nch, d->st.name, idx, &d->info, tv, 16);
				err = series_set_tunables(a->series, d->st.dev, d->st.name, c[k].t, tv, n);
			}
			continue;
		}
		n = replay_tunables(c, before, nch, d->st.name, idx, &d->info, tv, 16);
		err = series_set_tunables(a->series, d->st.dev, d->st.name, a->cur.t, tv, n);
	}
	return err;
}

/* Devices went (a quarter of the slots left in use): the per-device arrays
 * shrink. Every array keeps at least mcap slots (one whose realloc failed
 * keeps more). Returns whether they shrank. */
static bool compact(struct app *a)
{
	size_t cap = capacity_shrunk(a->nm, a->mcap), c;

	if (cap >= a->mcap)
		return false;
	for (size_t i = cap; i < a->mcap; i++)
		trace_metrics_free(&a->tm[i]);
	c = a->mcap;
	a->m = capacity_shrink(a->m, sizeof(*a->m), a->nm, &c);
	c = a->mcap;
	a->rows = capacity_shrink(a->rows, sizeof(*a->rows), a->nm, &c);
	c = a->mcap;
	a->tm = capacity_shrink(a->tm, sizeof(*a->tm), a->nm, &c);
	c = a->mcap;
	a->ram = capacity_shrink(a->ram, sizeof(*a->ram), a->nm, &c);
	c = a->mcap;
	a->ra_total = capacity_shrink(a->ra_total, sizeof(*a->ra_total), a->nm, &c);
	a->mcap = cap;
	if (a->nrows > a->nm)
		a->nrows = 0; /* the next app_rows sorts afresh */
	return true;
}

static int app_model(struct app *a, struct source_replay *replay, size_t idx);

int app_refresh(struct app *a)
{
	struct source_replay *replay = sampler_replay(a->sampler);
	size_t idx = replay ? source_replay_pos(replay) : 0;
	int err;

	sample_swap(&a->prev, &a->cur);
	a->have_prev = a->prev.t > 0;
	a->since_boot = false;
	/* The metrics point into the sample they were made from (now prev):
	 * a failed take swaps back, so they stay valid; a failure after it
	 * and before the model drops them (nm 0), since the next take
	 * refills that sample. */
	if ((err = sampler_take(a->sampler, &a->cur)) < 0) {
		sample_swap(&a->prev, &a->cur);
		a->have_prev = a->prev.t > 0;
		return err;
	}
	err = app_model(a, replay, idx);
	if (err < 0)
		a->nm = a->nrows = 0;
	return err;
}

/* The rest of a refresh, after a successful take: everything from the
 * samples to the rows. */
static int app_model(struct app *a, struct source_replay *replay, size_t idx)
{
	int err;

	/* Disks that went leave no memory behind: what their slots held is
	 * freed here and handed back to the kernel one refresh after the last
	 * shrink (the other sample shrinks at the next refresh). */
	if (sample_compact(&a->cur))
		a->release_in = 2;
	/* Recorded as taken: a replay goes through everything below again. */
	if (a->rec) {
		char why[200];

		if ((err = record_sample(a->rec, &a->cur, why, sizeof(why))) < 0) {
			snprintf(a->error, sizeof(a->error), "-w %s: %s", a->opt.record, why);
			return err;
		}
	}
	/* Counters go out as they are: Prometheus takes rates itself. A failed
	 * textfile write is reported, never fatal to the live view. */
	if (a->exporter) {
		a->export_error[0] = '\0';
		(void)exporter_publish(a->exporter, &a->cur, a->export_error, sizeof(a->export_error));
	}
	if (a->cur.ndisks > a->mcap) {
		size_t cap = a->cur.ndisks * 2;
		struct disk_metrics *m = realloc(a->m, cap * sizeof(*m));
		size_t *rows;
		if (!m)
			return -ENOMEM;
		a->m = m;
		rows = realloc(a->rows, cap * sizeof(*rows));
		if (!rows)
			return -ENOMEM;
		a->rows = rows;
		/* About 4 KiB a device, written only for a device with traced
		 * I/O: calloc's fresh pages (no memset of the spare capacity, as
		 * realloc and trace_metrics_init did) stay out of RSS until then:
		 * 8 of the 20 MB peak at 1024 mostly idle devices. */
		struct trace_metrics *tm = calloc(cap, sizeof(*tm));
		if (!tm)
			return -ENOMEM;
		if (a->tm)
			memcpy(tm, a->tm, a->mcap * sizeof(*tm));
		free(a->tm);
		a->tm = tm;
		struct ra_metrics *ram = realloc(a->ram, cap * sizeof(*ram));
		if (!ram)
			return -ENOMEM;
		a->ram = ram;
		if (!(ram = realloc(a->ra_total, cap * sizeof(*ram))))
			return -ENOMEM;
		a->ra_total = ram;
		a->mcap = cap;
	}
	a->nm = a->cur.ndisks;
	if (compact(a))
		a->release_in = 2;
	model_disks(a->have_prev ? &a->prev : NULL, &a->cur, a->m);
	model_trace(a->have_prev ? &a->prev : NULL, &a->cur, a->m, a->tm);
	model_readahead(a->have_prev ? &a->prev : NULL, &a->cur, a->m, a->ram, a->ra_total);
	if (a->series && replay && (err = replay_marks(a, idx)) < 0)
		return err;
	if (a->series && a->have_prev && (err = series_add_traced(a->series, a->m, a->tm, a->nm, a->cur.t)) < 0)
		return err;
	model_cpu(&a->prev.cpu, &a->cur.cpu, &a->cpu);
	if (a->cpu_view && a->have_prev) {
		const struct trace_metrics *dev_tm = NULL;
		for (size_t i = 0; i < a->nm; i++)
			if (a->m[i].t_metrics && !strcmp(a->m[i].name, a->cur.cpus.irq_dev))
				dev_tm = &a->tm[i];
		if ((err = model_cpus(&a->prev, &a->cur, dev_tm, &a->cpus)) < 0)
			return err;
	} else {
		a->cpus.valid = false;
	}
	if (a->cgroup_view && (err = cgroup_rows(a)) < 0)
		return err;
	if (a->proc_view && (err = app_proc_rows(a)) < 0)
		return err;
	if (a->hist && a->have_prev && (err = history_add(a->hist, a->m, a->nm)) < 0)
		return err;
	app_rows(a);
	if (a->release_in && --a->release_in == 0)
		capacity_release();
	return 0;
}

int app_since_boot(struct app *a)
{
	int err;

	if ((err = sampler_uptime(a->sampler, &a->boot_uptime)) < 0) {
		snprintf(a->error, sizeof(a->error), "averages since boot need %s/proc/uptime: %s",
			 strcmp(a->opt.root_dir, "/") ? a->opt.root_dir : "", strerror(-err));
		return err;
	}
	model_boot_disks(&a->cur, a->boot_uptime, a->m);
	model_boot_cpu(&a->cur.cpu, &a->cpu);
	a->since_boot = true;
	app_rows(a);
	return 0;
}

int app_cpu_view(struct app *a, bool on, const char *dev)
{
	a->cpu_view = on;
	a->cpus.valid = false;
	return sampler_cpu_detail(a->sampler, on, dev);
}

int app_cgroup_view(struct app *a, bool on)
{
	a->cgroup_view = on;
	a->cgm.valid = false;
	return sampler_cgroups(a->sampler, on);
}

int app_proc_view(struct app *a, bool on)
{
	int err;

	a->pm.valid = false;
	if (!on && a->opt.trace_processes)
		return 0; /* traced: sampled all session */
	if ((err = sampler_procs(a->sampler, on, a->error, sizeof(a->error))) < 0) {
		a->proc_view = false;
		return err;
	}
	a->proc_view = on;
	return 0;
}

int app_proc_rows(struct app *a)
{
	int err;

	if (!a->proc_view || !a->cur.procs.valid)
		return 0;
	if ((err = model_procs(a->have_prev ? &a->prev.procs : NULL, &a->cur.procs, a->proc_all, &a->pm)) < 0)
		return err;
	model_procs_names(&a->pm, &a->cur);
	model_procs_sort(&a->pm, a->proc_sort, a->proc_reverse);
	return 0;
}

int app_readahead(struct app *a, bool on, char *why, size_t whylen)
{
	return sampler_readahead(a->sampler, on, why, whylen);
}

void app_mark_change(struct app *a, struct tunable_session *ts, const char *dev)
{
	struct timespec now;

	/* The clock of the change itself, not of the last sample: the interval
	 * in progress straddles the change and belongs to neither side. */
	if (!a->series)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	for (size_t i = 0; i < a->nm; i++)
		if (!strcmp(a->m[i].name, dev))
			snapshot_record_change(a->series, ts, a->m[i].dev, dev,
					       (double)now.tv_sec + (double)now.tv_nsec / 1e9);
}

_Static_assert(RECORD_VALUE_MAX >= TUNABLE_VALUE_MAX, "a recorded change holds any tunable value");

int app_record_change(struct app *a, const char *dev, const char *tunable, const char *from, const char *to)
{
	struct record_change c = { .wall = (long long)time(NULL) };
	struct timespec now;
	int err;

	if (!a->rec)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	c.t = (double)now.tv_sec + (double)now.tv_nsec / 1e9;
	if ((err = record_change_set(&c, dev, tunable, from, to)) < 0 || (err = record_change(a->rec, &c)) < 0)
		snprintf(a->export_error, sizeof(a->export_error), "-w %s: the change of %s %s not recorded: %s",
			 a->opt.record, dev, tunable, strerror(-err));
	return err;
}

size_t app_replay_pos(const struct app *a)
{
	struct source_replay *src = sampler_replay(a->sampler);

	return src && source_replay_pos(src) ? source_replay_pos(src) - 1 : 0;
}

int app_replay_goto(struct app *a, size_t i)
{
	struct source_replay *src = sampler_replay(a->sampler);
	size_t n, from, span;
	int err;

	if (!src)
		return -EOPNOTSUPP;
	n = record_reader_count(source_replay_reader(src));
	if (i >= n)
		i = n - 1;
	span = replay_span(a->series ? series_window(a->series) : 0, record_reader_meta(source_replay_reader(src))->interval);
	from = i > span ? i - span : 0;
	/* what the series and sparklines held then: rebuilt from samples
	 * before it, as live they were built */
	if (a->series) {
		series_free(a->series);
		a->series = NULL;
		if ((err = series_new(a->opt.ab_window, &a->series)) < 0)
			return err;
	}
	if (a->hist) {
		history_free(a->hist);
		a->hist = NULL;
		if ((err = history_new(&a->hist)) < 0)
			return err;
	}
	source_replay_seek(src, from);
	sample_clear(&a->cur); /* no interval from before the jump */
	for (size_t k = from; k <= i; k++)
		if ((err = app_refresh(a)) < 0)
			return err;
	return 0;
}
