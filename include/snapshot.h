/* snapshot: one A/B window of every device (or one), summarised, with every
 * tunable's value and optional blocks of counters (traced histograms and
 * per-CPU counts now; readahead counts later), saved as versioned text.
 *
 * The text format (doc: the man page's SNAPSHOT FILES) is one record per line:
 *   blktune-snapshot 2                (version 1: device lines without DISKSEQ)
 *   host NAME / kernel RELEASE / time EPOCH / window SECONDS
 *   device NAME MAJOR:MINOR DISKSEQ  then, for that device, in this order:
 *     span START END N IDLE PARTIAL  wall clock, seconds since the epoch;
 *                                    N intervals summarised; IDLE idle and
 *                                    PARTIAL partial intervals left out
 *                                    (A/B windows hold steady busy ones
 *                                    only; both optional, 0 when absent)
 *     stat KEY N MEAN SD MIN MAX     per numeric column, in columns[] order
 *     tunable NAME VALUE             VALUE is the rest of the line
 *     vec BLOCK KEY V...             per snapshot_vecs[] row, in its order
 *   end-device
 *   end DEVICES
 * The reader refuses anything else with "FILE:LINE: why". */
#ifndef BLKTUNE_SNAPSHOT_H
#define BLKTUNE_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "columns.h"
#include "series.h"
#include "stats.h"
#include "tunable.h"

#define SNAPSHOT_MAGIC "blktune-snapshot"
#define SNAPSHOT_VERSION 2
#define SNAPSHOT_VEC_MAX 8192       /* values on one vec line (per-CPU: CPUs) */
#define SNAPSHOT_DEVS_MAX 65536
#define SNAPSHOT_FILE_MAX (64u << 20)
#define SNAPSHOT_MSG_MAX 512

/* Optional per-device blocks are rows of this table: adding a block (the
 * readahead counts) is adding rows, a capture function filling them, and a
 * line in compare's derived figures; reader, writer and diff need nothing
 * else. */
enum snapshot_vec_kind {
	SNAP_VEC_HIST,   /* counts per bucket; len fixed; labels from bucket_le */
	SNAP_VEC_PERCPU, /* counts per CPU; len = CPUs */
	SNAP_VEC_VALUES, /* named figures; len fixed */
};

enum snapshot_vec_id {
	SNAP_VEC_SIZE_READ,     /* trace: read request sizes */
	SNAP_VEC_SIZE_WRITE,    /* trace: write request sizes */
	SNAP_VEC_LAT,           /* trace: request latency */
	SNAP_VEC_LAT_PCT,       /* trace: p50 p90 p99 of the window's histogram */
	SNAP_VEC_CPU_ISSUED,    /* trace: requests issued per CPU */
	SNAP_VEC_CPU_COMPLETED, /* trace: requests completed per CPU */
	SNAP_VEC_COMPLETIONS,   /* trace: the window's completions, the kernel's and traced */
	SNAP_VEC_COUNT
};

struct snapshot_vec_def {
	const char *block, *key;
	enum snapshot_vec_kind kind;
	size_t len;                  /* fixed length; 0 for per-CPU */
	const char *unit;            /* of the bucket bounds or values */
	uint64_t (*bucket_le)(unsigned i); /* HIST: upper bound, 0 = unbounded */
	const char *const *names;    /* VALUES: one name per value */
	const char *title;
};

extern const struct snapshot_vec_def snapshot_vecs[SNAP_VEC_COUNT];

struct snapshot_tunable {
	char name[TUNABLE_NAME_MAX];
	char value[TUNABLE_VALUE_MAX];
};

struct snapshot_vec {
	enum snapshot_vec_id id;
	size_t n;
	double *v;
};

struct snapshot_dev {
	char name[SAMPLE_NAME_MAX];
	unsigned major, minor;
	unsigned long long diskseq; /* of the device the window is of; 0: unknown */
	double start, end;       /* window, wall clock (s since the epoch) */
	size_t n;                /* intervals in the window */
	size_t idle;             /* idle intervals left out of it (busy-only capture) */
	size_t partial;          /* busy ones next to idle ones left out (busy-only) */
	struct stats_summary st[COLUMN_COUNT]; /* numeric columns; n = 0 when absent */
	struct snapshot_tunable *tun;
	size_t ntun;
	struct snapshot_vec *vec; /* ascending id, each at most once */
	size_t nvec;
};

struct snapshot {
	char host[64];
	char kernel[128];
	double time;   /* capture, wall clock */
	double window; /* the longest window asked for, seconds */
	struct snapshot_dev *dev;
	size_t ndev;
	/* dev's indices sorted by name (equal names in dev order), made once a
	 * snapshot is read or captured; used by snapshot_find while nbyname is
	 * ndev (a device added since: a scan). NULL when memory ran out. */
	size_t *byname;
	size_t nbyname;
};

