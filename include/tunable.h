/* tunable: list, change, undo and restore the tunables of a block device.
 * Every change is: validate against the table and the device's limits ->
 * journal the original (fsynced) -> write -> read back -> a result saying what
 * the kernel really set, in one line for the status bar.
 *
 * A session borrows a struct root and opens the journal (and takes its lock)
 * at the first change, keeping it until everything is restored, kept, or the
 * session closes. */
#ifndef BLKTUNE_TUNABLE_H
#define BLKTUNE_TUNABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "root.h"
#include "tunable-table.h"

#define TUNABLE_DEV_MAX 32
#define TUNABLE_NAME_MAX 64
#define TUNABLE_VALUE_MAX 256
/* The "at start" value of a file that did not exist at start (a parameter
 * of a scheduler chosen later), as the A/B view shows it. */
#define TUNABLE_ABSENT "(absent)"
#define TUNABLE_MSG_MAX 512
#define TUNABLE_LIST_MAX 96

struct tunable_session;

/* One row of the tunables panel. */
struct tunable_info {
	char name[TUNABLE_NAME_MAX];   /* "read_ahead_kb", "iosched/fifo_batch", "irq/36" */
	const struct tunable_def *def; /* help, layer, type, step rule */
	char value[TUNABLE_VALUE_MAX]; /* now (scheduler: the active one) */
	char start[TUNABLE_VALUE_MAX]; /* when this session first saw it */
	char range[TUNABLE_VALUE_MAX]; /* "4..1280 KiB", "none mq-deadline kyber bfq" */
	char note[TUNABLE_MSG_MAX];    /* layer note for this device ("governs files on dm-0") */
	bool writable;
	struct tunable_limits lim;
};

/* What one change, undo or restore did. */
struct tunable_result {
	char dev[TUNABLE_DEV_MAX];
	char name[TUNABLE_NAME_MAX];
	char before[TUNABLE_VALUE_MAX];
	char asked[TUNABLE_VALUE_MAX];
	char got[TUNABLE_VALUE_MAX];
	int err;      /* 0, or -errno of the refusal (ours or the kernel's) */
	bool changed; /* got differs from before */
	bool differs; /* got differs from asked: the kernel rounded, clamped or chose */
	char msg[TUNABLE_MSG_MAX]; /* "loop3 read_ahead_kb 128 -> 4096 (files opened before keep the old value)" */
};

typedef void (*tunable_report_fn)(void *arg, const struct tunable_result *res);

/* journal_dir NULL: $BLKTUNE_JOURNAL_DIR or /run/blktune. Never fails for lack
 * of permission: the session is then read-only and tunable_session_writable
 * says why. Returns 0 or -errno. */
int tunable_session_open(struct root *r, const char *journal_dir, struct tunable_session **out);
/* Releases the journal lock; changes not restored stay journaled. */
void tunable_session_close(struct tunable_session *s);
/* False with a reason ("not root: tunables are read-only") when nothing may be written. */
bool tunable_session_writable(const struct tunable_session *s, const char **why);

/* 0 when dev has a request queue under sys/block; -EINVAL for a name with '/'
 * or "..", -ENODEV for an unknown device or a partition (msg names its disk). */
int tunable_check_device(const struct root *r, const char *dev, char *msg, size_t msg_size);

/* Rows for dev's panel: the table's tunables present on the device, the active
 * scheduler's parameters, then one "irq/N" per interrupt serving it. Returns
 * the number of rows or -errno (msg says why). */
int tunable_list(struct tunable_session *s, const char *dev, struct tunable_info *out, size_t max,
		 char *msg, size_t msg_size);
/* One row by name. Returns 0 or -errno. */
int tunable_get(struct tunable_session *s, const char *dev, const char *name, struct tunable_info *out,
		char *msg, size_t msg_size);

/* The four actions return res->err (0 or -errno) and always fill res->msg. */
int tunable_set(struct tunable_session *s, const char *dev, const char *name, const char *value,
		struct tunable_result *res);
/* What tunable_set would refuse before writing (the device, the file, the
 * value against the table and the device's limits now), without writing:
 * 0, or res->err with res->msg as tunable_set says it. */
int tunable_check(struct tunable_session *s, const char *dev, const char *name, const char *value,
		  struct tunable_result *res);
