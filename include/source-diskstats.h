/* source-diskstats: /proc/diskstats into sample->disks.
 * Read directly rather than through libproc2's diskstats API, which has no
 * discard or flush fields (procps-ng 4.0.2) that iostat -x reports. */
#ifndef BLKTUNE_SOURCE_DISKSTATS_H
#define BLKTUNE_SOURCE_DISKSTATS_H

#include <stddef.h>

#include "root.h"
#include "sample.h"

struct source_diskstats;

/* Parse one line. Returns 0, or -EINVAL with a reason in err. */
int source_diskstats_parse_line(const char *line, struct disk_stat *out, char *err, size_t errlen);
/* Parse a whole file's text into s->disks (appending). Bad lines are skipped;
 * the first one is described in err ("line N: ...") and counted. Returns the
 * number of bad lines, or -ENOMEM. */
int source_diskstats_parse(const char *text, struct sample *s, char *err, size_t errlen);

int source_diskstats_open(const struct root *r, struct source_diskstats **out);
void source_diskstats_close(struct source_diskstats *src);
/* Re-read (pread on the kept fd) and append every disk to s.
 * Returns bad-line count (>= 0) or -errno. */
int source_diskstats_read(struct source_diskstats *src, struct sample *s);
/* Description of the first bad line of the last read, "" if none. */
const char *source_diskstats_error(const struct source_diskstats *src);

#endif
