/* series: per device, a ring of the last window's per-interval metrics (every
 * numeric column of columns[]) and, where the device was traced, that
 * interval's histograms and per-CPU counts, plus the tunable changes: when
 * each happened and the values in force from then on. An A/B snapshot
 * summarises a device's window: the intervals since its last tunable change,
 * at most window seconds back.
 *
 * Per interval the series records (series_point_get):
 *   - the tunable values in force during the whole interval, as given to
 *     series_set_tunables (the kernel's read-back values), so a snapshot
 *     shows the value in force, not a sampler reading that lags a change;
 *   - whether a change fell inside it (it straddles the change and belongs to
 *     neither side: no window ever holds it);
 *   - whether the device was idle (no request completed, none in flight).
 * A change with unknown values (series_mark_change) still separates the
 * intervals; its intervals have no recorded tunables.
 *
 * Devices are keyed by dev_t and name (a reused name is another device); a
 * device seen with another diskseq (re-created under the same name and
 * number) restarts its ring and drops its recorded changes, so no window
 * holds intervals or tunable values of both. The kernel gives a name to one
 * device at a time: a name seen under another number retires the entry of
 * the old one, so a name finds at most one device.
 * Memory: a point is 8 + 8 + 4 x COLUMN_COUNT bytes (about 140), plus 268 +
 * 8 x CPUs bytes where traced; the ring keeps window / interval + 2 points,
 * never more than SERIES_POINTS_MAX. At 1 s intervals and the default 30 s
 * window that is 32 x 140 B = 4.4 KiB per device, 4.5 MiB for 1024 devices
 * (+ 8.6 MiB if all 1024 are traced on 2 CPUs); the worst case (0.1 s, 60 s)
 * is SERIES_POINTS_MAX x 140 B = 84 KiB per device, 84 MiB for 1024. */
#ifndef BLKTUNE_SERIES_H
#define BLKTUNE_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "columns.h"
#include "model.h"
#include "stats.h"
#include "trace.h"

#define SERIES_WINDOW_DEFAULT 30.0
#define SERIES_WINDOW_MAX 3600.0
#define SERIES_POINTS_MAX 600
#define SERIES_CHANGES_MAX 32 /* recorded changes kept per device */
#define SERIES_TUNABLE_NAME_MAX 64
#define SERIES_TUNABLE_VALUE_MAX 256

/* One tunable's value in force ("max_sectors_kb" "1024"). */
struct series_tunable {
	char name[SERIES_TUNABLE_NAME_MAX];
	char value[SERIES_TUNABLE_VALUE_MAX];
};

/* Histograms and per-CPU counts summed over a window (or one interval). */
struct series_trace {
	uint64_t intervals;                     /* traced intervals summed */
	uint64_t size[2][TRACE_SIZE_BUCKETS];   /* [read/write] request sizes */
	uint64_t lat[TRACE_LAT_BUCKETS];        /* request latency, log2 µs */
	unsigned ncpu;
	uint64_t *cpu_issued, *cpu_completed;   /* ncpu each */
	/* Completions in the same intervals: traced, and the kernel's count
	 * (diskstats, model_disk_completed). The difference is what the traced
	 * figures lack (or, on a queue without iostats, have beyond it). */
	uint64_t completed, kernel;
};

struct series;

/* window: seconds (clamped to 1..SERIES_WINDOW_MAX). Returns 0 or -ENOMEM. */
int series_new(double window, struct series **out);
void series_free(struct series *s);
double series_window(const struct series *s);

/* One interval of every device, ending at t (seconds, any monotonic clock:
 * the sample's). Intervals that are not DISK_OK (a device's first sample, a
 * counter reset) are not statistics of anything and are skipped. Devices
 * absent from m for longer than the window are forgotten, and at once those
 * whose name m gives to another number. tm, when not NULL,
 * is parallel to m: the traced figures of the same interval (used where
 * m[i].t_metrics). Returns 0 or -ENOMEM. */
int series_add(struct series *s, const struct disk_metrics *m, size_t n, double t);
int series_add_traced(struct series *s, const struct disk_metrics *m, const struct trace_metrics *tm,
		      size_t n, double t);
/* A tunable of the device changed at t (the series' clock, taken when the
 * write was made): its window restarts after t, and the interval that
 * contains t mixes both settings and belongs to no window. tv holds the n
 * values in force from t on (copied; the full list, not only what changed);
 * the numeric columns named like a tunable (read_ahead_kb, max_sectors_kb)
 * take the recorded value in the intervals after t. Marks must come in time
 * order. Returns 0 or -ENOMEM (then the change is still marked, without
 * values). */
int series_set_tunables(struct series *s, dev_t dev, const char *name, double t, const struct series_tunable *tv,
			size_t n);
/* The same with the values unknown. */
void series_mark_change(struct series *s, dev_t dev, const char *name, double t);
/* The value of name in tv[0..n), NULL when absent. */
const char *series_tunable_find(const struct series_tunable *tv, size_t n, const char *name);

size_t series_count(const struct series *s);
/* Device i (0 <= i < series_count), in the order first seen. */
void series_device(const struct series *s, size_t i, dev_t *dev, const char **name,
		   unsigned long long *diskseq);

/* One interval of a device, oldest first (0 <= i < series_points). */
struct series_point {
	double t, interval;     /* it covers (t - interval, t] */
	bool idle;              /* nothing completed, nothing in flight */
	bool straddles;         /* a tunable change fell inside it */
	/* The values in force throughout (NULL, 0: none recorded, or it
	 * straddles a change). Valid until the next call that changes s. */
	const struct series_tunable *tun;
	size_t ntun;
	const float *v;         /* per column (NAN: undefined in this interval) */
};

size_t series_points(const struct series *s, dev_t dev, const char *name);
/* Returns 0, -ENOENT for an unknown device or i out of range. */
int series_point_get(const struct series *s, dev_t dev, const char *name, size_t i, struct series_point *out);

/* The window of a device, ending at its newest point. */
struct series_window {
	size_t n;               /* intervals in the window (summarised) */
	size_t idle;            /* idle intervals in its span: left out (busy-only) or among n */
	size_t partial;         /* busy-only: busy intervals next to an idle one (the load
	                         * started or stopped inside), left out unless fewer than
	                         * two others remain */
	double t_start, t_end;  /* same clock as series_add's t */
	double last_change;     /* -INFINITY when none seen */
	struct stats_summary st[COLUMN_COUNT]; /* numeric columns; others n = 0 */
	bool traced;            /* some interval in the window was traced */
	struct series_trace trace;
	/* The tunables in force during the window (owned; NULL, 0 when the
	 * last change did not record them or none was seen). */
	struct series_tunable *tun;
	size_t ntun;
};

void series_window_init(struct series_window *w);
void series_window_free(struct series_window *w);
/* Returns 0, -ENOENT for an unknown device, -ENOMEM. w->n may be 0 (no
 * complete interval yet since the last change). */
int series_window_get(const struct series *s, dev_t dev, const char *name, struct series_window *w);
/* The same with idle intervals left out of the figures (counted in w->idle),
 * and the partial ones at the load's start and end (w->partial): an A/B
 * window that began before the load started compares the load. */
int series_window_get_busy(const struct series *s, dev_t dev, const char *name, struct series_window *w);

#endif