/* tunable_check as it will be once dev's scheduler is sched (NULL: the one
 * in force), for a value written after a scheduler change: nr_requests'
 * limit is another under it, and a parameter of sched (iosched/X), whose
 * file does not exist yet, is checked against the table's row; one of
 * another scheduler is refused (-ENOENT). res->asked gets the value
 * normalised. */
int tunable_check_under(struct tunable_session *s, const char *dev, const char *name, const char *value,
			const char *sched, struct tunable_result *res);
/* The limits tunable_check would validate name's value against on dev,
 * were sched the scheduler in force (NULL: the one in force): nr_requests
 * may reach the kernel's MAX_SCHED_RQ under a scheduler, only the hardware
 * queue depth under none. For a udev rule that selects a scheduler before
 * the rest. Returns 0, or -ENOENT for a name the table has no device row for. */
int tunable_limits_under(const struct root *r, const char *dev, const char *name, const char *sched,
			 struct tunable_limits *lim);
/* dir > 0 up (double, +1, next choice), dir < 0 down. */
int tunable_step(struct tunable_session *s, const char *dev, const char *name, int dir,
		 struct tunable_result *res);
/* Undo the last change of this session (-ENOENT when there is none). Like
 * a restore, it writes only to the device it changed: -EEXIST when another
 * device has taken the name (diskseq, else MAJ:MIN), -ENODEV when it is
 * gone; that change is then dropped from the undo history. */
int tunable_undo(struct tunable_session *s, struct tunable_result *res);
/* Open the journal now (and take its lock), as the first change would, and
 * report() the lines it took out of the file as malformed. -EPERM: the
 * journal directory or a file in it is not safe (msg says why). Returns 0 or
 * -errno. */
int tunable_session_journal(struct tunable_session *s, tunable_report_fn report, void *arg, char *msg,
			    size_t msg_size);
/* Put back every original in the journal (this session's and any left by a
 * crash), scheduler before its parameters, each through the table and the
 * validation tunable_set applies; report() is called per entry and per
 * malformed line. An entry refused for good (malformed, refused by the checks
 * or the kernel, the kernel set another value, another device now under that
 * name) is moved to journal.rejected and reported; a write that failed
 * otherwise stays in the journal to retry. A vanished device is reported, not
 * a failure (its values went with it). The journal is removed when nothing is
 * left to retry. Returns the number of lines and entries not restored, or
 * -errno. */
int tunable_restore_all(struct tunable_session *s, tunable_report_fn report, void *arg);
/* The same for this session's changes only (quit, hang-up): the originals an
 * earlier session left in the journal stay there, unless this session
 * changed that tunable again. */
int tunable_restore_session(struct tunable_session *s, tunable_report_fn report, void *arg);
/* The person chose to keep this session's changes: report() each value that
 * differs from its original, then forget those originals (an earlier
 * session's stay in the journal). Returns 0 or -errno. */
int tunable_keep(struct tunable_session *s, tunable_report_fn report, void *arg);
/* Forget this session's originals whose tunable has that value again (a
 * change stepped or undone back): the journal then holds only what differs,
 * and the next start does not offer to restore what is already restored.
 * Returns 0 or -errno. */
int tunable_session_tidy(struct tunable_session *s);
/* Originals an earlier session left that are still its own (this session
 * did not change that tunable again; 0 once the journal it read is empty),
 * or -ENOENT when this session has not opened the journal (it read nothing
 * of it). */
int tunable_session_left(const struct tunable_session *s);
/* Changes made by this session that are not restored yet (an earlier
 * session's originals left in the journal are not counted). */
size_t tunable_session_changes(const struct tunable_session *s);
/* Whether a tunable of dev differs from its journaled original (the table's
 * "*"): kept with the count after every change, undo and restore, so asking
 * costs no file read. At most TUNABLE_DIFFER_MAX devices are tracked. */
#define TUNABLE_DIFFER_MAX 64
bool tunable_session_differs(const struct tunable_session *s, const char *dev);

/* Tests only: replace the write (root_write) to simulate the kernel's
 * rounding and refusals on a fixture tree. NULL puts root_write back. */
typedef int (*tunable_writer_fn)(const struct root *r, const char *rel, const char *val);
void tunable_set_writer(tunable_writer_fn fn);

#endif
