/* compare: snapshot A against snapshot B, device by device (matched by name;
 * two one-device snapshots of different devices are compared with a
 * warning): the tunables that differ first, then per metric both means, the
 * change in percent and a verdict from Welch's t-test at 95%: higher or lower
 * (or within noise) for every figure, and better or worse only for the
 * primary figure (throughput unless chosen otherwise) and for latency, in
 * the direction of columns[].good; a request that got larger is simply
 * "higher". The optional blocks (histograms, per-CPU counts) side by side.
 * Pure: reads two snapshots, renders nothing. */
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
	CMP_HIGHER,  /* significant: B's mean above A's */
	CMP_LOWER,
	CMP_SAME,    /* every interval on both sides had the same value: nothing changed */
	CMP_VERDICTS
};

/* Whether a significant change is judged, and which way. */
enum compare_judgement {
	CMP_UNJUDGED, /* not the primary figure nor a latency, or not significant */
	CMP_BETTER,   /* in the column's good direction */
	CMP_WORSE,
};

extern const char *const compare_verdict_names[CMP_VERDICTS];     /* "n/a", "within noise", "higher", "lower", "same" */
extern const char *const compare_judgement_names[CMP_WORSE + 1];  /* NULL, "better", "worse" */

/* The figure better/worse is decided on, besides latency (the A/B view's
 * key cycles through them). */
enum compare_primary {
	CMP_PRIMARY_MBPS, /* throughput: rMB/s, wMB/s (and their kB/s) */
	CMP_PRIMARY_IOPS, /* r/s, w/s, d/s */
	CMP_PRIMARY_HIT,  /* readahead hit% */
	CMP_PRIMARIES
};

struct compare_primary_def {
	const char *name; /* "MB/s" */
	enum column_id col[5];
	size_t ncol;
	size_t nheadline; /* the first ones: per direction, for the one-line verdict */
};

extern const struct compare_primary_def compare_primaries[CMP_PRIMARIES];
/* The primary figure's columns, and latency (good < 0), get better/worse. */
bool compare_judges(enum column_id col, enum compare_primary p);

struct compare_metric {
	enum column_id col;
	struct stats_summary a, b;
	double change_pct;  /* (B - A) / |A| x 100; NAN when A's mean is 0 */
	struct stats_welch w;
	enum compare_verdict verdict;
	enum compare_judgement judged;
	bool active;        /* something moved on either side (not both all zero) */
	bool na_a, na_b;    /* that side's kernel counts no such figure (snapshot_dev_counted) */
};

/* The change in percent as every text shows it, at most
 * COMPARE_CHANGE_WIDTH characters, unpadded: one decimal ("+12.5%") to
 * +-99999.9%, whole percent ("+123456%") to +-999999%, beyond that a bound
 * (">+999999%", "<-999999%"); "-" for NAN. out holds COMPARE_CHANGE_MAX. */
#define COMPARE_CHANGE_WIDTH 9
#define COMPARE_CHANGE_MAX 16
void compare_change_text(double pct, char *out, size_t len);

/* "higher, better", "lower", "within noise": the verdict with its judgement. */
void compare_metric_text(const struct compare_metric *m, char *out, size_t len);
/* Side A's (b false) or B's mean as the texts show it, width wide: "n/a"
 * where that side's kernel counts no such figure, "-" where it has none. */
void compare_mean_text(const struct compare_metric *m, bool b, int width, char *out, size_t len);

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
	/* The primary figure's busiest column (largest mean on either side),
	 * for a one-line verdict; NULL when it has no data. */
	const struct compare_metric *headline;
};

/* The headers of cd's figures that neither side counted, or one side did
 * not and the other only as 0 (an older kernel: no discard or flush
 * fields), space-separated ("d/s dkB/s f/s"); how many. The texts list them
 * as n/a rather than with the figures zero on both sides. */
size_t compare_uncounted(const struct compare_dev *cd, char *out, size_t len);
/* Whether m is one of those. */
bool compare_metric_uncounted(const struct compare_metric *m);

#define COMPARE_WARNING_MAX 512

struct compare_result {
	const struct snapshot *a, *b;
	struct compare_dev *dev;  /* A's order, then devices only in B */
	size_t ndev;
	enum compare_primary primary;
	/* "" or why the comparison may not mean what it seems ("A is loop0
	 * (7:0), B is loop1 (7:1): different devices"). */
	char warning[COMPARE_WARNING_MAX];
};

/* Verdict of one metric from its two summaries (judged for the default
 * primary figure, throughput). */
void compare_metric(enum column_id col, const struct stats_summary *a, const struct stats_summary *b,
		    struct compare_metric *out);
/* Returns 0 or -ENOMEM. The result points into a and b: keep them alive.
 * Judged for throughput; compare_judge changes the primary figure. */
int compare_snapshots(const struct snapshot *a, const struct snapshot *b, struct compare_result *out);
void compare_judge(struct compare_result *r, enum compare_primary p);
/* One line on the primary figure ("primary MB/s: rMB/s 512.0 -> 260.1
 * (-49.2%) lower, worse"); "" when the device has none. */
void compare_headline(const struct compare_dev *cd, enum compare_primary p, char *out, size_t len);
void compare_free(struct compare_result *r);
const struct compare_dev *compare_find(const struct compare_result *r, const char *name);

#endif
