/* names: what a device is called. The kernel name (sda, dm-3) keys every
 * figure; people read the mapper name (dm/name, as iostat -N shows it) or a
 * persistent /dev/disk/by-TYPE name (iostat -j). Pure: the names arrive in
 * the sample (source-queue, source-names). */
#ifndef BLKTUNE_NAMES_H
#define BLKTUNE_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

enum names_type {
	NAMES_NONE, /* no -j: kernel names, mapper names for dm */
	NAMES_ID,
	NAMES_LABEL,
	NAMES_PATH,
	NAMES_UUID,
	NAMES_PARTUUID,
	NAMES_COUNT
};

/* "ID", "label", ... (any case) -> the type; -EINVAL for anything else. */
int names_type_parse(const char *s);
/* "by-id", "by-label", ...: the directory below dev/disk/; NULL for NONE. */
const char *names_type_dir(enum names_type t);
/* What a row is called: the persistent name if there is one (-j), else the
 * mapper name of a dm device, else the kernel name. Inline: sorting a
 * thousand rows by name calls it 20000 times per refresh. */
static inline const char *names_label(const struct disk_metrics *m)
{
	if (m->info->persistent[0])
		return m->info->persistent;
	if (m->info->text->dm_name[0])
		return m->info->text->dm_name;
	return m->name;
}
/* Does a -p argument name this device? It may be the kernel name, the
 * mapper name or (with -j) the persistent name; /dev/ paths are resolved
 * to kernel names before (source_names_resolve). */
bool names_match(const char *arg, const struct disk_metrics *m);
/* The same for a device of a sample: its kernel name and what it has read. */
bool names_match_info(const char *arg, const char *name, const struct disk_info *info);
/* The longest name a row can have (a mapper name), and the longest -p. */
#define NAMES_MAX SAMPLE_DM_NAME_MAX
#define NAMES_ARG_MAX 256

/* A -p argument that cannot name a device: empty, a name longer than any
 * device's, a path longer than NAMES_ARG_MAX or outside /dev/. Returns 0
 * or -EINVAL. */
int names_check_arg(const char *arg);

#endif
