/* snapshot-output: snapshots and comparisons as text for people and JSON for
 * programs (blktune show, blktune diff [--json]). Render only. */
#ifndef BLKTUNE_SNAPSHOT_OUTPUT_H
#define BLKTUNE_SNAPSHOT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "compare.h"
#include "snapshot.h"

/* Each returns 0 or -EIO. */
int snapshot_print_text(FILE *f, const struct snapshot *s);
int compare_print_text(FILE *f, const struct compare_result *r);
int compare_print_json(FILE *f, const struct compare_result *r);
/* A histogram bucket as format_bucket writes it ("<=4K", "<=512µs"); ""
 * past the end. utf8: the terminal takes µ. */
void snapshot_bucket_label(const struct snapshot_vec_def *def, unsigned i, bool utf8, char *out, size_t len);
/* A vector's unit for people: "bytes", "µs" (or "us"), "requests". */
const char *snapshot_unit_text(const struct snapshot_vec_def *def, bool utf8);

#endif
