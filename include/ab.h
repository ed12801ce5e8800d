/* ab: the interactive A/B experiment behind the TUI's keys. Take A, change
 * tunables, take B; each take summarises the series window (since the last
 * tunable change of each device, at most the series' window) of the selected
 * device or of every device, and once both exist they are compared. A's or
 * B's tunables can be put back through the tunables engine (validated,
 * journaled, read back), and both snapshots saved.
 * Every function fills msg with one line for the status bar. */
#ifndef BLKTUNE_AB_H
#define BLKTUNE_AB_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "compare.h"
#include "series.h"
#include "snapshot.h"
#include "tunable.h"

enum ab_slot { AB_A, AB_B, AB_SLOTS };

struct ab {
	struct snapshot snap[AB_SLOTS];
	bool have[AB_SLOTS];
	bool saved[AB_SLOTS];
	char path[AB_SLOTS][PATH_MAX];  /* where each was saved */
	struct compare_result cmp;
	bool have_cmp;                  /* both taken and compared */
	enum compare_primary primary;   /* judged better/worse, with latency */
};

/* Where a take reads from: the series the app feeds and the clocks of its
 * newest sample (app->cur.t and app->cur.wall). */
struct ab_source {
	const struct series *series;
	struct tunable_session *ts;  /* NULL: no tunables recorded */
	const char *host, *kernel;   /* sampler_host(); NULL: uname() */
	double t_now;
	struct timespec wall_now;
};

void ab_init(struct ab *ab);
void ab_free(struct ab *ab);
/* dev NULL: every device. Busy intervals only: the idle ones are left out and
 * counted. Compares when both slots are filled; the message then carries the
 * primary figure's verdict, and a warning when A and B are different
 * devices. Returns 0 or -errno ("A: loop0, 12 busy intervals (12.0 s), 17
 * idle left out"). */
int ab_take(struct ab *ab, enum ab_slot slot, const struct ab_source *src, const char *dev, char *msg,
	    size_t len);
/* Judge on the next primary figure (MB/s, IOPS, RA hit%); msg names it. */
void ab_next_primary(struct ab *ab, char *msg, size_t len);
/* Set every writable tunable of the slot's snapshot whose current value
 * differs (dev NULL: every device in it), the scheduler before its
 * parameters. Each change marks the device in se (may be NULL) at t_now so
 * the next take starts after it, and each value that changed goes to
 * changed(arg, result) when not NULL (a recording's change records). Returns
 * the number of refusals, or -errno (nothing taken in that slot). */
int ab_apply(struct ab *ab, enum ab_slot slot, struct tunable_session *ts, struct series *se, double t_now,
	     const char *dev, tunable_report_fn changed, void *arg, char *msg, size_t len);
/* Save the snapshots taken and not yet saved (dir NULL: the default
 * directory), labelled A and B. Returns 0 or -errno. */
int ab_save(struct ab *ab, const char *dir, char *msg, size_t len);

#endif
