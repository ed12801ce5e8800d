/* output-procs: the process view's figures as a JSON object (--top-processes). */
#ifndef BLKTUNE_OUTPUT_PROCS_H
#define BLKTUNE_OUTPUT_PROCS_H

#include <stdio.h>

#include "model-procs.h"

void output_procs_json(FILE *f, const struct proc_metrics *m);
/* Traced figures as members of an open object: ", \"read_requests\": ...,
 * \"lat_avg_us\": ..." (per-op requests, bytes and rates, done, latency). */
void output_procs_figures(FILE *f, const struct proc_figures *x);
/* ", \"KEY\": V", or null when not KNOWN: the *_new counts are null without
 * a traced previous sample (not zero: unknown). */
void output_json_count_new(FILE *f, const char *key, bool known, uint64_t v);
/* The object of what --trace-processes could not follow (the "trace_loss"
 * member of the process and cgroup JSON). */
void output_procs_loss(FILE *f, const struct proc_loss_figures *l);

#endif
