/* source-mounts: what is mounted from each device, from proc/self/mountinfo
 * read through the root (a captured tree has its own), re-read every few
 * seconds. The parse is pure: text in, one entry per device out. */
#ifndef BLKTUNE_SOURCE_MOUNTS_H
#define BLKTUNE_SOURCE_MOUNTS_H

#include <stddef.h>
#include <sys/types.h>

#include "root.h"
#include "sample.h"

#define SOURCE_MOUNTS_REREAD_S 5.0

struct source_mounts_entry {
	dev_t dev;
	/* Where dev is anonymous (major 0: btrfs, bcachefs), the block device
	 * the mount source names below /dev/ ("loop2", "mapper/vg-data"); the
	 * entry belongs to that device. "" otherwise. */
	char source[SAMPLE_DM_NAME_MAX + 8];
	char fstype[sizeof(((struct disk_info *)0)->fstype)];
	char points[sizeof(((struct disk_info *)0)->mounts)]; /* "/, /srv" (each once) */
};

struct source_mounts;

int source_mounts_open(const struct root *r, struct source_mounts **out);
void source_mounts_close(struct source_mounts *m);
/* mountinfo text to entries sorted by dev (anonymous ones first, with their
 * source), mountpoints (octal escapes
 * decoded, then sanitized) joined with ", ". *out is malloc'd. Returns the
 * count or -ENOMEM; lines that are not mountinfo are skipped. */
int source_mounts_parse(const char *text, struct source_mounts_entry **out);
/* Set info.mounts and info.fstype of every disk of s (re-reading the file
 * when due at s->t). */
void source_mounts_fill(struct source_mounts *m, struct sample *s);

#endif