/* What a capture reads from. */
struct snapshot_source {
	const struct series *series;
	struct tunable_session *ts; /* NULL: no tunables */
	const char *host, *kernel;  /* NULL: uname() */
	double t_now;               /* the series' clock now */
	struct timespec wall_now;   /* the wall clock at t_now */
	const char *only;           /* one device by name, NULL: every device */
	bool busy_only;             /* leave idle and partial intervals out (counted) */
};

void snapshot_init(struct snapshot *s);
void snapshot_free(struct snapshot *s);

/* Fill s (its previous content is not freed) with each device's window
 * summary and the tunables in force during it (as the series recorded them at
 * the last change; read from ts now when none were recorded) (devices without a complete interval in it are left out; -ENOENT when none is left, msg
 * says why). Returns 0 or -errno; s is empty on failure. */
int snapshot_capture(struct snapshot *s, const struct snapshot_source *src, char *msg, size_t len);
/* A tunable of dev changed at t (the series' clock, taken before the write):
 * record it in se with every tunable's value now in force as ts reads them
 * back (the list a snapshot holds), so the intervals after t carry them.
 * ts NULL: the change is marked without values. Returns 0 or -errno. */
int snapshot_record_change(struct series *se, struct tunable_session *ts, dev_t dev, const char *name, double t);
/* What a device's traced figures lack: the kernel's completions in the
 * window (diskstats) that were not traced, in percent of them (negative
 * when more were traced than the kernel counted); NAN without the
 * completions vec or a kernel count (a queue without iostats). */
double snapshot_trace_gap_pct(const struct snapshot_dev *d);
/* Beyond this many percent either way the gap is worth a warning; within
 * it is the gap that the refresh's two reads and a rare lost event make in
 * any window (man page, TRACING). */
#define SNAPSHOT_TRACE_GAP_WARN_PCT 1.0
/* Whether the gap is beyond SNAPSHOT_TRACE_GAP_WARN_PCT; if so *pct,
 * *kernel and *traced are set. */
bool snapshot_trace_gap(const struct snapshot_dev *d, double *pct, double *kernel, double *traced);
/* Append a vec to a device (copying v); vecs must come in ascending id. */
int snapshot_dev_add_vec(struct snapshot_dev *d, enum snapshot_vec_id id, const double *v, size_t n);
const struct snapshot_vec *snapshot_dev_vec(const struct snapshot_dev *d, enum snapshot_vec_id id);
/* Whether the kernel counted column c's figure in d's window: a kernel
 * before 4.18 (no discard fields) or 5.5 (no flush fields) leaves the
 * figure's rate column, which every counted interval has, without a
 * summary (no stat line). Such a figure is n/a, never 0; snapshots that
 * older versions wrote on such kernels hold 0 and read as counted. */
bool snapshot_dev_counted(const struct snapshot_dev *d, enum column_id c);
/* The first device named name (in dev order), or NULL: O(log n) once the
 * snapshot is read or captured (65,536 devices compared in a blink, where a
 * scan per device took 53 s). */
const struct snapshot_dev *snapshot_find(const struct snapshot *s, const char *name);
const char *snapshot_tunable(const struct snapshot_dev *d, const char *name);

/* The text format to a stream. Returns 0, -EIO, -EINVAL (a device name
 * twice, or a name or value the reader would refuse) or -ERANGE (a span
 * that is not two dates from 1970 to 9999 in order, or a stat line no data
 * could give); for a device name twice, such a span or stat nothing is
 * written. */
int snapshot_write(const struct snapshot *s, FILE *f);
/* $XDG_STATE_HOME/blktune, else $HOME/.local/state/blktune (created 0700).
 * Returns 0 or -errno, msg naming the directory that could not be made or
 * is not safe. */
int snapshot_default_dir(char *out, size_t len, char *msg, size_t msg_size);
/* Write to a temporary file in dir (NULL: the default), fsync, rename to
 * "<time>-<label>.snap" (never over an existing file), fsync dir. The final
 * name holds a complete file or nothing. path gets the final path. Returns 0
 * or -errno (msg says why): -ERANGE for a time that is no date, -EINVAL for
 * a device name twice, neither of them written. */
int snapshot_save(const struct snapshot *s, const char *dir, const char *label, char *path, size_t plen,
		  char *msg, size_t len);

/* Strict reader: returns 0, -EINVAL with "NAME:LINE: why" in msg, -ENOMEM,
 * or (read) -errno of the file. */
int snapshot_parse(const char *buf, size_t size, const char *name, struct snapshot *out, char *msg,
		   size_t len);
int snapshot_read(const char *path, struct snapshot *out, char *msg, size_t len);

#endif
