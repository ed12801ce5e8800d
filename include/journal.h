/* journal: the original value of every (device, tunable) blktune changed, kept
 * on disk before the first change so that a crash, kill -9 or dropped ssh
 * session never leaves a device in an unknown state.
 *
 * Directory (default /run/blktune, or $BLKTUNE_JOURNAL_DIR, or a parameter),
 * trusted only under safe-file.h's rules (owned by the running uid, not
 * writable by group or others, nor any directory above it; files opened with
 * O_NOFOLLOW, regular, the uid's own):
 *   journal           text, first line "blktune-journal 2", then one line per
 *                     original: "orig DEV MAJ:MIN DISKSEQ NAME VALUE" (MAJ:MIN
 *                     and DISKSEQ "-" when unknown; VALUE is the rest of the
 *                     line). Version 1 files (no MAJ:MIN) are read and
 *                     rewritten as version 2.
 *   journal.rejected  what was taken out of the journal and not restored: a
 *                     malformed line, a value the checks or the kernel refused,
 *                     a device that is another device now. One line each,
 *                     "TIME line N: REASON: LINE" (bytes outside printable
 *                     ASCII as \xHH). Appended, never read by blktune.
 *   lock              flock(LOCK_EX) held by whoever reads or changes the
 *                     journal, so two instances never interleave or lose lines.
 * /run is a tmpfs: the journal does not survive a reboot, nor do the values. */
#ifndef BLKTUNE_JOURNAL_H
#define BLKTUNE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#define JOURNAL_DEV_MAX 64
#define JOURNAL_ID_MAX 24
#define JOURNAL_NAME_MAX 64
#define JOURNAL_VALUE_MAX 256
#define JOURNAL_LINE_MAX 512        /* longest line, newline included */
#define JOURNAL_FILE_MAX (1u << 20) /* a larger journal is refused, not read */
#define JOURNAL_REJECT_KEEP 32      /* rejected lines kept in memory for the report */
#define JOURNAL_DEFAULT_DIR "/run/blktune"
#define JOURNAL_FILE "journal"
#define JOURNAL_REJECTED_FILE "journal.rejected"

struct journal_entry {
	char dev[JOURNAL_DEV_MAX];
	char devt[JOURNAL_ID_MAX];    /* "7:3", "-" unknown */
	char diskseq[JOURNAL_ID_MAX]; /* "1636", "-" when the kernel has none */
	char name[JOURNAL_NAME_MAX];
	char value[JOURNAL_VALUE_MAX];
	unsigned line; /* its line in the file when it was read; 0 for this session's */
};

/* A line of the file that is not an entry. */
struct journal_reject {
	unsigned line;
	char reason[96];
	char text[160]; /* the start of the line, printable (\xHH escapes) */
};

struct journal;

/* dir, else $BLKTUNE_JOURNAL_DIR, else JOURNAL_DEFAULT_DIR. */
const char *journal_dir(const char *dir);

/* Open (creating the directory 0700) and lock the journal of dir, then load
 * its entries. Malformed lines are appended to journal.rejected, taken out of
 * the journal and listed by journal_reject_at (the caller reports them).
 * wait=false returns -EWOULDBLOCK when another process holds the lock.
 * -EPERM: the directory or a file in it is not safe (msg says why). */
int journal_open(const char *dir, bool wait, struct journal **out, char *msg, size_t msg_size);
/* Parse a journal's bytes into a journal tied to no file (journal_open's
 * parser; tests and fuzzing). name labels messages. Returns 0 or -errno. */
int journal_parse(const char *buf, size_t len, const char *name, struct journal **out);
/* Unlock and free; the file stays as it is. */
void journal_close(struct journal *j);

/* Append the original of (dev, name) unless the journal already holds one;
 * the line is fsynced before this returns. devt and diskseq NULL or "" are
 * stored as "-". Returns 1 appended, 0 already there, -EINVAL for a field the
 * file format cannot hold, or -errno. */
int journal_record(struct journal *j, const char *dev, const char *devt, const char *diskseq,
		   const char *name, const char *value);
const struct journal_entry *journal_find(const struct journal *j, const char *dev, const char *name);
size_t journal_count(const struct journal *j);
const struct journal_entry *journal_at(const struct journal *j, size_t i);

/* Lines of the file that were not entries (at most JOURNAL_REJECT_KEEP kept;
 * journal_reject_total counts them all). */
size_t journal_reject_count(const struct journal *j);
size_t journal_reject_total(const struct journal *j);
const struct journal_reject *journal_reject_at(const struct journal *j, size_t i);
/* "DIR/journal.rejected", for messages. */
const char *journal_rejected_path(const struct journal *j);

/* Append e with reason to journal.rejected (fsynced); the caller then drops
 * it with journal_retain. Returns 0 or -errno. */
int journal_put_aside(struct journal *j, const struct journal_entry *e, const char *reason);
/* Drop the entries whose keep[i] is false and rewrite the file atomically
 * (new temporary file, fsync, rename); with no entry left the file is removed. */
int journal_retain(struct journal *j, const bool *keep);
/* Forget everything (restored, or the user chose keep): removes the file. */
int journal_clear(struct journal *j);

/* Lines waiting in dir's journal (entries and malformed lines), read without
 * taking the lock (for the start-up question and --restore). Returns the
 * count (0: a journal with no entry), -ENOENT when there is no journal, or
 * -errno (-EPERM: not safe, msg says why). */
int journal_pending(const char *dir, char *msg, size_t msg_size);

#endif
