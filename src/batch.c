#include "batch.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>

#include "loop.h"
#include "output.h"

int batch_run(struct app *a)
{
	struct loop *l;
	long reports = 0;
	int err, signo;

	if ((err = app_refresh(a)) < 0)
		return err;
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
		if ((err = app_refresh(a)) < 0)
			break;
		struct output_report r = {
			.cur = &a->cur, .cpu = &a->cpu, .disks = a->m, .traces = a->tm, .rows = a->rows, .nrows = a->nrows,
			.ra = sampler_readahead_on(a->sampler) ? a->ram : NULL,
			.interval = a->cur.t - a->prev.t, .host = sampler_host(a->sampler),
		};
		if (*sampler_error(a->sampler))
			fprintf(stderr, "blktune: %s\n", sampler_error(a->sampler));
		if ((a->opt.json ? output_json(stdout, &r) : output_text(stdout, &r)) < 0) {
			err = -EPIPE;
			break;
		}
		reports++;
	}
	loop_free(l);
	return err;
}
