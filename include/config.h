/* config: what the full-screen view keeps between sessions (top's W):
 * columns, sort, interval and colours, in $XDG_CONFIG_HOME/blktune/config
 * (else ~/.config/blktune/config). Read at start; written only on W, through
 * safe-file (O_NOFOLLOW, a new O_EXCL temporary, fsync, rename, directory
 * fsync). A file that does not parse is an error at start and is never
 * overwritten: W refuses until it is fixed or removed.
 *
 *   blktune-config 1
 *   columns r/s,w/s,rMB/s
 *   sort %util desc
 *   interval 0.5
 *   color off
 */
#ifndef BLKTUNE_CONFIG_H
#define BLKTUNE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "column-layout.h"

#define CONFIG_MAX_BYTES 4096

struct config {
	bool has_columns, has_sort, has_interval, has_color;
	struct column_layout columns;
	int sort_column;
	bool sort_reverse;
	double interval;
	bool color;
};

/* Parse the text of a config file. Returns 0, or -EINVAL with why naming
 * the line ("line 3: interval 0: seconds from 0.1 to 60"). Pure. */
int config_parse(const char *text, struct config *c, char *why, size_t len);
/* The file's text for c. */
void config_format(const struct config *c, char *out, size_t len);
/* Where it lives; -ENOENT when neither XDG_CONFIG_HOME nor HOME is an
 * absolute path. */
int config_path(char *dir, size_t dlen, char *file, size_t flen);
/* Read and parse it: 0 (c filled), -ENOENT when there is none (c empty), or
 * -errno / -EINVAL with a one-line why naming the file. */
int config_load(struct config *c, char *why, size_t len);
/* Write c, never over a file that does not parse. Returns 0 with the path
 * in msg, or -errno with why. */
int config_save(const struct config *c, char *msg, size_t len);

#endif
