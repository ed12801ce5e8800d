/* persist: a udev rule that sets chosen queue tunables of one device at boot
 * and hotplug. The rule matches a stable identity (the disk's WWN or serial
 * from udev's database, or a loop device's backing file), never the kernel
 * name, which can change between boots. */
#ifndef BLKTUNE_PERSIST_H
#define BLKTUNE_PERSIST_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

#include "root.h"
#include "tunable-table.h"

#define PERSIST_MAX 16
#define PERSIST_RULES_DIR "/etc/udev/rules.d"
/* A rule file's name with its NUL: persist_file_name's are at most 129. */
#define PERSIST_NAME_MAX 160

enum persist_key { PERSIST_WWN, PERSIST_SERIAL, PERSIST_LOOP_FILE };

struct persist_id {
	enum persist_key key;
	char value[512];
};

struct persist_setting {
	char name[64];   /* "read_ahead_kb", "iosched/fifo_batch" */
	char value[256]; /* what the kernel reads back */
};

/* Find dev's stable identity below the root: ID_WWN, then ID_SERIAL from
 * run/udev/data/bMAJ:MIN (read whole), then sys/block/DEV/loop/backing_file.
 * Returns 0, -ENODEV when there is no such disk, -ENOENT when it has none,
 * -ENAMETOOLONG when it is longer than id->value holds (never cut), or
 * -EINVAL when the identity holds a character a rule cannot quote; why says
 * which. */
int persist_identity(const struct root *r, const char *dev, struct persist_id *id, char *why, size_t whylen);

/* Order settings as they must be applied, in the tunable table's restore
 * order: the scheduler (it resets nr_requests and replaces its parameters),
 * nr_requests (it resets iosched/async_depth), the parameters, then the
 * queue limits before read_ahead_kb, which they raise. */
void persist_sort(struct persist_setting *set, size_t n);

/* Add (or replace) one setting in a rule's n settings (room for max),
 * keeping the rule whole for the scheduler: a rule holding a scheduler
 * parameter (iosched/X) also selects the scheduler it belongs to (sorted
 * before it), and holds no other scheduler's parameters. sched is the
 * scheduler in force on the device, whose parameters it shows: an added
 * parameter is its. A parameter already in the rule is the rule's
 * scheduler's, else the one the table names, else sched's. The rule's
 * scheduler becomes add's value (add is the scheduler), sched (add is a
 * parameter), else stays; parameters of another scheduler are dropped.
 * note says what changed besides add ("" when nothing). Returns the new
 * count, -EINVAL for a parameter with no scheduler in force, or -ENOSPC
 * (set is then not to be used). */
int persist_merge(struct persist_setting *set, size_t n, size_t max, const struct persist_setting *add,
		  const char *sched, char *note, size_t notelen);

/* Validate the rule's settings on dev as --set would, each under the
 * scheduler the rule selects (else sched, the one in force): the rule
 * writes them after it, and nr_requests' limit is another under none (the
 * hardware queue depth) than under a scheduler. Values are normalised in
 * place. Returns 0, or -errno with msg naming the setting refused and why. */
int persist_check(const struct root *r, const char *dev, struct persist_setting *set, size_t n,
		  const char *sched, char *msg, size_t msglen);

/* The rule file's name, "60-blktune-KIND-ID-HASH.rules": KIND is wwn,
 * serial or loop; ID the readable part of the identity (a loop file's last
 * component; its first 95 bytes, each outside [A-Za-z0-9.-] as '_'); HASH
 * the CRC-32C of the whole identity, key and exact value, in 8 hex digits.
 * ID alone is lossy (/a/img and /b/img, "AB C" and "AB_C"): HASH tells them
 * apart. At most PERSIST_NAME_MAX - 31 bytes, well within NAME_MAX. Older
 * blktune named the file without -HASH: persist_read, persist_write and
 * persist_remove find a rule of id's there and move it (or remove it). */
void persist_file_name(const struct persist_id *id, char *buf, size_t len);

/* The rule text: a comment naming the device and identity, then one rule.
 * Returns 0, -EINVAL for a value a rule cannot quote, -ENOSPC when the rule
 * does not fit in len. */
int persist_rule(const struct persist_id *id, const char *dev, const struct persist_setting *set, size_t n,
		 char *buf, size_t len);

/* True for a row a rule may set: a writable queue/ setting (not an IRQ,
 * never write_cache). */
bool persist_allowed(const struct tunable_def *def);

/* $BLKTUNE_RULES_DIR, else PERSIST_RULES_DIR. */
const char *persist_rules_dir(void);

/* What persist_read found in the rule file: persist_write replaces it only
 * if it is still that. The content, not the inode, size and mtime: a hand
 * edit that keeps the size within one timestamp tick, or a tool that keeps
 * the mtime (cp -p, rsync -t, touch -r), would pass those, and the same
 * bytes written back through a new inode (an editor's save) change
 * nothing. Its length and CRC-32C: the file is at most 64 KiB, and the
 * panel keeps this until y is pressed. */
struct persist_seen {
	bool exists;
	size_t len;
	uint32_t crc;
	/* the name older blktune gave the rule, when it was read there: the
	 * write moves it to the new name ("": read under the name asked) */
	char legacy[PERSIST_NAME_MAX];
};

/* The settings of the rule persist_rule wrote for id in dir/file, into
 * set (at most max), for the panel's p to add one to: 0 when there is no
 * such file, the count, or -errno; -EINVAL (-ENOSPC) when the file is not
 * such a rule (edited by hand, another disk's) or holds more than max:
 * msg says so, and it is not to be replaced. seen (NULL: not wanted) gets
 * what the file held, for persist_write. Without dir/file, a file under
 * id's old name (no -HASH) that holds id's rule is read instead, as above
 * (seen->legacy names it); one there holding another disk's rule is not
 * id's: 0, and it is never touched. With id's rule under both names, the
 * old one would override the new at boot: -EEXIST, msg naming both, and
 * neither is to be written. */
int persist_read(const char *dir, const char *file, const struct persist_id *id, struct persist_setting *set,
		 size_t max, struct persist_seen *seen, char *msg, size_t msglen);

/* Write text as dir/file (0644) under safe-file's rules: dir must be ours
 * and writable by no one else (-EPERM otherwise); a new temporary file,
 * fsynced and renamed over. With seen (from persist_read), dir/file must
 * still be what was read, checked right before the rename (an absent one
 * is linked into place, which fails if it appeared meanwhile): otherwise
 * -ESTALE and the file is left as it is (a hand edit while the user was
 * asked y/N; only one made in the microseconds between that check and the
 * rename can still be lost). A rule read under its old name (seen->legacy)
 * is moved: dir/file must be absent and the old file still what was read;
 * the new one is linked in, then the old one removed (if that fails, the
 * new one too: both would apply). msg gets a one-line reason. Returns 0 or
 * -errno. */
int persist_write(const char *dir, const char *file, const char *text, const struct persist_seen *seen, char *msg,
		  size_t msglen);
/* Delete dir/file, and id's rule under its old name (as persist_read finds
 * it; another disk's is left), same rules for dir. msg says which were
 * removed, or why not. Returns 0, -ENOENT when there was neither, or
 * -errno. */
int persist_remove(const char *dir, const char *file, const struct persist_id *id, char *msg, size_t msglen);

#endif
