/* compare: snapshot A against snapshot B, device by device (matched by name):
 * the tunables that differ first, then per metric both means, the change in
 * percent and a verdict from Welch's t-test at 95%, the direction taken from
 * columns[].good; the optional blocks (histograms, per-CPU counts) side by
 * side. Pure: reads two snapshots, renders nothing. */
#ifndef BLKTUNE_COMPARE_H
#define BLKTUNE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "columns.h"
#include "snapshot.h"
#include "stats.h"

enum compare_verdict {
	CMP_NA,      /* fewer than two intervals on a side */
	CMP_NOISE,   /* within noise: |t| below the 95% critical value */
	CMP_BETTER,  /* significant, in the column's good direction */
	CMP_WORSE,
	CMP_CHANGED, /* significant, the column has no good direction */
	CMP_VERDICTS
};

extern const char *const compare_verdict_names[CMP_VERDICTS]; /* "n/a", "within noise", ... */

struct compare_metric {
	enum column_id col;
	struct stats_summary a, b;
	double change_pct;  /* (B - A) / |A| x 100; NAN when A's mean is 0 */
	struct stats_welch w;
	enum compare_verdict verdict;
	bool active;        /* something moved on either side (not both all zero) */
};

struct compare_tunable {
	const char *name;
	const char *a, *b;  /* NULL: absent on that side */
	bool differs;
};

struct compare_dev {
	const char *name;
	const struct snapshot_dev *a, *b; /* one of them NULL: the device is on one side only */
	struct compare_tunable *tun;      /* differing first, then the rest, by name */
	size_t ntun, ndiffer;
	struct compare_metric m[COLUMN_COUNT];
	size_t nm;                        /* numeric columns with data on either side, columns[] order */
};

struct compare_result {
	const struct snapshot *a, *b;
	struct compare_dev *dev;  /* A's order, then devices only in B */
	size_t ndev;
};

/* Verdict of one metric from its two summaries. */
void compare_metric(enum column_id col, const struct stats_summary *a, const struct stats_summary *b,
		    struct compare_metric *out);
/* Returns 0 or -ENOMEM. The result points into a and b: keep them alive. */
int compare_snapshots(const struct snapshot *a, const struct snapshot *b, struct compare_result *out);
void compare_free(struct compare_result *r);
const struct compare_dev *compare_find(const struct compare_result *r, const char *name);

#endif
