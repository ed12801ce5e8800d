/* snapshot-output: snapshots and comparisons as text for people and JSON for
 * programs (blktune show, blktune diff [--json]). Render only. */
#ifndef BLKTUNE_SNAPSHOT_OUTPUT_H
#define BLKTUNE_SNAPSHOT_OUTPUT_H

#include <stdio.h>

#include "compare.h"
#include "snapshot.h"

/* Each returns 0 or -EIO. */
int snapshot_print_text(FILE *f, const struct snapshot *s);
int compare_print_text(FILE *f, const struct compare_result *r);
int compare_print_json(FILE *f, const struct compare_result *r);
/* "4K", "1M", ">4M" for a histogram bucket; "" past the end. */
void snapshot_bucket_label(const struct snapshot_vec_def *def, unsigned i, char *out, size_t len);

#endif
