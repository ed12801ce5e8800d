/* journal: the original value of every (device, tunable) blktune changed, kept
 * on disk before the first change so that a crash, kill -9 or dropped ssh
 * session never leaves a device in an unknown state.
 *
 * Directory (default /run/blktune, or $BLKTUNE_JOURNAL_DIR, or a parameter):
 *   journal  text, first line "blktune-journal 1", then one line per original:
 *            "orig DEV DISKSEQ NAME VALUE"  (DISKSEQ "-" when the kernel has none;
 *            VALUE is the rest of the line)
 *   lock     flock(LOCK_EX) held by whoever reads or changes the journal, so
 *            two blktune instances never interleave or lose lines.
 * /run is a tmpfs: the journal does not survive a reboot, nor do the values. */
#ifndef BLKTUNE_JOURNAL_H
#define BLKTUNE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#define JOURNAL_DEV_MAX 64
#define JOURNAL_NAME_MAX 64
#define JOURNAL_VALUE_MAX 256
#define JOURNAL_DEFAULT_DIR "/run/blktune"

struct journal_entry {
	char dev[JOURNAL_DEV_MAX];
	char diskseq[24];
	char name[JOURNAL_NAME_MAX];
	char value[JOURNAL_VALUE_MAX];
};

struct journal;

/* dir, else $BLKTUNE_JOURNAL_DIR, else JOURNAL_DEFAULT_DIR. */
const char *journal_dir(const char *dir);

/* Open (creating the directory 0700) and lock the journal of dir, then load
 * its entries. wait=false returns -EWOULDBLOCK when another process holds the
 * lock. A malformed file gives -EBADMSG with file and line in msg. */
int journal_open(const char *dir, bool wait, struct journal **out, char *msg, size_t msg_size);
/* Unlock and free; the file stays as it is. */
void journal_close(struct journal *j);

/* Append the original of (dev, name) unless the journal already holds one;
 * the line is fsynced before this returns. Returns 1 appended, 0 already
 * there, or -errno. */
int journal_record(struct journal *j, const char *dev, const char *diskseq, const char *name,
		   const char *value);
const struct journal_entry *journal_find(const struct journal *j, const char *dev, const char *name);
size_t journal_count(const struct journal *j);
const struct journal_entry *journal_at(const struct journal *j, size_t i);

/* Drop the entries whose keep[i] is false and rewrite the file atomically
 * (temporary file, fsync, rename); with no entry left the file is removed. */
int journal_retain(struct journal *j, const bool *keep);
/* Forget everything (restored, or the user chose keep): removes the file. */
int journal_clear(struct journal *j);

/* Entries waiting in dir's journal, read without taking the lock (for the
 * start-up question). Returns the count, 0 when none, or -errno. */
int journal_pending(const char *dir);

#endif
