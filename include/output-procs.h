/* output-procs: the process view's figures as a JSON object (--top-processes). */
#ifndef BLKTUNE_OUTPUT_PROCS_H
#define BLKTUNE_OUTPUT_PROCS_H

#include <stdio.h>

#include "model-procs.h"

void output_procs_json(FILE *f, const struct proc_metrics *m);

#endif
