#include "batch.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "loop.h"
#include "model.h"
#include "output.h"
#include "source-replay.h"

/* One report of what the app holds now, text or JSON. */
static int report(struct app *a)
{
	struct trace_loss loss;
	int err;
	bool traced = !a->since_boot && model_trace_loss(a->have_prev ? &a->prev : NULL, &a->cur, &loss);
	struct output_report r = {
		.cur = &a->cur, .cpu = &a->cpu, .disks = a->m, .traces = a->tm, .rows = a->rows, .nrows = a->nrows,
		.ra = sampler_readahead_on(a->sampler) && !a->since_boot ? a->ram : NULL,
		.interval = a->since_boot ? a->boot_uptime : a->cur.t - a->prev.t,
		.since_boot = a->since_boot, .persistent = a->opt.names != NAMES_NONE, .human = a->opt.human,
		.host = sampler_host(a->sampler),
		.cgroups = a->opt.cgroups ? &a->cgm : NULL,
		.procs = a->opt.top_processes ? &a->pm : NULL,
		.trace_loss = traced ? &loss : NULL,
		.trace_off = !a->cur.traced && !a->since_boot && a->cur.trace_off[0] ? a->cur.trace_off : NULL,
	};

	struct source_replay *src = sampler_replay(a->sampler);

	/* A replay: the changes recorded in this interval (those before the
	 * sample that ends it), in the JSON report or as lines before the
	 * text one. */
	if (src && !a->since_boot) {
		const struct record_change *c;
		const size_t *before;
		size_t nch = record_reader_changes(source_replay_reader(src), &c, &before), pos = app_replay_pos(a);
		for (size_t k = 0; k < nch; k++) {
			if (before[k] != pos)
				continue;
			if (!r.nchanges++)
				r.changes = &c[k];
			if (!a->opt.json) {
				char at[16];
				format_time((double)c[k].wall, "%H:%M:%S", at, sizeof(at));
				fprintf(stdout, "tunable change at %s: %s %s %s -> %s\n", at, c[k].dev, c[k].tunable, c[k].from,
					c[k].to);
			}
		}
	}
	if (*sampler_error(a->sampler))
		fprintf(stderr, "blktune: %s\n", sampler_error(a->sampler));
	if (*a->export_error)
		fprintf(stderr, "blktune: %s\n", a->export_error);
	if ((a->opt.json ? output_json(stdout, &r) : output_text(stdout, &r)) == 0)
		return 0;
	/* A reader that went away (head) ends the run quietly; any other
	 * failed write (a full disk, an I/O error) lost the report: said, and
	 * not a success. */
	err = errno ? -errno : -EIO;
	if (err != -EPIPE)
		snprintf(a->error, sizeof(a->error), "writing the report to standard output: %s", strerror(-err));
	return err;
}

int batch_run(struct app *a)
{
	struct loop *l;
	long reports = 0;
	int err, signo;

	/* A report is flushed whole at its end; in between, a buffer of 64 KiB
	 * instead of stdio's 4 KiB writes a 256-device report in 2 calls, not 17.
	 * A terminal keeps its line buffering. */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOFBF, 64 * 1024);
	if ((err = app_refresh(a)) < 0)
		return err;
	/* iostat -x without an interval: one report since boot. */
	if (a->opt.since_boot)
		return (err = app_since_boot(a)) < 0 ? err : report(a);
	/* A replay prints its intervals as fast as they decode. */
	if (sampler_replay(a->sampler)) {
		const char *warn = record_reader_warning(source_replay_reader(sampler_replay(a->sampler)));
		if (*warn)
			fprintf(stderr, "blktune: %s\n", warn);
		while ((a->opt.count == 0 || reports < a->opt.count) && (err = app_refresh(a)) == 0 &&
		       (err = report(a)) == 0)
			reports++;
		return err == -ENODATA ? 0 : err;
	}
	if ((err = loop_new(a->opt.interval, false, &l)) < 0)
		return err;
	while (a->opt.count == 0 || reports < a->opt.count) {
		int ev = loop_wait(l, &signo);
		if (ev < 0) {
			err = ev;
			break;
		}
		if (ev == LOOP_SIGNAL) {
			if (signo == SIGWINCH)
				continue;
			break;
		}
		if ((err = app_refresh(a)) < 0 || (err = report(a)) < 0)
			break;
		reports++;
	}
	loop_free(l);
	return err;
}
