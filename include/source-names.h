/* source-names: persistent device names from ROOT/dev/disk/by-TYPE/ (the
 * udev links iostat -j reads), and /dev/ paths given to -p resolved to
 * kernel names. Read through root, so fixture trees carry dev/disk/. */
#ifndef BLKTUNE_SOURCE_NAMES_H
#define BLKTUNE_SOURCE_NAMES_H

#include <stddef.h>

#include "names.h"
#include "root.h"
#include "sample.h"

/* udev adds links a moment after a device appears: look again this often,
 * and whenever the set of devices changes. */
#define SOURCE_NAMES_REREAD_S 5.0

struct source_names;

int source_names_open(const struct root *r, enum names_type t, struct source_names **out);
void source_names_close(struct source_names *sn);
/* Set info.persistent of every disk of s: the alphabetically first link of
 * the directory that points at it, "" if none (a missing directory means
 * no names). Links of SAMPLE_PNAME_MAX characters or more are skipped: the
 * names live in every sample, and long ones (dm-uuid-*) are never the
 * first. Returns 0 or -ENOMEM. */
int source_names_fill(struct source_names *sn, struct sample *s);
/* A -p argument to the name rows match: "/dev/mapper/X", "/dev/disk/by-T/X"
 * and other /dev/ links become the kernel name they point at, "/dev/sda"
 * becomes "sda"; anything else is copied. Returns 0 or -errno (a /dev/
 * path that is not there: -ENOENT). */
int source_names_resolve(const struct root *r, const char *arg, char *out, size_t len);

#endif
