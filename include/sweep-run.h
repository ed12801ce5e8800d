/* sweep-run: one run of a sweep. Starts CMD (sh -c, its own process group
 * and cgroup), reads the device's counters at its start and at its exit
 * (a pidfd in the event loop: no tick granularity) and every 5 ms between,
 * keeps feeding the interval series, and fills a sweep_run with the exact
 * window's figures: device totals and rates over the busy span, the
 * command's own I/O and CPU, the system CPU split, fio's JSON or --metric
 * figures. The cgroup is removed on every path. */
#ifndef BLKTUNE_SWEEP_RUN_H
#define BLKTUNE_SWEEP_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "app.h"
#include "loop.h"
#include "series.h"
#include "sweep-figure.h"
#include "sweep-opts.h"
#include "tunable.h"

#define SWEEP_POLL_MS 5
/* A command still running at the end of its window gets SIGTERM, and
 * SIGKILL this long after (man page: --duration). */
#define SWEEP_KILL_GRACE_MS 2000

struct sweep_runner {
	struct app *a;
	struct loop *l;
	struct series *se;
	struct tunable_session *ts;
	const struct sweep_opts *o;
	const char *dir;
	sigset_t child_mask;  /* the signal mask the command starts with */
	int stat_fd;          /* sys/block/DEV/stat, kept open */
	unsigned major, minor;
	long long diskseq;    /* the device's identity at the start; -1 unknown */
	bool is_fio;
	bool cgroup_failed;   /* said once; later runs go without */
	double last_sample;   /* monotonic time of the app's latest sample */
};

/* Returns 0 or -errno (a message is printed). */
int sweep_runner_open(struct sweep_runner *rn, struct app *a, struct loop *l, struct series *se,
		      struct tunable_session *ts, const struct sweep_opts *o, const char *dir,
		      const sigset_t *child_mask);
void sweep_runner_close(struct sweep_runner *rn);
/* One run: label names its files in dir, tag prefixes progress lines.
 * Returns 0, the number of a signal that interrupted it, or -errno. */
int sweep_runner_run(struct sweep_runner *rn, struct sweep_run *run, const char *label, const char *tag);

#endif
