/* doc: the reference lists that the man page and --help-style listings share
 * with the code: keys (keymap table), columns (columns table), tunables
 * (tunable table). man/blktune.8 holds their roff form between markers;
 * tests/integration/docs.sh fails when the page and the tables disagree. */
#ifndef BLKTUNE_DOC_H
#define BLKTUNE_DOC_H

#include <stdio.h>

/* what: "keys", "columns" or "tunables"; man: roff instead of text.
 * Returns 0, or -EINVAL for an unknown list. */
int doc_print(FILE *f, const char *what, int man);

#endif
